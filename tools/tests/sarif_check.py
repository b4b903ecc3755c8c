#!/usr/bin/env python3
"""sarif_check.py - assert the structure `ulockdep report --format sarif` must have.

Not a full SARIF schema validation (no network, stdlib only): the parts code-scanning
consumers rely on.  Usage: sarif_check.py FILE...  (exit 1 with the first problem).
"""
import json
import sys


def check(doc):
    """Raise AssertionError naming the first problem of a SARIF log (a parsed dict)."""
    assert doc.get("version") == "2.1.0", "version is not 2.1.0"
    assert doc.get("$schema") == "https://json.schemastore.org/sarif-2.1.0.json", "bad $schema"
    runs = doc.get("runs")
    assert isinstance(runs, list) and len(runs) == 1, "expected exactly one run"
    driver = runs[0].get("tool", {}).get("driver", {})
    assert driver.get("name") == "ulockdep", "runs[0].tool.driver.name is not ulockdep"
    if "informationUri" in driver:  # optional; an absolute URI when present
        assert isinstance(driver["informationUri"], str) and "://" in driver["informationUri"], \
            "driver.informationUri is not an absolute URI"
    rules = driver.get("rules", [])
    rule_ids = [r.get("id") for r in rules]
    assert len(rule_ids) == len(set(rule_ids)), "duplicate rule ids"
    for r in rules:
        for field in ("shortDescription", "fullDescription"):
            assert r.get(field, {}).get("text"), f"rule {r.get('id')}: no {field}.text"
    results = runs[0].get("results")
    assert isinstance(results, list), "runs[0].results missing"
    for i, res in enumerate(results):
        where = f"results[{i}]"
        assert res.get("ruleId") in rule_ids, f"{where}: ruleId {res.get('ruleId')} not in rules"
        idx = res.get("ruleIndex")
        assert idx is None or rule_ids[idx] == res["ruleId"], f"{where}: ruleIndex mismatch"
        assert res.get("level") in ("error", "warning", "note", "none"), f"{where}: bad level"
        assert res.get("message", {}).get("text"), f"{where}: no message.text"
        locs = res.get("locations")
        assert isinstance(locs, list) and locs, f"{where}: no locations"
        for loc in locs + res.get("relatedLocations", []):
            phys = loc.get("physicalLocation", {})
            assert phys.get("artifactLocation", {}).get("uri"), f"{where}: location without uri"
            assert phys.get("region", {}).get("startLine", 0) >= 1, f"{where}: startLine < 1"
        for flow in res.get("codeFlows", []):
            assert flow.get("threadFlows"), f"{where}: codeFlow without threadFlows"
            for tf in flow["threadFlows"]:
                assert tf.get("locations"), f"{where}: threadFlow without locations"
        fp = res.get("partialFingerprints", {})
        assert fp.get("ulockdepSignature/v1"), f"{where}: no ulockdepSignature/v1 fingerprint"
    return True


def main(argv):
    for path in argv[1:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        try:
            check(doc)
        except AssertionError as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
