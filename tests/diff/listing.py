# SPDX-License-Identifier: GPL-2.0-or-later
"""The listing fixpoint, for the cases nft accepts.

nft loads a batch of cases into the namespace (a real commit); then
`nfh list ruleset` must print what `nft list ruleset` prints, table by
table, `nfh -j list ruleset` the same JSON as `nft -j list ruleset`
(after tests/json-equal.py's documented normalizations), and nfh's
listing, compiled again offline, must give each rule the bytecode nft
gave it from the case itself.  The ruleset is flushed after each batch.

Categories: listed (all three hold), list-text, list-json, list-reload
(nfh refuses its own listing, or its rules compile to other bytecode),
and, with ORACLE11 set (tests/diff/run --oracle 1.1: nft 1.1.1 is the
judge), list-json-order:
the same JSON objects of the table in another order (nft 1.1.1's -j
lists a table's chains before its sets, 1.0.6's, as nfh, after them).
"""

import importlib.util
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("json_equal", os.path.join(HERE, "..", "json-equal.py"))
json_equal = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(json_equal)

TABLE_RE = re.compile(r"^table (\S+) (\S+) \{$")
ORACLE11 = False


def same_objects(a, b):
    """Whether two tables' JSON texts hold the same objects, in any order."""
    if a is None or b is None:
        return False
    return sorted(json.dumps(o, sort_keys=True) for o in json.loads(a)) == \
        sorted(json.dumps(o, sort_keys=True) for o in json.loads(b))


