"""A small DNS client for tests/real/run: UDP queries over 127.0.0.1 and a
normalised answer (rcode and sorted answer RRs without TTLs), so the answers
of a native server and of the same server under ulockdep can be compared.
Only what the workloads query is decoded (A, AAAA, TXT, MX, SOA, CNAME);
anything else is kept as hex."""
import random
import socket
import struct
import threading

TYPES = {"A": 1, "NS": 2, "CNAME": 5, "SOA": 6, "MX": 15, "TXT": 16, "AAAA": 28}
TYPE_NAMES = {v: k for k, v in TYPES.items()}
RCODES = {0: "NOERROR", 1: "FORMERR", 2: "SERVFAIL", 3: "NXDOMAIN", 4: "NOTIMP", 5: "REFUSED"}


def encode_name(name):
    out = b""
    for label in name.rstrip(".").split("."):
        out += bytes([len(label)]) + label.encode()
    return out + b"\0"


def make_query(qid, name, qtype, rd=True):
    flags = 0x0100 if rd else 0
    return (struct.pack(">HHHHHH", qid, flags, 1, 0, 0, 0) + encode_name(name) +
            struct.pack(">HH", TYPES[qtype], 1))


def decode_name(msg, off):
    """Name at off (compression followed); returns (name, offset after it)."""
    labels, end, jumps = [], None, 0
    while True:
        n = msg[off]
        if n & 0xC0 == 0xC0:
            if end is None:
                end = off + 2
            off = ((n & 0x3F) << 8) | msg[off + 1]
            jumps += 1
            if jumps > 64:
                raise ValueError("compression loop")
            continue
        off += 1
        if n == 0:
            break
        labels.append(msg[off:off + n].decode("ascii", "replace").lower())
        off += n
    return ".".join(labels) + ".", end if end is not None else off


def decode_rdata(msg, off, rtype, rdlen):
    data = msg[off:off + rdlen]
    if rtype == 1 and rdlen == 4:
        return socket.inet_ntop(socket.AF_INET, data)
    if rtype == 28 and rdlen == 16:
        return socket.inet_ntop(socket.AF_INET6, data)
    if rtype in (2, 5):
        return decode_name(msg, off)[0]
    if rtype == 15:
        return "%d %s" % (struct.unpack(">H", data[:2])[0], decode_name(msg, off + 2)[0])
    if rtype == 16:
        parts, i = [], 0
        while i < len(data):
            parts.append(data[i + 1:i + 1 + data[i]].decode("ascii", "replace"))
            i += 1 + data[i]
        return " ".join('"%s"' % p for p in parts)
    if rtype == 6:
        mname, o = decode_name(msg, off)
        rname, o = decode_name(msg, o)
        return "%s %s %d %d %d %d %d" % ((mname, rname) + struct.unpack(">IIIII", msg[o:o + 20]))
    return data.hex()


def parse_answer(msg, qid):
    """'RCODE|rr;rr;...' with the answer section sorted, TTLs left out."""
    rid, flags, qd, an, ns, ar = struct.unpack(">HHHHHH", msg[:12])
    if rid != qid:
        raise ValueError("id mismatch")
    off = 12
    for _ in range(qd):
        off = decode_name(msg, off)[1] + 4
    rrs = []
    for _ in range(an):
        name, off = decode_name(msg, off)
        rtype, rclass, ttl, rdlen = struct.unpack(">HHIH", msg[off:off + 10])
        off += 10
        rrs.append("%s %s %s" % (name, TYPE_NAMES.get(rtype, str(rtype)),
                                 decode_rdata(msg, off, rtype, rdlen)))
        off += rdlen
    tc = " TC" if flags & 0x0200 else ""
    return "%s%s|%s" % (RCODES.get(flags & 0xF, str(flags & 0xF)), tc, ";".join(sorted(rrs)))


def query(sock, port, name, qtype, rng, tries=4, timeout=2.0):
    """One UDP query; the normalised answer, or 'TIMEOUT'."""
    sock.settimeout(timeout)
    for _ in range(tries):
        qid = rng.randrange(1 << 16)
        sock.sendto(make_query(qid, name, qtype), ("127.0.0.1", port))
        try:
            while True:
                msg, _ = sock.recvfrom(65535)
                try:
                    return parse_answer(msg, qid)
                except ValueError:
                    continue  # a late answer to an earlier try
        except socket.timeout:
            continue
    return "TIMEOUT"


def run_queries(port, questions, threads=4, seed=1):
    """Send questions [(name, type)] from `threads` threads (question i by
    thread i % threads); returns {(name, type): [answer, ...]} in order."""
    answers = {}
    lock = threading.Lock()

    def worker(t):
        rng = random.Random(seed * 1000 + t)
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            for i in range(t, len(questions), threads):
                q = questions[i]
                a = query(s, port, q[0], q[1], rng)
                with lock:
                    answers.setdefault(q, []).append(a)
        finally:
            s.close()

    ts = [threading.Thread(target=worker, args=(t,)) for t in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(300)
    return answers
