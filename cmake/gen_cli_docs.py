#!/usr/bin/env python3
"""Writes gemm-advisor's shell completions (bash, zsh, fish) and help2man's include file from the
binary's own --help (CLI11 writes none), so they list exactly the subcommands and options the
binary has. Run at build time (apps/gemm-advisor/CMakeLists.txt).
Usage: gen_cli_docs.py PATH/TO/gemm-advisor OUTDIR
       gen_cli_docs.py --fix-man PAGE.1   (after help2man: the examples one a line)"""
import json
import os
import re
import subprocess
import sys


def fix_man_examples(path):
    """help2man sets the footer's "Examples:" lines as one indented paragraph, which man fills into
    one run-on line (a fresh user's find, 2026-12-05): each example becomes a line of its own (.nf)."""
    with open(path) as f:
        lines = f.read().split("\n")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        if lines[i] == "Examples:" and i + 1 < len(lines) and lines[i + 1] == ".IP":
            out[-1:] = [".PP", "Examples:", ".RS", ".nf"]
            i += 2
            while i < len(lines) and not lines[i].startswith("."):
                out.append(lines[i])
                i += 1
            out += [".fi", ".RE"]
            continue
        i += 1
    with open(path, "w") as f:
        f.write("\n".join(out))


if len(sys.argv) == 3 and sys.argv[1] == "--fix-man":
    fix_man_examples(sys.argv[2])
    sys.exit(0)

BIN, OUT = sys.argv[1], sys.argv[2]
DTYPES = "fp32 fp16 bf16 fp8 fp6 fp4"
LAYOUTS = "NN NT TN TT"


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"gen_cli_docs.py: {BIN} {' '.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return p.stdout


def parse_help(text):
    """{'description', 'options': [{names, takes_value, choices, help}], 'subcommands': [(name, help)]}."""
    lines = text.splitlines()
    result = {"description": lines[0].strip() if lines else "", "options": [], "subcommands": [], "positionals": []}
    section = None
    for line in lines:
        if not line.strip():
            section = None
            continue
        if line in ("Options:", "Subcommands:", "Positionals:"):
            section = line[:-1]
            continue
        if section is None:
            continue
        if line.startswith(" " * 10):  # a description continued on its own line
            target = result["options"] if section == "Options" else None
            if target:
                target[-1]["help"] = (target[-1]["help"] + " " + line.strip()).strip()
            continue
        m = re.match(r"(\S.*?)(?:\s{2,}(.*))?$", line.strip())
        head, desc = m.group(1), m.group(2) or ""
        if section == "Subcommands":
            result["subcommands"].append((head.strip(), desc.strip()))
        elif section == "Positionals":
            result["positionals"].append(head.split()[0])
        else:
            parts = head.split(None, 1)
            names = parts[0].split(",")
            kind = parts[1] if len(parts) > 1 else ""
            m = re.search(r"\{([^}]*)\}", kind)
            result["options"].append({"names": names, "takes_value": bool(kind.split(" Excludes:")[0].strip()),
                                      "choices": m.group(1).split(",") if m else [], "help": desc.strip()})
    return result


def choices_of(option, profiles):
    if option["choices"]:
        return option["choices"]
    names = option["names"]
    if "--dtype" in names:
        return DTYPES.split()
    if "--layout" in names:
        return LAYOUTS.split()
    if "--hw" in names:
        return profiles
    return []


def commands():
    """[(path tuple, parsed help)] for the program and every (nested) subcommand."""
    found = []

    def visit(path):
        parsed = parse_help(run(*path, "--help"))
        found.append((path, parsed))
        for name, _ in parsed["subcommands"]:
            visit(path + (name,))

    visit(())
    return found


profiles = [p["name"] for p in json.loads(run("profiles", "--format", "json"))]
cmds = commands()
os.makedirs(OUT, exist_ok=True)


def short(text, n=70):
    text = text.split(". ")[0]
    return text if len(text) <= n else text[: n - 3].rstrip() + "..."


# --- bash ----------------------------------------------------------------------------------------
def bash():
    out = ["# bash completion for gemm-advisor; generated from its --help by cmake/gen_cli_docs.py",
           "_gemm_advisor() {",
           '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" cmd="" i w',
           "  for ((i = 1; i < COMP_CWORD; i++)); do",
           '    w="${COMP_WORDS[i]}"',
           '    case "$cmd $w" in']
    for path, parsed in cmds:
        for name, _ in parsed["subcommands"]:
            parent = " ".join(path)
            out.append(f'      "{parent} {name}") cmd="{(parent + " " + name).strip()}" ;;')
    out += ["    esac", "  done", '  case "$cmd|$prev" in']
    for path, parsed in cmds:
        for o in parsed["options"]:
            if not o["takes_value"]:
                continue
            values = choices_of(o, profiles)
            pattern = "|".join(f'"{" ".join(path)}|{n}"' for n in o["names"])
            if values:
                out.append(f'    {pattern}) COMPREPLY=($(compgen -W "{" ".join(values)}" -- "$cur")); return ;;')
            else:
                out.append(f"    {pattern}) COMPREPLY=(); return ;;  # a file or a value: the default completion")
    out += ["  esac", '  case "$cmd" in']
    for path, parsed in cmds:
        words = [n for o in parsed["options"] for n in o["names"]] + [n for n, _ in parsed["subcommands"]]
        if path:  # -q/--quiet and -v/--verbose also after the subcommand
            words += [n for o in cmds[0][1]["options"] if not o["takes_value"] for n in o["names"]
                      if n not in ("-h", "--help", "--version") and n not in words]
        out.append(f'    "{" ".join(path)}") COMPREPLY=($(compgen -W "{" ".join(words)}" -- "$cur")) ;;')
    out += ["  esac", "}", "complete -o default -F _gemm_advisor gemm-advisor", ""]
    return "\n".join(out)


