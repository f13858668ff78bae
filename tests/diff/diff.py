# SPDX-License-Identifier: GPL-2.0-or-later
"""The differential runner: nft is the judge of nfh.

Each case (a list of lines that create their own table t<N>) goes through
`nft -c --debug=netlink` and `nfh --offline -c --debug=netlink`.  Cases
are batched, many to a file, with a marker set between them
(`add set ip mk m<N> { type mark; }`, which prints "m<N> mk 0"), so that
one process judges a few hundred cases; a batch that fails is judged
again without the cases its errors point at, and one that crashes is
halved until the crashing case is alone.

Categories: agree (both accept, same bytecode), refuse (both refuse;
nfh's errors must be located), nft-refuses / nfh-refuses (one accepts),
bytecode (both accept, bytecode differs), unlocated (nfh refuses without
a file:line:col error), crash (nfh killed by a signal, exit >= 128, or a
sanitizer report).
"""

import concurrent.futures
import os
import re
import subprocess
import tempfile

MARK_TABLE = "add table ip mk"
ERR_RE = re.compile(r"^(?:In file included from )?(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+)(?:-\d+)?: Error: ", re.M)
SAN_RE = re.compile(r"AddressSanitizer|UndefinedBehaviorSanitizer|LeakSanitizer|runtime error: ")
MARK_RE = re.compile(r"^m(\d+) mk 0$")
BAD = ("nft-refuses", "nfh-refuses", "bytecode", "unlocated", "crash")
# tests/diff/run --oracle 1.1 sets it: --debug=netlink output is read
# without what libnftnl 1.2.8 (in nft 1.1.1) prints otherwise than
# Debian's 1.2.4 (which nfh prints with), both tools' alike: the blank
# line after a rule (1.2.8 prints none), and a base chain's hook, priority
# and counters after "use N" on its line (1.2.8 prints none; the listing
# fixpoint compares them in the listings)
DROP_BLANK = False
CHAIN_LINE_RE = re.compile(r"^(\S+ \S+ \S+ use \d+) type \S+ hook .*$")


class Tool:
    def __init__(self, argv, name, workdir, timeout=60):
        self.argv = argv
        self.name = name
        self.workdir = workdir
        self.timeout = timeout
        self.calls = 0

    def run(self, path):
        return self.run_args([], path)

    def run_args(self, extra, path):
        self.calls += 1
        try:
            p = subprocess.run(self.argv[:1] + extra + self.argv[1:] + ["-f", path], capture_output=True,
                               timeout=self.timeout, cwd=self.workdir)
        except subprocess.TimeoutExpired:
            return 124, "", "timed out after %ds" % self.timeout
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def write_batch(path, cases, ids):
    """Writes the cases IDS to PATH; returns [(first line, last line, id)]."""
    spans = []
    out = [MARK_TABLE]
    ln = 1
    for i in ids:
        out.append("add set ip mk m%d { type mark; }" % i)
        ln += 1
        first = ln + 1
        out.extend(cases[i])
        ln += len(cases[i])
        spans.append((first, ln, i))
        out.append("")
        ln += 1
    out.append("add set ip mk mend { type mark; }")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")
    return spans


def split_output(out):
    """Splits a batch's bytecode at the markers: {id: text}."""
    res = {}
    cur = None
    buf = []
    for line in out.split("\n"):
        m = MARK_RE.match(line)
        if m or line == "mend mk 0":
            if cur is not None:
                res[cur] = "\n".join(buf)
            cur = int(m.group(1)) if m else None
            buf = []
        elif cur is not None and not (DROP_BLANK and line == ""):
            buf.append(CHAIN_LINE_RE.sub(r"\1", line) if DROP_BLANK else line)
    return res


def attribute(err, spans, path):
    """{id: [error text]} for the located errors in ERR."""
    res = {}
    blocks = re.split(r"(?m)^(?=(?:In file included from )?[^:\n\s]+:\d+:\d+(?:-\d+)?: Error: )", err)
    for b in blocks:
        m = ERR_RE.match(b)
        if not m:
            continue
        ln = int(m.group("line"))
        for first, last, i in spans:
            if first <= ln <= last:
                res.setdefault(i, []).append(b.replace(path, "CASE").rstrip("\n"))
                break
    return res


