# SPDX-License-Identifier: GPL-2.0-or-later
"""The examples of nft(8) and libnftables-json(5), read from the installed
manual pages at test time (nothing of them is kept in this repository).

corpus() returns (cases, why): each case is a list of lines in the nft
language, made from one example block of nft(8) or of the text examples
of libnftables-json(5).  json_corpus() returns the JSON documents of
libnftables-json(5): its complete `{"nftables": [...]}` examples, and each
of its statement examples put into a rule of a fresh inet table.

What is taken: the blocks set in no-fill mode (.nf ... .fi) that hold no
italic placeholder (those are syntax synopses); in them, the commands
(`nft add ...` shell lines, bare add/create/insert/define lines) and the
`table ... { ... }` blocks whose braces close.  Fragments (a lone
statement, an elided `...` listing, list/delete/monitor commands, which
need state) are skipped.  A command that names a table or chain that the
block does not create gets them created first, so that the check judges
the example and not its context.
"""

import gzip
import json
import os
import re
import shlex

MAN_NFT = "/usr/share/man/man8/nft.8.gz"
MAN_JSON = "/usr/share/man/man5/libnftables-json.5.gz"

FAMS = ("ip", "ip6", "inet", "arp", "bridge", "netdev")


def roff_blocks(path):
    with gzip.open(path, "rt", errors="replace") as f:
        src = f.read()
    for m in re.finditer(r"^\.nf\n(.*?)^\.fi$", src, re.M | re.S):
        body = m.group(1)
        if "\\fI" in body:
            continue
        yield unroff(body)


def unroff(s):
    for a, b in (("\\fB", ""), ("\\fR", ""), ("\\fP", ""), ("\\-", "-"), ("\\&", ""),
                 ("\\*(Aq", "'"), ("\\*(lq", '"'), ("\\*(rq", '"'), ("\\(aq", "'"),
                 ("\\(dq", '"'), ("\\e", "\\"), ("\\(cq", "'"), ("\\(oq", "'"),
                 ("\\(em", "--"), ("\\(en", "-"), ("\\ ", " ")):
        s = s.replace(a, b)
    return "\n".join(l for l in s.split("\n") if not l.startswith("."))


HOOKS = ("input", "output", "forward", "prerouting", "postrouting")
SHORT = re.compile(r"^((ip|ip6|inet|arp|bridge|netdev) )?(filter|nat|raw|mangle) (%s) (.+)$" % "|".join(HOOKS))
CMD = re.compile(r"^(add|create|insert|define|replace|redefine)\b")


def shell_cmd(line):
    """`nft [options] cmd...` -> the command, or None."""
    try:
        w = shlex.split(line, comments=True)
    except ValueError:
        return None
    if not w or w[0] != "nft":
        return None
    w = w[1:]
    while w and w[0].startswith("-"):
        if w[0] in ("-f", "-I", "--file", "--includepath"):
            return None
        w = w[1:]
    if not w or not CMD.match(w[0]):
        return None
    return " ".join(q(x) for x in w)


def q(word):
    # words that held spaces were quoted strings on the command line
    if " " in word and not word.startswith(("{", "(")) and '"' not in word:
        return '"%s"' % word
    return word


def split_block(text):
    """The complete commands and table blocks of one example block."""
    out = []
    lines = re.sub(r"\\\n\s*", " ", text).split("\n")
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        s = re.sub(r"^\s*[#%$]\s+(?=nft\s)", "", line).strip()
        if s.startswith("nft "):
            c = shell_cmd(s)
            if c:
                out.append(c)
            i += 1
            continue
        m = SHORT.match(s)
        if m:
            # nft(8)'s shorthand for a rule: [family] table chain statements
            out.append("add rule %s %s %s %s" % (m.group(2) or "ip", m.group(3), m.group(4),
                                                 re.sub(r"\s+#.*", "", m.group(5))))
            i += 1
            continue
        if s.startswith("#") or not s:
            i += 1
            continue
        if re.match(r"^(table|define)\b", s) or CMD.match(s):
            depth = 0
            chunk = []
            j = i
            while j < len(lines):
                l = lines[j]
                chunk.append(l)
                depth += l.count("{") - l.count("}")
                j += 1
                if depth <= 0:
                    break
            text = "\n".join(chunk)
            if depth == 0 and "..." not in text and "…" not in text:
                out.append(text)
            i = j
            continue
        i += 1
    return out


