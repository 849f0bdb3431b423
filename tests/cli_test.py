#!/usr/bin/env python3
"""End-to-end tests of the gemm-advisor command line: exit codes, stdout/stderr discipline,
JSON/CSV shapes, --top, --candidates. Usage: cli_test.py PATH/TO/gemm-advisor (run from the repo root)."""
import csv
import gzip
import io
import json
import re
import shutil
import subprocess
import sys

import cli_harness
import tempfile
import os

BIN = sys.argv[1]
TMP = cli_harness.temp_dir("gemm-advisor-cli-test-")


def run(*args, stdin=None):
    return cli_harness.run(BIN, *args, stdin=stdin, timeout=120)


check = cli_harness.check


def expect_error(name, args, code, fragment, stdin=None):
    rc, out, err = run(*args, stdin=stdin)
    lines = [l for l in err.splitlines() if l.strip()]
    check(name + ": exit code", rc == code, f"got {rc}, stderr={err!r}")
    check(name + ": nothing on stdout", out == "", f"stdout={out[:200]!r}")
    check(name + ": one line on stderr", len(lines) == 1, f"stderr={err!r}")
    check(name + ": message", fragment in err, f"wanted {fragment!r} in {err!r}")


# --- rank: JSON schema, peak bound, --top -------------------------------------------------------
rc, out, err = run("rank", "8192x8192x8192", "--hw", "b200", "--format", "json")
check("rank json exit 0", rc == 0, err)
doc = json.loads(out)
for key in ("problem", "hardware", "target", "configs"):
    check(f"json has {key}", key in doc)
check("problem fields", doc["problem"] == {"m": 8192, "n": 8192, "k": 8192, "batch": 1, "dtype": "bf16", "layout": "NT"},
      str(doc["problem"]))
check("hardware name", doc["hardware"]["name"] == "b200")
check("top defaults to 5", len(doc["configs"]) == 5)
required = ["rank", "block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k", "latency_s",
            "tflops", "bound", "terms"]
for c in doc["configs"]:
    missing = [k for k in required if k not in c]
    check("config keys", not missing, f"missing {missing}")
check("ranks 1..5", [c["rank"] for c in doc["configs"]] == [1, 2, 3, 4, 5])
# Operands past the GPU's memory are said (predicted all the same): 131072^3 bf16 is 103 GB on an 80 GB
# A100 (a fresh user's find, 2026-12-04); 4096^3 says nothing.
rc, out, err = run("rank", "131072x131072x131072", "--hw", "a100", "--top", "1")
check("rank of a GEMM past the GPU's memory: ranked, one warning naming both sizes",
      rc == 0 and "take 103 GB, more than a100's 80 GB of memory" in err and len(err.splitlines()) == 1, err)
rc, out, err = run("rank", "4096x4096x4096", "--hw", "a100", "--top", "1")
check("... and none for a GEMM that fits", rc == 0 and err == "", err)
# Option values from a fixed list match in any case, as --dtype and --layout do (--format JSON was
# refused: a fresh user's find, 2026-12-05), and mean the listed value.
rc, out, err = run("rank", "64x64x64", "--hw", "h200", "--target", "Triton-Tutorial", "--format", "JSON", "--top", "1")
check("--format JSON, --target Triton-Tutorial: the tutorial target's JSON",
      rc == 0 and json.loads(out)["target"] == "triton-tutorial", err)
rc, out, err = run("rank", "64x64x64", "--hw", "h200", "--format", "XML")
check("--format XML: a usage error listing the formats", rc == 2 and "{table,json,csv}" in err, err)
# --candidates - reads stdin, as a shape list and --from-hf do; stdin feeds one input (fresh-user
# finds, 2026-12-04).
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", "-", "--format", "json", stdin="128x128x64:8:3\n")
check("--candidates - reads stdin", rc == 0 and [(c["block_m"], c["num_stages"]) for c in json.loads(out)["configs"]] ==
      [(128, 3)], err)
# Given configs larger than the problem rank after the others, and where one is predicted faster than
# a config listed above it, the warning says so and names it (a fresh expert's find, 2026-12-07): on the
# H100, 64x64x128 and 64x128x128 for 32 rows are predicted 26.0 and 28.1 us, 32x128x128 33.9 us.
rc, out, err = run("rank", "32x4096x4096", "--hw", "h100", "--candidates", "-", "--top", "0", "--format", "json",
                   stdin="64x64x128:4:4\n32x64x128:4:4\n64x128x128:4:4\n32x128x128:4:4\n")
given_order = [(c["block_m"], c["block_n"]) for c in json.loads(out)["configs"]] if rc == 0 else []
check("--candidates: tiles past M's next power of two rank last, the warning names the fastest",
      given_order == [(32, 64), (32, 128), (64, 64), (64, 128)] and
      "2 given configs larger than 32x4096x4096" in err and "the fastest, 64x64x128:4:4" in err, (given_order, err))
rc, out, err = run("rank", "32x4096x4096", "--hw", "h100", "--candidates", "-", "--top", "1", stdin="64x64x128:4:4\n32x64x128:4:4\n")
check("--candidates --top 1: no warning where the output shows no slower config above a faster one",
      rc == 0 and err == "", err)
rc, out, err = run("batch", "-", "--hw", "h200", "--candidates", "-", stdin="128x128x64:8:3\n")
check("batch - with --candidates -: a usage error naming both", rc == 2 and out == "" and
      "--candidates and the shape list are both '-'" in err, err)
# Surrounding whitespace is not part of a shape (a line read in Python ends in a newline): the same
# ranking (it was "K '8192 ' is not a positive whole number": a fresh user's find, 2026-12-04).
rc, padded, err = run("rank", " 8192x8192x8192\n", "--hw", "b200", "--format", "json")
check("rank ' 8192x8192x8192\\n': the same configs as without the whitespace",
      rc == 0 and json.loads(padded)["configs"] == doc["configs"], err)
check("sorted by latency", all(a["latency_s"] <= b["latency_s"] * 1.0100001 for a, b in zip(doc["configs"], doc["configs"][1:])))
# B200 dense bf16 peak 2250 TFLOP/s (NVIDIA datasheet): the top config can never exceed it.
check("top config at or below peak", doc["configs"][0]["tflops"] <= doc["hardware"]["peak_tflops"] <= 2250 * 1.01,
      str(doc["configs"][0]["tflops"]))
check("no stderr on success", err == "", err)

rc, out, _ = run("rank", "512x512x512", "--hw", "a100", "--top", "3", "--format", "json")
check("--top 3", len(json.loads(out)["configs"]) == 3)
rc, out, _ = run("rank", "512x512x512", "--hw", "a100", "--top", "0", "--format", "json")
all_configs = json.loads(out)["configs"]
check("--top 0 gives all (more than 100)", len(all_configs) > 100, str(len(all_configs)))

rc, out, _ = run("rank", "4096x4096x4096", "--hw", "mi350x", "--format", "csv", "--top", "4")
rows = list(csv.DictReader(io.StringIO(out)))
check("csv rows", len(rows) == 4 and rows[0]["rank"] == "1" and rows[0]["hardware"] == "mi350x", out[:300])

# An infeasible candidate's CSV row has the header's fields, feasible 0 and the reason under `reason`
# (one empty field too many put the reason in a 25th, unnamed column: a fresh user's find).
bad_candidates = os.path.join(tempfile.mkdtemp(), "bad-candidates.csv")
with open(bad_candidates, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages\n128,128,64,8,3\n96,128,64,8,3\n")
rc, out, _ = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", bad_candidates, "--format", "csv", "-q")
table = list(csv.reader(io.StringIO(out)))
rows = list(csv.DictReader(io.StringIO(out)))
check("csv: an infeasible config's row has as many fields as the header, the reason under 'reason'",
      rc == 0 and len({len(r) for r in table}) == 1 and rows[-1]["feasible"] == "0" and
      "power of two" in rows[-1]["reason"] and rows[-1]["block_m"] == "96", out)

rc, out, _ = run("rank", "4096x4096x4096", "--hw", "h100")
check("table has header and 5 rows", rc == 0 and "TFLOP/s" in out and len(out.strip().splitlines()) == 7, out)

# --- --candidates ranks exactly the given configs ------------------------------------------------
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", "tests/data/candidates.csv",
                   "--top", "0", "--format", "json")
doc = json.loads(out)
got = sorted((c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"], c["group_m"], c["split_k"])
             for c in doc["configs"])
want = sorted([(128, 128, 64, 8, 3, 8, 1), (64, 64, 32, 4, 4, 4, 1), (16, 64, 128, 4, 3, 8, 4)])
check("candidates: exactly the given configs", got == want, str(got))

INFEASIBLE = os.path.join(TMP, "infeasible.csv")
with open(INFEASIBLE, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages\n128,128,64,8,3\n256,256,128,8,6\n")
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", INFEASIBLE,
                   "--top", "0", "--format", "json")
doc = json.loads(out)
check("infeasible candidate reported, not dropped", len(doc["configs"]) == 1 and len(doc.get("infeasible", [])) == 1
      and "shared memory" in doc["infeasible"][0]["reason"], out[:500])
check("infeasible candidate warned on stderr", "infeasible" in err, err)
# ... also with --distinct and a --top (the shortlist cut dropped it: a fresh user's find, 2026-12-04)
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", INFEASIBLE,
                   "--top", "1", "--distinct", "--format", "json")
doc = json.loads(out)
check("infeasible candidate reported with --distinct --top 1", rc == 0 and len(doc["configs"]) == 1
      and len(doc.get("infeasible", [])) == 1 and "infeasible" in err, out[:500] + err)

# --- profiles -----------------------------------------------------------------------------------
rc, out, _ = run("profiles")
for name in ("mi350x", "mi355x", "mi300x", "b200", "h100", "h200", "a100"):
    check(f"profiles lists {name}", any(line.startswith(name + " ") for line in out.splitlines()), out)
rc, out, _ = run("profiles", "show", "a100")
check("profiles show prints YAML with sources", rc == 0 and "sources:" in out and "cu_count: 108" in out, out[:200])
rc, out, _ = run("profiles", "validate", "tests/data/toy.yaml")
check("profiles validate ok", rc == 0 and ": ok:" in out, out)
# What a target needs and the profile lacks is said by validate (it said "ok", then every vllm-fp8-block
# rank failed: a fresh user's find, 2026-12-05), and the rank error names the profile file.
novec = os.path.join(TMP, "novec.yaml")
with open(novec, "w") as f:
    f.write("".join(line for line in open("profiles/b200.yaml") if "vector_fp32_lanes_per_cu" not in line))
rc, out, err = run("profiles", "validate", novec)
check("profiles validate: no vector lanes is ok, with a warning naming the targets that need them",
      rc == 0 and ": ok:" in out and "no compute.vector_fp32_lanes_per_cu: vllm-fp8-block and vllm-fused-moe" in err, err)
rc, out, err = run("rank", "64x7168x2048", "--hw", novec, "--target", "vllm-fp8-block", "--dtype", "fp8")
check("rank on it: the error names the profile file", rc == 1 and f"the profile ({novec}) has no compute.vector_fp32_lanes_per_cu"
      in err, err)
rc, out, err = run("profiles", "validate", "a100")
check("profiles validate a100: no fp8 said", rc == 0 and "no matrix.fp8 entry: vllm-fp8-block" in err, err)
# A dtype no config can run in, other than the one the peak names, is said (a profile whose shared memory
# left fp32 no config validated as ok: a fresh user's find, 2026-12-06). 1536 bytes a block: the smallest
# fp32 tile, 16x16x16 at 1 stage, needs 2 x 16 x 16 x 4 = 2048 bytes; bf16's 1024 fits (hand count).
small = os.path.join(TMP, "small-smem.yaml")
with open(small, "w") as f:
    f.write(open("profiles/h200.yaml").read().replace("  smem_per_block_bytes: 232448", "  smem_per_block_bytes: 1536")
            .replace("  smem_per_cu_bytes: 233472", "  smem_per_cu_bytes: 2560"))
rc, out, err = run("profiles", "validate", small)
check("profiles validate: a dtype no config can run in is a warning, the profile ok",
      rc == 0 and ": ok:" in out and "no config of the triton target can run in fp32 (4096x4096x4096, e.g. "
      "128x128x64:8:3: needs 196608 bytes of shared memory, more than the 1536 a block may use on h200): --dtype fp32 "
      "fails on it" in err and "can run in bf16" not in err and "can run in fp8" not in err, err)
rc, out, err = run("rank", "64x64x64", "--hw", small, "--dtype", "fp32")
check("... and rank --dtype fp32 on it fails, as the warning said", rc == 1 and "no feasible config" in err, err)
# explain's byte counts: bytes under 10 kB, megabytes to 3 decimals, and past a petabyte 4 significant
# digits (a 2^31-cubed problem printed 21 integer digits). Hand count: 1x1x1 bf16 reads A and B and
# writes C, 2 bytes each: 6 bytes compulsory; 2^31-cubed bf16: 3 x 2^62 x 2 bytes = 2.767e+19 bytes.
rc, out, _ = run("explain", "1x1x1", "--hw", "h200")
check("explain 1x1x1: the compulsory bytes in bytes", rc == 0 and "(compulsory 6 bytes)" in out, out)
rc, out, _ = run("explain", "2147483647x2147483647x2147483647", "--hw", "h200")
check("explain 2^31-cubed: petabytes in significant digits", rc == 0 and "(compulsory 2.767e+13 MB)" in out, out)
# Several errors in one file: said in the file's order (the checks run by kind, so an unknown key at a
# later line came before a range error at an earlier one: a fresh user's find, 2026-12-07).
errs = os.path.join(TMP, "two-errors.yaml")
with open(errs, "w") as f:
    f.write(open("profiles/h200.yaml").read() + "model_parameters:\n  coresident_load_overlap: 2\n  bogus_name: 1\n")
rc, out, err = run("profiles", "validate", errs)
lines = [l for l in err.splitlines() if l.startswith("gemm-advisor: error: ")]
numbers = [int(l.split(errs + ":")[1].split(":")[0]) for l in lines if errs + ":" in l]
check("profiles validate: errors in line order, range error before the unknown key below it",
      rc == 1 and len(numbers) == 2 and numbers == sorted(numbers) and "outside the plausible range" in lines[0], err)
# Several files: each checked, a bad one said without stopping the rest, exit 1 (it was "unexpected
# arguments": a fresh user's find, 2026-12-05).
rc, out, err = run("profiles", "validate", "h200", os.path.join(TMP, "no-such.yaml"), "tests/data/toy.yaml")
check("profiles validate A B C: each checked, the missing one an error, exit 1",
      rc == 1 and out.startswith("h200: ok:") and "tests/data/toy.yaml: ok:" in out and "no-such.yaml: cannot open" in err,
      out + err)
expect_error("a pasted multiplication sign in a shape is named", ["rank", "4096\u00d74096\u00d74096", "--hw", "h200"], 1,
             "(a multiplication sign where x goes): expected MxNxK")
rc, out, err = run("profiles", "validate", "NVIDIA H200")
check("profiles validate takes a GPU name as --hw does (it was 'cannot open')",
      rc == 0 and out.startswith("NVIDIA H200: ok: h200 "), out + err)
# A file named like a shipped profile in the working directory: validate, show and --hw all read the
# shipped one and say the file is not read (validate read the file and --hw the shipped profile, unsaid:
# a fresh user's find, 2026-12-04); ./h100 reads the file.
shadow_dir = os.path.join(TMP, "shadow")
os.makedirs(shadow_dir)
shutil.copy("profiles/a100.yaml", os.path.join(shadow_dir, "h100"))
for args, shown in ((["rank", "64x64x64", "--hw", "h100"], "H100"), (["profiles", "show", "h100"], "name: h100")):
    p = subprocess.run([os.path.abspath(BIN), *args], cwd=shadow_dir, capture_output=True, text=True)
    check(f"{args[0]} {args[1]}: a shipped name over a file of that name here, warned", p.returncode == 0 and
          shown in p.stdout and "the file h100 here is not read (give ./h100" in p.stderr, p.stdout[:200] + p.stderr)
# ... and so does a GPU name of a shipped profile (torch.cuda.get_device_name()'s "NVIDIA H200"): a file
# of that name here was read unsaid but for its hardware (a fresh Python user's find, 2026-12-07).
shutil.copy("profiles/a100.yaml", os.path.join(shadow_dir, "NVIDIA H200"))
p = subprocess.run([os.path.abspath(BIN), "rank", "64x64x64", "--hw", "NVIDIA H200", "--top", "1"], cwd=shadow_dir,
                   capture_output=True, text=True)
