#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""json-equal.py DESC NFT-OUTPUT NFH-OUTPUT [DESC NFT NFH]...: one TAP line
("ok - DESC" or "not ok - DESC") for each pair, saying whether nfh's -j
output equals nft's; exit 1 if any differ.

Both must be valid JSON; nfh's must also be formatted as nft formats it (one
line, ", " and ": " separators).  Compared after these documented
normalizations, each a known difference from nft 1.0.6:
  - metainfo: nfh names its own version and release;
  - a dormant table's "flags": nft 1.0.6 prints freed memory there; nfh
    prints "dormant" (when nft's output is not even valid JSON, exit 77);
  - nfh prints a base chain's "dev", the "comment" of tables and chains
    and a set's "auto-merge", which nft 1.0.6 leaves out (so that they
    survive a JSON round trip);
  - nfh lists a set's or map's flag "dynamic" as nft 1.1.1 does; nft
    1.0.6 leaves it out (and a JSON round trip through it loses it).
A difference is shown as the first two objects that differ.
"""
import json
import sys


class Skip(Exception):
    pass


class Differ(Exception):
    pass


def load(path, who):
    text = open(path).read()
    try:
        return text, json.loads(text)
    except ValueError as e:
        msg = f"{who} printed invalid JSON: {e}: {text[:120]!r}"
        raise (Skip if who == "nft" else Differ)(msg)


def normalize(doc, nft):
    for obj in doc["nftables"]:
        if "metainfo" in obj:
            obj["metainfo"]["version"] = obj["metainfo"]["release_name"] = "-"
        table = obj.get("table")
        if nft and table and "flags" in table:
            table["flags"] = "dormant"
        for kind in ("table", "chain"):
            if not nft and kind in obj:
                obj[kind].pop("comment", None)
        if not nft and "chain" in obj:
            obj["chain"].pop("dev", None)
        for kind in ("set", "map"):
            if not nft and kind in obj:
                obj[kind].pop("auto-merge", None)
                flags = obj[kind].get("flags")
                if isinstance(flags, list) and "dynamic" in flags:
                    flags.remove("dynamic")
                    if not flags:
                        del obj[kind]["flags"]
    return doc


def compare(nft_file, nfh_file):
    _, want = load(nft_file, "nft")
    raw, got = load(nfh_file, "nfh")
    if raw != json.dumps(got, ensure_ascii=False) + "\n":
        raise Differ("nfh's output is not formatted as nft formats it")
    want, got = normalize(want, True), normalize(got, False)
    if json.dumps(want) == json.dumps(got):
        return
    a, b = want["nftables"], got["nftables"]
    lines = []
    for x, y in zip(a, b):
        if json.dumps(x) != json.dumps(y):
            lines += ["nft: " + json.dumps(x), "nfh: " + json.dumps(y)]
            break
    if len(a) != len(b):
        lines.append(f"nft printed {len(a)} objects, nfh {len(b)}")
    raise Differ("\n".join(lines))


def main(args):
    failed = 0
    for i in range(0, len(args) - 2, 3):
        desc = args[i]
        try:
            compare(args[i + 1], args[i + 2])
            print(f"ok - {desc}")
        except Skip as e:
            print(f"ok - {desc} # SKIP {e}")
        except Differ as e:
            failed += 1
            print(f"not ok - {desc}")
            for line in str(e).splitlines():
                print("#   " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