def run(argv, path=None, timeout=120):
    try:
        p = subprocess.run(argv + (["-f", path] if path else []), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, "", "timed out"
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def split_tables(text, mask=True):
    """{table name: its listing} of a `list ruleset` text; MASK: the
    timers masked, for comparing (not for loading back)."""
    res = {}
    cur = None
    # what a timer says depends on when it was read (an element's expiry,
    # the time since a last statement saw a packet)
    if mask:
        text = re.sub(r" expires [0-9dhms]+", "", text)
        text = re.sub(r"\blast used (?!never\b)[0-9dhms]+", "last used T", text)
    for line in text.split("\n"):
        m = TABLE_RE.match(line)
        if m:
            cur = m.group(2)
            res[cur] = [line]
        elif cur is not None:
            res[cur].append(line)
            if line == "}":
                cur = None
    return {k: "\n".join(v) for k, v in res.items()}


def split_json(text, nft):
    doc = json.loads(re.sub(r'(\{"last": \{"used": )\d+', r"\g<1>0",
                            re.sub(r', "expires": \d+', "", text)))
    if ORACLE11:
        # json-equal.py's normalizations are differences from nft 1.0.6;
        # against 1.1.1 (table flags, a chain's dev, comments, auto-merge
        # are listed) only the version stays out
        for obj in doc["nftables"]:
            obj.pop("metainfo", None)
        doc["nftables"] = [o for o in doc["nftables"] if o]
    else:
        doc = json_equal.normalize(doc, nft)
    res = {}
    for obj in doc["nftables"]:
        for v in obj.values():
            if isinstance(v, dict) and "table" in v and isinstance(v["table"], str):
                res.setdefault(v["table"], []).append(obj)
            elif isinstance(v, dict) and "name" in v and list(obj)[0] == "table":
                res.setdefault(v["name"], []).append(obj)
    return {k: json.dumps(v, sort_keys=True) for k, v in res.items()}


def rule_blocks(bytecode):
    """{table: [(chain, rule bytecode)]} of --debug=netlink output, set
    contents left out (a listing may order or merge elements), and the
    time of a last statement masked ([ last 30128 ]: the listing says how
    long ago, which depends on when it was read)."""
    res = {}
    lines = re.sub(r"\[ last \d+ \]", "[ last T ]", bytecode).split("\n")
    i = 0
    while i < len(lines):
        w = lines[i].split(" ")
        if len(w) == 3 and i + 1 < len(lines) and lines[i + 1].startswith("  ["):
            j = i + 1
            body = []
            while j < len(lines) and lines[j].startswith("  ["):
                body.append(lines[j])
                j += 1
            res.setdefault(w[1], []).append((w[2], "\n".join(body)))
            i = j
        else:
            i += 1
    return res


def fixpoint(cases, chunks, tmp, nft_cmd, nfh_cmd, batch=200):
    """{id: (category, detail)} for the cases in CHUNKS (id -> nft's bytecode)."""
    out = {}
    ids = sorted(chunks)
    path = os.path.join(tmp, "load.nft")
    lpath = os.path.join(tmp, "listing.nft")
    queue = [ids[k:k + batch] for k in range(0, len(ids), batch)]
    while queue:
        part = queue.pop(0)
        while part:
            with open(path, "w") as f:
                for i in part:
                    f.write("\n".join(cases[i]) + "\n\n")
            run(nft_cmd + ["flush", "ruleset"])
            rc, _o, err = run(nft_cmd, path)
            if rc == 0:
                break
            bad = set()
            for m in re.finditer(r":(\d+):\d+(?:-\d+)?: Error: ", err):
                ln = int(m.group(1))
                n = 0
                for i in part:
                    n += len(cases[i]) + 1
                    if ln <= n:
                        bad.add(i)
                        break
            if not bad and len(part) > 1:
                queue.append(part[len(part) // 2:])
                part = part[:len(part) // 2]
                continue
            for i in bad or part:
                out[i] = ("load", err[-2000:])
            part = [i for i in part if i not in bad]
            if not bad:
                part = []
        if not part:
            continue
        table_of = {cases_table(cases[i]): i for i in part}
        nrc, nft_l, _ = run(nft_cmd + ["list", "ruleset"])
        rc, nfh_l, nfh_e = run(nfh_cmd + ["list", "ruleset"])
        nft_fails = set()
        if nrc != 0:
            # nft could not list everything: table by table, then
            nft_l, nfh_l = "", ""
            for i in part:
                ft = cases_family_table(cases[i])
                if not ft:
                    continue
                r1, o1, _ = run(nft_cmd + ["list", "table"] + list(ft))
                r2, o2, e2 = run(nfh_cmd + ["list", "table"] + list(ft))
                if r1 != 0:
                    nft_fails.add(ft[1])
                    continue
                nft_l += o1
                nfh_l += o2 if r2 == 0 else e2
        _, nft_j, _ = run(nft_cmd + ["-j", "list", "ruleset"])
        rcj, nfh_j, nfh_je = run(nfh_cmd + ["-j", "list", "ruleset"])
        run(nft_cmd + ["flush", "ruleset"])
        a, b = split_tables(nft_l), split_tables(nfh_l)
        try:
            aj = split_json(nft_j, True)
        except (ValueError, KeyError):
            aj = None
        try:
            bj = split_json(nfh_j, False)
        except (ValueError, KeyError):
            bj = {}
        # the listings compiled again: nfh's by nfh, nft's by nft (what
        # nft makes of its own listing, for when that is not the original
        # either: duplicate elements merged, say)
        a_raw, b_raw = split_tables(nft_l, False), split_tables(nfh_l, False)
        again, refused = compile_tables(nfh_cmd + ["--offline", "-c", "--debug=netlink"],
                                        {t: v for t, v in b_raw.items() if t in table_of}, lpath)
        nft_again, nft_refused = compile_tables(nft_cmd + ["-c", "--debug=netlink"],
                                                {t: v for t, v in a_raw.items() if t in table_of}, lpath)
        for t, i in table_of.items():
            if t is None:
                continue
            if t in nft_fails:
                out[i] = ("nft-list-fails", "")
                continue
            if a.get(t) != b.get(t):
                out[i] = ("list-text", diff_text(a.get(t, ""), b.get(t, "") or nfh_e[-500:]))
                continue
            order = aj is not None and aj.get(t) != bj.get(t) and ORACLE11 and same_objects(aj.get(t), bj.get(t))
            if aj is not None and aj.get(t) != bj.get(t) and not order:
                out[i] = ("list-json", "nft: %s\nnfh: %s" % (aj.get(t), bj.get(t) or nfh_je[-300:]))
                continue
            if t in refused and t in nft_refused:
                # the same text, refused by nft too: no fixpoint exists
                # (a set's elements listed in the kernel's order, whose
                # last one nft took the context from)
                out[i] = ("nft-reload-fails", "")
                continue
            if t in refused:
                out[i] = ("list-reload", "nfh refuses its own listing:\n" + refused[t][-1500:])
                continue
            want = rule_blocks(chunks[i]).get(t, [])
            got = again.get(t, [])
            if sorted(want) != sorted(got) and t in nft_refused:
                # nft cannot load its own listing: no fixpoint to hold nfh to
                out[i] = ("nft-reload-fails", "")
                continue
            if sorted(want) != sorted(got) and os.environ.get("DIFF_STRICT_RELOAD"):
                out[i] = ("list-reload", "STRICT " + diff_text("\n\n".join("%s\n%s" % x for x in want),
                                                   "\n\n".join("%s\n%s" % x for x in got)))
                continue
            if sorted(want) != sorted(got) and sorted(got) != sorted(nft_again.get(t, [])):
                out[i] = ("list-reload", diff_text("\n\n".join("%s\n%s" % x for x in want),
                                                   "\n\n".join("%s\n%s" % x for x in got)))
                continue
            out[i] = ("list-json-order" if order else "listed", "")
        for i in part:
            out.setdefault(i, ("list-text", "nft or nfh listed no table %s" % cases_table(cases[i])))
    return out


def compile_tables(argv, tables, path):
    """Compiles the listings TABLES ({name: text}) with ARGV; a table whose
    lines an error points at is left out and the rest compiled again.
    Returns ({table: rule blocks}, {table: errors})."""
    refused = {}
    left = sorted(tables)
    while left:
        spans, text, ln = [], [], 1
        for t in left:
            n = tables[t].count("\n") + 1
            spans.append((ln, ln + n - 1, t))
            text.append(tables[t])
            ln += n
        with open(path, "w") as f:
            f.write("\n".join(text) + "\n")
        rc, out, err = run(argv, path)
        if rc == 0:
            return rule_blocks(out), refused
        hit = set()
        for m in re.finditer(r":(\d+):\d+(?:-\d+)?: Error: ", err):
            for lo, hi, t in spans:
                if lo <= int(m.group(1)) <= hi:
                    hit.add(t)
        if not hit:
            hit = set(left)
        for t in hit:
            refused[t] = err
        left = [t for t in left if t not in hit]
    return {}, refused


def cases_family_table(lines):
    for l in lines:
        m = re.match(r"^\s*(?:add |create )?table (?:(ip6?|inet|arp|bridge|netdev) )?(\S+?)\s*(?:\{.*)?$", l)
        if m:
            return (m.group(1) or "ip", m.group(2))
    return None


def cases_table(lines):
    for l in lines:
        m = re.match(r"^\s*(?:add |create )?table (?:(?:ip6?|inet|arp|bridge|netdev) )?(\S+?)\s*(?:\{.*)?$", l)
        if m:
            return m.group(1)
    return None


def diff_text(a, b):
    import difflib
    return "\n".join(list(difflib.unified_diff(a.split("\n"), b.split("\n"), "nft", "nfh", lineterm="", n=1))[2:40])