check("rank --hw 'NVIDIA H200' with a file of that name here: the shipped h200, warned",
      p.returncode == 0 and "NVIDIA H200 SXM 141GB" in p.stdout and "'NVIDIA H200' names the shipped profile h200; "
      "the file NVIDIA H200 here is not read (give ./NVIDIA H200 to use it)" in p.stderr, p.stdout[:200] + p.stderr)
p = subprocess.run([os.path.abspath(BIN), "profiles", "validate", "NVIDIA H200"], cwd=shadow_dir, capture_output=True,
                   text=True)
check("profiles validate 'NVIDIA H200' with such a file: the file, and that --hw loads the shipped h200",
      p.returncode == 0 and "ok: a100 " in p.stdout and "--hw NVIDIA H200 loads the shipped profile h200" in p.stderr,
      p.stdout + p.stderr)
# ... but validate validates the file (what it is for: reading the shipped profile passed a broken file
# as "ok", a second fresh user's find) and says --hw h100 loads the shipped one.
p = subprocess.run([os.path.abspath(BIN), "profiles", "validate", "h100"], cwd=shadow_dir, capture_output=True, text=True)
check("profiles validate h100 with a file h100 here: the file, and a warning that --hw loads the shipped one",
      p.returncode == 0 and "h100: ok: a100 " in p.stdout and "--hw h100 loads the shipped profile" in p.stderr,
      p.stdout + p.stderr)
p = subprocess.run([os.path.abspath(BIN), "profiles", "validate", "./h100"], cwd=shadow_dir, capture_output=True, text=True)
check("profiles validate ./h100 reads the file", p.returncode == 0 and "./h100: ok: a100 " in p.stdout, p.stdout + p.stderr)
p = subprocess.run([os.path.abspath(BIN), "-q", "profiles", "validate", "h100"], cwd=shadow_dir, capture_output=True,
                   text=True)
check("profiles validate -q: no warnings (they were written past --quiet)", p.returncode == 0 and p.stderr == "", p.stderr)

# --- errors: one line, exit code, nothing on stdout ----------------------------------------------

# Control bytes in a file name or option value stay on one line, written \xNN (a newline in a path
# split the error over two lines; an ESC reached the terminal raw: a fresh user's find).
expect_error("a newline in a shape-list path", ["batch", "a\nb.csv", "--hw", "h200"], 1, "a\\x0ab.csv: cannot open")
# A byte that is not UTF-8 (a Latin-1 file name) is escaped too (it reached the terminal raw: a fresh
# user's find, 2026-12-05); "\udcff" is byte 0xFF in an argument (Python's surrogateescape).
expect_error("a non-UTF-8 byte in a measurements path", ["evaluate", "--hw", "h200", "--measurements", "bad\udcffname.csv"],
             1, "bad\\xffname.csv: cannot open")
expect_error("an ESC in --target", ["rank", "64x64x64", "--hw", "h200", "--target", "a\x1bb"], 2, "a\\x1bb")

expect_error("zero dim", ["rank", "4096x0x4096"], 1, "shape '4096x0x4096'")
expect_error("letters", ["rank", "abc"], 1, "shape 'abc'")
expect_error("negative", ["rank", "-1x2x3"], 1, "-1x2x3")
expect_error("float", ["rank", "1e20x1x1"], 1, "shape '1e20x1x1'")
expect_error("two dims", ["rank", "4096x4096"], 1, "expected MxNxK")
expect_error("unknown profile", ["rank", "64x64x64", "--hw", "rtx9090"], 1, "unknown hardware profile 'rtx9090'")
expect_error("dtype the hardware lacks", ["rank", "64x64x64", "--hw", "a100", "--dtype", "fp8"], 1,
             "dtype fp8 is not supported by a100")
# Another spelling of fp8 is quoted as given (the message said "fp8" for --dtype e4m3: a noted gap).
expect_error("dtype the hardware lacks, another spelling", ["rank", "64x64x64", "--hw", "a100", "--dtype", "e4m3"], 1,
             "dtype e4m3 (fp8) is not supported by a100")
# A target's own dtype the GPU lacks is told as that dtype, not as --dtype's default ("dtype bf16 (fp8)":
# a fresh user's find, 2026-12-06).
expect_error("a target's dtype the hardware lacks", ["rank", "64x7168x2048", "--hw", "a100", "--target", "vllm-fp8-block"],
             1, "error: dtype fp8 is not supported by a100")
# batch says it alike, exit 1 (it was a usage error there, exit 2: a fresh user's find, 2026-12-06).
expect_error("dtype the hardware lacks, batch", ["batch", "examples/llama3-8b.csv", "--hw", "a100", "--dtype", "fp8"], 1,
             "dtype fp8 is not supported by a100")
expect_error("unknown dtype", ["rank", "64x64x64", "--dtype", "int2"], 2, "unknown dtype 'int2'")
expect_error("unreadable candidates", ["rank", "64x64x64", "--candidates", "no-such.csv"], 1, "no-such.csv: cannot open")
expect_error("candidates is a directory", ["rank", "64x64x64", "--candidates", "tests"], 1, "tests: is a directory")
expect_error("missing profile file", ["rank", "64x64x64", "--hw", "nope/x.yaml"], 1, "nope/x.yaml: cannot open")
expect_error("unknown option", ["rank", "64x64x64", "--bogus"], 2, "--bogus")
expect_error("no subcommand", [], 2, "subcommand")
expect_error("bad format", ["rank", "64x64x64", "--format", "xml"], 2, "xml")

BAD_PROFILE = os.path.join(TMP, "bad-profile.yaml")
with open(BAD_PROFILE, "w") as f:
    f.write(open("tests/data/toy.yaml").read().replace("cu_count: 100", "cu_count: -3"))
expect_error("non-positive profile field", ["rank", "64x64x64", "--hw", BAD_PROFILE], 1,
             "bad-profile.yaml:9: 'compute.cu_count' must be positive")
rc, out, err = run("profiles", "validate", BAD_PROFILE)
check("validate names the problem", rc == 1 and "compute.cu_count" in err and out == "", err)
# A fresh user's finds (2026-12-04): a profile without bf16 validated with "0.0 bf16 TFLOP/s peak"; an
# empty name was reported twice by validate; quoted numbers were read as numbers; a list as a key was
# "unknown key 'compute.'"; dram_bytes took 1e30; .nan was "must be a number".
H200_TEXT = open("profiles/h200.yaml").read()
NO_BF16 = os.path.join(TMP, "no-bf16.yaml")
with open(NO_BF16, "w") as f:
    f.write("\n".join(l for l in H200_TEXT.split("\n") if not l.startswith("  bf16:")))
rc, out, _ = run("profiles", "validate", NO_BF16)
check("validate without bf16 gives another dtype's peak and says bf16 is missing",
      rc == 0 and "989.4 fp16 TFLOP/s peak, no bf16 (the default --dtype: give --dtype fp16)" in out, out)
for what, old_text, new_text, says in (
        ("an empty name, once", "name: h200\n", 'name: ""\n', ":3: 'name' must not be empty"),
        ("a quoted number", "  misaligned_store_fraction: 0.55", '  misaligned_store_fraction: "0.55"',
         "'efficiency.misaligned_store_fraction' must be a number, got the string '0.55'"),
        ("a !!str number", "  cu_count: 132", "  cu_count: !!str 132",
         "'compute.cu_count' must be a number, got the string '132'"),
        ("a list as a key", "  cu_count: 132\n", "  cu_count: 132\n  [a, b]: 3\n",
         "a key of 'compute' must be a name, got a list"),
        ("DRAM bytes out of range", "  dram_bytes: 141000000000", "  dram_bytes: 1e30",
         "'memory.dram_bytes' = 1e30 is outside the plausible range"),
        ("YAML's not-a-number", "  clock_mhz: 1830", "  clock_mhz: .nan", "'compute.clock_mhz' must be finite, got '.nan'"),
        ("an instruction size out of range (named as such, not as a divisor)", "instruction_m: 64, instruction_n: 8",
         "instruction_m: 64, instruction_min_m: 1e9, instruction_n: 8",
         "'matrix.bf16.instruction_min_m' = 1e9 is outside the plausible range [1, 1024]")):
    path = os.path.join(TMP, "validate-case.yaml")
    if old_text not in H200_TEXT:
        check(f"validate: {what} (the h200 profile has {old_text!r})", False)
        continue
    with open(path, "w") as f:
        f.write(H200_TEXT.replace(old_text, new_text, 1))
    rc, out, err = run("profiles", "validate", path)
    errors = [l for l in err.splitlines() if ": error: " in l]
    check(f"validate: {what}", rc == 1 and out == "" and len(errors) == 1 and says in errors[0], err)

# --- non-UTF-8 text: rejected where it is read, and JSON output never fails on it ---------------
UTF8_PROFILE = os.path.join(TMP, "not-utf8.yaml")
with open("profiles/h200.yaml", "rb") as f:
    lines = f.read().split(b"\n")
with open(UTF8_PROFILE, "wb") as f:
    f.write(b"\n".join(b'display_name: "NVIDIA \xff\xfe H200"' if l.startswith(b"display_name:") else l for l in lines))
expect_error("profile display_name not UTF-8", ["rank", "64x64x64", "--hw", UTF8_PROFILE, "--format", "json"], 1,
             "not-utf8.yaml:4: 'display_name' must be valid UTF-8 text, got 'NVIDIA \\xff\\xfe H200'")
expect_error("... and validate says so", ["profiles", "validate", UTF8_PROFILE], 1, "must be valid UTF-8 text")

NOT_UTF8_CSV = os.path.join(TMP, "not-utf8.csv")
with open(NOT_UTF8_CSV, "wb") as f:
    f.write(b"name,m,n,k\nbad\xffname,64,64,64\n")
expect_error("shape-list name not UTF-8", ["batch", NOT_UTF8_CSV, "--hw", "h200", "--format", "jsonl", "--quiet"], 1,
             "not-utf8.csv:2: column 'name' must be valid UTF-8 text, got 'bad\\xffname'")
NOT_UTF8_YAML = os.path.join(TMP, "not-utf8.yaml-list.yaml")
with open(NOT_UTF8_YAML, "wb") as f:
    f.write(b'# one shape\n- {m: 64, n: 64, k: 64, name: "a\xffb"}\n')
expect_error("YAML shape-list name not UTF-8", ["batch", NOT_UTF8_YAML, "--hw", "h200", "--quiet"], 1,
             "not-utf8.yaml-list.yaml:2: 'name' must be valid UTF-8 text")


# --- unreadable and empty inputs of batch: the real reason, never 'empty file' ---------------------
def run_with_stdin(args, stdin=None, close_stdin=False):
    """Runs the binary with stdin from a file descriptor (a directory, say), or closed."""
    p = subprocess.run([BIN, *args], stdin=stdin, capture_output=True, text=True, timeout=120,
                       preexec_fn=(lambda: os.close(0)) if close_stdin else None)
    return p.returncode, p.stdout, p.stderr


def expect_stdin_error(name, fragment, **kwargs):
    rc, out, err = run_with_stdin(["batch", "-", "--hw", "h200", "--quiet"], **kwargs)
    lines = [l for l in err.splitlines() if l.strip()]
    check(name + ": exit code 1", rc == 1, f"got {rc}, stderr={err!r}")
    check(name + ": one line, the reason", len(lines) == 1 and fragment in err and "empty" not in err,
          f"wanted {fragment!r} in {err!r}")
    check(name + ": nothing on stdout", out == "", out[:200])


directory_fd = os.open(TMP, os.O_RDONLY)
expect_stdin_error("stdin is a directory", "gemm-advisor: error: <stdin>: is a directory, expected a file",
                   stdin=directory_fd)
os.close(directory_fd)
expect_error("a directory by name: the same words", ["batch", TMP, "--hw", "h200"], 1, ": is a directory, expected a file")
expect_stdin_error("stdin closed", "gemm-advisor: error: <stdin>: cannot read: Bad file descriptor", close_stdin=True)
if os.path.exists("/proc/self/mem"):  # reading offset 0 of it fails with EIO
    expect_error("a file that cannot be read", ["batch", "/proc/self/mem", "--hw", "h200", "--input-format", "csv"], 1,
                 "/proc/self/mem: cannot read: Input/output error")
for text in ("", "\n\n"):
    expect_error(f"empty stdin {text!r}: no header expected", ["batch", "-", "--hw", "h200"], 1,
                 "<stdin>: empty input: no shapes", stdin=text)
    check(f"empty stdin {text!r}: no header mentioned", "header" not in run("batch", "-", "--hw", "h200", stdin=text)[2])
# A pipe given by name (`batch <(generator)`, /dev/stdin) has no size: it is read, not taken for empty.
rc, out, err = run("batch", "/dev/stdin", "--hw", "h200", "--format", "csv", "--quiet", stdin="64x64x64\n")
check("a pipe by name is read", rc == 0 and len(out.strip().splitlines()) == 2, f"rc={rc} out={out!r} err={err!r}")

# --- --candidates: unknown columns warn, as in shape lists ---------------------------------------
TYPO_CANDIDATES = os.path.join(TMP, "typo-candidates.csv")
with open(TYPO_CANDIDATES, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages,splitk\n64,64,32,4,3,2\n")
WARNING = "typo-candidates.csv:1: unknown column 'splitk' ignored (known: block_m, block_n, block_k, num_warps, num_stages, group_m, split_k)"
for cmd in (["rank", "64x64x64"], ["batch", "-"]):
    rc, out, err = run(*cmd, "--hw", "h200", "--candidates", TYPO_CANDIDATES, "--format", "csv", stdin="64x64x64\n")
    warnings = [l for l in err.splitlines() if "warning" in l]
    check(f"{cmd[0]} --candidates unknown column: exit 0 and output", rc == 0 and out.count("\n") == 2, err)
    check(f"{cmd[0]} --candidates unknown column: one warning line",
          warnings == ["gemm-advisor: warning: " + os.path.join(TMP, WARNING)], err)
    rc, out, err = run("--quiet", *cmd, "--hw", "h200", "--candidates", TYPO_CANDIDATES, "--format", "csv",
                       stdin="64x64x64\n")
    check(f"{cmd[0]} --candidates unknown column: --quiet hides the warning", rc == 0 and err == "", err)

# --- targets: listed, chosen with --target on every command ---------------------------------------
rc, out, err = run("targets", "--format", "json")
names = [t["name"] for t in json.loads(out)] if rc == 0 else []
check("targets: the kernels, triton first", names[:3] == ["triton", "triton-tutorial", "vllm-fp8-block"], out[:300])
check("targets: each with its kernel, source and parameter names",
      all(t["kernel"] and t["source"] and t["parameters"] for t in json.loads(out)), out[:300])
tutorial = next(t for t in json.loads(out) if t["name"] == "triton-tutorial")
check("targets: the tutorial's own names, no SPLIT_K", [p["name"] for p in tutorial["parameters"]] ==
      ["BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages"], str(tutorial))
rc, out, err = run("targets")
check("targets table: names each target", rc == 0 and all(n in out for n in names), out[:200])
# Each parameter by the kernel's name and by the config field --candidates and the CSV/JSON output use.
rows = [line.split() for line in out.splitlines() if line.startswith("    ")]
check("targets table: every parameter with its kernel name and its config field",
      rows and all(len(r) >= 3 and r[1] in ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages",
                                             "split_k") for r in rows) and
      ["BLOCK_SIZE_M", "block_m"] in [r[:2] for r in rows], out[:600])

rc, out, err = run("rank", "300x4096x4096", "--hw", "h200", "--target", "triton-tutorial", "--format", "json", "--top", "0")
doc = json.loads(out) if rc == 0 else {}
check("rank --target triton-tutorial: exit 0, says the target", rc == 0 and doc.get("target") == "triton-tutorial", err)
check("rank --target triton-tutorial: never split-K", all(c["split_k"] == 1 for c in doc.get("configs", [])))
# vllm-fp8-block takes fp8 x W^T: without --dtype/--layout the command assumes them.
rc, out, err = run("rank", "256x36864x7168", "--hw", "h200", "--target", "vllm-fp8-block", "--format", "json", "--top", "0")
doc = json.loads(out) if rc == 0 else {}
check("rank --target vllm-fp8-block: fp8 NT by default", rc == 0 and doc["problem"]["dtype"] == "fp8" and
      doc["problem"]["layout"] == "NT", err)
check("rank --target vllm-fp8-block: BLOCK_SIZE_K divides 128, GROUP_SIZE_M in the tuner's list",
      all(128 % c["block_k"] == 0 and c["group_m"] in (1, 16, 32, 64) for c in doc.get("configs", [])))