def crashed(rc, err):
    return rc < 0 or rc >= 128 or SAN_RE.search(err) is not None


def judge(tool, cases, ids, tmp, tag=""):
    """{id: (verdict, text)} with verdict ok, err, crash or unlocated."""
    res = {}
    stack = [list(ids)]
    path = os.path.join(tmp, "%s%s.nft" % (tool.name, tag))
    rounds = 0
    while stack:
        pending = stack.pop()
        while pending:
            rounds += 1
            spans = write_batch(path, cases, pending)
            rc, out, err = tool.run(path)
            if crashed(rc, err) or rc == 124:
                if len(pending) == 1:
                    res[pending[0]] = ("crash", "exit %d\n%s" % (rc, err[-3000:]))
                    break
                h = len(pending) // 2
                stack.append(pending[h:])
                pending = pending[:h]
                continue
            if rc == 0:
                chunks = split_output(out)
                for i in pending:
                    res[i] = ("ok", chunks.get(i, ""))
                break
            errs = attribute(err, spans, path)
            if not errs:
                if len(pending) == 1:
                    res[pending[0]] = ("unlocated", err.replace(path, "CASE"))
                    break
                h = len(pending) // 2
                stack.append(pending[h:])
                pending = pending[:h]
                continue
            for i, e in errs.items():
                res[i] = ("err", "\n".join(e))
            pending = [i for i in pending if i not in errs]
    return res


def classify(nft_v, nfh_v):
    a, at = nft_v
    b, bt = nfh_v
    if b == "crash":
        return "crash"
    if a == "ok" and b == "ok":
        return "agree" if at == bt else "bytecode"
    if a == "ok":
        return "nfh-refuses"
    if b == "ok":
        return "nft-refuses"
    if b == "unlocated":
        return "unlocated"
    return "refuse"


def run_batch(cases, nft, nfh, tmp, part, tag):
    b = judge(nfh, cases, part, tmp, tag)
    # nft stops after 10 errors: what nfh refuses goes to nft in groups
    # of 8, the rest in one batch
    ok = [i for i in part if b[i][0] == "ok"]
    bad = [i for i in part if b[i][0] != "ok"]
    a = judge(nft, cases, ok, tmp, tag) if ok else {}
    for j in range(0, len(bad), 8):
        a.update(judge(nft, cases, bad[j:j + 8], tmp, tag))
    return {i: (classify(a[i], b[i]), a[i], b[i]) for i in part}


def run_cases(cases, nft, nfh, tmp, batch=250, jobs=None):
    """Judges every case; returns {id: (category, nft verdict, nfh verdict)}.
    JOBS batches (default: one per CPU) run at a time."""
    ids = sorted(cases)
    parts = [ids[k:k + batch] for k in range(0, len(ids), batch)]
    jobs = jobs or int(os.environ.get("DIFF_JOBS", "0")) or os.cpu_count() or 1
    out = {}
    if jobs == 1 or len(parts) == 1:
        for n, part in enumerate(parts):
            out.update(run_batch(cases, nft, nfh, tmp, part, ""))
        return out
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for r in ex.map(lambda np: run_batch(cases, nft, nfh, tmp, np[1], "-%d" % np[0]), enumerate(parts)):
            out.update(r)
    return out


# ------------------------------------------------------------ KNOWN list

def load_known(path):
    """[(category, regex, reason, line)] from PATH: CATEGORY REGEX # REASON."""
    known = []
    if not os.path.exists(path):
        return known
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            body, _, reason = line.partition("\t#")
            cat, _, rx = body.partition("\t")
            known.append((cat.strip(), re.compile(rx.strip()), reason.strip(), n))
    return known


def error_lines(err):
    """The source lines that the located errors in ERR point at."""
    out = []
    for m in re.finditer(r"(?m)^[^:\n]+:\d+:\d+(?:-\d+)?: Error: [^\n]*\n([^\n]*)", err):
        out.append(m.group(1))
    return out


def rule_lines(lines):
    """The lines of a case that are rules, in order."""
    out = []
    depth = 0
    for l in lines:
        s = l.strip()
        if re.match(r"^(add |insert )?rule\b", s):
            out.append(l)
        elif depth >= 2 and s and s != "}" and not s.startswith("type ") and not s.endswith("{"):
            out.append(l)
        depth += l.count("{") - l.count("}")
    return out