def prereqs(cmds):
    """add table/chain commands for what CMDS use but do not create."""
    have_t, have_c, need = set(), set(), []
    for c in cmds:
        w = c.split()
        if w[0] == "table" and len(w) >= 2:
            fam, name = (w[1], w[2]) if w[1] in FAMS else ("ip", w[1])
            have_t.add((fam, name.rstrip("{")))
            for m in re.finditer(r"^\s*chain\s+(\S+)", c, re.M):
                have_c.add((fam, name, m.group(1)))
            continue
        if w[0] not in ("add", "create", "insert", "replace") or len(w) < 3:
            continue
        obj, rest = w[1], w[2:]
        if obj in ("ct",) and len(w) > 3:
            obj, rest = "ct " + w[2], w[3:]
        fam = "ip"
        if rest and rest[0] in FAMS:
            fam, rest = rest[0], rest[1:]
        if not rest:
            continue
        tbl = rest[0]
        if obj == "table":
            have_t.add((fam, tbl))
            continue
        if (fam, tbl) not in have_t:
            need.append("add table %s %s" % (fam, tbl))
            have_t.add((fam, tbl))
        if obj == "chain" and len(rest) > 1:
            have_c.add((fam, tbl, rest[1]))
        if obj == "rule" and len(rest) > 1 and (fam, tbl, rest[1]) not in have_c:
            if rest[1] in HOOKS:
                # a chain named after a hook is taken for a base chain there
                need.append("add chain %s %s %s { type %s hook %s priority 0; }" % (
                    fam, tbl, rest[1], "nat" if tbl == "nat" else "filter", rest[1]))
            else:
                need.append("add chain %s %s %s" % (fam, tbl, rest[1]))
            have_c.add((fam, tbl, rest[1]))
    return need


def corpus():
    cases = []
    for path in (MAN_NFT, MAN_JSON):
        if not os.path.exists(path):
            return None, "no %s (Debian's nftables package)" % path
        for block in roff_blocks(path):
            if block.lstrip().startswith("{"):
                continue
            cmds = split_block(block)
            # flushing or deleting is state the check cannot have
            cmds = [c for c in cmds if not re.match(r"^(flush|delete|list|reset|destroy)\b", c)]
            if not cmds:
                continue
            # each rule its own case, with what the block declares
            rules = [c for c in cmds if re.match(r"^(add|insert) rule\b", c)]
            decls = [c for c in cmds if c not in rules]
            for r in rules or [None]:
                want = decls + ([r] if r else [])
                lines = []
                for c in prereqs(want) + want:
                    lines.extend(c.split("\n"))
                cases.append(lines)
    return cases, None


def json_corpus():
    if not os.path.exists(MAN_JSON):
        return None, "no %s" % MAN_JSON
    docs = []
    for block in roff_blocks(MAN_JSON):
        b = block.strip()
        if not b.startswith("{"):
            continue
        try:
            obj = json.loads(b)
        except ValueError:
            continue
        if "nftables" in obj:
            obj["nftables"] = [c for c in obj["nftables"] if "flush" not in c]
            docs.append(obj)
        elif len(obj) == 1:
            docs.append({"nftables": [
                {"add": {"table": {"family": "inet", "name": "t"}}},
                {"add": {"chain": {"family": "inet", "table": "t", "name": "c"}}},
                {"add": {"rule": {"family": "inet", "table": "t", "chain": "c", "expr": [obj]}}},
            ]})
    return docs, None