check("rank --target vllm-fp8-block: the scale math is a term", all(c["terms"]["vector_step_s"] > 0 for c in doc["configs"]))
rc, out, err = run("explain", "256x36864x7168", "--hw", "h200", "--target", "vllm-fp8-block", "--config",
                   "64x128x128:4:2", "--format", "json")
check("explain --target vllm-fp8-block --config: exit 0", rc == 0 and json.loads(out)["target"] == "vllm-fp8-block", err)
expect_error("vllm-fp8-block with bf16", ["rank", "256x4096x4096", "--target", "vllm-fp8-block", "--dtype", "bf16"], 1,
             "takes fp8 operands")
expect_error("unknown target", ["rank", "64x64x64", "--target", "cutlass"], 2, "--target")
expect_error("tutorial with a split-K config", ["explain", "64x64x65536", "--target", "triton-tutorial", "--config",
                                                "64x64x64:4:3:4"], 1, "no split-K")

# --- partitions and split-K: --cu-count, --max-split-k, compute.active_cu_count -------------------
# ROCm/rocm-libraries #12222: M=144, N=16 on the MI355X (256 CUs) has 3 output tiles of 64 rows at
# most; with K = 28.6M the fix is to split K across the CUs, far beyond the first round's 16.
rc, out, err = run("rank", "144x16x28600000", "--hw", "mi355x", "--top", "1", "--format", "json")
top = json.loads(out)["configs"][0] if rc == 0 else {}
check("huge K, few tiles: split-K beyond 16", rc == 0 and top.get("split_k", 0) > 16, f"{top} {err}")
rc, out, err = run("rank", "144x16x28600000", "--hw", "mi355x", "--top", "0", "--max-split-k", "16", "--format", "json")
check("--max-split-k 16 caps every config", rc == 0 and max(c["split_k"] for c in json.loads(out)["configs"]) == 16, err)
expect_error("--max-split-k 0", ["rank", "64x64x64", "--max-split-k", "0"], 2, "--max-split-k")
# ... said to have no effect on a target without split-K (it was accepted silently), and not on triton.
rc, out, err = run("rank", "64x4096x4096", "--hw", "h200", "--target", "triton-tutorial", "--max-split-k", "8", "--top", "1")
check("--max-split-k with triton-tutorial: a warning, exit 0",
      rc == 0 and "--max-split-k: target triton-tutorial has no split-K: no effect" in err, err)
rc, out, err = run("rank", "64x4096x4096", "--hw", "h200", "--max-split-k", "8", "--top", "1")
check("... none with triton", rc == 0 and "no split-K" not in err, err)
# Blanks around a target's name are dropped, as --hw's and a layout's are (it was refused: a fresh
# user's find, 2026-12-07); one inside is not a name.
rc, out, err = run("rank", "64x4096x4096", "--hw", "h200", "--target", " triton-tutorial ", "--max-split-k", "8",
                   "--top", "1")
check("--target ' triton-tutorial ': the tutorial target (its split-K warning)",
      rc == 0 and "target triton-tutorial has no split-K" in err, err)
expect_error("--target 'triton tutorial'", ["rank", "64x64x64", "--target", "triton tutorial"], 2, "--target")
# --cu-count: 200 of 304 CUs (ROCm/tritonBLAS #76). 8192^3 has hundreds of output tiles for any
# config: fewer CUs mean more waves, and the peak scales with the CUs.
rc, full, _ = run("rank", "8192x8192x8192", "--hw", "mi300x", "--top", "1", "--format", "json")
rc2, part, err = run("rank", "8192x8192x8192", "--hw", "mi300x", "--top", "1", "--cu-count", "200", "--format", "json")
full, part = json.loads(full), json.loads(part) if rc2 == 0 else {}
check("--cu-count 200: the peak scales by 200/304",
      rc2 == 0 and abs(part["hardware"]["peak_tflops"] / full["hardware"]["peak_tflops"] - 200 / 304) < 1e-6, err)
check("--cu-count 200: slower than the whole GPU",
      rc2 == 0 and part["configs"][0]["latency_s"] > full["configs"][0]["latency_s"], err)
check("--cu-count 200: the display name says so", rc2 == 0 and "(200 of 304 CUs)" in part["hardware"]["display_name"],
      str(part.get("hardware")))
for cmd in (["explain", "4096x4096x4096"], ["batch", "-"]):
    rc, out, err = run(*cmd, "--hw", "mi300x", "--cu-count", "100", "--format", "json" if cmd[0] == "explain" else "csv",
                       stdin="4096x4096x4096\n")
    check(f"{cmd[0]} --cu-count: exit 0", rc == 0, err)
expect_error("--cu-count above the GPU's: a bad option value, exit 2", ["rank", "64x64x64", "--hw", "h100", "--cu-count", "133"], 2,
             "--cu-count: CU count 133 is outside 1..132")
expect_error("--cu-count 0", ["rank", "64x64x64", "--cu-count", "0"], 2,
             "--cu-count: 0 is not a CU count: give 1 up to the GPU's CUs")
# A partition's predictions say so in CSV's hardware column and in the --emit vllm sidecar.
rc, out, err = run("batch", "-", "--hw", "h200", "--cu-count", "66", "--format", "csv", "-q", stdin="4096x4096x4096\n")
check("batch --cu-count --format csv: hardware 'h200 (66 of 132 CUs)', then the target",
      rc == 0 and ",h200 (66 of 132 CUs),triton,1," in out, out + err)
# The CSV says which kernel was ranked, as the JSON outputs do (a fresh user's find, 2026-12-05: two
# targets' rankings were told apart by the file name alone).
rc, out, err = run("rank", "16x576x7168", "--hw", "h200", "--target", "vllm-fp8-block", "--top", "1", "--format", "csv")
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check("rank --format csv: a target column after hardware", len(rows) == 1 and rows[0]["target"] == "vllm-fp8-block"
      and out.split("\n")[0].split(",")[7:9] == ["hardware", "target"], out + err)
vdir = os.path.join(TMP, "vllm-66")
rc, out, err = run("batch", "examples/deepseek-v3.csv", "--hw", "h200", "--cu-count", "66", "--emit", "vllm", "--out",
                   vdir, "-q")
with open(os.path.join(vdir, "gemm-advisor-generator.json")) if rc == 0 else open(os.devnull) as f:
    side = json.loads(f.read() or "{}")
check("--emit vllm --cu-count: the sidecar records cu_count 66", side.get("cu_count") == 66, json.dumps(side)[:300] + err)
# A partition the profile gives (compute.active_cu_count) is said as the profile's, not as a
# --cu-count never given (a fresh user's find, 2026-12-07).
part_yaml = os.path.join(TMP, "h200-66.yaml")
with open(part_yaml, "w") as f:
    f.write(run("profiles", "show", "h200")[1].replace("\ncompute:\n", "\ncompute:\n  active_cu_count: 66\n", 1))
rc, out, err = run("batch", "-", "--hw", part_yaml, "--emit", "vllm", "--out", os.path.join(TMP, "vllm-66p"),
                   stdin="16x576x7168\n")
check("--emit vllm on a profile's active_cu_count: the warning names the profile's field, not --cu-count",
      rc == 0 and "(the profile's compute.active_cu_count)" in err and "--cu-count" not in err, err)
rc, out, err = run("batch", "-", "--hw", "h200", "--cu-count", "66", "--emit", "triton", "--top", "1", "-q",
                   stdin="4096x4096x4096\n")
emitted = json.loads(out) if rc == 0 else [{}]
check("--emit triton names the hardware (a partition's CUs too) and the target",
      emitted[0].get("hardware") == "h200 (66 of 132 CUs)" and emitted[0].get("target") == "triton", out[:300] + err)
# More splits than K has BLOCK_K blocks: a given config is infeasible, with the reason (it ranked first,
# 40 ms, at split_k 65536 on K = 4096 before).
sk = os.path.join(TMP, "sk.csv")
with open(sk, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages,split_k\n16,16,16,2,2,512\n")
rc, out, err = run("rank", "144x16x4096", "--hw", "mi355x", "--max-split-k", "65536", "--candidates", sk)
check("split_k above K's blocks: exit 1, the reason given", rc == 1 and not out and
      f"error: {sk}: no feasible config for 144x16x4096 on mi355x: split_k = 512 splits K = 4096 into more parts than its "
      "256 blocks" in err, err)
# A fresh-user pass (2026-12-01): a second YAML document in a profile was ignored, a warp size of 33
# accepted, an unknown --input-format a bad-input error (exit 1) where --format's is a usage error.
with open("profiles/h200.yaml") as f:
    h200_text = f.read()
# A table ranked with a profile file (a calibrated overlay, an edited copy) names the file in its heading
# (it read as the shipped profile's: a fresh user's find, 2026-12-05); the shipped one's has none.
copy = os.path.join(TMP, "h200-copy.yaml")
with open(copy, "w") as f:
    f.write(h200_text)
rc, out, err = run("rank", "64x64x64", "--hw", copy, "--top", "1")
rc2, out2, err2 = run("explain", "64x64x64", "--hw", copy)
rc3, out3, err3 = run("rank", "64x64x64", "--hw", "h200", "--top", "1")
check("rank and explain with a profile file: the heading names it; with a shipped name, not",
      rc == rc2 == rc3 == 0 and f"NVIDIA H200 SXM 141GB [profile {copy}] (peak" in out.splitlines()[0] and
      f"[profile {copy}]: config" in out2.splitlines()[0] and "[profile" not in out3, out + out2 + out3)
# evaluate's heading too (two tables, before and after a fit, read alike: a fresh user's find, 2026-12-07).
rc, out, err = run("evaluate", "--hw", copy, "--measurements", "data/measurements/h200-triton-fp8.csv")
rc2, out2, err2 = run("evaluate", "--hw", "h200", "--measurements", "data/measurements/h200-triton-fp8.csv")
check("evaluate with a profile file: the heading names it; with a shipped name, not",
      rc == rc2 == 0 and out.splitlines()[0].startswith(f"evaluate triton on h200 [profile {copy}]: ") and
      out2.splitlines()[0].startswith("evaluate triton on h200: "), out + out2 + err + err2)
two_docs = os.path.join(TMP, "two-docs.yaml")
with open(two_docs, "w") as f:
    f.write(h200_text + "---\ncompute: {cu_count: 1}\n")
expect_error("a profile with a second YAML document", ["profiles", "validate", two_docs], 1,
             "a second YAML document: a profile is one document")
# A profile whose limits leave a target's space empty (max_num_stages 1 under vllm-fp8-block's 2..5):
# the error said only "no feasible config" (a fresh user's find, 2026-12-04); it now names the limits.
one_stage = os.path.join(TMP, "one-stage.yaml")
with open(one_stage, "w") as f:
    f.write(h200_text.replace("  max_num_stages: 6", "  max_num_stages: 1").replace("  default_num_stages: 3",
                                                                                      "  default_num_stages: 1"))
rc, out, err = run("rank", "64x7168x2048", "--hw", one_stage, "--target", "vllm-fp8-block")
check("an empty space: exit 1, one line naming the profile's limits", rc == 1 and not out and
      err.count("\n") == 1 and "no feasible config for 64x7168x2048 on h200 (every config of the target's space "
      "breaks a limit of the profile: triton.max_num_stages" in err, err)
rc, out, err = run("explain", "64x7168x2048", "--hw", one_stage, "--target", "vllm-fp8-block", "--config",
                   "64x32x128:4:5:g1")
check("vllm-fp8-block refuses a given num_stages above triton.max_num_stages", rc == 1 and not out and
      "num_stages = 5 is outside 1..1" in err, err)
# --verbose said "more detail on stderr" and printed nothing more (a fresh user's find, 2026-12-03): it
# now names the profile and what was ranked, on stderr only.
rc_q, out_q, err_q = run("rank", "4096x4096x4096", "--hw", "h200", "--top", "3")
rc_v, out_v, err_v = run("rank", "4096x4096x4096", "--hw", "h200", "--top", "3", "-v")
check("rank -v: the same stdout, the profile and the candidate count on stderr", rc_q == rc_v == 0 and
      out_q == out_v and "debug: profile h200 (NVIDIA H200 SXM 141GB) from embedded:h200: 132 CUs" in err_v and
      "candidates (the target's space), target triton" in err_v and "debug" not in err_q, err_v)
# A candidates file of 8 copies of one config: 5 warnings at their lines, then one count.
rep = os.path.join(TMP, "repeated-cands.csv")
with open(rep, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages\n" + "64,64,64,4,3\n" * 8)
rc, out, err = run("rank", "1024x1024x1024", "--hw", "h200", "--candidates", rep)
check("rank --candidates with 7 repeats: 5 located warnings, one count of the other 2", rc == 0 and
      err.count("is listed already") == 5 and f"{rep}:3: config 64x64x64:4:3 is listed already (line 2)" in err and
      f"{rep}: 2 more configs listed again after the 5 above" in err, err)
# A UTF-8 name in the batch table stays text (it was written \xe5\x90...); a name with a control byte is
# a bad line, named at its line (it was escaped in the table, and CSV output rewrote a NUL as the text
# "\x00" unsaid: a fresh user's find, 2026-12-04).
names_csv = os.path.join(TMP, "utf8-names.csv")
with open(names_csv, "w", encoding="utf-8") as f:
    f.write('name,m,n,k\n"名前 ✓",64,64,64\n"ctl\x1b[2J",64,64,64\n')
rc, out, err = run("batch", names_csv, "--hw", "h200", "--format", "table", "--top", "1", "--keep-going")
check("batch table: a UTF-8 name as it is; a control byte in a name is a bad line", rc == 1 and
      "名前 ✓: 64x64x64 bf16 NT" in out and "\x1b" not in out and "\x1b" not in err and
      f"{names_csv}:3: column 'name' holds a control character, 'ctl\\x1b[2J'" in err, out[:300] + err)
# A fresh user's text list named .yaml (2026-12-03): its comment line split it into two YAML values, and
# the message told them to drop a '---' the file did not have.
plain_yaml = os.path.join(TMP, "plain-lines.yaml")
with open(plain_yaml, "w") as f:
    f.write("64x64x64\n# c\n128x128x128\n")
expect_error("a .yaml shape list of plain lines", ["batch", plain_yaml, "--hw", "h200"], 1,
             f"{plain_yaml}:3: a second top-level YAML value: a shape list is one YAML list (write each entry as '- ...'")
warp33 = os.path.join(TMP, "warp33.yaml")
with open(warp33, "w") as f:
    f.write(h200_text.replace("warp_size: 32", "warp_size: 33", 1))
expect_error("a warp size that is not a power of two", ["rank", "64x64x64", "--hw", warp33], 1,
             "compute.warp_size = 33 must be a power of two")
expect_error("--input-format xml: a usage error", ["batch", "-", "--hw", "h200", "--input-format", "xml"], 2,
             "--input-format: xml not in", stdin="64x64x64\n")
# The same partition as a profile field, and its error.
with open("profiles/mi300x.yaml") as f:
    mi300x = f.read()
part_profile = os.path.join(TMP, "mi300x-200.yaml")
with open(part_profile, "w") as f:
    f.write(mi300x.replace("  cu_count: 304\n", "  cu_count: 304\n  active_cu_count: 200\n", 1) +
            '  compute.active_cu_count: "test: the CU mask of ROCm/tritonBLAS #76"\n')
rc, out, err = run("rank", "8192x8192x8192", "--hw", part_profile, "--top", "1", "--format", "json")
check("compute.active_cu_count: the same as --cu-count",
      rc == 0 and json.loads(out)["configs"][0]["latency_s"] == part["configs"][0]["latency_s"], err)
# --cu-count given beside it replaces it, counted from the product's cu_count (SCHEMA.md).
rc, out, err = run("rank", "8192x8192x8192", "--hw", part_profile, "--cu-count", "100", "--top", "1", "--format", "json")
check("--cu-count replaces compute.active_cu_count", rc == 0 and
      "(100 of 304 CUs)" in json.loads(out)["hardware"]["display_name"], out[:300] + err)
bad_profile = os.path.join(TMP, "mi300x-bad.yaml")
with open(bad_profile, "w") as f:
    f.write(mi300x.replace("  cu_count: 304\n", "  cu_count: 304\n  active_cu_count: 400\n", 1))
expect_error("active_cu_count above cu_count", ["rank", "64x64x64", "--hw", bad_profile], 1,
             "is more than compute.cu_count = 304")

# --- --distinct: five different tiles; duplicate measurements said; the reason in the error line --
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--top", "5", "--distinct", "--format", "json")
tiles = [(c["block_m"], c["block_n"], c["block_k"], c["split_k"]) for c in json.loads(out)["configs"]] if rc == 0 else []
check("rank --distinct --top 5: five distinct tiles", len(tiles) == 5 and len(set(tiles)) == 5, f"{tiles} {err}")
rc, plain, _ = run("rank", "4096x4096x4096", "--hw", "h200", "--top", "1", "--format", "json")
check("rank --distinct: the first place is the plain ranking's",
      rc == 0 and json.loads(plain)["configs"][0]["latency_s"] == json.loads(out)["configs"][0]["latency_s"])
rc, out, err = run("batch", "-", "--hw", "h200", "--top", "3", "--distinct", "--format", "csv", stdin="4096x4096x4096\n")
rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
check("batch --distinct: distinct tiles", len({(r["block_m"], r["block_n"], r["block_k"], r["split_k"]) for r in rows}) == 3,
      out[:300])
dup = os.path.join(TMP, "dup.csv")
with open("data/measurements/h200-tutorial.csv") as f:
    lines = f.read().splitlines()
with open(dup, "w") as f:
    f.write("\n".join(lines[:40] + [lines[2]]) + "\n")  # file line 3 (a tutorial row) again, as line 41
rc, out, err = run("evaluate", "--hw", "h200", "--target", "triton-tutorial", "--measurements", dup)
check("evaluate: a config measured twice is a warning naming both lines",
      rc == 0 and f"{dup}:41: config" in err and "measured already (line 3)" in err, err)
one = os.path.join(TMP, "split-config.csv")
with open(one, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages,group_m,split_k\n64,32,128,4,5,1,2\n")
rc, out, err = run("-q", "rank", "64x7168x2048", "--target", "vllm-fp8-block", "--candidates", one)
check("all given configs infeasible: the error line gives the reason, also with --quiet",
      rc == 1 and out == "" and len(err.splitlines()) == 1 and "has no split-K" in err, err)

# --- provenance: --version and every JSON result's generator ----------------------------------
import re
rc, out, err = run("--version")
m = re.fullmatch(r"gemm-advisor (\d+\.\d+\.\d+) \(commit ([0-9a-f]{12}(-dirty)?|unknown), model digest ([0-9a-f]{16})\)\n", out)
check("--version: version, commit and model digest", rc == 0 and m is not None, out)
rc, out, err = run("rank", "64x64x64", "--hw", "h200", "--top", "1", "--format", "json")
gen = json.loads(out).get("generator", {}) if rc == 0 else {}
check("rank JSON records its generator, the same as --version says",
      m is not None and gen.get("version") == m.group(1) and gen.get("commit") == m.group(2) and
      gen.get("model_digest") == m.group(4), str(gen))
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", "data/measurements/h200-triton-fp8.csv", "--format", "json")
check("evaluate JSON records its generator", rc == 0 and json.loads(out)["generator"] == gen, out[:200])
rc, out, err = run("batch", "-", "--hw", "h200", "--top", "1", "--emit", "triton", stdin="64x64x64\n")
check("--emit triton: each shape records its generator", rc == 0 and json.loads(out)[0]["generator"] == gen, out[:300])
vdir = os.path.join(TMP, "vllm-gen")
# Integer options take decimal digits only, as shapes and CSV cells do (the parser took 0x10 as 16 and
# ' 2' as 2, a fresh user's find, 2026-12-03); a negative value still meets the range check.
for option, value in [("--cu-count", "0x10"), ("--top", "0x3"), ("--top", " 2"), ("--cu-count", "8 ")]:
    rc, out, err = run("rank", "64x64x64", "--hw", "h200", option, value)
    check(f"rank {option} {value!r}: a usage error naming it", rc == 2 and not out and
          f"{option}: '{value}' is not a whole number (decimal digits)" in err, err)
# Leading zeros are decimal, as in shapes: the parser read 010 as octal (--cu-count 010 ranked on 8
# CUs, --top 010 printed 8 rows) and refused 038 (a fresh user's find, 2026-12-05).
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--cu-count", "010", "--top", "010")
rows = [line for line in out.splitlines() if line.startswith(" ") and line[:4].strip().isdigit()]
check("rank --cu-count 010 --top 010: 10 CUs, 10 rows", rc == 0 and "(10 of 132 CUs)" in out and len(rows) == 10,
      out[:300] + err)
rc, out, err = run("rank", "4096x4096x4096", "--hw", "mi300x", "--cu-count", "038", "--top", "1")
check("rank --cu-count 038: 38 CUs", rc == 0 and "(38 of 304 CUs)" in out, out[:200] + err)
rc, out, err = run("rank", "64x64x64", "--hw", "h200", "--top", "-1")
check("rank --top -1: the range error", rc == 2 and "not in range 0 to 1000000" in err, err)
# Issue #11's invariant on a fresh user's B200 case (README "Known gaps"): the larger problem, with a
# thin 17th column tile (N = 2064 against 2048), was once predicted 3.6% faster; measured by the
# model of 2026-12-03: 365 us against 352.
times = []
for shape in ("6144x2048x12288", "6144x2064x12288"):
    rc, out, err = run("explain", shape, "--hw", "b200", "--dtype", "fp16", "--config", "128x256x64:4:4",
                       "--format", "json")
    times.append(json.loads(out)["configs"][0]["latency_s"] if rc == 0 else 0.0)
check("b200 128x256x64:4:4: 6144x2064x12288 is not predicted faster than 6144x2048x12288",
      0 < times[0] <= times[1], times)
# A value twice in --m-values is a typo for another (it ran with the duplicate dropped, unsaid).
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", vdir, "--m-values", "1,16,1",
                   stdin="16x576x7168\n")
check("--m-values with a value twice: an error naming it", rc != 0 and "--m-values: 1 is given twice" in err and
      err.count("\n") == 1, err)
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", vdir, "--m-values", "1,16", stdin="16x576x7168\n")
sidecar = os.path.join(vdir, "gemm-advisor-generator.json")
check("--emit vllm: a sidecar records the generator, the config files stay vLLM's own",
      rc == 0 and os.path.exists(sidecar) and json.load(open(sidecar))["commit"] == gen.get("commit") and
      all(k.isdigit() for f in os.listdir(vdir) if f.startswith("N=") for k in json.load(open(os.path.join(vdir, f)))),
      out + err)
# Two runs into one directory: the sidecar describes each file by the run that wrote it (the second run
# replaced the first's fields: a fresh user's find, 2026-12-04). DeepSeek-V3's files ranked for 66 CUs,
# then N=576,K=7168's again for the whole GPU.
two = os.path.join(TMP, "vllm-two-runs")
rc1, out, err = run("batch", "examples/deepseek-v3.csv", "--hw", "h200", "--cu-count", "66", "--emit", "vllm", "--out",
                    two, "-q")
# The second run's file was written for 66 CUs: replacing it needs --overwrite, since vLLM's file
# names cannot tell a partition's configs from the whole GPU's (it was replaced unsaid: a fresh user's
# find, 2026-12-04).
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", two, "--m-values", "1,16", "-q",
                   stdin="16x576x7168\n")
check("--emit vllm over a file written for another --cu-count: refused, nothing written",
      rc == 1 and err.count("\n") == 1 and "written for 66 CUs (gemm-advisor-generator.json), this run ranks for 132" in err
      and "--overwrite" in err, err)
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", two, "--m-values", "1,16", "-q",
                   "--overwrite", stdin="16x576x7168\n")
