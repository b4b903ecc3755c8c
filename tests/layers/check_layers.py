#!/usr/bin/env python3
"""check_layers.py - lib/'s layers, checked on the #include lines.

lib/ is layered (docs/design.md, "Layers"); calls and includes go only
downward:

    lib/*.c|h (entry points) -> lib/rules/ -> lib/report/ -> lib/model/ -> lib/base/

A file may include its own layer or any layer below it.  preload/ reaches
lib/ only through lib/hooks.h, lib/fastpath.h and include/ulockdep.h;
lib/ never includes preload/.  tools/ may include lib/'s model/ and base/
headers (graph, cycle search, suppressions, options), nothing above them
and nothing of preload/.

Includes are resolved as the compiler does for "..." includes: next to the
including file first, then lib/ (uld_core's include root) and include/.
A violation prints one line, FILE:LINE: why, and the exit status is 1.

ALLOWED lists the upward includes that are known and not yet removed, each
with its reason; an entry that no longer matches anything is an error too,
so the list only shrinks.

    check_layers.py [ROOT]      check the tree at ROOT (default: this repo)
    check_layers.py --self-test check a fixture tree with planted violations
"""
import os
import re
import sys

RANK = {'base': 0, 'model': 1, 'report': 2, 'rules': 3, 'entry': 4}
PRELOAD_MAY_INCLUDE = {'lib/hooks.h', 'lib/fastpath.h', 'include/ulockdep.h'}
TOOLS_MAY_INCLUDE = {'base', 'model'}

# (including file, included file): reason.  Known upward includes that
# remain; remove an entry when its include goes.
ALLOWED = {}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
# A function definition at column 0 that is not static: its name.
DEFINITION = re.compile(r'^(?!static\b)[A-Za-z_][\w \t*]*?\b(uld_\w+)\s*\([^;{]*\)[\w \t\n()]*\{',
                        re.M)
CALL = re.compile(r'\b(uld_\w+)\s*\(')
COMMENT = re.compile(r'/\*.*?\*/|//[^\n]*', re.S)


def layer_of(rel):
    """Layer of a path relative to ROOT, or None outside lib/."""
    parts = rel.split('/')
    if parts[0] != 'lib':
        return None
    if len(parts) == 2:
        return 'entry'
    return parts[1] if parts[1] in RANK else None


def resolve(root, rel, name):
    """The file a quoted include names, relative to ROOT, or None."""
    candidates = [os.path.join(os.path.dirname(rel), name), os.path.join('lib', name),
                  os.path.join('include', name)]
    for c in candidates:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None


def sources(root):
    for top in ('lib', 'preload', 'tools'):
        for d, _, files in os.walk(os.path.join(root, top)):
            for f in sorted(files):
                if f.endswith(('.c', '.h')):
                    yield os.path.relpath(os.path.join(d, f), root)


def violation(rel, target):
    """Why rel may not include target, or None."""
    src_layer, dst_layer = layer_of(rel), layer_of(target)
    top = rel.split('/')[0]
    if top == 'lib':
        if target.startswith('preload/'):
            return 'lib/ includes preload/ (%s): preload calls lib, never the reverse' % target
        if src_layer and dst_layer and RANK[dst_layer] > RANK[src_layer]:
            return 'includes %s, a higher layer (%s above %s)' % (target, dst_layer, src_layer)
    elif top == 'preload':
        if target.startswith(('lib/', 'include/')) and target not in PRELOAD_MAY_INCLUDE:
            return 'preload/ includes %s: only lib/hooks.h, lib/fastpath.h, ' \
                   'include/ulockdep.h' % target
    elif top == 'tools':
        if target.startswith('preload/'):
            return 'tools/ includes preload/ (%s)' % target
        if target.startswith('lib/') and dst_layer not in TOOLS_MAY_INCLUDE:
            return 'tools/ includes %s: only lib/model/ and lib/base/ headers' % target
    return None


def check(root, allowed):
    errors, used = [], set()
    for rel in sources(root):
        with open(os.path.join(root, rel), errors='replace') as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, rel, m.group(1))
                if target is None:
                    continue  # a system or generated header
                why = violation(rel, target)
                if why is None:
                    continue
                if (rel, target) in allowed:
                    used.add((rel, target))
                    continue
                errors.append('%s:%d: %s' % (rel, n, why))
    errors += check_calls(root)
    for rel, target in sorted(set(allowed) - used):
        errors.append('%s: allowed include of %s no longer happens: remove it from ALLOWED '
                      'in tests/layers/check_layers.py' % (rel, target))
    return errors


def code_of(root, rel):
    """The file's text with comments blanked (line numbers kept)."""
    with open(os.path.join(root, rel), errors='replace') as f:
        text = f.read()
    return COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group(0)), text)


def check_calls(root):
    """Calls go down too: a lib/ file never calls a function defined in a
    higher layer, and every hook declared in hooks.h is defined at the top
    (the entry files), so lower layers never implement the contract."""
    errors, defined = [], {}
    files = [rel for rel in sources(root) if rel.startswith('lib/')]
    code = {rel: code_of(root, rel) for rel in files}
    for rel in files:
        if rel.endswith('.c'):
            for m in DEFINITION.finditer(code[rel]):
                defined[m.group(1)] = rel
    for rel in files:
        src = layer_of(rel)
        for m in CALL.finditer(code[rel]):
            home = defined.get(m.group(1))
            if not home or not src or home == rel:
                continue
            dst = layer_of(home)
            if dst and RANK[dst] > RANK[src]:
                line = code[rel].count('\n', 0, m.start()) + 1
                errors.append('%s:%d: calls %s, defined in %s (%s above %s)' % (
                    rel, line, m.group(1), home, dst, src))
    hooks = 'lib/hooks.h'
    if hooks in code:
        for m in CALL.finditer(code[hooks]):
            home = defined.get(m.group(1))
            if home and layer_of(home) != 'entry':
                line = code[hooks].count('\n', 0, m.start()) + 1
                errors.append('%s:%d: hook %s is defined in %s: hooks are entry points, '
                              'defined in lib/*.c' % (hooks, line, m.group(1), home))
    return errors


def self_test():
    """The checker must fail on a tree that breaks each rule once."""
    fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'fixture')
    got = sorted(e.split(': ')[0] for e in check(fixture, {}))
    want = sorted([
        'lib/base/low.c:2',      # base -> model
        'lib/model/mid.h:3',     # model -> entry (lib top)
        'lib/rules/rule.c:2',    # lib -> preload
        'preload/wrap.c:3',      # preload -> a lib header other than hooks.h/fastpath.h
        'tools/tool.c:3',        # tools -> lib/report
        'lib/model/mid.c:4',     # a model function calls a rule
        'lib/hooks.h:2',         # a hook defined in model/
    ])
    if got != want:
        print('self-test: expected violations at\n  %s\ngot\n  %s' % (
            '\n  '.join(want), '\n  '.join(got)))
        return 1
    print('self-test: all %d planted violations found, nothing else' % len(want))
    return 0


def main(argv):
    if argv[1:] == ['--self-test']:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..')
    errors = check(os.path.abspath(root), ALLOWED)
    for e in errors:
        print(e)
    if errors:
        print('%d include(s) break lib/\'s layers (docs/design.md, "Layers")' % len(errors))
        return 1
    print('layers: every include and call goes down (%d known exceptions listed in ALLOWED)'
          % len(ALLOWED))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
