#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Drive a libnftables through Debian's python3-nftables, and compare two runs.

  libnftables-compat.py run SOFILE CLI REPO OUT
      In the current network namespace (empty, as root), load each listing
      golden REPO/tests/parse/ok/X.out (those not in tests/TODO.list)
      through nftables.Nftables(sofile=SOFILE) and record what each call of
      python3-nftables' own API gives: cmd() under each set_*_output
      toggle, json_cmd(), json_validate(), dry run, echo, JSON echo, a file
      run with a variable, and errors.  For each failed call CLI (the
      library's command, word-split) runs the same command, to show that
      the library's error buffer holds what the command prints.  The
      records go to OUT as JSON.
  libnftables-compat.py compare A B
      One TAP line per golden (and per fixed case): A's and B's records
      must agree call by call, up to the differences in ACCEPTED below.
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys

# goldens nft 1.0.6's own library cannot list, so there is nothing to
# compare with: a set typeof jhash crashes it (SIGSEGV), osf in a
# concatenation lists as a type it cannot load (tests/diff/KNOWN); a rule
# writing into a map has no JSON form there (nfh writes nft 1.1's "map")
NFT_CANNOT_LIST = {"75-typeof-nft-unlisted", "77-map-dynset"}

# output toggles the listings run under, as python3-nftables names them
LIST_FLAGS = [
    ("default", []),
    ("handle", ["handle"]),
    ("numeric", ["numeric_proto", "numeric_prio", "numeric_symbol",
                 "numeric_time"]),
    ("numeric_symbol", ["numeric_symbol"]),
    ("numeric_prio numeric_time", ["numeric_prio", "numeric_time"]),
    ("stateless", ["stateless"]),
    ("terse", ["terse"]),
    ("service guid", ["service", "guid"]),
    ("json", ["json"]),
    ("json handle stateless", ["json", "handle", "stateless"]),
    ("json numeric", ["json", "numeric_proto", "numeric_prio",
                      "numeric_symbol", "numeric_time"]),
]
ALL_FLAGS = sorted({f for _, fl in LIST_FLAGS for f in fl} | {"echo"})

# the same commands run on every golden's ruleset, listing or failing
ERRORS = [
    "add rule ip nosuch c accept",
    "list table ip nosuch",
    "delete table ip nosuch",
    "add rule ip t c tcp dport 99999 accept",
    "add table ip t; add chain ip t c; add rule ip t c jump nosuch",
    "add rule ip t c tcp dport 24 acept",
    '{"nftables": [{"add": {"rule": {"family": "ip", "table": "nosuch",'
    ' "chain": "c", "expr": [{"accept": null}]}}}]}',
    '{"nftables": [{"add": {"table": {"family": "ip"}}}]}',
    '{"nftables": [',
]

# (golden or case, step) -> why the two libraries may differ there; the
# step "*" covers every step of that golden
DORMANT = ("nft 1.0.6 prints freed memory as a dormant table's flags, so "
           "its JSON listing is not JSON (json-equal.py skips it too)")
ACCEPTED = {("02-table-comment-flags", step): DORMANT for step in
            ["json_cmd list ruleset", "json_validate",
             "json echo: load the JSON listing",
             "after the JSON load: list ruleset"] +
            ["list ruleset [%s]" % label for label, flags in LIST_FLAGS
             if "json" in flags]}
ACCEPTED.update({("30-host-order-intervals", step):
                 "nft 1.0.6 prints freed memory as the end of a range in a "
                 "concatenation (1.2.3.4-0x1962a07d...), a new value each time"
                 for step in ("echo: load", "echo handle: load")})


# the command-line options of the same toggles; numeric_symbol alone has none
CLI_OPTS = {"handle": "-a", "numeric_proto": "-p", "numeric_prio": "-y",
            "numeric_time": "-T", "stateless": "-s", "terse": "-t",
            "service": "-S", "guid": "-u", "json": "-j", "echo": "-e"}


def set_flags(nft, names):
    for f in ALL_FLAGS:
        getattr(nft, "set_%s_output" % f)(f in names)


def cli_opts(flags):
    """the options of the command for output FLAGS, None if it has none"""
    if {"numeric_proto", "numeric_prio", "numeric_symbol", "numeric_time"} <= set(flags):
        flags = [f for f in flags if not f.startswith("numeric_")] + ["numeric"]
    if any(f not in CLI_OPTS and f != "numeric" for f in flags):
        return None
    return ["-n" if f == "numeric" else CLI_OPTS[f] for f in flags]


def run(sofile, cli, repo, out):
    import ctypes
    import nftables
    libc = ctypes.CDLL(None, use_errno=True)
    records = []
    cli = shlex.split(cli)
    d = os.path.dirname(os.path.abspath(out))

    def fresh():
        """a network namespace of its own for the next step (so that the
        kernel's handles and generations do not depend on what ran
        before), with the devices the goldens name, and a context in it"""
        if libc.unshare(0x40000000) != 0:       # CLONE_NEWNET
            sys.exit("unshare: %s" % os.strerror(ctypes.get_errno()))
        subprocess.run(["ip", "link", "add", "veth0", "type", "veth", "peer",
                        "name", "veth1"], check=True)
        return nftables.Nftables(sofile=sofile)

    def command(args, new_ns=False):
        """the library's command with ARGS: (rc, stdout, stderr); in a
        namespace as fresh() makes it if NEW_NS, else in this one"""
        if new_ns:
            args = ["unshare", "-n", "sh", "-c", "ip link add veth0 type veth "
                    "peer name veth1 && exec \"$@\"", "sh"] + cli + args
        else:
            args = cli + args
        p = subprocess.run(args, capture_output=True, text=True)
        return [p.returncode, p.stdout, p.stderr]

    def here(res):
        # the scratch directory differs between the runs
        return [x.replace(d, "DIR") if isinstance(x, str) else x for x in res]

    def rec(case, step, res, twin=None):
        """one call's result; TWIN: what the command gives for it"""
        r = {"case": case, "step": step, "rc": res[0], "out": res[1], "err": res[2]}
        if twin is not None:
            r["cli"] = here(twin)
        records.append(r)

    def scratch(name, text):
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
        return os.path.join(d, name)

    todo = set(open(repo + "/tests/TODO.list").read().split())
    goldens = sorted(glob.glob(repo + "/tests/parse/ok/*.out"))
    for path in goldens:
        name = os.path.basename(path)[:-4]
        if "parse/ok/%s.in" % name in todo or name in NFT_CANNOT_LIST:
            continue
        text = open(path).read()
        # echo: what the kernel made, as nft monitor prints it; each the
        # first step in its namespace, as its command's twin
        for label, flags in (("echo", ["echo"]), ("echo handle", ["echo", "handle"])):
            nft = fresh()
            set_flags(nft, flags)
            rec(name, "%s: load" % label, nft.cmd(text),
                command(cli_opts(flags) + [text], True))
        nft = fresh()
        rec(name, "load", nft.cmd(text), command([text], True))
        for label, flags in LIST_FLAGS:
            set_flags(nft, flags)
            opts = cli_opts(flags)
            rec(name, "list ruleset [%s]" % label, nft.cmd("list ruleset"),
                None if opts is None else command(opts + ["list", "ruleset"]))
        set_flags(nft, [])
        list_json = {"nftables": [{"list": {"ruleset": None}}]}
        try:
            res = nft.json_cmd(list_json)
        except ValueError as e:
            # its output is not one JSON document
            res = (-1, "json_cmd: %s" % e, "")
        listing = res[1]
        rec(name, "json_cmd list ruleset", res,
            command(["-j", json.dumps(list_json)]))
        valid = "no JSON listing"
        if isinstance(listing, dict):
            try:
                valid = nft.json_validate(listing)
            except ImportError as e:
                valid = "no schema validator: %s" % e
            except Exception as e:
                valid = "%s: %s" % (type(e).__name__, str(e).split("\n")[0])
        rec(name, "json_validate", (0, str(valid), ""))
        # dry run: nothing changes
        nft.set_dry_run(True)
        rec(name, "dry run: flush ruleset", nft.cmd("flush ruleset"))
        rec(name, "dry run: load again", nft.cmd(text),
            command(["-c", text]))
        nft.set_dry_run(False)
        rec(name, "after the dry runs: list ruleset", nft.cmd("list ruleset"),
            command(["list", "ruleset"]))
        for i, cmd in enumerate(ERRORS):
            is_json = cmd.startswith("{")
            set_flags(nft, ["json"] if is_json else [])
            rec(name, "error %d" % i, nft.cmd(cmd),
                command((["-j"] if is_json else []) + [cmd]))
        # JSON echo: the JSON listing loaded back, in a namespace of its
        # own; the input comes back with the handles the kernel gave
        if isinstance(listing, dict):
            objs = [o for o in listing["nftables"] if "metainfo" not in o]
            doc = {"nftables": [{"flush": {"ruleset": None}}] + objs}
            nft = fresh()
            set_flags(nft, ["echo"])
            try:
                res = nft.json_cmd(doc)
            except ValueError as x:
                res = (-1, "json_cmd: %s" % x, "")
            rec(name, "json echo: load the JSON listing", res,
                command(["-j", "-e", json.dumps(doc)], True))
            set_flags(nft, [])
            rec(name, "after the JSON load: list ruleset", nft.cmd("list ruleset"),
                command(["list", "ruleset"]))
        else:
            rec(name, "json echo: load the JSON listing", (0, "no JSON listing", ""))
            rec(name, "after the JSON load: list ruleset", (0, "no JSON listing", ""))

    # file runs, with a variable and an include path
    nft = fresh()
    scratch("inc.nft", "add table ip v\nadd chain ip v c\n"
            "add rule ip v c tcp dport $port accept\n")
    top = scratch("top.nft", 'include "inc.nft"\n')
    nft.add_include_path(d)
    rec("file", "cmd_from_file, no variable", here(nft.cmd_from_file(top)),
        command(["-I", d, "-f", top]))
    nft.add_var("port=80")
    rec("file", "cmd_from_file", here(nft.cmd_from_file(top)),
        command(["-I", d, "-D", "port=80", "-f", top]))
    rec("file", "list", nft.cmd("list ruleset"), command(["list", "ruleset"]))
    rec("file", "cmd: variables are for files only",
        nft.cmd("add rule ip v c tcp dport $port accept"),
        command(["add rule ip v c tcp dport $port accept"]))
    rec("file", "the getters", (0, json.dumps({
        "dry_run": nft.get_dry_run(), "debug": nft.get_debug(),
        "flags": [f for f in ALL_FLAGS if getattr(nft, "get_%s_output" % f)()],
    }), ""))
    json.dump(records, open(out, "w"), indent=0)


def json_equal():
    """tests/json-equal.py, whose normalize() holds the documented
    differences of nfh's JSON from nft 1.0.6's"""
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "json-equal.py")
    spec = importlib.util.spec_from_file_location("json_equal", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


JSON_EQUAL = json_equal()


def normal(r, nft):
    """a record with what differs by design made equal: JSON documents
    through json-equal.py's normalize() (each library names itself in the
    metainfo; nft 1.0.6 prints freed memory as a dormant table's flags and
    leaves out a base chain's devices and the comments of tables and
    chains), an echo's process id, and the numbers of anonymous chains"""
    r = dict(r)
    for k in ("out", "err"):
        v = r[k]
        doc = v if isinstance(v, dict) else None
        if doc is None and v.startswith('{"nftables": '):
            try:
                doc = json.loads(v)
            except ValueError:
                pass
        if isinstance(doc, dict) and isinstance(doc.get("nftables"), list):
            v = json.dumps(JSON_EQUAL.normalize(doc, nft))
        # a list of the process that made the change ("(python3)", "(nft)")
        v = re.sub(r"by process \d+ \([^)]*\)", "by process PID", v)
        # the names of a chain binding's anonymous chains count on in a
        # library's context (and in a process): __chain494, __chain499
        if isinstance(v, str):
            v = re.sub(r"\b__chain\d+\b", "__chainN", v)
        r[k] = v
    return r


def strip_handles(r):
    """a record's JSON output without its handles"""
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k != "handle"}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o
    try:
        return dict(r, out=json.dumps(strip(json.loads(r["out"]))))
    except ValueError:
        return r