side = json.load(open(os.path.join(two, "gemm-advisor-generator.json"))) if rc == rc1 == 0 else {}
# A run whose own files collide with none still says the directory mixes partitions (the other files
# were ranked for 66 CUs: vLLM reads them all on one GPU; it was silent: a fresh user's find), and
# another GPU's ranking under this device name (--vllm-device-name) is refused as a partition's is.
rc_w, out_w, err_w = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", two, "--m-values", "1,16",
                         stdin="16x576x7168\n")
check("--emit vllm into a directory of another CU count's files: a warning naming them",
      rc_w == 0 and "config files ranked for another GPU or CU count, e.g." in err_w and "(h200, 66 CUs)" in err_w and
      "this run's (h200, 132 CUs)" in err_w, err_w)
rc_w, out_w, err_w = run("batch", "-", "--hw", "h100", "--vllm-device-name", "NVIDIA_H200", "--emit", "vllm", "--out",
                         two, "--m-values", "1,16", stdin="16x576x7168\n")
check("--emit vllm over a file another GPU's run wrote under this device name: refused",
      rc_w == 1 and "written for h200 132 CUs (gemm-advisor-generator.json), this run ranks for h100 132" in err_w, err_w)
# A directory where a config file goes stops the run before any file, --overwrite or not (with it half
# the files were written, then the run failed there: a fresh user's find, 2026-12-04).
dir_in_place = os.path.join(TMP, "dir-in-place")
os.makedirs(os.path.join(dir_in_place, "N=7168,K=2048,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"))
rc_d, out_d, err_d = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", dir_in_place, "--overwrite",
                         stdin="1x4096x7168\n1x7168x2048\n")
check("--emit vllm: a directory in a file's place stops the run before any file is written",
      rc_d == 1 and "(nothing written): cannot write: it exists and is not a regular file" in err_d and
      sorted(os.listdir(dir_in_place)) == ["N=7168,K=2048,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"],
      err_d + str(os.listdir(dir_in_place)))
# A profile of no known GPU: the error names its file and an example of its vendor (an AMD profile was
# told NVIDIA_H200: a fresh user's find, 2026-12-04).
cpx = os.path.join(TMP, "cpx.yaml")
with open("profiles/mi300x.yaml") as f:
    cpx_text = f.read()
cpx_text = re.sub(r"(?m)^name: .*$", "name: my-cpx", cpx_text)
cpx_text = re.sub(r"(?m)^aliases: .*$", "aliases: []", cpx_text)
with open(cpx, "w") as f:
    f.write(cpx_text)
expect_error("--emit vllm, a profile of no known GPU", ["batch", "-", "--hw", cpx, "--emit", "vllm", "--out",
             os.path.join(TMP, "cpx-out")], 1, f"{cpx}: profile 'my-cpx' has no known vLLM device name")
rc_c, _, err_c = run("batch", "-", "--hw", cpx, "--emit", "vllm", "--out", os.path.join(TMP, "cpx-out"),
                     stdin="16x576x7168\n")
check("--emit vllm, a profile of no known GPU: an example of its own vendor", "e.g. AMD_Instinct_MI300X" in err_c, err_c)
# A known GPU's short name or another case: vLLM looks files up by the exact device name.
rc_h, _, err_h = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "short-name"),
                     "--vllm-device-name", "H100", stdin="1x4096x4096\n")
check("--vllm-device-name H100: said to be no name vLLM looks up",
      rc_h == 0 and "names the h100, whose files vLLM looks up as NVIDIA_H100_80GB_HBM3 (exactly)" in err_h, err_h)
# The name of another shipped GPU is said (an H100's name on H200 configs was written
# unsaid: a fresh user's find, 2026-12-04).
check("--emit vllm under another known GPU's device name: said",
      "--vllm-device-name NVIDIA_H200 is the h200's, but the configs are ranked for h100" in err_w, err_w)
per_file = side.get("files", {})
n576 = [f for f in per_file if f.startswith("N=576,K=7168,")]
others = [f for f in per_file if f not in n576]
# The top level holds what every file's run shares: the CU counts differ, so none there.
check("--emit vllm twice into one directory: each file keeps the run that wrote it",
      "cu_count" not in side and side.get("hardware") == "h200" and len(n576) == 1 and per_file[n576[0]].get("cu_count") == 132 and others and
      all(per_file[f].get("cu_count") == 66 for f in others) and
      sorted(per_file) == sorted(f for f in os.listdir(two) if f.endswith(".json") and f != "gemm-advisor-generator.json"),
      json.dumps(side)[:600])
# A sidecar there that gemm-advisor cannot read is replaced with a warning (it was silent, and the earlier
# files' entries were lost unsaid); the profile is named by its absolute path (a relative one meant
# nothing from elsewhere), and rank's JSON names it too (an overlay is told from the shipped profile).
# Such a sidecar lists no file, so the files already there need --overwrite (below: files it did not write).
side_path = os.path.join(two, "gemm-advisor-generator.json")
own_profile = os.path.join(TMP, "mine.yaml")
shutil.copy("profiles/h200.yaml", own_profile)
for broken in ('{"truncated": ', "[1, 2]", '{"files": {"x": 5}}'):
    with open(side_path, "w") as f:
        f.write(broken)
    rc, out, err = run("batch", "-", "--hw", os.path.relpath(own_profile), "--emit", "vllm", "--out", two,
                       "--m-values", "1", "--overwrite", stdin="16x576x7168\n")
    side = json.load(open(side_path)) if rc == 0 else {}
    check(f"--emit vllm over an unreadable sidecar {broken!r}: replaced, with a warning",
          rc == 0 and "not a sidecar gemm-advisor can read" in err and side.get("profile") == os.path.abspath(own_profile),
          err + json.dumps(side)[:300])
# Without --overwrite the refusal says why the files count as foreign: the sidecar lists nothing (it
# named the file foreign, not the broken sidecar: a fresh user's find, 2026-12-04).
with open(side_path, "w") as f:
    f.write('{"truncated": ')
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", two, "--m-values", "1", stdin="16x576x7168\n")
check("--emit vllm, unreadable sidecar, no --overwrite: the refusal names the sidecar as the reason",
      rc == 1 and err.count("\n") == 1 and "gemm-advisor-generator.json: not a sidecar gemm-advisor wrote (not JSON): "
      "nothing written; remove it, or give --overwrite to replace it" in err, err)
# -o over a file the run reads by another road: stdin ('-' redirected from it), or the profile that
# $GEMM_ADVISOR_HW names (both replaced, exit 0: a fresh CI reviewer's find, 2026-12-05); and with
# stderr closed the warnings do not land in the -o file (it took fd 2).
self_list = os.path.join(TMP, "self-list.txt")
with open(self_list, "w") as f:
    f.write("m,n,k\n64,64,64\n")
with open(self_list) as stdin_file:
    p = subprocess.run([BIN, "batch", "-", "--hw", "h200", "-o", self_list], stdin=stdin_file, capture_output=True,
                       text=True, timeout=60)
check("batch - -o FILE < FILE: refused, the list kept",
      p.returncode == 2 and "is the file stdin reads" in p.stderr and open(self_list).read() == "m,n,k\n64,64,64\n",
      p.stderr)
env_profile = os.path.join(TMP, "env-profile.yaml")
shutil.copy("profiles/h200.yaml", env_profile)
for args in (["batch", self_list], ["calibrate", "--measurements", "data/measurements/h200-triton-more.csv"]):
    p = subprocess.run([BIN, *args, "-o", env_profile], capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, GEMM_ADVISOR_HW=env_profile))
    check(f"{args[0]} -o naming $GEMM_ADVISOR_HW's profile: refused, the profile kept",
          p.returncode == 2 and "GEMM_ADVISOR_HW" in p.stderr or "is an input of the run" in p.stderr
          and open(env_profile).read() == open("profiles/h200.yaml").read(), p.stderr)
closed_out = os.path.join(TMP, "closed-stderr.csv")
p = subprocess.run(["bash", "-c", f'printf "64x64x64\\n2000000000x2000000000x64\\n" | "{BIN}" batch - --hw h200 '
                    f'--format csv -o "{closed_out}" 2>&-'], capture_output=True, text=True, timeout=60)
check("stderr closed: the warnings stay out of the -o file",
      p.returncode == 0 and open(closed_out).read().startswith("name,m,n,k,") and "warning" not in open(closed_out).read(),
      open(closed_out).read()[:300] if os.path.exists(closed_out) else p.stderr)
# Links out of DIR: never the sidecar's (a repository's link there replaced the file it named, exit
# 0); a config file's only with --overwrite (a fresh CI reviewer's find, 2026-12-05).
links = os.path.join(TMP, "vllm-links")
elsewhere = os.path.join(TMP, "elsewhere")
os.makedirs(links)
os.makedirs(elsewhere)
secret = os.path.join(elsewhere, "bashrc")
with open(secret, "w") as f:
    f.write("export SECRET=1\n")
os.symlink(secret, os.path.join(links, "gemm-advisor-generator.json"))
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", links, "--m-values", "1", "--overwrite",
                   stdin="16x576x7168\n")
check("--emit vllm: a link at the sidecar's name is refused, even with --overwrite, and its target kept",
      rc == 1 and "a link (to " in err and "never through a link" in err
      and open(secret).read() == "export SECRET=1\n" and os.listdir(links) == ["gemm-advisor-generator.json"], err)