# --- zsh -----------------------------------------------------------------------------------------
def zq(text):
    """Text inside a single-quoted zsh _arguments spec."""
    return text.replace("'", "'\\''").replace("[", "(").replace("]", ")").replace(":", " -")


def zsh_function(path, parsed):
    fn = "_gemm-advisor" + "".join("-" + p for p in path)
    specs = []
    for o in parsed["options"]:
        values = choices_of(o, profiles)
        action = (f":value:({' '.join(values)})" if values else ":value:_files") if o["takes_value"] else ""
        names = o["names"]
        spec = f"[{zq(short(o['help']))}]{action}"
        if len(names) > 1:
            specs.append(f"'({' '.join(names)})'{{{','.join(names)}}}'{spec}'")
        else:
            specs.append(f"'{names[0]}{spec}'")
    lines = [f"{fn}() {{", "  local curcontext=$curcontext state line", "  typeset -A opt_args"]
    if parsed["subcommands"]:
        lines += ["  local -a subcommands", "  subcommands=("]
        lines += [f"    '{zq(name)}:{zq(short(desc))}'" for name, desc in parsed["subcommands"]]
        lines += ["  )", "  _arguments -C \\"] + [f"    {s} \\" for s in specs]
        lines += ["    ': :->command' \\", "    '*:: :->args'", "  case $state in",
                  "    command) _describe -t commands 'gemm-advisor command' subcommands ;;",
                  "    args)", "      case $words[1] in"]
        for name, _ in parsed["subcommands"]:
            lines.append(f"        {name}) {fn}-{name} ;;")
        lines += ["      esac ;;", "  esac"]
    else:
        lines += ["  _arguments \\"] + [f"    {s} \\" for s in specs] + ["    '*:file:_files'"]
    lines.append("}")
    return "\n".join(lines)


def zsh():
    out = ["#compdef gemm-advisor", "# zsh completion for gemm-advisor; generated from its --help by cmake/gen_cli_docs.py"]
    for path, parsed in reversed(cmds):
        out.append(zsh_function(path, parsed))
    out += ['_gemm-advisor "$@"', ""]
    return "\n".join(out)


# --- fish ----------------------------------------------------------------------------------------
def fq(text):
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish():
    out = ["# fish completion for gemm-advisor; generated from its --help by cmake/gen_cli_docs.py"]
    for path, parsed in cmds:
        if not path:
            cond = "__fish_use_subcommand"
        elif len(path) == 1:
            nested = [n for n, _ in parsed["subcommands"]]
            cond = f"__fish_seen_subcommand_from {path[0]}" + (
                f"; and not __fish_seen_subcommand_from {' '.join(nested)}" if nested else "")
        else:
            cond = f"__fish_seen_subcommand_from {path[0]}; and __fish_seen_subcommand_from {path[-1]}"
        for name, desc in parsed["subcommands"]:
            out.append(f"complete -c gemm-advisor -n {fq(cond)} -f -a {name} -d {fq(short(desc))}")
        for o in parsed["options"]:
            flags = " ".join(f"-l {n[2:]}" if n.startswith("--") else f"-s {n[1:]}" for n in o["names"])
            values = choices_of(o, profiles)
            value = (f" -x -a {fq(' '.join(values))}" if values else " -r") if o["takes_value"] else ""
            out.append(f"complete -c gemm-advisor -n {fq(cond if path else 'true')} {flags}{value} -d {fq(short(o['help']))}")
    return "\n".join(out) + "\n"


# --- help2man's include: a SUBCOMMANDS section with each one's options ---------------------------
def roff(text):
    return text.replace("\\", "\\\\").replace("-", "\\-")


def h2m():
    out = ["[DESCRIPTION]",
           "gemm\\-advisor reads GEMM shapes and a YAML hardware profile, runs every legal tile configuration of "
           "a kernel through an analytical latency model and prints them ranked, as a table, JSON or CSV, or "
           "writes the config files kernel libraries read. Nothing runs on the GPU.",
           "", "[SUBCOMMANDS]"]
    for path, parsed in cmds[1:]:
        out += [".TP", "\\fBgemm\\-advisor " + roff(" ".join(path)) + "\\fR" +
                "".join(" \\fI" + roff(p) + "\\fR" for p in parsed["positionals"]), roff(parsed["description"])]
        for o in parsed["options"]:
            if o["names"] == ["-h", "--help"]:
                continue
            names = ", ".join("\\fB" + roff(n) + "\\fR" for n in o["names"])
            values = "{" + ",".join(o["choices"]) + "}" if o["choices"] else ("VALUE" if o["takes_value"] else "")
            out += [".RS", ".TP", names + (" " + roff(values) if values else ""), roff(o["help"]), ".RE"]
    out += ["", "[ENVIRONMENT]", ".TP", "\\fBGEMM_ADVISOR_HW\\fR",
            "The profile used when \\-\\-hw is not given (else the local GPU as nvidia\\-smi or rocm\\-smi name it).",
            "", "[FILES]", ".TP", "\\fIshare/gemm\\-advisor/profiles/*.yaml\\fR",
            "The shipped hardware profiles (also compiled into the binary); schema: SCHEMA.md beside them.",
            "", "[SEE ALSO]", "The Python module: python3 \\-c 'import gemm_advisor; help(gemm_advisor)'.", ""]
    return "\n".join(out)


for name, text in (("gemm-advisor.bash", bash()), ("_gemm-advisor", zsh()), ("gemm-advisor.fish", fish()),
                   ("gemm-advisor.h2m", h2m())):
    with open(os.path.join(OUT, name), "w") as f:
        f.write(text)