def blocks(bytecode):
    """(rule blocks, other lines) of --debug=netlink output."""
    rules, other = [], []
    lines = bytecode.split("\n")
    i = 0
    while i < len(lines):
        if i + 1 < len(lines) and lines[i + 1].startswith("  [") and not lines[i].startswith("  ["):
            j = i + 1
            while j < len(lines) and lines[j].startswith("  ["):
                j += 1
            rules.append("\n".join(lines[i:j]))
            i = j
        else:
            if lines[i].strip():
                other.append(lines[i])
            i += 1
    return rules, other


def known_text(cat, lines, a, b):
    """What a KNOWN expression is searched in: the case's table lines, its
    base chains' type and hook lines, and the lines the disagreement is in (the lines an error points at, the
    rules whose bytecode differs), or the whole case where that cannot be
    told."""
    head = [l for l in lines if re.match(r"^\s*((add |create )?table|define)\b", l)
            or re.search(r"\btype \w+ hook \w+", l)]
    decls = [l for l in lines if re.match(r"^\s*(add )?(set|map|counter|quota|limit|ct|flowtable|synproxy|secmark|define)\b", l.strip())]
    if cat in ("nfh-refuses", "unlocated"):
        el = error_lines(b[1])
    elif cat == "nft-refuses":
        el = error_lines(a[1])
    elif cat == "bytecode":
        ra, oa = blocks(a[1])
        rb, ob = blocks(b[1])
        rl = rule_lines(lines)
        el = []
        if len(ra) == len(rb) == len(rl):
            el = [rl[k] for k in range(len(ra)) if ra[k] != rb[k]]
            if oa != ob:
                el += decls + [l for l in rl if "{" in l]
        else:
            el = []
    else:
        el = []
    if not el:
        return "\n".join(lines)
    return "\n".join(head + el)


OPS_WORDS = {"eq": "==", "ne": "!=", "lt": "<", "gt": ">", "le": "<=", "ge": ">="}


def known_match(known, cat, text):
    # an expression written for "!=" also holds for "ne", and so on
    alt = re.sub(r"(?<=\s)(eq|ne|lt|gt|le|ge)(?=\s)", lambda m: OPS_WORDS[m.group(1)], text)
    for k in known:
        if k[0] == cat and (k[1].search(text) or k[1].search(alt)):
            return k
    return None


# ------------------------------------------------------------- shrinking

def normalize(lines, idx):
    """Case text with its own names replaced, for regression files."""
    t = "\n".join(lines)
    t = re.sub(r"\bt%d\b" % idx, "t", t)
    t = re.sub(r"\bv%d\b" % idx, "v", t)
    return t.split("\n")


def shrink(lines, idx, still, budget=150):
    """Drops lines, then tokens, while still(lines) holds."""
    cur = list(lines)
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        for i in range(len(cur)):
            if i >= len(cur):
                break
            cand = cur[:i] + cur[i + 1:]
            tries += 1
            if cand and still(cand):
                cur = cand
                changed = True
                break
        if changed:
            continue
        for i in range(len(cur)):
            toks = cur[i].split(" ")
            for j in range(len(toks)):
                for span in (3, 2, 1):
                    if j + span > len(toks):
                        continue
                    nt = toks[:j] + toks[j + span:]
                    if not "".join(nt).strip():
                        continue
                    cand = cur[:i] + [" ".join(nt)] + cur[i + 1:]
                    tries += 1
                    if tries > budget:
                        return cur
                    if still(cand):
                        cur = cand
                        changed = True
                        break
                if changed:
                    break
            if changed:
                break
    return cur


def make_tools(tmp, nft_cmd, nfh_cmd):
    nft = Tool(nft_cmd + ["-c", "--debug=netlink"], "nft", tmp)
    nfh = Tool(nfh_cmd + ["--offline", "-c", "--debug=netlink"], "nfh", tmp)
    return nft, nfh


def one(cases, nft, nfh, tmp, lines):
    """Category of one case LINES, alone."""
    c = {0: lines}
    r = run_cases(c, nft, nfh, tmp)
    return r[0]