os.unlink(os.path.join(links, "gemm-advisor-generator.json"))
name = "N=576,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"
with open(os.path.join(links, "gemm-advisor-generator.json"), "w") as f:
    json.dump({"files": {name: {"hardware": "h200", "cu_count": 132, "target": "vllm-fp8-block"}}}, f)
os.symlink(secret, os.path.join(links, name))
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", links, "--m-values", "1",
                   stdin="16x576x7168\n")
check("--emit vllm: a config file's link out of DIR (the sidecar claiming it) is refused without --overwrite",
      rc == 1 and "outside " in err and "followed only with --overwrite" in err
      and open(secret).read() == "export SECRET=1\n", err)
# A link in DIR from one of the run's names to another it writes: both would hold one file's configs
# (vLLM read N=1536's for the N=576 layer, exit 0: a fresh user's find, 2026-12-07): refused, with
# --overwrite too, before anything is written.
same = os.path.join(TMP, "vllm-same-file")
rc0, _, err0 = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", same, "--m-values", "1",
                   stdin="16x576x7168\n16x1536x7168\n")
n576 = os.path.join(same, "N=576,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json")
n1536_name = "N=1536,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"
if rc0 == 0:
    os.unlink(n576)
    os.symlink(n1536_name, n576)
before = open(os.path.join(same, n1536_name)).read() if rc0 == 0 else ""
for extra in ([], ["--overwrite"]):
    rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", same, "--m-values", "2", *extra,
                       stdin="16x576x7168\n16x1536x7168\n")
    check(f"--emit vllm {' '.join(extra)}: a link to another of the run's files is refused, nothing written",
          rc0 == 0 and rc == 1 and "which this run writes too" in err and out == ""
          and open(os.path.join(same, n1536_name)).read() == before, err0 + err)
