#!/usr/bin/env python3
"""Runs the bad-input catalogue (tests/bad_inputs/catalogue.tsv; its header says the columns) against a
gemm-advisor binary and checks each row: exit code, the message fragment, exactly one error line
on stderr (warnings only where the row allows them), nothing on stdout on error, no crash, no hang.
Usage: run_catalogue.py PATH/TO/gemm-advisor [NAME...]   (NAMEs: run only those rows)"""
import os
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT_S = 120  # generous for sanitizer builds; a hang fails the row


def read_catalogue(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        header = None
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if header is None:
                header = fields
                continue
            if len(fields) != len(header):
                sys.exit(f"{path}:{number}: {len(fields)} fields, the header has {len(header)}")
            row = dict(zip(header, fields))
            row["line"] = number
            rows.append(row)
    return rows


def prepare_unreadable(tmp):
    """A file nobody but root can read, or None (with the reason) when that cannot be arranged."""
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return None, "running as root, who reads a mode-000 file anyway"
    path = os.path.join(tmp, "unreadable.csv")
    with open(path, "w") as f:
        f.write("m,n,k\n64,64,64\n")
    os.chmod(path, 0)
    return path, ""


def check_row(binary, row, unreadable):
    """Runs one row; returns a list of failure messages (empty: passed)."""
    values = {"bin": shlex.quote(binary), "dir": shlex.quote(HERE), "unreadable": shlex.quote(unreadable or "")}
    command = row["command"].format(**values)
    if "{bin}" in row["command"]:
        argv = ["bash", "-c", command]
    else:
        argv = [binary] + shlex.split(command)
    try:
        p = subprocess.run(argv, capture_output=True, timeout=TIMEOUT_S, cwd=HERE)
    except subprocess.TimeoutExpired:
        return [f"hung: no exit within {TIMEOUT_S} s"]
    out = p.stdout.decode("utf-8", "replace")
    err = p.stderr.decode("utf-8", "replace")
    problems = []
    allowed = {int(x) for x in row["exit"].split("|")}
    if p.returncode not in allowed:
        problems.append(f"exit {p.returncode}, expected {row['exit']}")
    lines = err.splitlines()
    if "batch" in argv[1:2] or " batch " in command:
        lines = [l for l in lines if not l.startswith("gemm-advisor: batch: ")]  # the run summary
    errors = [l for l in lines if l.startswith("gemm-advisor: error: ")]
    warnings = [l for l in lines if l.startswith("gemm-advisor: warning: ")]
    others = [l for l in lines if l not in errors and l not in warnings]
    fragment = row["fragment"]
    kind = row["stderr"]
    if kind == "error":
        if len(errors) != 1 or lines[0] != errors[0] or len(lines) != 1:
            problems.append(f"expected exactly one 'gemm-advisor: error:' line on stderr, got {lines!r}")
        if fragment not in err:
            problems.append(f"stderr lacks {fragment!r}")
        if out:
            problems.append(f"stdout not empty on error: {out[:200]!r}")
    elif kind == "warning":
        if errors or others or not warnings:
            problems.append(f"expected only warning lines on stderr, got {lines!r}")
        if fragment not in "\n".join(warnings):
            problems.append(f"no warning holds {fragment!r}")
        if not out:
            problems.append("stdout empty")
    elif kind == "quiet":
        if err:
            problems.append(f"stderr not empty: {err[:300]!r}")
        if not out or fragment not in out:
            problems.append(f"stdout lacks {fragment!r}: {out[:300]!r}")
    elif kind == "silent":
        if err:
            problems.append(f"stderr not empty: {err[:300]!r}")
    else:
        problems.append(f"unknown stderr kind {kind!r}")
    for l in err.splitlines():
        if any(ord(c) < 0x20 for c in l):
            problems.append(f"control character in a stderr line: {l!r}")
    return problems


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    only = set(sys.argv[2:])
    rows = read_catalogue(os.path.join(HERE, "catalogue.tsv"))
    names = [r["name"] for r in rows]
    duplicated = {n for n in names if names.count(n) > 1}
    if duplicated:
        sys.exit(f"duplicated row names: {sorted(duplicated)}")
    tmp = tempfile.mkdtemp(prefix="gemm-advisor-bad-inputs-")
    unreadable, why_not = prepare_unreadable(tmp)
    passed = failed = skipped = 0
    try:
        for row in rows:
            if only and row["name"] not in only:
                continue
            if "{unreadable}" in row["command"] and unreadable is None:
                skipped += 1
                print(f"SKIP {row['name']}: {why_not}")
                continue
            problems = check_row(binary, row, unreadable)
            if problems:
                failed += 1
                print(f"FAIL {row['name']} (catalogue.tsv:{row['line']}: {row['command']})")
                for problem in problems:
                    print(f"    {problem}")
            else:
                passed += 1
    finally:
        if unreadable:
            os.chmod(unreadable, 0o600)
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"bad-input catalogue: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
