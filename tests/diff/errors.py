# SPDX-License-Identifier: GPL-2.0-or-later
"""Several errors in one file: nfh reports every one in a single run.

The generated cases that both tools refuse alone (category "refuse") are
put together, GROUP to a file, in a fixed order, and each file goes
through `nft -c` and `nfh --offline -c` once.  nfh must name a line of
every one of its cases: an error that nfh finds in a case alone must not
be hidden by an error in another case (issue 15: a file is fixed in one
round, not one error per round).  nft's count is kept for comparison:
the cases nft names, and those it names that nfh does not (which must be
none).  nft's own cascades (a syntax error that runs into the next case,
"No such file or directory" for a table or set an earlier error left
out) name lines of other cases; they are not counted against anyone, as
only the lines inside a refused case count for that case.

The same files go through `nfh -c` talking to the kernel too (the suite
runs in a network namespace of its own, where nft -c talks to the kernel
as well): a syntax or evaluation error keeps the file from being sent,
and the offline model, run over the kernel's ruleset, answers the other
commands; nfh must name each case there as well, and every case nft
names.  The cases only the kernel refuses (category "kernel": a module
or a kernel feature missing, an object the kernel lacks) go five to a
file through nft -c and nfh -c; there the file is sent, the kernel
answers each message it refuses, and nfh must name each case and every
case nft names.  Nothing is committed (-c), so the namespace stays empty.
"""

import os
import re

ERR_RE = re.compile(r"^(?:In file included from )?[^:\n]+:(?P<line>\d+):\d+(?:-\d+)?: Error: ", re.M)


def write_file(path, cases, ids):
    """Writes the cases IDS to PATH; returns [(first line, last line, id)]."""
    out, spans = [], []
    for i in ids:
        first = len(out) + 1
        out.extend(cases[i])
        spans.append((first, len(out), i))
        out.append("")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return spans


def named(tool, path, spans):
    """The ids of SPANS that TOOL's errors on PATH name a line of."""
    rc, out, err = tool.run(path)
    lines = {int(m.group("line")) for m in ERR_RE.finditer(err)}
    return {i for first, last, i in spans if any(first <= ln <= last for ln in lines)}, rc


def check(cases, res, tmp, nft, nfh, nfhk=None, group=5, limit=1500):
    """Judges up to LIMIT refused cases, GROUP to a file, with nfh --offline
    (NFH) and, if NFHK is given, nfh -c against the kernel as well.
    Returns (stats, misses, kmisses): stats counts files, cases, those nft,
    nfh and nfhk name; misses is [(ids of the file, ids nfh missed, ids nft
    named and nfh did not)] for the files where nfh --offline names fewer
    than it must, kmisses the same for nfh -c."""
    ids = sorted(i for i, r in res.items() if r[0] == "refuse")[:limit]
    stats = {"files": 0, "cases": 0, "nft": 0, "nfh": 0, "nfhk": 0, "crash": 0}
    misses, kmisses = [], []
    path = os.path.join(tmp, "errors.nft")
    for k in range(0, len(ids) - group + 1, group):
        part = ids[k:k + group]
        spans = write_file(path, cases, part)
        a, _ = named(nft, path, spans)
        b, rc = named(nfh, path, spans)
        stats["files"] += 1
        stats["cases"] += len(part)
        stats["nft"] += len(a)
        stats["nfh"] += len(b)
        if rc < 0 or rc >= 128:
            stats["crash"] += 1
        missed = set(part) - b
        if missed or rc < 0 or rc >= 128:
            misses.append((part, sorted(missed), sorted(a - b)))
        if nfhk is None:
            continue
        c, rc = named(nfhk, path, spans)
        stats["nfhk"] += len(c)
        if rc < 0 or rc >= 128:
            stats["crash"] += 1
        missed = (set(part) | a) - c
        if missed or rc < 0 or rc >= 128:
            kmisses.append((part, sorted(missed), sorted(a - c)))
    return stats, misses, kmisses


def check_kernel(cases, res, tmp, nft, nfhk, group=5, limit=1500):
    """The cases only the kernel refuses, GROUP to a file, through nft -c
    and nfh -c.  Returns (stats, misses) as check() does for nfh -c."""
    ids = sorted(i for i, r in res.items() if r[0] == "kernel")[:limit]
    stats = {"files": 0, "cases": 0, "nft": 0, "nfhk": 0, "crash": 0}
    misses = []
    path = os.path.join(tmp, "errors-kernel.nft")
    for k in range(0, len(ids) - group + 1, group):
        part = ids[k:k + group]
        spans = write_file(path, cases, part)
        a, _ = named(nft, path, spans)
        c, rc = named(nfhk, path, spans)
        stats["files"] += 1
        stats["cases"] += len(part)
        stats["nft"] += len(a)
        stats["nfhk"] += len(c)
        if rc < 0 or rc >= 128:
            stats["crash"] += 1
        missed = (set(part) | a) - c
        if missed or rc < 0 or rc >= 128:
            misses.append((part, sorted(missed), sorted(a - c)))
    return stats, misses