# stdout's reader gone (`| head -1`): the listing stops, the files do not (SIGPIPE ended the run after
# ~100 of 2,945 files: a fresh user's find, 2026-12-07); the run still ends with 141. 400 (N, K), so
# that the reader is gone long before the last file.
piped_dir = os.path.join(TMP, "vllm-piped")
many = "".join(f"16x{128 * (i % 20 + 1)}x{128 * (i // 20 + 1)}\n" for i in range(400))
proc = subprocess.Popen([BIN, "batch", "-", "--hw", "h200", "--emit", "vllm", "--out", piped_dir, "--m-values", "1"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
proc.stdin.write(many)
proc.stdin.close()
first_line = proc.stdout.readline()
proc.stdout.close()
piped_err = proc.stderr.read()
proc.wait(timeout=300)
written_files = [n for n in os.listdir(piped_dir) if n.startswith("N=")] if os.path.isdir(piped_dir) else []
with open(os.path.join(piped_dir, "gemm-advisor-generator.json")) as f:
    unwritten = [n for n, v in json.load(f)["files"].items() if v.get("written") is False]
check("--emit vllm | head -1: every file written, the sidecar says so, exit 141",
      first_line.startswith(piped_dir) and proc.returncode == 141 and len(written_files) == 400 and not unwritten,
      f"rc {proc.returncode}, {len(written_files)} files, {len(unwritten)} unwritten; {piped_err[-300:]}")
# ... and a run with a bad line ends with its error's code, not 141 (an adversarial user's find).
proc = subprocess.Popen([BIN, "batch", "-", "--hw", "h200", "--emit", "vllm", "--out", piped_dir + "-bad", "--m-values",
                         "1", "--keep-going"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                        text=True)
proc.stdin.write(many + "0x64x64\n")
proc.stdin.close()
proc.stdout.readline()
proc.stdout.close()
bad_err = proc.stderr.read()
proc.wait(timeout=300)
check("--emit vllm --keep-going | head -1 with a bad line: exit 1, not 141",
      proc.returncode == 1 and ":401:" in bad_err, f"rc {proc.returncode}: {bad_err[-300:]}")
# A sidecar that cannot be replaced (a directory there) stops the run before any config file is written
# (the files were written, then the run failed on the sidecar: a fresh user's find); an unreadable one
# is an error too, not "not JSON" and replaced.
blocked = os.path.join(TMP, "vllm-blocked")
os.makedirs(os.path.join(blocked, "gemm-advisor-generator.json"))
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", blocked, "--m-values", "1",
                   stdin="16x576x7168\n")
check("--emit vllm with a directory where the sidecar goes: one error, no config file written",
      rc == 1 and "gemm-advisor-generator.json: cannot write: it exists and is not a regular file" in err and
      sorted(os.listdir(blocked)) == ["gemm-advisor-generator.json"], err + str(os.listdir(blocked)))
# A config file gemm-advisor did not write (vLLM's own tuned file, a hand-edited one) is not replaced
# unless --overwrite says so; the run stops before any file is written (it was replaced unsaid: a fresh
# user's find, 2026-12-04). The dense and the MoE emitters alike; a rerun over its own files goes on.
theirs = os.path.join(TMP, "vllm-theirs")
os.makedirs(theirs)
hand_name = "N=576,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"
with open(os.path.join(theirs, hand_name), "w") as f:
    f.write('{"1": {"MY_HAND_TUNED": 1}}\n')
rc, out, err = run("batch", "examples/deepseek-v3.csv", "--hw", "h200", "--emit", "vllm", "--out", theirs, "-q")
check("--emit vllm over a file it did not write: one error naming it, nothing written",
      rc == 1 and err.count("\n") == 1 and hand_name in err and "--overwrite" in err and
      os.listdir(theirs) == [hand_name] and "MY_HAND_TUNED" in open(os.path.join(theirs, hand_name)).read(), err)
rc, out, err = run("batch", "examples/deepseek-v3.csv", "--hw", "h200", "--emit", "vllm", "--out", theirs, "-q",
                   "--overwrite")
rc2, out2, err2 = run("batch", "examples/deepseek-v3.csv", "--hw", "h200", "--emit", "vllm", "--out", theirs, "-q")
check("--emit vllm --overwrite replaces it; a rerun over its own files needs no flag",
      rc == rc2 == 0 and "MY_HAND_TUNED" not in open(os.path.join(theirs, hand_name)).read() and
      hand_name in json.load(open(os.path.join(theirs, "gemm-advisor-generator.json")))["files"], err + err2)
moe_theirs = os.path.join(TMP, "vllm-moe-theirs")
rc, out, err = run("batch", "examples/moe-models.csv", "--target", "vllm-fused-moe", "--hw", "h200", "--emit", "vllm",
                   "--out", moe_theirs, "--m-values", "1,64", "-q")
moe_files = sorted(f for f in os.listdir(moe_theirs) if f != "gemm-advisor-generator.json") if rc == 0 else []
if moe_files:
    os.remove(os.path.join(moe_theirs, "gemm-advisor-generator.json"))
rc, out, err = run("batch", "examples/moe-models.csv", "--target", "vllm-fused-moe", "--hw", "h200", "--emit", "vllm",
                   "--out", moe_theirs, "--m-values", "1,64", "-q")
check("--emit vllm (fused MoE) over files no sidecar lists: refused, naming the first and the count",
      len(moe_files) > 1 and rc == 1 and any(f in err for f in moe_files) and f"and {len(moe_files) - 1} more" in err and
      "gemm-advisor-generator.json" not in os.listdir(moe_theirs), err + str(moe_files))
rc, out, err = run("rank", "64x64x64", "--hw", os.path.relpath(own_profile), "--format", "json", "--top", "1")
rc2, out2, _ = run("rank", "64x64x64", "--hw", "h200", "--format", "json", "--top", "1")
check("rank's JSON names the profile: the file's absolute path, or embedded:NAME",
      rc == rc2 == 0 and json.loads(out)["hardware"]["profile"] == os.path.abspath(own_profile) and
      json.loads(out2)["hardware"]["profile"] == "embedded:h200", out[:300])

# explain says what the time is made of: launch + all waves (+ reduction) adds up to it, in the table
# and in the JSON terms (the first wave, waves - 2 later ones, the last; one wave: the first alone).
# 16384x1024x16 at 64x256x16:4:2 runs staggered later waves (three blocks a CU, one K-step).
for shape, extra in (("1x1x1", []), ("8192x8192x8192", []), ("128x128x65536", ["--config", "64x64x128:4:3:8"]),
                     ("16384x1024x16", ["--config", "64x256x16:4:2"])):
    rc, out, err = run("explain", shape, "--hw", "h200", "--format", "json", *extra)
    t = json.loads(out)["configs"][0]["terms"] if rc == 0 else {}
    total = json.loads(out)["configs"][0]["latency_s"] if rc == 0 else 0
    waves = t.get("waves", 1)
    all_waves = t.get("first_wave_s", 0) if waves == 1 else \
        t.get("first_wave_s", 0) + (waves - 2) * t.get("later_wave_s", 0) + t.get("last_wave_s", 0)
    parts = t.get("launch_s", 0) + all_waves + t.get("split_k_reduce_s", 0)
    if shape == "16384x1024x16":
        check("explain 16384x1024x16 64x256x16:4:2: the later waves run staggered, faster than the first",
              rc == 0 and 0 < t.get("later_wave_s", 0) < t.get("first_wave_s", 0) and t.get("lone_block_wave_s", 0) > 0,
              json.dumps(t)[:400])
    check(f"explain {shape}: launch + waves + reduction = the predicted time", rc == 0 and t.get("launch_s", 0) > 0 and
          abs(parts - total) <= 1e-9 * total, f"{parts} vs {total}")
# The table's "all waves" line adds up: each part written out ("2 x 5.903 us, the last shorter" was
# 5.903 + 3.905: a fresh user's find, 2026-12-06).
for shape, extra in (("16384x1024x16", ["--hw", "h100", "--config", "64x256x16:4:2"]), ("4096x4096x4096", ["--hw", "h100"]),
                     ("1x1x1", ["--hw", "h200"])):
    rc, out, err = run("explain", shape, *extra)
    line = next((l for l in out.splitlines() if l.strip().startswith("all waves")), "")
    m = re.match(r"\s*all waves\s+([\d.]+) us \((.*)\)$", line)
    parts = m.group(2).replace(" (later waves)", "") if m else ""
    total = 0.0
    for term in parts.split(" + "):
        n = re.match(r"(?:the first |the last )?(?:(\d+) x )?([\d.]+) us$", term.strip())
        total = total + (int(n.group(1) or 1) * float(n.group(2)) if n else float("nan"))
    check(f"explain {shape}: the 'all waves' parts add up to it", rc == 0 and m and abs(total - float(m.group(1))) < 0.005,
          line)
# The lone-warpgroup wait goes by the config's occupancy (one block a CU allowed), not by the blocks a
# wave runs: the table line says so (it said "one warpgroup on the CU").
rc, out, err = run("explain", "4096x4096x4096", "--hw", "h200", "--target", "triton", "--config", "128x128x64:4:4")
check("explain: the lone warpgroup wait is said to go by the config's occupancy", rc == 0 and
      "lone warpgroup wait" in out and "occupancy allows at most one block, of one warpgroup, per CU" in out, out + err)
rc, out, err = run("explain", "1x1x1", "--hw", "h200")
check("explain's table shows the launch and the total", rc == 0 and "launch" in out and "= launch + all waves" in out, out)
# One block on the MI300X's 304 CUs x 32 slots is 1/9728 of a wave: "<0.1% full", not "0.0%" (a fresh
# user's find, 2026-12-06).
rc, out, err = run("explain", "1x1x1", "--hw", "mi300x", "--config", "16x16x16:1:1")
check("explain: a wave share under 0.05% is '<0.1%', not 0.0%",
      rc == 0 and "the last wave <0.1% full, <0.1% of all block slots busy" in out, out + err)
# A fresh user's hand check (2026-12-05). The JSON's last_wave_fill is the last wave's own fill: 8192^3 x 4
# fp8 on the H100 with 128x256 tiles (one block a CU) launches 64 x 32 x 4 = 8192 blocks over 132 SMs:
# 62 full waves and 8192 - 62 x 132 = 8 blocks, 8/132 = 6.06% (last_wave_efficiency, the share of all
# the block slots busy, is 8192 / (63 x 132) = 98.5%).
rc, out, err = run("explain", "8192x8192x8192x4", "--hw", "h100", "--dtype", "fp8", "--config", "128x256x128:8:4",
                   "--format", "json")
j = json.loads(out) if rc == 0 else {}
t = j["configs"][0]["terms"] if rc == 0 else {}
check("explain JSON: last_wave_fill is the last wave's own (8 of 132 slots), last_wave_efficiency all slots'",
      rc == 0 and t["occupancy"] == 1 and t["last_wave_blocks"] == 8 and abs(t["last_wave_fill"] - 8 / 132) < 1e-12 and
      abs(t["last_wave_efficiency"] - 8192 / (63 * 132)) < 1e-12, json.dumps(t)[:400] + err)
# Its floors, by hand: 2 x 8192^3 x 4 FLOP at the H100's 1978.9 TFLOP/s dense fp8 (profiles/h100.yaml), and
# A + B in fp8 (2 x 8192^2 x 4 bytes) + C in bf16 (8192^2 x 4 x 2 bytes) = 1073.74 MB at 3.35 TB/s.
fl = j.get("floors", {})
check("explain JSON: floors and the output dtype by hand (fp8 in, bf16 C)",
      rc == 0 and j["output_dtype"] == "bf16" and abs(fl["compulsory_bytes"] - 4 * 8192 ** 2 * 4) < 1 and
      abs(fl["dram_s"] - 4 * 8192 ** 2 * 4 / 3.35e12) < 1e-9 and
      abs(fl["compute_s"] - 2 * 8192 ** 3 * 4 / 1978.9e12) < 1e-6 and
      j["configs"][0]["latency_s"] >= max(fl["compute_s"], fl["dram_s"]), json.dumps(fl) + err)
check("explain JSON: memory per K-step is the larger of the levels together and the unhidden latency",
      rc == 0 and t["memory_step_s"] == max(t["memory_levels_step_s"], t["latency_step_s"]) and
      t["memory_levels_step_s"] >= max(t["l2_step_s"], t["dram_step_s"], t["cu_load_step_s"]), json.dumps(t)[:300])
# The DRAM term is the longer of the wave's bytes a K-step at the DRAM rate (the H100's 3.35 TB/s x 0.90 measured,
# profiles/h100.yaml) and the busiest CU's at its share; the table names which (a fresh H100 user could
# not make it from the hit rate, 2026-12-05). 4096^3 NT: the busiest CU's term; 128x128x65536 NN split 16:
# the wave's.
for shape, layout, cu_bound in (("4096x4096x4096", "NT", True), ("128x128x65536", "NN", False)):
    rc, out, err = run("explain", shape, "--hw", "h100", "--layout", layout, "--format", "json")
    t = json.loads(out)["configs"][0]["terms"] if rc == 0 else {}
    wave_s = t.get("dram_step_bytes", 0) / (3.35e12 * 0.90)
    rc2, table, err2 = run("explain", shape, "--hw", "h100", "--layout", layout)
    check(f"explain {shape} {layout}: the DRAM term by hand, {'the busiest CU' if cu_bound else 'the wave'}'s",
          rc == 0 and rc2 == 0 and t["dram_step_bytes"] > 0 and
          ((t["dram_step_s"] > wave_s * 1.001 and "share of that rate, longer: " in table) if cu_bound
           else (abs(t["dram_step_s"] - wave_s) < 1e-6 * wave_s and "share of that rate, no longer" in table)),
          json.dumps(t)[:300] + err + err2)
# A compute step: the longer of the matrix work and the issue overhead + (1 - overlap) of the shorter; on
# 4096^3 the matrix work is the longer, so the step less the overhead's unhidden part is the work alone.
rc, out, err = run("explain", "4096x4096x4096", "--hw", "h100", "--format", "json")
t = json.loads(out)["configs"][0]["terms"] if rc == 0 else {}
check("explain JSON: the compute step's overhead overlap is the target's k_step_overhead_overlap (0.85, async wgmma)",
      rc == 0 and t["step_overhead_overlap"] == 0.85 and
      t["compute_step_s"] - 0.15 * t["step_overhead_s"] > t["step_overhead_s"], json.dumps(t)[:300] + err)
# Split-K's partials: 2 (written, read) x split_k 8 x 128 x 128 x 4 bytes, and its reduction's parts.
rc, out, err = run("explain", "128x128x65536", "--hw", "h200", "--config", "64x64x128:4:3:8", "--format", "json")
t = json.loads(out)["configs"][0]["terms"] if rc == 0 else {}
check("explain JSON: split-K's fp32 partials by hand, and the reduction's parts",
      rc == 0 and t["split_k_partial_bytes"] == 2 * 8 * 128 * 128 * 4 and
      t["split_k_reduce_s"] > max(t["split_k_reduce_bandwidth_s"], t["split_k_reduce_latency_s"]) > 0, json.dumps(t)[:300])
# ... the reduction's launch is a term of its own (the target's split_k_reduce_launch_s, 3.4 us measured on the
# H100, model_params.hpp), and the three parts give the whole: launch + the larger of bandwidth and latency.
check("explain JSON: the reduction's launch term, and launch + max(bandwidth, latency) = the reduction",
      rc == 0 and t["split_k_reduce_launch_s"] == 3.4e-6 and
      abs(t["split_k_reduce_launch_s"] + max(t["split_k_reduce_bandwidth_s"], t["split_k_reduce_latency_s"])
          - t["split_k_reduce_s"]) < 1e-15, json.dumps(t)[:300])
rc, out, err = run("explain", "128x128x65536", "--hw", "h200", "--config", "64x64x128:4:3:1", "--format", "json")
t = json.loads(out)["configs"][0]["terms"] if rc == 0 else {}
check("explain JSON: no split, no reduction terms", rc == 0 and t["split_k_reduce_s"] == 0 and
      t["split_k_reduce_launch_s"] == 0, json.dumps(t)[:300])
# Output rows that are not whole 32-byte sectors (N = 129 bf16: 258 bytes): the reduction's line says C is
# written at the misaligned fraction (0.55 on the H200, profiles/h200.yaml); whole rows (N = 128) do not.
for n, said in ((129, True), (128, False)):
    rc, out, err = run("explain", f"128x{n}x65536", "--hw", "h200", "--config", "64x64x128:4:3:8")
    check(f"explain table: the reduction's C write at the misaligned rate said for N = {n}: {said}",
          rc == 0 and ("(C at 0.55 of it: misaligned_store_fraction)" in out) == said, out)
rc, out, err = run("explain", "128x128x65536", "--hw", "h200", "--config", "64x64x128:4:3:8")
check("explain table: split-K's partials in the DRAM traffic line, the reduction's parts said",
      rc == 0 and "fp32 partials written and read, 1.049 MB" in out and "8 splits, each waiting for its L2 hit (0.264 us: split_k_reduce_latency_multiplier x the idle L2 latency), 2.115 us" in out, out)
# The block-scale math (vllm-fp8-block) is a line of the table, as it is a JSON term; a spilling config says so.
rc, out, err = run("explain", "64x7168x2048", "--hw", "h200", "--target", "vllm-fp8-block", "--config",
                   "128x128x128:4:3:g1")
check("explain table: block-scale math, spills and the output dtype said",
      rc == 0 and "block-scale math" in out and " spilled: stored and reloaded each K-step" in out and
      "fp8 (C written as bf16)" in out and "levels together" in out, out)
rc, out, err = run("explain", "1x1x1", "--hw", "h200")
check("explain table: tiny traffic in bytes (A, B and C: 2 bytes each)", rc == 0 and "(compulsory 6 bytes)" in out, out)
rc, out, err = run("explain", "8192x8192x8192", "--hw", "h200", "--config", "128x256x64:8:3")
check("explain table: one block per CU said in the singular", rc == 0 and "1 block per CU" in out, out)
# A first word that is no subcommand is named; --quiet and --verbose exclude each other.
rc, out, err = run("bogus")
check("unknown subcommand: exit 2, named", rc == 2 and "unknown subcommand 'bogus'" in err and "rank" in err, err)
rc, out, err = run("-q", "-v", "profiles")
check("-q with -v: exit 2", rc == 2 and "--quiet excludes --verbose" in err, err)
# ... pointing at the top-level help, which lists them (it said "see gemm-advisor rank --help").
rc, out, err = run("-q", "-v", "rank", "1x1x1", "--hw", "h200")
check("-q -v rank: exit 2, the top-level help named", rc == 2 and "(see gemm-advisor --help)" in err, err)


def evaluate_csv(name, text, *args):
    """Writes a measurement CSV into TMP and evaluates it on the H200: (its path, rc, stdout, stderr)."""
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return (path, *run("evaluate", "--hw", "h200", "--measurements", path, *args))


# A measured time below what the GPU's peak allows for the shape is warned of, at its line.
fast, rc, out, err = evaluate_csv("fast.csv", "m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
                                  "4096,4096,4096,128,128,64,8,3,0.001\n4096,4096,4096,128,64,64,8,3,0.2\n")
check("evaluate warns of a time faster than the peak allows, at its line",
      rc == 0 and f"{fast}:2:" in err and "timing error" in err, err)
# ... and says the shape left has one timed config, 100% of oracle whatever the pick (a fresh user's find).
check("evaluate warns of a shape with one timed config", "1 of the 1 shapes has one timed config" in err, err)
# ... and below what the DRAM allows for the bytes beyond the L2's capacity: 1x57344x8192 bf16 reads
# 939.6 MB of B, less the 62.9 MB (60 MiB) the L2 could hold, 0.1827 ms at the H200's 4.8 TB/s (the
# peak alone allows 0.95 us; the check used only the peak, which passed an H200 fused-MoE file on
# slower-memory GPUs: a fresh user's find, 2026-12-04).
dram, rc, out, err = evaluate_csv("dram-fast.csv", "m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
                                  "1,57344,8192,16,64,128,4,4,0.05\n1,57344,8192,16,128,128,4,4,0.25\n"
                                  "1,57344,8192,16,64,64,4,4,0.3\n")
check("evaluate warns of a time faster than the DRAM bandwidth allows, at its line",
      rc == 0 and f"{dram}:2:" in err and "faster than h200's 4.80 TB/s DRAM bandwidth allows (0.1827 ms)" in err, err)
# A target of one dtype and layout given a file without those columns (the harness's bf16 NN): the error
# says what the rows need, not only "measurements of another kernel" (a fresh user's find, 2026-12-06).
nodtype, rc, out, err = evaluate_csv("fp8-nodtype.csv", "m,n,k,block_m,block_n,block_k,group_m,num_warps,num_stages,ms\n"
                                     "64,7168,2048,64,128,128,1,4,3,0.012\n", "--target", "vllm-fp8-block")
check("evaluate --target vllm-fp8-block on rows without dtype and layout: says the rows need fp8 and NT",
      rc == 1 and f"{nodtype}:2:" in err and "this target's rows need dtype fp8 and layout NT" in err, err)
# ... and below what the L2 allows where the bytes fit in it: 4096x4096x16 bf16 NN moves 33.82 MB (A and B
# 0.13 MB each, C 33.55 MB), every byte through the L2 once, at twice the H200's 11.2 TB/s at most:
# 33816576 / 22.4e12 = 1.510 us (an L2-resident shape timed at 1 us passed unchecked, scored as the
# oracle: a fresh user's find, 2026-12-06).
l2, rc, out, err = evaluate_csv("l2-fast.csv", "m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
                                "4096,4096,16,128,128,16,4,3,0.001\n4096,4096,16,64,128,16,4,3,0.02\n"
                                "4096,4096,16,64,64,16,4,3,0.025\n")
check("evaluate warns of a time faster than the L2 bandwidth allows, at its line",
      rc == 0 and f"{l2}:2:" in err and "faster than h200's L2 bandwidth (twice its 11.20 TB/s) allows (0.00151 ms)" in err
      and "100.0" in out, err + out)
# --cu-count on rows whose gpu column names the whole GPU (no MIG slice): said (taken unsaid: a fresh
# user's find); without --cu-count no such warning.
whole, rc, out, err = evaluate_csv("whole-gpu.csv", "gpu,m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
                                   "NVIDIA H200,4096,4096,4096,128,128,64,8,3,0.9\n"
                                   "NVIDIA H200,4096,4096,4096,128,64,64,8,3,1.1\n", "--cu-count", "60")
rc2, out2, err2 = run("evaluate", "--hw", "h200", "--measurements", whole)
check("evaluate --cu-count on whole-GPU rows: a warning at the first row", rc == rc2 == 0 and
      f"{whole}:2: measured on 'NVIDIA H200', which names no MIG slice, while the profile ranks for a partition "
      "of 60 of 132 SMs" in err and "names no MIG slice" not in err2, err + err2)
# AMD's partitions (CPX, a CU mask) keep the product's name: no such warning there (every CPX
# measurement was warned of: a fresh AMD user's find, 2026-12-05).
amd = os.path.join(TMP, "whole-amd.csv")
with open(amd, "w") as f:
    f.write("gpu,m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
            "AMD Instinct MI300X,4096,4096,4096,128,128,64,8,2,4.0\nAMD Instinct MI300X,4096,4096,4096,128,64,64,8,2,4.4\n")
rc, out, err = run("evaluate", "--hw", "mi300x", "--measurements", amd, "--cu-count", "38")
check("... not on an AMD GPU, whose partitions keep its name", rc == 0 and "MIG" not in err, err)
# A file of a set that holds none of the kernel's rows (another kernel's) is named, not silently added.
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", "data/measurements/h200-triton-k.csv",
                   "data/measurements/h200-tutorial-d.csv")
check("evaluate: a file with none of the kernel's rows in a set is warned of, naming its kernels",
      rc == 0 and "h200-tutorial-d.csv: no row of the triton kernel, so it adds nothing; its kernels: triton-tutorial"
      in err, err)
# A measurement file without a kernel column is the kernel asked for (--kernel, else the target's), as
# the harness's README and --help say (it was the triton kernel's whatever was asked, and failed as "no
# shape has a timed config of the triton-tutorial kernel": fresh users' finds, 2026-12-04/05).
nokernel = os.path.join(TMP, "no-kernel.csv")
with open(nokernel, "w") as f:
    f.write("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n4096,4096,4096,128,128,64,8,3,0.2\n"
            "4096,4096,4096,128,64,64,8,3,0.25\n")
rc, out, err = run("evaluate", "--hw", "h200", "--target", "triton-tutorial", "--measurements", nokernel)
check("evaluate: no kernel column, another target: its rows are that target's kernel's",
      rc == 0 and "evaluate triton-tutorial on h200: 1 shape" in out and "warning" not in err, out + err)
rc, out, err = run("evaluate", "--hw", "h200", "--target", "triton-tutorial", "--kernel", "my-kernel", "--measurements",
                   nokernel)
check("... and --kernel NAME's with --kernel", rc == 0 and "4096x4096x4096" in out, out + err)
with open(nokernel, "a") as f:
    f.write("4096,4096,4096,0,0,0,0,0,0.19\n")
expect_error("no kernel column and a vendor row: the error says why", ["evaluate", "--hw", "h200", "--measurements",
             nokernel], 1, "no-kernel.csv:4: column 'block_m': 0 is outside 1..65536; the file has no 'kernel' column")
# A byte-identical copy under another name is the same measurements twice: an error, as the same path is
# (it was merged unsaid, every config "re-timed" and agreeing with itself: a fresh user's find).
original = os.path.join(TMP, "original.csv")
with open(original, "w") as f:
    f.write("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n4096,4096,4096,128,64,64,8,3,0.2\n"
            "4096,4096,4096,64,64,64,4,3,0.3\n")
copy = os.path.join(TMP, "copy-of-original.csv")
shutil.copy(original, copy)
expect_error("evaluate: a byte-identical copy of a measurement file", ["evaluate", "--hw", "h200", "--measurements",
             original, copy], 1, "copy-of-original.csv: the same bytes as")
# ... but two different files through pipes are two files (a pipe reads empty a second time: they were
# called "the same bytes").
other = os.path.join(TMP, "other.csv")
with open(other, "w") as f:
    f.write("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n2048,2048,2048,128,64,64,8,3,0.05\n"
            "2048,2048,2048,64,64,64,4,3,0.06\n")
piped = subprocess.run(["bash", "-c", f"{BIN} evaluate --hw h200 --measurements <(cat {original}) <(cat {other})"],
                       capture_output=True, text=True)
check("evaluate: two different files through pipes", piped.returncode == 0 and "same bytes" not in piped.stderr,
      piped.stderr)
# A file mostly faster than the peak is a unit slip (times in seconds): one error, not a score of what is
# left (it scored 8 shapes at 94.6% and the vendor at 2732% of oracle: a fresh user's find); a vendor row
# faster than the peak is left out too.
slip = os.path.join(TMP, "slip.csv")
with open(slip, "w") as f:
    f.write("kernel,m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n")
    for bm in (64, 128):
        for bn in (64, 128, 256):
            for s in (2, 3):
                f.write(f"triton,4096,4096,4096,{bm},{bn},64,8,{s},0.0002\n")
    f.write("cublas,4096,4096,4096,0,0,0,0,0,0.0001\n")
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", slip)
errors = [l for l in err.splitlines() if ": error: " in l]
check("evaluate: a file in seconds is one error naming the unit", rc == 1 and out == "" and len(errors) == 1 and
      "12 of its 12 timed configs are faster than h200's peak, DRAM and L2 bandwidth and launch allow: is the 'ms' column in milliseconds?" in errors[0]
      and "warning" not in err, err)
# Most shapes of a file losing their fastest rows so: another, faster GPU's file (the H200's tutorial set
# d scored on --hw a100 lost 35-55 rows of 7 of its 9 shapes, and calibrate fitted the rest: a fresh
# user's find; 8 since the floor counts the A100's DRAM too). One error, for evaluate and calibrate alike.
for cmd in (["evaluate"], ["calibrate", "--folds", "2", "-o", os.path.join(TMP, "a100-fit.yaml")]):
    rc, out, err = run(*cmd, "--hw", "a100", "--target", "triton-tutorial", "--measurements",
                       "data/measurements/h200-tutorial-d.csv")
    check(f"{cmd[0]}: an H200 file on --hw a100 is one error asking about the GPU",
          rc == 1 and out == "" and err.count("\n") == 1 and "8 of its 9 shapes have configs timed faster than "
          "a100's peak, DRAM and L2 bandwidth and launch allow: measured on a faster GPU?" in err, err)
# ... and the other slip, a file in microseconds: every shape 1000x slower than the model puts any of its
# configs (the best over the fastest prediction is 0.73-1.41 over the 329 triton shapes). One error.
with open("data/measurements/h200-tutorial-d.csv") as f:
    d_rows = list(csv.DictReader(f))
in_us = os.path.join(TMP, "in-microseconds.csv")
with open(in_us, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(d_rows[0].keys()))
    w.writeheader()
    w.writerows({**r, "ms": "%g" % (float(r["ms"]) * 1000) if r["ms"] else r["ms"]} for r in d_rows)
rc, out, err = run("evaluate", "--hw", "h200", "--target", "triton-tutorial", "--measurements", in_us)
check("evaluate: a file in microseconds is one error naming the unit", rc == 1 and out == "" and
      err.count("\n") == 1 and "9 of its 9 shapes measured over 200x slower than the model predicts" in err and
      "(not microseconds)?" in err, err)
# One shape alone in microseconds is that error too (it took two shapes); one such shape in a file
# otherwise right is left out, with a warning naming it (it was scored unsaid, then scored and fitted
# with a warning: fresh user's finds).
one_us = os.path.join(TMP, "one-in-microseconds.csv")
with open(one_us, "w") as f:
    f.write("m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n4096,4096,4096,128,128,64,8,3,250\n"
            "4096,4096,4096,128,64,64,8,3,300\n")
expect_error("evaluate: one shape in microseconds", ["evaluate", "--hw", "h200", "--measurements", one_us], 1,
             "1 of its 1 shapes measured over 200x slower than the model predicts")
with open(one_us, "a") as f:
    f.write("2048,2048,2048,128,128,64,8,3,0.03\n2048,2048,2048,128,64,64,8,3,0.035\n"
            "1024,1024,1024,128,128,64,8,3,0.01\n1024,1024,1024,128,64,64,8,3,0.012\n")
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", one_us)
check("evaluate: one shape of three in microseconds is left out, with a warning at its line",
      rc == 0 and f"{one_us}:2: 4096x4096x4096 bf16: measured over 200x slower than the model predicts" in err and
      "Left out" in err and "4096x4096x4096" not in out and "2048x2048x2048" in out, err + out)
# A small shape's row far below any launch (a 100x slip: 44 ns for 176x64x48), which the peak and
# DRAM floors let through, is left out and said (it was the oracle, its shape 1% of it).
def evaluate_json(name, text):
    """Writes `text` to TMP/name and scores it on the h200: (rc, the JSON (or {}), stdout, stderr, path)."""
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    rc, out, err = run("evaluate", "--hw", "h200", "--measurements", path, "--format", "json")
    return rc, json.loads(out) if rc == 0 else {}, out, err, path


rc, res, out, err, tiny = evaluate_json(
    "tiny-slip.csv", "m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n176,64,48,32,32,64,4,3,0.0044\n"
    "176,64,48,16,32,64,4,3,0.000044\n176,64,48,64,64,64,4,3,0.0047\n"
    "2048,2048,2048,128,128,64,8,3,0.03\n2048,2048,2048,128,64,64,8,3,0.035\n")
small = [s for s in res.get("shapes", []) if s["m"] == 176]
check("evaluate: a row shorter than any launch is left out, said at its line",
      rc == 0 and f"{tiny}:3: 176x64x48 bf16 measured in 4.4e-05 ms" in err and "shortest kernel launch (0.77 us" in err
      and len(small) == 1 and small[0]["measured_best_ms"] == 0.0044 and small[0]["measured_configs"] == 2, err + out)
# Configs the target runs but never proposes (16 warps, group_m 4 on the tutorial kernel) are said;
# one it cannot run (split-K) is listed with the model's reason (both passed unsaid, the split-K one
# counted as a model error: a fresh own-kernel user's find).
outside = os.path.join(TMP, "outside-space.csv")
with open(outside, "w") as f:
    f.write("m,n,k,layout,kernel,block_m,block_n,block_k,num_warps,num_stages,split_k,group_m,ms\n"
            "4096,4096,4096,NT,triton-tutorial,128,128,64,8,3,1,8,0.2\n"
            "4096,4096,4096,NT,triton-tutorial,64,64,64,4,3,1,8,0.3\n"
            "4096,4096,4096,NT,triton-tutorial,256,128,64,8,4,4,8,0.15\n"
            "4096,4096,4096,NT,triton-tutorial,128,128,64,16,3,1,8,0.25\n"
            "4096,4096,4096,NT,triton-tutorial,128,128,64,8,3,1,4,0.21\n")
rc, out, err = run("evaluate", "--hw", "h200", "--target", "triton-tutorial", "--measurements", outside)
check("evaluate: configs outside the target's space are said, an infeasible one with its reason",
      rc == 0 and "2 timed configs are outside triton-tutorial's candidate space" in err
      and "first: line 5: 128x128x64:16:3 for 4096x4096x4096" in err
      and "256x128x64:8:4:4 (0.1500 ms, line 4): split_k = 4: the tutorial kernel has no split-K" in out, err + out)
# A file name with a newline is escaped in a file:line error (it split the error over two lines: a
# fresh CI user's find, 2026-12-04).
nl_file = os.path.join(TMP, "nl\nname.txt")
with open(nl_file, "w") as f:
    f.write("16xx16\n")
expect_error("batch: a file name with a newline, escaped in its file:line error", ["batch", nl_file, "--hw", "h200", "-q"],
             1, "nl\\x0aname.txt:1: shape '16xx16'")
# ... also when stdin holds shapes (the candidates read them and failed as a malformed candidates file,
# exit 1: a fresh CI user's find, 2026-12-04).
expect_error("batch - --candidates -: a usage error, not the shapes read as candidates",
             ["batch", "-", "--hw", "h200", "--candidates", "-", "-q"], 2,
             "--candidates and the shape list are both '-'", stdin="16x16x16\n")
# --strict: a warning fails the run (a misspelt column gave defaults with exit 0, even in CI: a fresh CI
# user's find, 2026-12-04); shown with --quiet too; the output is written first.
typo = os.path.join(TMP, "typo.csv")
with open(typo, "w") as f:
    f.write("name,m,n,k,dtpye\na,4096,4096,4096,fp16\n")
rc_s, out_s, err_s = run("batch", typo, "--hw", "h200", "-q", "--emit", "triton", "--strict")
rc_n, out_n, err_n = run("batch", typo, "--hw", "h200", "-q", "--emit", "triton")
check("--strict: a warning is exit 1 after the output, shown with --quiet; without it exit 0 and silent",
      rc_s == 1 and "unknown column 'dtpye' ignored" in err_s and "--strict: 1 warning above" in err_s and
      out_s == out_n and json.loads(out_s) and rc_n == 0 and err_n == "", err_s + err_n)
rc_s, out_s, err_s = run("--strict", "rank", "64x64x64", "--hw", "h200", "--top", "1")
check("--strict without a warning: exit 0", rc_s == 0 and err_s == "", err_s)
# The tool's own ranking CSV read back as --candidates: its shape and result columns are known, so
# --strict takes it (18 unknown-column warnings failed it: a fresh user's find, 2026-12-06).
rc_r, ranking, _ = run("rank", "4096x4096x4096", "--hw", "h200", "--top", "5", "--format", "csv")
own = os.path.join(TMP, "own-ranking.csv")
with open(own, "w") as f:
    f.write(ranking)
rc_s, out_s, err_s = run("--strict", "rank", "4096x4096x4096", "--hw", "h200", "--candidates", own, "--format", "csv")
check("rank's own CSV read back as --candidates: no warning, the same five configs",
      rc_r == 0 and rc_s == 0 and err_s == "" and
      sorted(l.split(",")[10:17] for l in out_s.splitlines()[1:]) == sorted(l.split(",")[10:17] for l in ranking.splitlines()[1:]),
      err_s + out_s)
# profile_digest follows a profile file's content, not its path (the same file in two places gave two
# provenances, an edited one the same: a fresh CI user's find, 2026-12-04).
d1, d2 = os.path.join(TMP, "digest1"), os.path.join(TMP, "digest2")
os.makedirs(d1, exist_ok=True); os.makedirs(d2, exist_ok=True)
shutil.copy("profiles/h200.yaml", os.path.join(d1, "my.yaml")); shutil.copy("profiles/h200.yaml", os.path.join(d2, "my.yaml"))
def digest_of(path):
    rc, out, err = run("rank", "64x64x64", "--hw", path, "--top", "1", "--format", "json")
    return json.loads(out)["hardware"]["profile_digest"] if rc == 0 else err
same1, same2 = digest_of(os.path.join(d1, "my.yaml")), digest_of(os.path.join(d2, "my.yaml"))
with open(os.path.join(d2, "my.yaml"), "a") as f:
    f.write("# edited\n")
edited = digest_of(os.path.join(d2, "my.yaml"))
check("profile_digest: equal for the same content in two places, another once edited",
      len(same1) == 16 and same1 == same2 and edited != same1, [same1, same2, edited])
rc, out, err = run("batch", "-", "--hw", "h200", "--cu-count", "66", "--emit", "triton", "-q", stdin="64x64x64\n")
emitted = json.loads(out) if rc == 0 else [{}]
check("--emit triton gives cu_count as a number and the profile's digest",
      emitted[0].get("cu_count") == 66 and len(emitted[0].get("profile_digest", "")) == 16, out[:300] + err)
# A newline in a quoted name is refused at its row (it made a stray row a shape of its own, scored at
# 100%: a fresh own-kernel user's find).
newline_name = os.path.join(TMP, "newline-name.csv")
with open(newline_name, "w") as f:
    f.write('m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms,name\n64,64,64,16,16,16,4,3,0.01,"a\nb"\n')
expect_error("evaluate: a name with a newline", ["evaluate", "--hw", "h200", "--measurements", newline_name], 1,
             "column 'name' holds a control character, 'a\\x0ab'")
# The advisor's own first pick failed to run (a compile error in the user's kernel): said, and in the
# JSON; scored at its first pick that ran (that passed unsaid: a fresh own-kernel user's find).
rc, res, out, err, failed_csv = evaluate_json(
    "failed-pick.csv", "m,n,k,layout,block_m,block_n,block_k,num_warps,num_stages,ms,status\n"
    "4096,4096,4096,NT,128,256,64,8,4,,compile_error\n4096,4096,4096,NT,128,128,64,8,3,0.2,ok\n"
    "4096,4096,4096,NT,64,64,64,4,3,0.3,ok\n")
# ... with its file: several files merge into one shape's rows, so a line alone named no row.
check("evaluate: the advisor's first pick that failed to run is said and reported",
      rc == 0 and "first pick failed to run for 1 of the 1 shapes" in err
      and f"128x256x64:8:4 at {failed_csv}:2: compile_error" in err
      and res["shapes"][0]["failed_pick"] == {"config": "128x256x64:8:4", "status": "compile_error", "line": 2,
                                              "file": failed_csv}
      and res["shapes"][0]["advisor_top1"] == "128x128x64:8:3" and res["aggregate"]["failed_picks"] == 1, err + out)
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", failed_csv)
check("evaluate's table marks the substitute pick and names the failed one under its row",
      rc == 0 and "128x128x64:8:3*" in out and
      "* the advisor's first pick 128x256x64:8:4 failed to run (compile_error, line 2): scored at its first pick that ran"
      in out, out)
# ... also when it ties with the pick that ran: the ranking's own tie-break decides (rank puts
# 64x128x64:4:5 before 128x64x64:4:5 on 1024^3, predicted alike, 12.07 us; the failed one went unsaid
# when the two were compared by time alone: a fresh user's find, 2026-12-05).
rc, out, err = run("rank", "1024x1024x1024", "--hw", "h200", "--candidates", "-", "--top", "0", "--format", "csv",
                   stdin="block_m,block_n,block_k,num_warps,num_stages\n128,64,64,4,5\n64,128,64,4,5\n")
tie_rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else []
rc, res, out, err, tied_csv = evaluate_json(
    "failed-tied-pick.csv", "m,n,k,layout,block_m,block_n,block_k,num_warps,num_stages,ms,status\n"
    "1024,1024,1024,NT,64,128,64,4,5,,compile_error\n1024,1024,1024,NT,128,64,64,4,5,0.02,ok\n"
    "1024,1024,1024,NT,64,64,64,4,3,0.03,ok\n")
check("evaluate: a failed first pick tied with the next is said, by the ranking's order",
      len(tie_rows) == 2 and tie_rows[0]["latency_us"] == tie_rows[1]["latency_us"]
      and (tie_rows[0]["block_m"], tie_rows[0]["block_n"]) == ("64", "128")
      and rc == 0 and res["shapes"][0]["failed_pick"] is not None
      and res["shapes"][0]["failed_pick"]["config"] == "64x128x64:4:5"
      and res["shapes"][0]["advisor_top1"] == "128x64x64:4:5" and res["aggregate"]["failed_picks"] == 1,
      [tie_rows, err, out[:400]])
# Rows that ran with a config the target's rules refuse (num_warps 3: a typo) are said on stderr,
# in every format (only evaluate's table listed them: a fresh user's find, 2026-12-05), and calibrate
# says when shapes have one timed config each (they score 100% whatever it fits).
rc, res, out, err, _ = evaluate_json(
    "refused.csv", "m,n,k,layout,block_m,block_n,block_k,num_warps,num_stages,ms,status\n"
    "1024,1024,1024,NT,64,128,64,3,5,0.02,ok\n1024,1024,1024,NT,128,64,64,4,5,0.02,ok\n")
check("evaluate --format json: a row that ran with num_warps 3 is warned of at its line",
      rc == 0 and "1 timed config that ran is called infeasible by triton's rules (first: line 2: 64x128x64:3:5" in err
      and "num_warps = 3 must be a power of two" in err, err)
single = os.path.join(TMP, "single-config.csv")
with open(single, "w") as f:
    f.write("m,n,k,layout,block_m,block_n,block_k,num_warps,num_stages,ms\n")
    for i in range(10):
        f.write(f"{1024 + 64 * i},1024,1024,NT,128,128,64,8,3,{0.02 + 0.001 * i:.3f}\n")
rc, out, err = run("calibrate", "--hw", "h200", "--measurements", single, "--folds", "2", "-o",
                   os.path.join(TMP, "single.yaml"))
check("calibrate: shapes with one timed config each are said",
      rc == 0 and "10 of the 10 shapes have one timed config, which scores 100% of oracle whatever the parameters" in err,
      err)
# ... and scores exactly 100% there: (100 * best) / pick came out 100.00000000000001 (the same fresh user).
rc, out, err = run("calibrate", "--hw", "h200", "--measurements", single, "--folds", "2", "-o",
                   os.path.join(TMP, "single.yaml"), "--format", "json")
cal = json.loads(out) if rc == 0 else {}
check("calibrate --format json: every % of oracle of a one-config shape set is exactly 100",
      rc == 0 and all(cal[k]["geomean_pct_of_oracle"] == 100.0 and cal[k]["top5_pct_of_oracle"] == 100.0
                      for k in ("held_out_before", "held_out_after", "all_before", "all_after")), out[:600])
# The measurement CSV's columns are in evaluate's and calibrate's --help (the installed tool lacks the
# tools/measure/README.md they pointed to: a fresh user's find, 2026-12-05); '-' validates stdin.
for sub in ("evaluate", "calibrate"):
    rc, out, err = run(sub, "--help")
    check(f"{sub} --help lists the measurement CSV's required and optional columns",
          rc == 0 and "required: m, n, k, block_m, block_n, block_k, num_warps, num_stages, ms" in out
          and "layout (NN" in out and "tools/measure/README.md" not in out, out[-900:])
rc, out, err = run("profiles", "validate", "-", stdin=open("profiles/h200.yaml").read())
check("profiles validate -: the profile from stdin", rc == 0 and out.startswith("-: ok: h200"), out + err)
with open(fast, "a") as f:
    f.write("4096,4096,4096,64,64,64,4,3,0.3\n")
vendor_fast = os.path.join(TMP, "vendor-fast.csv")
with open(vendor_fast, "w") as f:
    f.write("kernel,m,n,k,block_m,block_n,block_k,num_warps,num_stages,ms\n"
            "triton,4096,4096,4096,128,64,64,8,3,0.2\ntriton,4096,4096,4096,64,64,64,4,3,0.3\n"
            "cublas,4096,4096,4096,0,0,0,0,0,0.0001\n")
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", vendor_fast, "--format", "json")
check("evaluate: a vendor row faster than the peak is left out, said", rc == 0 and "the cublas row's 0.0001 ms is faster"
      in err and json.loads(out)["shapes"][0].get("vendor_pct_of_oracle") is None, err)

# --candidates as config texts, one a line (comments and blank lines skipped), ranks as the same CSV does;
# a JSON file is told apart (it got CSV parser jargon: a fresh user's find, 2026-12-04).
texts = os.path.join(TMP, "cands.txt")
with open(texts, "w") as f:
    f.write("# my kernel's configs\n128x128x64:8:3\n\n64x128x64:4:4:2\n128x64x64:4:3:g4\n")
as_csv = os.path.join(TMP, "cands-equal.csv")
with open(as_csv, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages,split_k,group_m\n128,128,64,8,3,1,8\n64,128,64,4,4,2,8\n"
            "128,64,64,4,3,1,4\n")
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", texts, "--format", "json")
rc2, out2, err2 = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", as_csv, "--format", "json")
check("--candidates of config texts ranks as the same CSV", rc == rc2 == 0 and
      json.loads(out)["configs"] == json.loads(out2)["configs"] and len(json.loads(out)["configs"]) == 3, err + err2)
with open(texts, "a") as f:
    f.write("128x128:8\n")
expect_error("--candidates: a bad config text is named at its line", ["rank", "4096x4096x4096", "--hw", "h200",
             "--candidates", texts], 1, "cands.txt:6: config '128x128:8'")
# A byte order mark, a comment after a config, a pasted multiplication sign (read as CSV: "lacks column
# 'block_m'"), a file of comments only ("expected a header row"): fresh user's finds, 2026-12-04.
with open(texts, "w", encoding="utf-8") as f:
    f.write("\ufeff128x128x64:8:3  # ours\n64x128x64:4:4:2\n128x64x64:4:3:g4 # theirs\n")
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", texts, "--format", "json")
check("--candidates text with a BOM and trailing comments ranks as the CSV",
      rc == 0 and json.loads(out)["configs"] == json.loads(out2)["configs"], err)
with open(texts, "w", encoding="utf-8") as f:
    f.write("128\u00d7128\u00d764:8:3\n")
expect_error("--candidates: a multiplication sign is named", ["rank", "4096x4096x4096", "--hw", "h200",
             "--candidates", texts], 1, "cands.txt:1: config '128\u00d7128\u00d764:8:3': block sizes are "
             "separated by the letter x")
with open(texts, "w") as f:
    f.write("# nothing yet\n\n")
expect_error("--candidates: a file of comments only", ["rank", "4096x4096x4096", "--hw", "h200", "--candidates", texts],
             1, "cands.txt: no configs: the file is empty or only comments")
# vLLM's AMD config keys in a --candidates CSV are taken without a warning (they are not ranked); the
# rank JSON names the CUs ranked for (a partition's too), as a field.
rocm = os.path.join(TMP, "rocm-candidates.csv")
with open(rocm, "w") as f:
    f.write("BLOCK_SIZE_M,BLOCK_SIZE_N,BLOCK_SIZE_K,GROUP_SIZE_M,num_warps,num_stages,waves_per_eu,"
            "matrix_instr_nonkdim,kpack\n64,128,64,1,4,2,0,16,2\n")
rc, out, err = run("rank", "4096x4096x4096", "--hw", "mi300x", "--candidates", rocm, "--cu-count", "38", "--format", "json")
check("--candidates with vLLM's ROCm keys: no warning; hardware.cu_count is the partition's",
      rc == 0 and err == "" and json.loads(out)["hardware"]["cu_count"] == 38, err + out[:300])
# A tile of one K-step whose stage variants tie lists Triton's default 3 stages first (6 came first: a
# fresh user's find); measured on our H200 (h200-single-kstep.csv: 22 such tiles at 1-6 stages), 3
# stages run 1.026x a tile's best in the geomean, 6 stages 1.065x.
rc, out, err = run("rank", "16x16x16", "--hw", "h200", "--top", "1", "--format", "json")
check("rank 16x16x16: the top config has 3 stages", rc == 0 and json.loads(out)["configs"][0]["num_stages"] == 3, out)
# --config: GROUP_M with a capital G (as X for x), and what a short config text lacks.
rc, out, err = run("explain", "4096x4096x4096", "--hw", "h200", "--config", "128X128X64:8:3:1:G4", "--format", "json")
check("--config 128X128X64:8:3:1:G4 is group_m 4", rc == 0 and json.loads(out)["configs"][0]["group_m"] == 4, err)
expect_error("--config 128x128x64:8: says STAGES is missing", ["explain", "4096x4096x4096", "--hw", "h200", "--config",
             "128x128x64:8"], 2, "config '128x128x64:8': missing STAGES")
as_json = os.path.join(TMP, "cands.json")
with open(as_json, "w") as f:
    f.write('[{"block_m": 128, "block_n": 128}]\n')
expect_error("--candidates of JSON: said so, with the forms it takes", ["rank", "4096x4096x4096", "--hw", "h200",
             "--candidates", as_json], 1, "cands.json: looks like JSON: --candidates takes a CSV")
# A config of a --candidates file that cannot run is named with its line; with none left, the error
# names the file (it named neither).
cands = os.path.join(TMP, "cands.csv")
with open(cands, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages\n128,128,64,4,3\n96,128,64,4,3\n")
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", cands, "--top", "1")
check("--candidates: an infeasible config is warned of at its line",
      rc == 0 and f"{cands}:3: config 96x128x64:4:3 is infeasible on h200" in err, err)
with open(cands, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages\n96,128,64,4,3\n")
rc, out, err = run("rank", "4096x4096x4096", "--hw", "h200", "--candidates", cands)
check("--candidates: none feasible, the error names the file", rc == 1 and not out and
      f"error: {cands}: no feasible config for 4096x4096x4096 on h200" in err, err)
# A malformed --config is a bad option value (exit 2, as '' was), not a bad input.
for value in (":::", "128x128x64:4"):
    expect_error(f"explain --config {value!r}", ["explain", "4096x4096x4096", "--hw", "h200", "--config", value], 2,
                 "--config: config")
# A trailing comment in a CSV shape list: the error says where comments go.
commented = os.path.join(TMP, "commented.csv")
with open(commented, "w") as f:
    f.write("m,n,k\n64,64,64 # c\n")
rc, out, err = run("batch", commented, "--hw", "h200")
check("CSV shape list with a trailing comment: the error says where comments go", rc == 1 and not out and
      f"{commented}:2: column 'k': '64 # c' is not a whole number (a CSV comment takes a whole line" in err, err)

# A line's dtype column wins over --dtype: where the target refuses that dtype, the error says so
# (examples/deepseek-v3.csv's bf16 column with --target vllm-fp8-block --dtype fp8: a fresh user's find,
# 2026-12-04, twenty-eighth session).
rc, out, err = run("batch", "examples/deepseek-v3.csv", "--target", "vllm-fp8-block", "--hw", "h200", "--dtype", "fp8",
                   "--format", "csv")
check("a list's bf16 column under --dtype fp8 for vllm-fp8-block: the error names the column", rc == 1 and
      "deepseek-v3.csv:2: " in err and "got bf16 (the line's dtype column, which --dtype does not override" in err, err)

# A shape list's own fp8 encoding the GPU does not compute is warned of at its first line, as --dtype's
# (ROCm's HIP "FP8 Numbers": gfx942 computes FNUZ only, NVIDIA OCP only); --strict fails on it (the
# dtype column went unsaid: a fresh user's find, 2026-12-04, twenty-eighth session).
enc = os.path.join(TMP, "fnuz-list.csv")
with open(enc, "w") as f:
    f.write("m,n,k,dtype\n256,256,256,float8_e4m3fnuz\n256,512,256,float8_e4m3fnuz\n256,256,512,bf16\n")
rc, out, err = run("batch", enc, "--hw", "h200", "--strict", "--format", "csv")
check("batch: a list's FNUZ dtype on the H200 warned once, at its first line; --strict exits 1 after the output",
      rc == 1 and err.count("is the FNUZ fp8 encoding") == 1 and f"{enc}:2: dtype float8_e4m3fnuz" in err and
      len(out.strip().splitlines()) > 3, err)
rc, out, err = run("batch", enc, "--hw", "mi300x", "--strict", "--format", "csv")
check("... not on the MI300X, which computes it", rc == 0 and "encoding" not in err, err)
enc1 = os.path.join(TMP, "fnuz-one-line.json")
with open(enc1, "w") as f:
    f.write('[{"m": 256, "n": 256, "k": 256}, {"m": 256, "n": 512, "k": 256, "dtype": "float8_e4m3fnuz"}]\n')
rc, out, err = run("batch", enc1, "--hw", "h200", "--format", "csv")
check("... in a JSON list on one line, at its entry (the line alone named it)",
      rc == 0 and f"{enc1}:1: entry 2 of the list: dtype float8_e4m3fnuz" in err, err)

# A re-time file without family and name columns is the same problem as the named one measured before
# (it was a second shape, counted twice: a fresh user's find, 2026-12-05). The committed fp8-block file's
# first shape, 1x1536x7168 (deepseek-v3 q_a_proj.m1), re-timed at 0.98x: its 156 shapes stay 156 (157 before).
fp8_block = "data/measurements/h200-fp8-block.csv.gz"
with gzip.open(fp8_block, "rt", newline="") as f:
    rows = list(csv.DictReader(f))
first = [r for r in rows if (r["m"], r["n"], r["k"]) == (rows[0]["m"], rows[0]["n"], rows[0]["k"])]
retime = os.path.join(tempfile.mkdtemp(), "retime.csv")
with open(retime, "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=[c for c in first[0] if c not in ("family", "name")], extrasaction="ignore")
    w.writeheader()
    for r in first:
        w.writerow(dict(r, ms=str(float(r["ms"]) * 0.98) if r["status"] == "ok" else r["ms"]))
rc, out, err = run("evaluate", "--hw", "h200", "--target", "vllm-fp8-block", "--measurements", fp8_block, "--format", "json")
rc2, out2, err2 = run("evaluate", "--hw", "h200", "--target", "vllm-fp8-block", "--measurements", fp8_block, retime,
                      "--format", "json")
check("a re-time file without family and name merges into the named shape (no second copy of it)",
      rc == rc2 == 0 and len(json.loads(out)["shapes"]) == len(json.loads(out2)["shapes"]) == 156, err + err2)

# A calibrated profile's fitted launch overhead does not tighten the check for impossible timings: a
# profile fitting launch_overhead_s to 12 us (3.07 us shipped) refused 2.2 us CUDA-graph timings as "not
# in milliseconds" (a fresh user's find, 2026-12-05). The floor stays a quarter of the lower one.
slow_launch = os.path.join(tempfile.mkdtemp(), "slow-launch.yaml")
with open("profiles/h200.yaml") as f:
    text = f.read()
with open(slow_launch, "w") as f:
    f.write(text + "\ntargets:\n  triton:\n    model_parameters:\n      launch_overhead_s: 12.0e-6\n")
graphs = os.path.join(tempfile.mkdtemp(), "graphs.csv")
with open(graphs, "w") as f:
    f.write("m,n,k,layout,block_m,block_n,block_k,num_warps,num_stages,ms\n"
            "64,64,64,NT,16,16,64,4,3,0.0022\n64,64,64,NT,32,32,64,4,3,0.0024\n64,64,64,NT,64,64,64,4,3,0.0028\n")
rc, out, err = run("evaluate", "--hw", slow_launch, "--measurements", graphs, "--format", "json")
check("a profile with a fitted 12 us launch still takes 2.2 us timings (above a quarter of the shipped 3.07 us)",
      rc == 0 and len(json.loads(out)["shapes"]) == 1, err)

# A parameter given as -0.0 is 0: explain printed "-0 us" and JSON -0.0 (a fresh user's find, 2026-12-06).
neg_zero = os.path.join(tempfile.mkdtemp(), "neg-zero.yaml")
with open(neg_zero, "w") as f:
    f.write(text + "\nmodel_parameters:\n  launch_overhead_s: -0.0\n")
rc, out, err = run("explain", "64x64x64", "--hw", neg_zero)
rc2, out2, err2 = run("explain", "64x64x64", "--hw", neg_zero, "--format", "json")
check("launch_overhead_s: -0.0 is 0 (the table says 0 us, JSON 0.0 with no sign)",
      rc == rc2 == 0 and "-0 us" not in out and " 0 us" in out and '"launch_s": -0.0' not in out2 and
      json.loads(out2)["configs"][0]["terms"]["launch_s"] == 0, out + err + err2)

# One shape measured in two families is two problems: the table tells their lines apart by family (and
# name), the JSON gives both (two identical lines before: a fresh user's find, 2026-12-06).
two_fam = os.path.join(tempfile.mkdtemp(), "two-families.csv")
with open(two_fam, "w") as f:
    f.write("m,n,k,layout,block_m,block_n,block_k,num_warps,num_stages,ms,family,name\n"
            "512,4096,4096,NT,128,128,64,8,3,0.05,fa,\n512,4096,4096,NT,128,256,64,8,3,0.06,fa,\n"
            "512,4096,4096,NT,128,128,64,8,3,0.05,fb,up\n512,4096,4096,NT,128,256,64,8,3,0.06,fb,up\n"
            "1024,4096,4096,NT,128,128,64,8,3,0.08,fa,\n1024,4096,4096,NT,128,256,64,8,3,0.09,fa,\n")
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", two_fam)
rc2, out2, err2 = run("evaluate", "--hw", "h200", "--measurements", two_fam, "--format", "json")
shapes = json.loads(out2)["shapes"] if rc2 == 0 else []
check("evaluate: one shape in two families is two lines, each tagged; a shape measured once is not",
      rc == rc2 == 0 and "512x4096x4096 bf16 NT [fa] " in out and "512x4096x4096 bf16 NT [fb/up] " in out and
      "1024x4096x4096 bf16 NT  " in out and "[fa]" not in out.split("1024x4096x4096")[1].splitlines()[0] and
      sorted((s["family"], s["name"]) for s in shapes) == [("fa", ""), ("fa", ""), ("fb", "up")], out + err + err2)

# The default config that ran and failed is said so, not "not measured" (a fresh user's find, 2026-12-06).
failed_default = os.path.join(tempfile.mkdtemp(), "failed-default.csv")
with open(failed_default, "w") as f:
    f.write("m,n,k,layout,block_m,block_n,block_k,num_warps,num_stages,ms,status\n"
            "512,4096,4096,NT,128,128,64,8,3,,wrong\n512,4096,4096,NT,128,256,64,8,3,0.06,ok\n")
rc, out, err = run("evaluate", "--hw", "h200", "--measurements", failed_default)
rc2, out2, err2 = run("evaluate", "--hw", "h200", "--measurements", failed_default, "--format", "json")
agg = json.loads(out2)["aggregate"] if rc2 == 0 else {}
check("evaluate: the default that failed to run is said so (table and JSON)",
      rc == rc2 == 0 and "default:  128x128x64:8:3 failed to run on 1 shape and ran on none" in out and
      agg["default_failed_shapes"] == 1 and agg["default_measured_shapes"] == 0, out + err + err2)

# An overlay with values for the fused-MoE target's fp8_block set alone leaves a bf16 layer on the target's
# own values: said (it ranked unsaid, exit 0: a fresh user's find, 2026-12-06); a block-fp8 layer uses them.
fp8_only = os.path.join(tempfile.mkdtemp(), "fp8-block-only.yaml")
with open(fp8_only, "w") as f:
    f.write(text + "\ntargets:\n  vllm-fused-moe: {fp8_block: {model_parameters: {k_step_overhead_cycles: 500}}}\n")
layer = ["--target", "vllm-fused-moe", "--experts", "128", "--top-k", "8", "--hidden", "2048", "--intermediate", "768",
         "--top", "1"]
rc, out, err = run("rank", "64", "--hw", fp8_only, *layer)
rc2, out2, err2 = run("rank", "64", "--hw", fp8_only, *layer, "--dtype", "fp8", "--block-shape", "128x128")
check("an overlay of the fp8_block set alone: a bf16 layer warns that it runs the target's own set; a block-fp8 "
      "layer does not", rc == rc2 == 0 and "model parameters for vllm-fused-moe's 'fp8_block' set only: a problem "
      "here runs the target's own set, with its shipped values" in err and "warning" not in err2, err + err2)

# A fresh CLI user's finds, 2026-12-06. A gzipped candidates list (a .gz name, or gzip's magic bytes
# under any name) is read decompressed, as batch reads its lists: it was parsed as text ("compressed
# twice" for a list compressed once, its bytes blamed on a multiplication sign).
plain_list = "128x128x64:8:3\n64x64x64:4:3\n"
for name in ("cands.txt.gz", "cands-gzipped.txt"):
    with gzip.open(os.path.join(TMP, name), "wt") as f:
        f.write(plain_list)
with open(os.path.join(TMP, "cands.txt"), "w") as f:
    f.write(plain_list)
want = run("rank", "4096x4096x4096", "--hw", "h100", "--candidates", os.path.join(TMP, "cands.txt"), "--format", "json")
for name in ("cands.txt.gz", "cands-gzipped.txt"):
    got = run("rank", "4096x4096x4096", "--hw", "h100", "--candidates", os.path.join(TMP, name), "--format", "json")
    check(f"--candidates {name}: read decompressed, the plain list's ranking", got[0] == 0 and got[1] == want[1], got[2])
# explain says the sectors a misaligned row's tile touches on a profile without a measured fraction
# (the A100's): its store was longer on 4095-wide rows than on 4096-wide ones, unsaid.
rc, out, err = run("explain", "4096x4095x16", "--hw", "a100", "--config", "16x256x16:4:2")
check("explain on the A100, 4095-wide rows: the store line counts the sectors",
      rc == 0 and "counting the 1.06 bytes of sectors a row of this tile touches per byte it writes" in out, out)

# explain says what the latency term is made of, with its parameters: vllm-fp8-block's load-dependent
# latency (idle_latency_fraction 0.55, vllm_fp8_block.cpp) named, triton's single one without it, and a
# one-stage config's unpipelined wait (a fresh user could not tell the latency depends on load, 2026-12-06).
rc, out, err = run("explain", "1x576x7168", "--hw", "h200", "--target", "vllm-fp8-block", "--config", "16x32x128:4:4:g1")
check("explain vllm-fp8-block: the latency's load dependence and its parameters are said",
      rc == 0 and "loaded_latency_multiplier 4.13 x the idle latency of the farthest level it reads x (0.55 + 0.45 x "
      "the levels' share of the step: idle_latency_fraction 0.55)" in out, out)
rc, out, err = run("explain", "4096x4096x4096", "--hw", "h200", "--config", "128x128x64:8:3")
check("explain triton: one loaded latency, no load term",
      rc == 0 and "a load's wait, loaded_latency_multiplier" in out and "idle_latency_fraction" not in out, out)
rc, out, err = run("explain", "4096x4096x4096", "--hw", "h200", "--config", "128x128x64:8:1")
check("explain at one stage: the unpipelined wait",
      rc == 0 and "(num_stages 1: each step waits for its own loads, unpipelined_latency_multiplier" in out, out)

cli_harness.finish()