def same(x, y):
    """two results alike: both succeeded or both failed, same text"""
    return ((x["rc"] == 0) == (y["rc"] == 0) and x["out"] == y["out"] and
            x["err"] == y["err"])


def compare(fa, fb):
    a, b = json.load(open(fa)), json.load(open(fb))
    if [(r["case"], r["step"]) for r in a] != [(r["case"], r["step"]) for r in b]:
        print("not ok - the two runs made the same calls")
        return 1
    failed = 0
    cases = {}
    for ra, rb in zip(a, b):
        cases.setdefault(ra["case"], []).append((ra, rb))
    n = dict(calls=0, same=0, norm=0, engine=0, debian=0, accepted=0)
    debian = {}
    n_cases_same = 0
    engine = {}
    for case, pairs in cases.items():
        bad = []
        exact = True
        for ra, rb in pairs:
            n["calls"] += 1
            if (ra["rc"], ra["out"], ra["err"]) == (rb["rc"], rb["out"], rb["err"]):
                n["same"] += 1
                continue
            exact = False
            na, nb = normal(ra, True), normal(rb, False)
            if (na["rc"], na["out"], na["err"]) == (nb["rc"], nb["out"], nb["err"]):
                n["norm"] += 1
                continue
            # each library gives what its own command gives for the call
            # (nft for Debian's, nfh for nfhook's), and the commands
            # differ: the two engines do, not the library calls.  nfh's
            # error messages are its own; tests/diff compares the engines
            # (tests/diff/KNOWN lists what differs on purpose)
            if "cli" in ra and "cli" in rb:
                ca = normal(dict(ra, rc=ra["cli"][0], out=ra["cli"][1], err=ra["cli"][2]), True)
                cb = normal(dict(rb, rc=rb["cli"][0], out=rb["cli"][1], err=rb["cli"][2]), False)
                if same(na, ca) and same(nb, cb):
                    n["engine"] += 1
                    kind = "error text" if na["rc"] and nb["rc"] else ra["step"]
                    engine.setdefault(kind, set()).add(case)
                    continue
                # nfhook's library gives what both commands give; Debian's
                # library alone differs from its own command (nft 1.0.6's
                # JSON echo leaves handles out when run from the library)
                if same(nb, cb) and same(strip_handles(na), strip_handles(ca)):
                    n["debian"] += 1
                    debian.setdefault(ra["step"], set()).add(case)
                    continue
            # no command prints symbols alone as numbers: as the default
            # listing, if that differs as the commands do
            if (ra["step"] == "list ruleset [numeric_symbol]" and
                    case in engine.get("list ruleset [default]", ())):
                n["engine"] += 1
                engine.setdefault(ra["step"], set()).add(case)
                continue
            if ACCEPTED.get((case, ra["step"])):
                n["accepted"] += 1
                continue
            bad.append((ra["step"], na, nb))
        if exact:
            n_cases_same += 1
        if bad:
            failed += 1
            print("not ok - %s: %d calls through both libraries agree" % (case, len(pairs)))
            for step, na, nb in bad[:3]:
                print("# %s:" % step)
                for k in ("rc", "out", "err"):
                    if na[k] != nb[k]:
                        print("#   %s A: %r" % (k, na[k]))
                        print("#   %s B: %r" % (k, nb[k]))
                for who, r in (("A", na), ("B", nb)):
                    if "cli" in r:
                        print("#   command %s: %r" % (who, r["cli"]))
        else:
            print("ok - %s: %d calls through both libraries agree" % (case, len(pairs)))
    for kind in sorted(engine):
        print("# as the commands differ, %s: %s" % (kind, " ".join(sorted(engine[kind]))))
    for kind in sorted(debian):
        print("# Debian's library unlike its command, %s: %s" % (kind, " ".join(sorted(debian[kind]))))
    print("# %d cases (%d goldens), %d byte-identical in every call; %d calls: "
          "%d identical, %d equal but for the metainfo or a process id, "
          "%d differing as nft and nfh do, %d where Debian's library differs "
          "from nft, %d accepted"
          % (len(cases), len(cases) - 1, n_cases_same, n["calls"], n["same"],
             n["norm"], n["engine"], n["debian"], n["accepted"]))
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) == 6 and sys.argv[1] == "run":
        run(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit(__doc__)
