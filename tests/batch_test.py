#!/usr/bin/env python3
"""End-to-end tests of `gemm-advisor batch`: every input format and stdin, identical bytes for any
--jobs, --keep-going and exit codes, the progress line, `--emit triton` within the hardware limits and
`--emit vllm` files as vLLM reads them. Usage: batch_test.py PATH/TO/gemm-advisor (run from the repo
root). No test depends on timing."""
import json
import os
import pty
import random
import re
import shutil
import subprocess
import sys

import cli_harness
import tempfile

BIN = sys.argv[1]
TMP = cli_harness.temp_dir("gemm-advisor-batch-test-")

# vLLM's tuned M grid (benchmarks/kernels/benchmark_w8a8_block_fp8.py) and file name pattern
# (fp8_utils.py get_w8a8_block_fp8_configs), device names as vLLM spells them.
VLLM_M = [1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024, 1536, 2048, 3072, 4096]
VLLM_KEYS = ["BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps", "num_stages"]
VLLM_DEVICES = {"h100": "NVIDIA_H100_80GB_HBM3", "h200": "NVIDIA_H200", "b200": "NVIDIA_B200",
                "mi300x": "AMD_Instinct_MI300X", "mi350x": "AMD_Instinct_MI350X", "mi355x": "AMD_Instinct_MI355X"}
TRITON_KEYS = ["BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M", "SPLIT_K", "num_warps", "num_stages"]


def run(*args, stdin=None):
    return cli_harness.run(BIN, *args, stdin=stdin, timeout=300)


check = cli_harness.check


def write(name, text):
    return cli_harness.write_file(TMP, name, text)


def problems(jsonl):
    return [(d["problem"]["m"], d["problem"]["n"], d["problem"]["k"], d["problem"]["batch"]) for d in
            map(json.loads, jsonl.splitlines())]


def error_lines(err):
    return [l for l in err.splitlines() if l.startswith("gemm-advisor: error:")]


# --- every input format gives the same results ----------------------------------------------------
SHAPES = [(16, 6144, 4096, 1), (4096, 4096, 4096, 1), (1, 28672, 4096, 1), (512, 512, 512, 4)]
WANT = [s for s in SHAPES]
inputs = {
    "csv": write("shapes.csv", "# a comment line\nname,m,n,k,batch,dtype,layout\n\n"
                 + "".join(f"s{i},{m},{n},{k},{b},bf16,NT\n# between rows\n" for i, (m, n, k, b) in enumerate(SHAPES))),
    "csv (m,n,k only, CRLF)": write("mnk.csv", "m,n,k\r\n" + "".join(f"{m},{n},{k}\r\n" for m, n, k, b in SHAPES[:3])
                                    + "512,512,512\r\n"),
    "yaml": write("shapes.yaml", "# YAML list\n" + "".join(f"- {{m: {m}, n: {n}, k: {k}, batch: {b}, name: s{i}}}\n"
                                                           for i, (m, n, k, b) in enumerate(SHAPES))),
    "json": write("shapes.json", json.dumps([{"m": m, "n": n, "k": k, "batch": b, "name": f"s{i}"}
                                             for i, (m, n, k, b) in enumerate(SHAPES)], indent=1)),
    "text": write("shapes.txt", "# MxNxK[xB] lines\n\n" + "".join(f"{m}x{n}x{k}x{b}   # shape {i}\n\n"
                                                                 for i, (m, n, k, b) in enumerate(SHAPES))),
}
outputs = {}
for fmt_name, path in inputs.items():
    rc, out, err = run("batch", path, "--hw", "h200", "--top", "2", "-q")
    want = WANT if "m,n,k only" not in fmt_name else [s[:3] + (1,) for s in SHAPES[:3]] + [(512, 512, 512, 1)]
    check(f"{fmt_name}: exit 0", rc == 0, err)
    check(f"{fmt_name}: one object per shape, in input order", rc == 0 and problems(out) == want, out[:300])
    check(f"{fmt_name}: --quiet leaves stderr empty", err == "", err)
    outputs[fmt_name] = out
check("csv, yaml and json inputs give the same bytes", outputs["csv"] == outputs["yaml"] == outputs["json"])
check("names come through", all(json.loads(l).get("name") == f"s{i}" for i, l in enumerate(outputs["csv"].splitlines())))
no_names = outputs["text"]
check("text input: same rankings, no name", [json.loads(l)["configs"] for l in no_names.splitlines()] ==
      [json.loads(l)["configs"] for l in outputs["csv"].splitlines()]
      and all("name" not in json.loads(l) for l in no_names.splitlines()))

rc, out, err = run("-q", "batch", inputs["text"], "--hw", "h200", "--top", "2")
check("global -q before the subcommand works too", rc == 0 and err == "" and out == outputs["text"], err)

# stdin, for a text list and a CSV list (format sniffed)
with open(inputs["text"]) as f:
    rc, out, err = run("batch", "-", "--hw", "h200", "--top", "2", "-q", stdin=f.read())
check("stdin text: same as the file", rc == 0 and out == outputs["text"], err)
with open(inputs["csv"]) as f:
    rc, out, err = run("batch", "-", "--hw", "h200", "--top", "2", "-q", stdin=f.read())
check("stdin CSV (sniffed): same as the file", rc == 0 and out == outputs["csv"], err)

# gzipped shape lists (thirty-sixth session): by name (.csv.gz, .yaml.gz: the format from the name
# under .gz) and on stdin (told by gzip's magic byte), the same bytes as the plain files; bad gzip is a
# one-line error naming the input, and nothing is ranked from it.
import gzip as _gzip  # noqa: E402
for fmt_name, ext in (("csv", "csv"), ("yaml", "yaml"), ("text", "txt")):
    with open(inputs[fmt_name], "rb") as f:
        plain = f.read()
    gz_path = os.path.join(TMP, f"shapes-gz.{ext}.gz")
    with open(gz_path, "wb") as f:
        f.write(_gzip.compress(plain))
    rc, out, err = run("batch", gz_path, "--hw", "h200", "--top", "2", "-q")
    check(f"{fmt_name}.gz: the same output as the plain file", rc == 0 and out == outputs[fmt_name], err)
with open(inputs["csv"], "rb") as f:
    csv_gz = _gzip.compress(f.read())
p = subprocess.run([BIN, "batch", "-", "--hw", "h200", "--top", "2", "-q"], input=csv_gz, capture_output=True,
                   timeout=300)
check("gzipped CSV on stdin (magic byte): the same output as the plain file",
      p.returncode == 0 and p.stdout.decode() == outputs["csv"], p.stderr.decode())
not_gz = write("plain-named.csv.gz", "m,n,k\n64,64,64\n")
rc, out, err = run("batch", not_gz, "--hw", "h200")
check("a plain list named .gz: exit 1, one error line naming it, no output",
      rc == 1 and out == "" and len(error_lines(err)) == 1 and f"{not_gz}: not gzip data" in err, err)
truncated = os.path.join(TMP, "truncated.csv.gz")
with open(truncated, "wb") as f:
    f.write(csv_gz[:len(csv_gz) // 2])
rc, out, err = run("batch", truncated, "--hw", "h200")
check("a truncated .gz list: exit 1, the corrupt-data error naming it, no shape claimed complete",
      rc == 1 and f"{truncated}: corrupt gzip data" in err and "0 bad" not in err, err)

# A flipped bit in the middle of a gzipped list: the corruption is said, not the garbage line it made
# (it was "expected 3 fields as in the header": a fresh user's find, 2026-12-05).
flipped = bytearray(_gzip.compress(("m,n,k\n" + "".join(f"{64 + i % 900},{4096 + i % 7},4096\n"
                                                          for i in range(20000))).encode()))
flipped[len(flipped) // 2] ^= 0x10
flipped_path = os.path.join(TMP, "flipped.csv.gz")
with open(flipped_path, "wb") as f:
    f.write(bytes(flipped))
rc, out, err = run("batch", flipped_path, "--hw", "h200", "--format", "csv")
check("a bit flipped in a .gz list: exit 1, the one error says the gzip data is corrupt",
      rc == 1 and len(error_lines(err)) == 1 and f"{flipped_path}: corrupt gzip data" in err, err)

# Leading '#' comment lines in a list named .json or .jsonl, as in one whose format is sniffed (the
# named one was "not valid JSON": a fresh user's find, 2026-12-05); errors keep their file's lines.
commented_json = write("commented.json", "# from a generator\n\n" + open(inputs["json"]).read())
commented_noext = write("commented-json", "# from a generator\n\n" + open(inputs["json"]).read())
rc, out, err = run("batch", commented_json, "--hw", "h200", "--top", "2", "-q")
rc2, out2, err2 = run("batch", commented_noext, "--hw", "h200", "--top", "2", "-q")
check("a .json list after '#' comment lines: the same output as without the name, and as the plain list",
      rc == 0 and rc2 == 0 and out == out2 == outputs["json"], err + err2)
bad_jsonl = write("commented.jsonl", '# c\n{"m": 64, "n": 64, "k": 64}\n{"m": 65, "n": 64}\n')
rc, out, err = run("batch", bad_jsonl, "--hw", "h200", "-q")
check("... and an error after them names the file's own line", rc == 1 and f"{bad_jsonl}:3: missing 'k'" in err, err)
broken_json = write("commented-broken.json", '# a\n# b\n# c\n[\n{"m": 64, "n": 64, "k": 64},\n{"m": 64, "n": 64, "k": 64,}\n]\n')
rc, out, err = run("batch", broken_json, "--hw", "h200", "-q")
check("... and a JSON syntax error after them: the parser's line is the file's line too",
      rc == 1 and f"{broken_json}:6: not valid JSON: parse error at line 6," in err, err)

# jsonl: the same object as `rank --format json`
rc, out, _ = run("rank", "16x6144x4096", "--hw", "h200", "--top", "2", "--format", "json")
ranked = json.loads(out)
check("jsonl line == rank --format json", json.loads(no_names.splitlines()[0]) == ranked)
check("summary line on stderr without --quiet",
      re.search(r"^gemm-advisor: batch: 4 shapes ranked, 0 bad in .* s \(", run("batch", inputs["text"], "--hw", "h200")[2],
                re.M) is not None)

# --- order and bytes do not depend on --jobs ------------------------------------------------------
rng = random.Random(20261201)
varied = []
for i in range(300):
    m = rng.choice([1, 3, 16, 77, 128, 1000, 2048, 4096, 8192])
    n = rng.choice([64, 576, 1536, 4096, 6144, 14336, 28672])
    k = rng.choice([32, 512, 4096, 7168, 14336])
    b = rng.choice([1, 1, 1, 2, 8])
    varied.append((m, n, k, b))
varied_txt = write("varied.txt", "".join(f"{m}x{n}x{k}x{b}\n" for m, n, k, b in varied))
# The limits check prints every config (--top 0): a third of the list keeps it quick.
limits_txt = write("limits.txt", "".join(f"{m}x{n}x{k}x{b}\n" for m, n, k, b in varied[:100]))
for fmt_args in (["--format", "jsonl"], ["--format", "csv"], ["--format", "table"], ["--emit", "triton"]):
    outs = []
    for jobs in ("1", "4"):
        rc, out, err = run("batch", varied_txt, "--hw", "mi350x", "--top", "3", "-j", jobs, "-q", *fmt_args)
        check(f"{' '.join(fmt_args)} -j {jobs}: exit 0", rc == 0, err)
        outs.append(out)
    check(f"{' '.join(fmt_args)}: -j 1 and -j 4 give identical bytes", outs[0] == outs[1] and len(outs[0]) > 1000)
rc, out, _ = run("batch", varied_txt, "--hw", "mi350x", "-j", "4", "-q")
check("-j 4: results in input order", problems(out) == varied)

# --- bad lines: file:line, --keep-going, exit codes ----------------------------------------------
bad_txt = write("bad.txt", "64x64x64\n128x128x128\n12xnope\n# fine\n256x256x256\n0x5x5\n512x512x512\n")
for jobs in ("1", "4"):
    rc, out, err = run("batch", bad_txt, "--hw", "h100", "-j", jobs)
    check(f"stop -j {jobs}: exit 1", rc == 1, err)
    check(f"stop -j {jobs}: results before the bad line are flushed, none after",
          problems(out) == [(64, 64, 64, 1), (128, 128, 128, 1)], out)
    errs = error_lines(err)
    check(f"stop -j {jobs}: one error, with file:line", len(errs) == 1 and f"{bad_txt}:3: shape '12xnope'" in errs[0], err)
    check(f"stop -j {jobs}: summary says it stopped", "stopped at the first bad line" in err, err)

    rc, out, err = run("batch", bad_txt, "--hw", "h100", "-j", jobs, "--keep-going")
    check(f"--keep-going -j {jobs}: exit 1", rc == 1, err)
    check(f"--keep-going -j {jobs}: every good line ranked, in order",
          problems(out) == [(64, 64, 64, 1), (128, 128, 128, 1), (256, 256, 256, 1), (512, 512, 512, 1)], out)
    errs = error_lines(err)
    check(f"--keep-going -j {jobs}: each bad line reported with file:line",
          len(errs) == 2 and f"{bad_txt}:3:" in errs[0] and f"{bad_txt}:6:" in errs[1], err)
    check(f"--keep-going -j {jobs}: summary counts them", "4 shapes ranked, 2 bad" in err, err)

rc, out, err = run("batch", inputs["text"], "--hw", "h100", "--keep-going", "-q")
check("--keep-going with no bad line: exit 0", rc == 0 and err == "", err)

bad_csv = write("bad.csv", "m,n,k,dtype\n64,64,64,bf16\n64,64,-3,bf16\n64,64,64,int3\n32,32,32,fp16\n")
rc, out, err = run("batch", bad_csv, "--hw", "h100", "--keep-going", "--format", "csv")
errs = error_lines(err)
check("CSV --keep-going: exit 1, two errors at lines 3 and 4",
      rc == 1 and len(errs) == 2 and f"{bad_csv}:3:" in errs[0] and f"{bad_csv}:4:" in errs[1], err)
check("CSV --keep-going: header + the two good rows", len(out.splitlines()) == 3 and out.startswith("name,m,n,k"), out)

# A line the reader cannot get past (bad CSV quoting) ends the run even with --keep-going, after
# the results before it.
broken_csv = write("broken.csv", "m,n,k\n64,64,64\n128,128,128\n\"256,256,256\n512,512,512\n")
for extra in ([], ["--keep-going"]):
    rc, out, err = run("batch", broken_csv, "--hw", "h100", "-j", "4", *extra)
    check(f"unreadable CSV {extra}: exit 1, earlier results flushed",
          rc == 1 and problems(out) == [(64, 64, 64, 1), (128, 128, 128, 1)], out + err)
    check(f"unreadable CSV {extra}: one error with file:line", len(error_lines(err)) == 1 and f"{broken_csv}:" in err, err)

# The Triton list of a stopped run stays open, so that it does not parse as a whole list.
rc, out, err = run("batch", bad_txt, "--hw", "h100", "--emit", "triton")
try:
    json.loads(out)
    parsed = True
except ValueError:
    parsed = False
check("stopped --emit triton: exit 1 and output is not a complete JSON list", rc == 1 and not parsed and "\"m\":128" in out, out)

# Whole-run errors: one line, nothing on stdout.
for name, args, code, fragment in [
    ("missing file", ["batch", "no-such.txt", "--hw", "h100"], 1, "no-such.txt: cannot open"),
    ("unknown profile", ["batch", inputs["text"], "--hw", "rtx9090"], 1, "unknown hardware profile"),
    ("bad YAML", ["batch", write("bad.yaml", "- {m: 1, n: [\n"), "--hw", "h100"], 1, "bad.yaml:"),
    ("CSV without k", ["batch", write("nok.csv", "m,n\n1,2\n"), "--hw", "h100"], 1, "nok.csv:1:"),
    ("bad --format", ["batch", inputs["text"], "--format", "xml"], 2, "xml"),
    ("--emit with --format", ["batch", inputs["text"], "--emit", "triton", "--format", "csv"], 2, "excludes"),
    ("--out DIR without --emit vllm (results go to a file)", ["batch", inputs["text"], "--out", TMP], 2,
     "is a directory: the results go to a file (--emit vllm"),
    ("--overwrite without --emit vllm", ["batch", inputs["text"], "--overwrite"], 2, "--overwrite go with --emit vllm"),
]:
    rc, out, err = run(*args)
    check(f"{name}: exit {code}", rc == code, f"rc={rc} err={err!r}")
    check(f"{name}: nothing on stdout", out == "", out[:200])
    check(f"{name}: one line on stderr naming the problem", len(err.strip().splitlines()) == 1 and fragment in err, err)

# --- progress line: only on a terminal, never with --quiet ---------------------------------------
rc, out, err = run("batch", varied_txt, "--hw", "h100", "-j", "2")
check("no progress line when stderr is not a terminal", "\r" not in err and "ETA" not in err, err[:200])


def run_with_tty_stderr(*args):
    master, slave = pty.openpty()
    p = subprocess.Popen([BIN, *args], stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the child closed the terminal
            break
        if not data:
            break
        chunks.append(data)
    os.close(master)
    return p.wait(timeout=300), b"".join(chunks).decode(errors="replace")


rc, tty_err = run_with_tty_stderr("batch", varied_txt, "--hw", "h100")
check("progress line on a terminal: bar with percent, ETA and rate",
      rc == 0 and "\r[" in tty_err and "% ETA" in tty_err and "shapes/s" in tty_err, repr(tty_err[:300]))
check("progress line erased, summary at the end", tty_err.rstrip().splitlines()[-1].lstrip("\r\x1b[K").startswith(
    "gemm-advisor: batch: 300 shapes ranked"), repr(tty_err[-300:]))
rc, tty_err = run_with_tty_stderr("batch", varied_txt, "--hw", "h100", "--quiet")
check("--quiet: nothing on the terminal", rc == 0 and tty_err == "", repr(tty_err[:200]))
# stdout's reader gone (`| head -1`) while the progress line is up: the line erased, then SIGPIPE's end
# (it was left on the terminal with the reader's output glued to it: a fresh user's find, 2026-12-04).
many = write("many.txt", "".join(f"{random.Random(i).randint(1, 8192)}x{random.Random(i + 1).randint(1, 8192)}x4096\n"
                                 for i in range(40000)))
# A gzipped list's bar follows the compressed bytes read (it stood at 100% from the first draw: a fresh
# user's find, 2026-12-05): some draw shows less than 100%.
import gzip as _gzip_many  # noqa: E402
many_gz = os.path.join(TMP, "many.txt.gz")
with open(many, "rb") as f_in, open(many_gz, "wb") as f_out:
    f_out.write(_gzip_many.compress(f_in.read()))
rc, tty_err = run_with_tty_stderr("batch", many_gz, "--hw", "h200", "--format", "csv", "-j", "1")
percents = [int(x) for x in re.findall(r"\] +(\d+)% ETA", tty_err)]
check("gzipped list: the progress bar below 100% before the end", rc == 0 and percents and min(percents) < 100,
      repr(percents[:10]))
master, slave = pty.openpty()
p = subprocess.Popen([BIN, "batch", many, "--hw", "h200", "--format", "csv", "-j", "1"], stdout=subprocess.PIPE,
                     stderr=slave, stdin=subprocess.DEVNULL)
os.close(slave)
p.stdout.readline()
shown = b""
while b"shapes/s" not in shown:  # the progress line is up
    shown += os.read(master, 65536)
p.stdout.close()
chunks = [shown]
while True:
    try:
        data = os.read(master, 65536)
    except OSError:
        break
    if not data:
        break
    chunks.append(data)
os.close(master)
rc = p.wait(timeout=300)
tail = b"".join(chunks).decode(errors="replace")
check("stdout's reader gone: killed by SIGPIPE, the progress line erased last", rc == -13 and tail.endswith("\r\x1b[K"),
      f"rc={rc} {tail[-120:]!r}")

# --- --emit triton: Triton's names, within the hardware limits ------------------------------------


def profile_numbers(name):
    """The integer `key: value` lines of profiles/NAME.yaml (enough for the Triton limits)."""
    numbers = {}
    with open(f"profiles/{name}.yaml") as f:
        for line in f:
            m = re.match(r"^\s+(\w+):\s+(-?\d+)\s*$", line)
            if m:
                numbers[m.group(1)] = int(m.group(2))
            m = re.match(r"^\s+(\w+): \{instruction_m: (\d+), instruction_n: (\d+),(?: instruction_k: \d+,)?"
                         r"(?: instruction_min_m: (\d+),)?(?: instruction_max_n: (\d+),)?", line)
            if m:  # matrix.DTYPE: the instruction shape
                numbers[m.group(1) + ".m"] = int(m.group(2))
                numbers[m.group(1) + ".n"] = int(m.group(3))
                numbers[m.group(1) + ".min_m"] = int(m.group(4) or m.group(2))
                numbers[m.group(1) + ".max_n"] = int(m.group(5) or m.group(3))
    numbers.setdefault("matrix_instruction_warps", 1)
    numbers.setdefault("tensor_memory_bytes_per_cu", 0)
    numbers.setdefault("sync_mma_smem_stage_offset", numbers["smem_stage_offset"])
    return numbers


BITS = {"fp32": 32, "fp16": 16, "bf16": 16, "fp8": 8}
for hw in ("h200", "b200", "a100", "mi300x", "mi350x", "mi355x", "h100"):
    limits = profile_numbers(hw)
    for dtype in ("bf16", "fp8"):
        if dtype == "fp8" and hw == "a100":
            continue
        rc, out, err = run("batch", limits_txt, "--hw", hw, "--dtype", dtype, "--top", "0", "--emit", "triton", "-q")
        doc = json.loads(out) if rc == 0 else []
        check(f"--emit triton {hw} {dtype}: a JSON list, one entry per shape", rc == 0 and len(doc) == 100, err)
        problems_seen = []
        for entry in doc:
            configs = entry["configs"]
            if not configs or any(list(c) != TRITON_KEYS for c in configs):
                problems_seen.append(("keys or empty", entry["m"], entry["n"], entry["k"]))
                continue
            for c in configs:
                bm, bn, bk, gm, sk, w, s = (c[k] for k in TRITON_KEYS)
                # Triton's limits as measured on the H200 (tests/triton_target_test.cpp): shared memory
                # with num_stages buffers for the full (wgmma) instruction, less the sync path's offset
                # below it; one instruction's accumulator plus the 32-register reserve within the cap.
                # Blackwell (tensor_memory_bytes_per_cu): tcgen05 from block_m >= instruction_min_m,
                # its accumulator in tensor memory (max(bm, 128) x max(bn, 32) fp32 cells), no
                # register limit of its own.
                iw, ws = limits["matrix_instruction_warps"], limits["warp_size"]
                full = bm >= limits[dtype + ".min_m"] and w >= iw
                offset = limits["smem_stage_offset"] if full else limits["sync_mma_smem_stage_offset"]
                smem = max(1, s - offset) * (bm * bk + bk * bn) * BITS[dtype] // 8
                cap = min(limits["max_registers_per_thread"], limits["registers_per_cu"] // (w * ws))
                tmem = limits["tensor_memory_bytes_per_cu"]
                if full and tmem:
                    inst = 0 if max(bm, 128) * max(bn, 32) * 4 <= tmem else float("inf")
                elif full:
                    along_m = max(1, min(w // iw, bm // limits[dtype + ".m"]))
                    n = min(limits[dtype + ".max_n"], max(limits[dtype + ".n"], bn // max(1, (w // iw) // along_m)))
                    inst = limits[dtype + ".m"] * n / (iw * ws)
                else:
                    inst = limits[dtype + ".m"] * limits[dtype + ".n"] / ws
                ok = (smem <= limits["smem_per_block_bytes"] and 1 <= s <= limits["max_num_stages"]
                      and w * ws <= 1024 and inst + 32 <= cap
                      and all(v & (v - 1) == 0 for v in (bm, bn, bk, w)) and bk * BITS[dtype] >= 256
                      and sk >= 1 and gm >= 1)
                if not ok:
                    problems_seen.append((c, smem, inst))
        check(f"--emit triton {hw} {dtype}: every config within {hw}'s limits", not problems_seen, problems_seen[:3])

# --- --emit vllm ---------------------------------------------------------------------------------
weights = write("weights.csv", "name,m,n,k\nqkv,16,6144,4096\no,16,4096,4096\nqkv_again,2048,6144,4096\n"
                               "ds_kv_a,1,576,7168\n")
for hw, device in VLLM_DEVICES.items():
    out_dir = os.path.join(TMP, f"vllm-{hw}", "nested")  # created, parents too
    rc, out, err = run("batch", weights, "--hw", hw, "--emit", "vllm", "--out", out_dir)
    want_files = sorted(f"N={n},K={k},device_name={device},dtype=fp8_w8a8,block_shape=[128,128].json"
                        for n, k in [(6144, 4096), (4096, 4096), (576, 7168)])
    SIDECAR = "gemm-advisor-generator.json"  # which advisor wrote them (cli_test.py checks its content)
    listed = sorted(os.listdir(out_dir)) if os.path.isdir(out_dir) else []
    got_files = [f for f in listed if f != SIDECAR]
    check(f"vllm {hw}: exit 0", rc == 0, err)
    check(f"vllm {hw}: one file per (N, K), named as vLLM names them, the sidecar, no temporary files left",
          listed == sorted(want_files + [SIDECAR]), listed)
    check(f"vllm {hw}: stdout lists the files", sorted(os.path.basename(l) for l in out.splitlines()) ==
          sorted(want_files + [SIDECAR]), out)
    for name in got_files:
        with open(os.path.join(out_dir, name)) as f:
            text = f.read()
        doc = json.loads(text)
        check(f"vllm {hw} {name}: M keys are vLLM's grid, as strings, in order", list(doc) == [str(m) for m in VLLM_M],
              list(doc))
        check(f"vllm {hw} {name}: exact key names", all(list(c) == VLLM_KEYS for c in doc.values()), text[:300])
        check(f"vllm {hw} {name}: BLOCK_SIZE_K divides the 128 quantization block",
              all(c["BLOCK_SIZE_K"] <= 128 and 128 % c["BLOCK_SIZE_K"] == 0 for c in doc.values()))
        check(f"vllm {hw} {name}: vLLM's loader reads it (int keys, nearest M)",
              {int(k): v for k, v in doc.items()}[min(map(int, doc), key=lambda x: abs(x - 100))] == doc["96"])
        check(f"vllm {hw} {name}: indented like vLLM's tuner, newline at the end",
              text.startswith('{\n    "1": {\n        "BLOCK_SIZE_M": ') and text.endswith("}\n"))

rc, out, err = run("batch", weights, "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "vm"), "--m-values",
                   "64,1,16")
with open(os.path.join(TMP, "vm", "N=576,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json")) as f:
    check("--m-values LIST: those M values, sorted", rc == 0 and list(json.load(f)) == ["1", "16", "64"], err)
# Spaces around the values, as "--m-values '64, 1, 16'" is typed (they were refused: a fresh user's find,
# 2026-12-05), and --emit in another case: the same file.
rc, out, err = run("batch", weights, "--hw", "h200", "--emit", "VLLM", "--out", os.path.join(TMP, "vm-spaced"),
                   "--m-values", " 64, 1 ,16 ")
with open(os.path.join(TMP, "vm-spaced", "N=576,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json")) as f:
    check("--m-values with spaces, --emit VLLM: the same M values", rc == 0 and list(json.load(f)) == ["1", "16", "64"], err)
rc, out, err = run("batch", weights, "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "vi-upper"), "--m-values",
                   " INPUT ")
check("--m-values ' INPUT ': the keyword, as 'input'", rc == 0 and os.path.exists(os.path.join(
    TMP, "vi-upper", "N=6144,K=4096,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json")), err)
rc, out, err = run("batch", weights, "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "vi"), "--m-values",
                   "input")
with open(os.path.join(TMP, "vi", "N=6144,K=4096,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json")) as f:
    check("--m-values input: each (N, K) gets the M values of its lines", rc == 0 and list(json.load(f)) == ["16", "2048"],
          err)
rc, out, err = run("batch", weights, "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "vj"), "-j", "1")
rc4, out4, _ = run("batch", weights, "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "vj4"), "-j", "4")
same = all(open(os.path.join(TMP, "vj", f)).read() == open(os.path.join(TMP, "vj4", f)).read()
           for f in os.listdir(os.path.join(TMP, "vj")) if f.startswith("N="))
check("vllm: -j 1 and -j 4 write identical files", rc == 0 and rc4 == 0 and same)

# A whole number written as a decimal in a JSON list (pandas' and json.dumps' floats) is that number,
# as the string "4096" is (it was refused: a fresh user's find, 2026-12-04); 64.5 is not a whole number.
rc, out, err = run("batch", write("floats.json", '[{"m": 4096.0, "n": 64, "k": "64"}]'), "--hw", "h200", "--top", "1",
                   "--format", "csv")
rc2, out2, err2 = run("batch", write("ints.json", '[{"m": 4096, "n": 64, "k": 64}]'), "--hw", "h200", "--top", "1",
                      "--format", "csv")
check("JSON list: 4096.0 is M = 4096", rc == rc2 == 0 and out == out2 and ",4096,64,64," in out, err + err2)

# A user's own profile: no known vLLM name unless given.
own = write("my-h200.yaml", open("profiles/h200.yaml").read().replace("name: h200", "name: my-h200", 1))
rc, out, err = run("batch", weights, "--hw", own, "--emit", "vllm", "--out", os.path.join(TMP, "vo"))
check("own profile without --vllm-device-name: exit 1, one line", rc == 1 and out == "" and
      len(err.strip().splitlines()) == 1 and "--vllm-device-name" in err, err)
# A run killed mid-write (SIGKILL, a CI timeout) left its half-written temporary file in --out for good
# and a sidecar listing every planned file as written (a fresh CI user's find, 2026-12-05): the plan is
# now marked "written": false until written, and a later run removes a dead writer's temporary files
# (a live one's stay) and describes the files that killed run did write as written.
kdir = os.path.join(TMP, "killed")
os.makedirs(kdir)
dead_tmp = os.path.join(kdir, ".gemm-advisor.999999999.0.tmp")  # past any pid_max: no such process
live_tmp = os.path.join(kdir, f".gemm-advisor.{os.getpid()}.0.tmp")
for path in (dead_tmp, live_tmp):
    with open(path, "w") as f:
        f.write('{"1": {"BLOCK_SIZE')
with open(os.path.join(kdir, "N=1,K=1,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"), "w") as f:
    f.write("{}\n")
with open(os.path.join(kdir, "gemm-advisor-generator.json"), "w") as f:
    json.dump({"files": {"N=1,K=1,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json":
                         {"hardware": "h200", "target": "vllm-fp8-block", "written": False},
                         "N=2,K=2,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json":
                         {"hardware": "h200", "target": "vllm-fp8-block", "written": False}}}, f)
rc, out, err = run("batch", weights, "--hw", "h200", "--target", "vllm-fp8-block", "--emit", "vllm", "--out", kdir)
side = json.load(open(os.path.join(kdir, "gemm-advisor-generator.json")))["files"] if rc == 0 else {}
check("a killed run's leftovers: the dead writer's temporary file removed, a live one's kept",
      rc == 0 and not os.path.exists(dead_tmp) and os.path.exists(live_tmp), err)
check("... its written file described as written, its unwritten one dropped, this run's files with no flag",
      "N=1,K=1,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json" in side and
      "N=2,K=2,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json" not in side and
      not any("written" in v for v in side.values()) and len(side) > 1, json.dumps(side)[:500])
os.unlink(live_tmp)
# A GPU vLLM's table lacks: an alias in vLLM's file-name form of another alias names it (only the
# shipped names counted: a fresh AMD user's find, 2026-12-05).
mi308 = write("mi308x.yaml", re.sub(r"(?m)^aliases:.*$", 'aliases: ["AMD Instinct MI308X", "AMD_Instinct_MI308X"]',
                                    open("profiles/mi300x.yaml").read().replace("name: mi300x", "name: mi308x", 1)))
rc, out, err = run("batch", weights, "--hw", mi308, "--emit", "vllm", "--target", "vllm-fp8-block", "--out",
                   os.path.join(TMP, "v308"))
check("own profile with aliases ['AMD Instinct MI308X', 'AMD_Instinct_MI308X']: files carry AMD_Instinct_MI308X",
      rc == 0 and any("device_name=AMD_Instinct_MI308X," in f for f in os.listdir(os.path.join(TMP, "v308"))), err)
rc, out, err = run("batch", weights, "--hw", own, "--emit", "vllm", "--out", os.path.join(TMP, "vo"),
                   "--vllm-device-name", "NVIDIA_H200_NVL")
check("own profile with --vllm-device-name: files carry that name",
      rc == 0 and all("device_name=NVIDIA_H200_NVL," in f for f in os.listdir(os.path.join(TMP, "vo"))
                      if f.startswith("N=")), err)
# A shipped GPU's vLLM name for a profile whose figures are another GPU's (142 SMs against the H200's
# 132; a fresh user's find, 2026-12-05): given with --vllm-device-name or listed under its aliases,
# said; a renamed copy with the H200's own figures (my-h200) given NVIDIA_H200 is not.
other = open("profiles/h100.yaml").read().replace("name: h100", "name: l40s", 1).replace("cu_count: 132", "cu_count: 142", 1)
l40s = write("l40s.yaml", other)
l40s_alias = write("l40s-alias.yaml", re.sub(r"(?m)^aliases:.*$", 'aliases: ["NVIDIA_H200"]', other))
rc1, _, err1 = run("batch", weights, "--hw", l40s, "--emit", "vllm", "--out", os.path.join(TMP, "vl1"),
                   "--vllm-device-name", "NVIDIA_H200")
rc2, _, err2 = run("batch", weights, "--hw", l40s_alias, "--emit", "vllm", "--out", os.path.join(TMP, "vl2"))
rc3, _, err3 = run("batch", weights, "--hw", own, "--emit", "vllm", "--out", os.path.join(TMP, "vl3"),
                   "--vllm-device-name", "NVIDIA_H200")
check("another GPU's figures under NVIDIA_H200: warned, by option and by alias; the H200's renamed copy not",
      rc1 == rc2 == rc3 == 0 and "is the h200's, but the configs are ranked for l40s" in err1
      and "(142 SMs against 132)" in err1 and "aliases list NVIDIA_H200, the shipped h200's vLLM device name" in err2
      and "(142 SMs against 132)" in err2 and "warning" not in err3, [err1, err2, err3])
# A variant's name under a shipped profile (the H100 PCIe's under the SXM5's figures) is warned of; the
# profile's own name is not (a fresh vLLM user's find, 2026-12-05).
rc, _, err = run("batch", weights, "--hw", "h100", "--emit", "vllm", "--out", os.path.join(TMP, "vpcie"),
                 "--vllm-device-name", "NVIDIA H100 PCIe")
check("--vllm-device-name of a variant under a shipped profile: written, warned",
      rc == 0 and "--vllm-device-name NVIDIA_H100_PCIe is not the h100's (NVIDIA_H100_80GB_HBM3)" in err and
      any("device_name=NVIDIA_H100_PCIe," in f for f in os.listdir(os.path.join(TMP, "vpcie"))), err)
rc, _, err = run("batch", weights, "--hw", "h100", "--emit", "vllm", "--out", os.path.join(TMP, "vown"),
                 "--vllm-device-name", "NVIDIA_H100_80GB_HBM3")
check("--vllm-device-name of the shipped profile's own GPU: no warning", rc == 0 and "warning" not in err, err)
# The name as torch prints it, with spaces, is vLLM's with '_' (vLLM replaces them so; it was refused).
rc, out, err = run("batch", weights, "--hw", own, "--emit", "vllm", "--out", os.path.join(TMP, "vs"),
                   "--vllm-device-name", "NVIDIA H200 NVL")
rc_e, out_e, err_e = run("batch", weights, "--hw", own, "--emit", "vllm", "--out", os.path.join(TMP, "vb"),
                         "--vllm-device-name", "  ")
check("--vllm-device-name of spaces only: a usage error", rc_e == 2 and "no name" in err_e, err_e)
rc_e, out_e, err_e = run("batch", weights, "--hw", own, "--emit", "vllm", "--out", os.path.join(TMP, "vc"),
                         "--vllm-device-name", "x,y=z")
check("--vllm-device-name with ',' or '=': a usage error, nothing written (the file name's fields split on them)",
      rc_e == 2 and "separate the config file name's fields" in err_e and not os.path.exists(os.path.join(TMP, "vc")),
      err_e)
check("--vllm-device-name with spaces: written with '_', as vLLM names its files",
      rc == 0 and all("device_name=NVIDIA_H200_NVL," in f for f in os.listdir(os.path.join(TMP, "vs"))
                      if f.startswith("N=")), err)

# A user's own file named like a shipped profile (a copy of h200.yaml with other numbers): it used to
# get NVIDIA_H200 without a word. It still does (a calibrated overlay is that GPU), with one warning
# line saying the file's name was mapped, unless the file's aliases list the vLLM name (it says so)
# or --vllm-device-name gives one; --quiet hides the warning.
copy = write("slow-h200.yaml", open("profiles/h200.yaml").read().replace("clock_mhz: 1830", "clock_mhz: 1200", 1))
said = write("said-h200.yaml", open(copy).read().replace('aliases: ["NVIDIA H200", "H200"]',
                                                         'aliases: ["NVIDIA H200", "H200", "NVIDIA_H200"]', 1))
H200_FILE = "N=576,K=7168,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json"
for i, (name, hw, extra, device, warned) in enumerate([
    ("h200-named copy", copy, [], "NVIDIA_H200", True),
    ("h200-named copy, --quiet", copy, ["-q"], "NVIDIA_H200", False),
    ("h200-named copy, --vllm-device-name", copy, ["--vllm-device-name", "NVIDIA_H200_NVL"], "NVIDIA_H200_NVL", False),
    ("h200-named copy listing NVIDIA_H200 in aliases", said, [], "NVIDIA_H200", False),
    ("shipped h200", "h200", [], "NVIDIA_H200", False),
]):
    out_dir = os.path.join(TMP, f"device-name-{i}")
    rc, out, err = run("batch", weights, "--hw", hw, "--emit", "vllm", "--out", out_dir, "--m-values", "1,64", *extra)
    warnings = [l for l in err.splitlines() if l.startswith("gemm-advisor: warning: ")]
    want = H200_FILE.replace("NVIDIA_H200", device)
    check(f"device name, {name}: exit 0, files named {device}",
          rc == 0 and os.path.exists(os.path.join(out_dir, want)), f"rc={rc} {out} {err}")
    # A copy with the shipped aliases and other numbers is also told that every output says h200
    # (profile.cpp, warn_shipped_name_taken; 2026-12-06), --vllm-device-name or not.
    taken = [w for w in warnings if "'name: h200' is a shipped profile's name, but the hardware here differs" in w]
    warnings = [w for w in warnings if w not in taken]
    check(f"device name, {name}: the shipped name's warning where the aliases are the shipped ones",
          len(taken) == (1 if hw == copy and "-q" not in extra else 0), err)
    if warned:
        check(f"device name, {name}: one warning line naming the file and the mapping",
              len(warnings) == 1 and warnings[0] == "gemm-advisor: warning: " + copy + ": profile name 'h200' is mapped "
              "to the shipped h200's vLLM device name, NVIDIA_H200, whatever this file's numbers: list \"NVIDIA_H200\" "
              "under its aliases: to say so, or give --vllm-device-name", err)
    else:
        check(f"device name, {name}: no other warning", warnings == [], err)

not_dir = write("plain-file", "x")
for name, args, code, fragment in [
    ("vllm on a100 (no fp8)", ["--hw", "a100", "--out", os.path.join(TMP, "va")], 1, "a100"),
    ("vllm without --out", ["--hw", "h200"], 2, "--out"),
    ("vllm --out is a file", ["--hw", "h200", "--out", not_dir], 1, "not a directory"),
    ("vllm with --dtype bf16", ["--hw", "h200", "--out", os.path.join(TMP, "vb"), "--dtype", "bf16"], 2, "fp8"),
    ("vllm bad --m-values", ["--hw", "h200", "--out", os.path.join(TMP, "vb"), "--m-values", "1,x"], 2, "'x'"),
]:
    rc, out, err = run("batch", weights, "--emit", "vllm", *args)
    check(f"{name}: exit {code}, one line, nothing on stdout",
          rc == code and out == "" and len(err.strip().splitlines()) == 1 and fragment in err, f"rc={rc} err={err!r}")
check("a100: no directory created", not os.path.exists(os.path.join(TMP, "va")))
rc, out, err = run("batch", "no-such.txt", "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "vn"))
check("vllm with a missing list: exit 1, no directory created",
      rc == 1 and "no-such.txt" in err and not os.path.exists(os.path.join(TMP, "vn")), err)

# --emit follows the target: its own parameter names, no key its kernel does not take; --names maps them.
rc, out, err = run("batch", "-", "--hw", "h200", "--top", "2", "--emit", "triton", "--target", "triton-tutorial",
                   stdin="300x4096x4096\n")
emitted = json.loads(out) if rc == 0 else []
check("--emit triton --target triton-tutorial: the tutorial's keys only",
      rc == 0 and all(list(c) == ["BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M", "num_warps",
                                  "num_stages"] for c in emitted[0]["configs"]), out[:300])
rc, out, err = run("batch", "-", "--hw", "h200", "--top", "1", "--emit", "triton", "--names", "BLOCK_M=BM,SPLIT_K=SK",
                   stdin="300x4096x4096\n")
emitted = json.loads(out) if rc == 0 else []
check("--names renames, order kept", rc == 0 and list(emitted[0]["configs"][0]) ==
      ["BM", "BLOCK_N", "BLOCK_K", "GROUP_M", "SK", "num_warps", "num_stages"], out[:300])
# SPLIT_K= leaves it out, and then only unsplit configs are written (a few-tile, long-K shape splits K).
rc, out, err = run("batch", "-", "--hw", "h200", "--top", "3", "--emit", "triton", "--names", "SPLIT_K=",
                   stdin="64x64x65536\n")
rc2, out2, err2 = run("batch", "-", "--hw", "h200", "--top", "3", "--emit", "triton", stdin="64x64x65536\n")
emitted = json.loads(out) if rc == 0 else []
check("--names SPLIT_K=: no SPLIT_K key, the unsplit configs (the shape's top-3 split otherwise)",
      rc == rc2 == 0 and all("SPLIT_K" not in c for c in emitted[0]["configs"]) and len(emitted[0]["configs"]) == 3 and
      any(c["SPLIT_K"] > 1 for c in json.loads(out2)[0]["configs"]), out[:300] + out2[:300])
# FROM may be the field name, as Python's names= keys are; leaving out what a kernel lacks is no change
# (--target triton-tutorial --names SPLIT_K= was refused where Python's split_k: None works).
rc, out, err = run("batch", "-", "--hw", "h200", "--top", "1", "--emit", "triton", "--names", "block_m=BM,split_k=SK",
                   stdin="300x4096x4096\n")
check("--names by field name renames as by the kernel's name", rc == 0 and list(json.loads(out)[0]["configs"][0]) ==
      ["BM", "BLOCK_N", "BLOCK_K", "GROUP_M", "SK", "num_warps", "num_stages"], out[:300] + err)
rc, out, err = run("batch", "-", "--hw", "h200", "--top", "2", "--emit", "triton", "--target", "triton-tutorial",
                   "--names", "SPLIT_K=", stdin="300x4096x4096\n")
rc2, out2, err2 = run("batch", "-", "--hw", "h200", "--top", "2", "--emit", "triton", "--target", "triton-tutorial",
                      stdin="300x4096x4096\n")
check("--names SPLIT_K= on a kernel without split-K: no change", rc == rc2 == 0 and out == out2, err + err2)
for name, args, fragment in [
    ("--names of another target's parameter", ["--emit", "triton", "--names", "BLOCK_SIZE_M=X"], "not a parameter of triton"),
    ("--names renaming a parameter the kernel lacks", ["--emit", "triton", "--target", "triton-tutorial", "--names",
                                                       "SPLIT_K=SK"], "not a parameter of triton-tutorial"),
    # A block size left out: every config would lose its tile (it was taken: a fresh user's find).
    ("--names leaving out a block size", ["--emit", "triton", "--names", "BLOCK_M=,SPLIT_K="],
     "'BLOCK_M' is a block size, which every kernel has"),
    ("--names renaming one parameter twice by both names", ["--emit", "triton", "--names", "BLOCK_M=A,block_m=B"],
     "'BLOCK_M' is renamed twice"),
    ("--names without --emit triton", ["--names", "BLOCK_M=X"], "--emit triton"),
    # A name starting with a digit is no identifier (it was written: a fresh user's find, 2026-12-04).
    ("--names to a non-identifier", ["--emit", "triton", "--names", "BLOCK_M=1x"], "'1x' is not a name"),
    ("--names renaming num_warps", ["--emit", "triton", "--names", "num_warps=W"], "triton.Config's own argument"),
    ("--emit vllm with another --target", ["--emit", "vllm", "--target", "triton", "--out", os.path.join(TMP, "vt")],
     "vllm-fp8-block"),
]:
    rc, out, err = run("batch", "-", "--hw", "h200", *args, stdin="64x64x64\n")
    check(f"{name}: exit 2, one line, nothing on stdout",
          rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and fragment in err, f"rc={rc} err={err!r}")

batch_in = write("batched.txt", "16x4096x4096\n16x4096x4096x2\n")
rc, out, err = run("batch", batch_in, "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "vx"), "--keep-going")
check("vllm: batch > 1 is a bad line (the kernel is 2-D)", rc == 1 and f"{batch_in}:2:" in err and "batch" in err, err)

# Fresh-user finds (2026-12-02).
# A named pipe is opened once: a second open for the format sniff waited forever for another writer.
fifo = os.path.join(TMP, "shapes.fifo")
os.mkfifo(fifo)
import threading  # noqa: E402
writer = threading.Thread(target=lambda: open(fifo, "w").write("64x64x64\n128x128x128\n"))
writer.start()
rc, out, err = run("batch", fifo, "--hw", "h200", "--format", "csv")
writer.join(timeout=5)
check("batch reads a named pipe (opened once)", rc == 0 and len(out.splitlines()) == 3, f"rc={rc} err={err!r}")
# An input with no shape leaves stdout empty: no CSV header, no "[" of a Triton list.
header_only = write("header-only.csv", "m,n,k\n")
for fmt_args in (["--format", "csv"], ["--emit", "triton"]):
    rc, out, err = run("batch", header_only, "--hw", "h200", *fmt_args)
    check(f"no shapes ({' '.join(fmt_args)}): exit 1, nothing on stdout, one error line",
          rc == 1 and out == "" and len(err.strip().splitlines()) == 1 and "no shapes" in err, f"rc={rc} {out!r} {err!r}")
# An option the GPU or the kernel cannot take is one error, not one error per line: a dtype the GPU
# lacks is bad input (exit 1, as rank says it: it was exit 2 here, a fresh user's find, 2026-12-06), a
# dtype the kernel cannot take a usage error.
many = write("many.txt", "".join(f"{16 * (i + 1)}x64x64\n" for i in range(50)))
for args, code, fragment in ((["--hw", "a100", "--dtype", "fp8", "--keep-going"], 1, "dtype fp8 is not supported by a100"),
                             (["--hw", "h200", "--target", "vllm-fp8-block", "--dtype", "bf16"], 2, "--dtype bf16")):
    rc, out, err = run("batch", many, *args)
    check(f"batch {' '.join(args)}: exit {code}, one line", rc == code and out == "" and
          len(err.strip().splitlines()) == 1 and fragment in err, f"rc={rc} err={err[:300]!r}")
# A stopped --emit vllm --m-values input run writes no file: a file of an (N, K) would lack the M
# values of the lines after the bad one, and vLLM would take it for whole.
partial = write("partial.csv", "m,n,k\n1,576,7168\n16,576,7168\nbad,1,1\n128,576,7168\n")
vdir = os.path.join(TMP, "vpartial")
rc, out, err = run("batch", partial, "--hw", "h200", "--emit", "vllm", "--out", vdir, "--m-values", "input")
files = [f for f in os.listdir(vdir) if f.startswith("N=")] if os.path.isdir(vdir) else []
check("stopped --emit vllm --m-values input: exit 1 and no config file", rc == 1 and files == [] and
      "no config file written" in err, f"rc={rc} files={files} err={err!r}")
check("... one error line, the bad line's (the note on the files is a warning)",
      [l for l in err.splitlines() if ": error: " in l] == [l for l in err.splitlines() if "partial.csv:4:" in l] and
      "warning: no config file written" in err, err)
rc, out, err = run("batch", partial, "--hw", "h200", "--emit", "vllm", "--out", vdir, "--m-values", "input",
                   "--keep-going")
files = [f for f in os.listdir(vdir) if f.startswith("N=")] if os.path.isdir(vdir) else []
table = json.load(open(os.path.join(vdir, files[0]))) if len(files) == 1 else {}
check("... with --keep-going: the file has every good line's M", rc == 1 and sorted(map(int, table)) == [1, 16, 128],
      f"rc={rc} files={files} {table}")
# Names with control characters are refused (escaped in the message), never sent to the terminal raw.
ansi = write("ansi.csv", 'name,m,n,k\n"a\x1b[31mred",64,64,64\n')
rc, out, err = run("batch", ansi, "--hw", "h200", "--format", "table", "--top", "1")
check("a name with control characters is refused, escaped in the message", rc == 1 and "\x1b" not in out + err and
      "'a\\x1b[31mred': a name is one line of text" in err, out[:200] + err)

# --candidates of which none fits: the error names the first one's reason (a fresh user's find, 2026-12-04).
big = write("cand-big.csv", "block_m,block_n,block_k,num_warps,num_stages\n256,256,256,8,6\n")
rc, out, err = run("batch", "-", "--hw", "h200", "--candidates", big, stdin="64x64x4096\n")
check("batch --candidates none of which fits: the reason is given", rc == 1 and
      "(256x256x256:8:6: needs 1572864 bytes of shared memory" in err, err)

# ... and some that cannot run: said once, with the first shape and reason (they were left out of
# --emit triton unsaid; rank warns of each: a fresh user's find, 2026-12-04).
mixed = write("cand-mixed.csv", "block_m,block_n,block_k,num_warps,num_stages\n512,512,64,8,3\n128,128,64,3,3\n"
                                "128,128,64,8,3\n")
for extra, said in ((["--emit", "triton"], "left out of the emitted configs"),
                    (["--format", "csv"], "listed after the others with their reason")):
    rc, out, err = run("batch", "-", "--hw", "h200", "--candidates", mixed, *extra,
                       stdin="4096x4096x4096\n1024x1024x1024\n")
    warned = [l for l in err.splitlines() if "configs that cannot run on" in l]
    check(f"batch {' '.join(extra)} with configs that cannot run: one warning, counted, the first reason",
          rc == 0 and len(warned) == 1 and "on 2 of the shapes are " + said in warned[0] and
          "512x512x64:8:3: needs 393216 bytes of shared memory" in warned[0], err)

# --emit vllm into one directory, found by a fresh user's pass (2026-12-04): runs at once each wait
# for the directory (the sidecar lost entries: 6 of 16 files listed, and the next run refused the
# other 10 as foreign); a run that fails midway leaves its files listed, so the same command runs
# again; a failed run leaves no empty directory; a device name near the 255-byte name limit fits
# (the temporary file's longer name did not).
par = os.path.join(TMP, "parallel")
procs = [subprocess.Popen([BIN, "batch", "-", "--hw", "h200", "--emit", "vllm", "--out", par, "-q"],
                          stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
         for _ in range(12)]
errs = [p.communicate(f"1x{128 * (i + 1)}x4096\n")[1] for i, p in enumerate(procs)]
with open(os.path.join(par, "gemm-advisor-generator.json")) as f:
    listed = json.load(f)["files"]
check("12 runs at once into one --out: every one exits 0, the sidecar lists all 12 files",
      all(p.returncode == 0 for p in procs) and len(listed) == 12, "".join(errs) + json.dumps(listed)[:300])
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", par,
                   stdin="".join(f"1x{128 * (i + 1)}x4096\n" for i in range(12)))
check("... and the 12 shapes run again there are not refused", rc == 0, err)
fl = os.path.join(TMP, "fails-midway")
three = write("three.txt", "1x1024x1024\n1x4096x4096\n1x8192x4096\n")
second = os.path.join(fl, "N=4096,K=4096,device_name=NVIDIA_H200,dtype=fp8_w8a8,block_shape=[128,128].json")
# A link from where the second file goes into a directory that is not there: the run fails after
# writing the first (a directory in its place is refused before any file is written, cli_test.py).
os.makedirs(fl)
os.symlink(os.path.join(TMP, "no-such-dir", "x.json"), second)
rc, out, err = run("batch", three, "--hw", "h200", "--emit", "vllm", "--out", fl, "--overwrite")
check("a run that fails at its second file: exit 1, the file it wrote printed",
      rc == 1 and "cannot" in err and out.count("N=1024,K=1024") == 1, out + err)
os.remove(second)
rc, out, err = run("batch", three, "--hw", "h200", "--emit", "vllm", "--out", fl)
check("... the same command again: not refused over the failed run's own file", rc == 0, err)
gone = os.path.join(TMP, "never-made", "sub")
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", gone, stdin="1x4096x4096x2\n")
check("a run that writes nothing: exit 1 and no --out directory left behind",
      rc == 1 and not os.path.exists(os.path.join(TMP, "never-made")), err)
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "long-name"),
                   "--vllm-device-name", "X" * 175, stdin="1x4096x4096\n")
check("a device name that leaves a 244-byte file name: written", rc == 0 and
      os.path.exists(os.path.join(TMP, "long-name", "N=4096,K=4096,device_name=" + "X" * 175 +
                                  ",dtype=fp8_w8a8,block_shape=[128,128].json")), err)
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "too-long"),
                   "--vllm-device-name", "X" * 300, stdin="1x4096x4096\n")
check("a file name past the file system's limit: exit 1, one error, and the directory it made removed",
      rc == 1 and "File name too long" in err and len(error_lines(err)) == 1 and
      not os.path.exists(os.path.join(TMP, "too-long")), err)
dangling = os.path.join(TMP, "dangling")
os.symlink(os.path.join(TMP, "no", "such", "dir"), dangling)
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", dangling, stdin="1x4096x4096\n")
check("--out a dangling link: one error saying so", rc == 1 and "a link to nowhere" in err and
      len(error_lines(err)) == 1, err)

rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "nl\ndir"),
                   stdin="1x4096x4096\n")
check("--out with a newline: a usage error (the paths go to stdout one a line)", rc == 2 and out == "" and
      "a control character or a byte that is not UTF-8 in the name" in err and not os.path.exists(os.path.join(TMP, "nl\ndir")), err)

# --out FILE (no --emit vllm): the results in FILE, put in place only when the run ends well (a fresh
# batch user's find, 2026-12-05: only stdout, and a stopped or killed run left a part of it).
results = os.path.join(TMP, "results.csv")
good = write("good.csv", "m,n,k\n16,4096,4096\n64,64,64\n")
rc, out, err = run("batch", good, "--hw", "h200", "--format", "csv", "-o", results)
want_rc, want, _ = run("batch", good, "--hw", "h200", "--format", "csv")
check("-o FILE: exit 0, nothing on stdout, FILE holds what stdout would", rc == 0 and out == "" and
      open(results).read() == want and want.count("\n") == 3 and "written to " + results in err, err)
stop = write("stop.csv", "m,n,k\n16,4096,4096\nx,1,1\n32,32,32\n")
with open(results, "w") as f:
    f.write("yesterday\n")
rc, out, err = run("batch", stop, "--hw", "h200", "--format", "csv", "-o", results)
check("-o FILE, a run stopped by a bad line: exit 1, FILE left as it was, no temporary beside it",
      rc == 1 and open(results).read() == "yesterday\n" and "not written" in err and
      not [n for n in os.listdir(TMP) if n.startswith(".gemm-advisor.")], err)
rc, out, err = run("batch", stop, "--hw", "h200", "--format", "csv", "-o", results, "--keep-going")
rows = open(results).read().splitlines()
check("-o FILE --keep-going: exit 1, FILE holds the header and the two good shapes",
      rc == 1 and len(rows) == 3 and rows[0].startswith("name,m,n,k"), rows)
# A write that fails midway (a full disk; here a file-size limit, EFBIG): FILE left as it was and said
# so. A full tmpfs replaced FILE with the part written, the error naming ENOENT (std::cout's failure
# was never seen by the file's own stream, which the commit then renamed: a fresh CI user's find,
# 2026-12-05).
import resource  # noqa: E402
import signal  # noqa: E402


def small_file_limit():
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))


many = write("many.txt", "".join(f"{64 + i}x4096x4096\n" for i in range(300)))
with open(results, "w") as f:
    f.write("yesterday\n")
p = subprocess.run([BIN, "batch", many, "--hw", "h100", "--format", "csv", "--top", "0", "-o", results],
                   preexec_fn=small_file_limit, capture_output=True, text=True, timeout=300)
check("-o FILE, a write failing midway (EFBIG): exit 1, FILE as it was, no temporary, the reason said",
      p.returncode == 1 and open(results).read() == "yesterday\n" and
      f"{results}: cannot write: File too large ({results} left as it was)" in p.stderr and
      not [n for n in os.listdir(TMP) if n.startswith(".gemm-advisor.")], p.stderr[-400:])
# ... also where SIGXFSZ has its default action (a shell's `ulimit -f`): it ended the run with its
# temporary file left behind, rc 153 (a fresh CI reviewer's find, 2026-12-05); now the same error.


def small_file_limit_default_signal():
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000))


p = subprocess.run([BIN, "batch", many, "--hw", "h100", "--format", "csv", "--top", "0", "-o", results],
                   preexec_fn=small_file_limit_default_signal, capture_output=True, text=True, timeout=300)
check("-o FILE past ulimit -f with SIGXFSZ at its default: exit 1, FILE as it was, no temporary",
      p.returncode == 1 and open(results).read() == "yesterday\n" and
      f"{results}: cannot write: File too large" in p.stderr and
      not [n for n in os.listdir(TMP) if n.startswith(".gemm-advisor.")], [p.returncode, p.stderr[-400:]])


def few_files():
    resource.setrlimit(resource.RLIMIT_NOFILE, (5, 5))


# A failed --emit vllm run leaves no directory it made (out of descriptors it left an empty one).
nofd_dir = os.path.join(TMP, "vllm-no-fds")
p = subprocess.run([BIN, "batch", weights, "--hw", "h200", "--emit", "vllm", "--out", nofd_dir],
                   preexec_fn=few_files, capture_output=True, text=True, timeout=120)
check("--emit vllm failing for want of descriptors: exit 1, no directory left",
      p.returncode == 1 and not os.path.exists(nofd_dir), [p.returncode, p.stderr[-300:]])
rc, out, err = run("batch", good, "--hw", "h200", "-o", good)
check("-o the input list itself: a usage error, the list untouched", rc == 2 and "is an input of the run" in err and
      open(good).read() == "m,n,k\n16,4096,4096\n64,64,64\n", err)
rc, out, err = run("batch", good, "--hw", "h200", "-o", os.path.join(TMP, "no", "such", "r.csv"))
check("-o in a folder that does not exist: one error naming it, before any ranking",
      rc == 1 and len(error_lines(err)) == 1 and "no/such/r.csv" in err and "ranked" not in err, err)

# A pipe or device cannot be replaced: written through (-o /dev/null was refused, -o >(gzip) read as
# "a link to nowhere": a fresh CI user's find, 2026-12-05).
rc, out, err = run("batch", good, "--hw", "h200", "--format", "csv", "-o", "/dev/null")
check("-o /dev/null: exit 0, nothing on stdout", rc == 0 and out == "" and "written to /dev/null" in err, err)
fifo = os.path.join(TMP, "results.fifo")
os.mkfifo(fifo)
got = []
reader = threading.Thread(target=lambda: got.append(open(fifo).read()))
reader.start()
rc, out, err = run("batch", good, "--hw", "h200", "--format", "csv", "-o", fifo)
reader.join(timeout=60)
check("-o FIFO: the results go through it, as stdout would have them", rc == 0 and got == [want], err + repr(got)[:200])
# A file the user may not write is not replaced (a 0444 results file was swapped by the rename: a fresh
# CI user's find, 2026-12-05). Root may write any file; checked as nobody where the build can run so.
if os.geteuid() == 0:
    ro_dir = os.path.join(TMP, "ro")
    os.makedirs(ro_dir)
    os.chmod(ro_dir, 0o777)
    os.chmod(TMP, 0o755)
    ro = os.path.join(ro_dir, "f.csv")
    with open(ro, "w") as f:
        f.write("kept\n")
    os.chmod(ro, 0o444)
    shutil.copy(good, os.path.join(ro_dir, "good.csv"))
    os.chmod(os.path.join(ro_dir, "good.csv"), 0o644)
    try:
        p = subprocess.run([BIN, "batch", os.path.join(ro_dir, "good.csv"), "--hw", "h200", "-o", ro],
                           preexec_fn=lambda: (os.setgid(65534), os.setuid(65534)), capture_output=True, text=True,
                           timeout=120)
        ran = "Permission denied" not in p.stderr or "a file you may not write" in p.stderr
    except PermissionError:
        ran = False
    if ran:
        check("-o a read-only file as another user: exit 1, the file kept, said", p.returncode == 1 and
              open(ro).read() == "kept\n" and "a file you may not write is not replaced" in p.stderr, p.stderr)
    else:
        print("SKIP -o read-only: the build cannot run as nobody here")
# A leftover under a PID alive here (containers run the tool as the same few PIDs; PID 1 is always
# alive): it blocked every later run into the folder ("File exists": a fresh CI user's find,
# 2026-12-05). Unlocked and a minute old, it is a dead writer's and goes; a fresh one stays (a writer
# takes its lock just after creating it), and the run takes another name beside it.
import time  # noqa: E402
shared = os.path.join(TMP, "shared-pid1")
os.makedirs(shared, exist_ok=True)
old_tmp = os.path.join(shared, ".gemm-advisor.1.0.tmp")
new_tmp = os.path.join(shared, ".gemm-advisor.1.1.tmp")
for path in (old_tmp, new_tmp):
    with open(path, "w") as f:
        f.write("stale\n")
os.utime(old_tmp, (time.time() - 600, time.time() - 600))
rc, out, err = run("batch", good, "--hw", "h200", "--format", "csv", "-o", os.path.join(shared, "r.csv"))
check("-o beside a leftover temporary of a live PID: a minute-old unlocked one removed, a fresh one kept, the run "
      "written", rc == 0 and not os.path.exists(old_tmp) and os.path.exists(new_tmp) and
      os.path.exists(os.path.join(shared, "r.csv")), err)
# A fresh CI user's finds on -o (2026-12-05): the file behind stdout is written through, not replaced;
# every input of the run is refused as -o; a replaced file keeps its mode; a run killed by SIGTERM
# removes its temporary; a temporary another writer holds locked is left alone whatever its PID says
# (a writer in another PID namespace); --emit vllm -o - is a usage error.
log = os.path.join(TMP, "ci.log")
with open(log, "w") as f:
    f.write("earlier\n")
with open(log, "a") as f:
    p = subprocess.run([BIN, "batch", good, "--hw", "h200", "--format", "csv", "-q", "-o", "/dev/stdout"], stdout=f,
                       stderr=subprocess.PIPE, text=True)
text = open(log).read()
check("-o /dev/stdout appends to the file behind stdout, not replacing it",
      p.returncode == 0 and text.startswith("earlier\nname,m,n,k") and text.count("\n") == 4, text + p.stderr)
cand = write("cand.txt", "128x128x64:8:3\n")
rc, out, err = run("batch", good, "--hw", "h200", "--candidates", cand, "-o", cand)
check("-o the --candidates file: a usage error, the file untouched",
      rc == 2 and "is an input of the run" in err and open(cand).read() == "128x128x64:8:3\n", err)
private = write("private.csv", "x\n")
os.chmod(private, 0o600)
rc, out, err = run("batch", good, "--hw", "h200", "-o", private, "-q")
check("-o over a 0600 file: replaced, still 0600", rc == 0 and (os.stat(private).st_mode & 0o777) == 0o600 and
      open(private).read().startswith('{"'), oct(os.stat(private).st_mode))
big = write("big.txt", "".join(f"{64 + i % 4000}x{4096 + i % 7}x{4096 + i % 5}\n" for i in range(200000)))
killed = os.path.join(TMP, "killed.csv")
proc = subprocess.Popen([BIN, "batch", big, "--hw", "h200", "--format", "csv", "-q", "-o", killed],
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
seen = False
for _ in range(1000):  # until its temporary exists (then it is writing), at most 20 s
    seen = bool([n for n in os.listdir(TMP) if n.startswith(".gemm-advisor.")])
    if seen or proc.poll() is not None:
        break
    time.sleep(0.02)
proc.terminate()
proc.wait(timeout=60)
check("batch -o killed by SIGTERM while writing: ended by it, no FILE and no temporary left",
      seen and proc.returncode == -15 and not os.path.exists(killed) and
      not [n for n in os.listdir(TMP) if n.startswith(".gemm-advisor.")], (seen, proc.returncode, os.listdir(TMP)))
import fcntl  # noqa: E402
# A run waiting for another's lock on the --emit vllm directory says so (it waited silently until a CI
# timeout: a fresh CI user's find, 2026-12-05), then writes once the lock is free.
held_dir = os.path.join(TMP, "held-vllm")
os.makedirs(held_dir)
held_fd = os.open(held_dir, os.O_RDONLY)
fcntl.flock(held_fd, fcntl.LOCK_EX)
waiter = subprocess.Popen([BIN, "batch", "-", "--hw", "h200", "--emit", "vllm", "--target", "vllm-fp8-block",
                           "--out", held_dir], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
waiter.stdin.write("1x4096x4096\n")
waiter.stdin.close()
time.sleep(1.0)
still_waiting = waiter.poll() is None
fcntl.flock(held_fd, fcntl.LOCK_UN)
os.close(held_fd)
waiter.wait(timeout=120)
waited_err = waiter.stderr.read()
check("--emit vllm into a directory another run holds: waits, says so, then writes",
      still_waiting and waiter.returncode == 0 and
      f"{held_dir}: another gemm-advisor run is writing there (it holds the directory's lock): waiting for it"
      in waited_err and "1 file written" in waited_err, waited_err)
foreign = os.path.join(TMP, ".gemm-advisor.999999999.0.tmp")  # no such PID here: as if from another namespace
with open(foreign, "w") as held:
    fcntl.flock(held, fcntl.LOCK_EX)
    rc, out, err = run("batch", good, "--hw", "h200", "-o", os.path.join(TMP, "other.csv"), "-q")
    kept = os.path.exists(foreign)
os.unlink(foreign)
check("a temporary its writer holds locked is not removed, whatever its PID", rc == 0 and kept, err)
with open(foreign, "w") as f:
    f.write("dead writer")
rc, out, err = run("batch", good, "--hw", "h200", "-o", os.path.join(TMP, "other.csv"), "-q")
check("... and an unlocked one of a dead PID is", rc == 0 and not os.path.exists(foreign), err)
rc, out, err = run("batch", "-", "--hw", "h200", "--emit", "vllm", "-o", "-", stdin="1x4096x4096\n")
check("--emit vllm -o -: a usage error (files cannot go to stdout)", rc == 2 and "cannot hold them" in err and
      not os.path.exists("-"), err)

# Every line bad, the whole list read (--keep-going): the CSV header alone, as --emit triton's [] (a
# dashboard loader broke on an empty answer: a fresh batch user's find).
rc, out, err = run("batch", "-", "--hw", "h200", "--format", "csv", "--keep-going", stdin="0x1x1\n")
check("all lines bad with --keep-going: exit 1 and the CSV header alone", rc == 1 and
      out.splitlines() == [out.splitlines()[0]] and out.startswith("name,m,n,k"), out + err)
rc, out, err = run("batch", "-", "--hw", "h200", "--format", "csv", stdin="0x1x1\n")
check("... while a run stopped at its first line prints nothing", rc == 1 and out == "", out)

# A shape whose operands exceed the GPU's memory is said, as rank says it, so --strict fails both
# (batch said nothing: a fresh batch user's find). 16384 x 16384 x 2^27 bf16: 8.8 TB of A and B.
rc, out, err = run("--strict", "batch", "-", "--hw", "h200", "--format", "csv", stdin="16384x16384x134217728\n64x64x64\n")
check("batch warns of a shape beyond the GPU's memory, naming its line; --strict fails it",
      rc == 1 and "<stdin>:1: 16384x16384x134217728: A, B and C take 8.8e+03 GB, more than h200's 141 GB" in err,
      err)

# Results from a live pipe go out as each shape is ranked, not when the input ends.
proc = subprocess.Popen([BIN, "batch", "-", "--hw", "h200", "--format", "csv", "-q"], stdin=subprocess.PIPE,
                        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
proc.stdin.write(b"m,n,k\n16,4096,4096\n")
proc.stdin.flush()
first = [proc.stdout.readline(), proc.stdout.readline()]  # blocks until they are written
proc.stdin.write(b"32,4096,4096\n")
proc.stdin.close()
rest = proc.stdout.read()
proc.wait(timeout=60)
check("batch from a pipe: each shape's row comes out before the input ends",
      first[0].startswith(b"name,m,n,k") and first[1].startswith(b",16,4096,4096") and
      rest.startswith(b",32,4096,4096") and proc.returncode == 0, (first, rest))

# --emit triton from a pipe: each shape's entry ends its line as it goes out (the line waited for the
# next shape's comma: a fresh CI user's find, 2026-12-05), and the whole still parses as one list.
proc = subprocess.Popen([BIN, "batch", "-", "--hw", "h200", "--emit", "triton", "--top", "1", "-q"],
                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
proc.stdin.write(b"16x4096x4096\n")
proc.stdin.flush()
first = [proc.stdout.readline(), proc.stdout.readline()]  # blocks until both lines are written
proc.stdin.write(b"32x4096x4096\n")
proc.stdin.close()
rest = proc.stdout.read()
proc.wait(timeout=60)
whole = json.loads(b"".join(first) + rest) if proc.returncode == 0 else []
check("--emit triton from a pipe: the first shape's entry is a whole line before the input ends; one JSON list",
      first[0] == b"[\n" and first[1].startswith(b'  {"m":16,') and first[1].endswith(b"}\n") and
      [e["m"] for e in whole] == [16, 32], (first, rest[:100]))

# A JSON list is read entry by entry (2026-12-05): each entry's error and each unknown key at its own
# line as when the list was parsed whole. json.dumps(indent=2) puts "[" on line 1, each mapping's "{"
# on the line after the last's "}", a key a line: the second entry's "{" is line 8, the third's 13,
# the fourth's 17 and its fifth key, "bacth", line 21 (counted by hand from that layout).
pretty = write("pretty.json", json.dumps([{"m": 64, "n": 64, "k": 64, "name": "a"}, {"m": 0, "n": 8, "k": 8},
                                          {"m": 8, "n": 8}, {"m": 8, "n": 8, "k": 8, "bacth": 2}], indent=2))
rc, out, err = run("batch", pretty, "--hw", "h200", "--format", "csv", "--top", "1", "--keep-going")
check("a pretty-printed JSON list: errors and the unknown key at their lines, the good entries ranked",
      rc == 1 and f"{pretty}:21: unknown key 'bacth' ignored" in err and f"{pretty}:8: 'm' = 0 is outside" in err and
      f"{pretty}:13: missing 'k'" in err and len(out.splitlines()) == 3, err)
# On one line (json.dump's form) the entry's place too; a batch result's "problem" read as its shape.
flat = write("flat.json", json.dumps([{"m": 64, "n": 64, "k": 64}] * 3 + [{"m": 1, "n": 2}] +
                                     [{"problem": {"m": 8, "n": 8, "k": 8}, "configs": [], "name": "p"}]))
rc, out, err = run("batch", flat, "--hw", "h200", "--format", "csv", "--top", "1", "--keep-going")
check("a one-line JSON list: the bad entry's place in the list; a result's problem ranked under its name",
      rc == 1 and f"{flat}:1: entry 4 of the list: missing 'k'" in err and "unknown key" not in err and
      len(out.splitlines()) == 5 and out.splitlines()[-1].startswith("p,"), out + err)

# JSON Lines lists, and yesterday's `--format jsonl` results re-ranked as a list (both were "not valid
# JSON: unexpected '{'": a fresh CI user's find, 2026-12-05); each entry keeps its own line.
jl = write("shapes.jsonl", '{"m": 64, "n": 64, "k": 64, "name": "a"}\n\n{"m": 0, "n": 8, "k": 8}\n'
           '{"m": 128, "n": 128, "k": 128, "layout": "NN"}\n')
rc, out, err = run("batch", jl, "--hw", "h200", "--format", "csv", "--top", "1", "--keep-going", "--input-format", "jsonl")
rows = out.splitlines()
check("a JSON Lines list: its good entries ranked, the bad one at its line",
      rc == 1 and len(rows) == 3 and rows[1].startswith("a,64,64,64,") and rows[2].startswith(",128,128,128,1,bf16,NN,")
      and f"{jl}:3: 'm' = 0 is outside 1..2147483647" in err, out + err)
broken = write("broken.jsonl", '{"m": 64, "n": 64, "k": 64}\n{"m": 8, "n": 8\n{"m": 1, "n": 1, "k": 1}\n')
rc, out, err = run("batch", broken, "--hw", "h200", "--format", "csv", "--top", "1")
check("a JSON Lines list with a broken line: the lines before it ranked, the error at that line, stopped there",
      rc == 1 and len(out.splitlines()) == 2 and out.splitlines()[1].startswith(",64,64,64,") and
      f"{broken}:2: not valid JSON (a JSON Lines list, one object a line): parse error at column 16" in err and
      "1 shape ranked, 1 bad (stopped at the first bad line" in err, out + err)
# --keep-going goes past a broken line as past a bad entry (the broken line stopped the whole list
# before any shape: a fresh user's find, 2026-12-06).
rc, out, err = run("batch", broken, "--hw", "h200", "--format", "csv", "--top", "1", "--keep-going")
check("a JSON Lines list with a broken line, --keep-going: the other two ranked, the broken one said at its line",
      rc == 1 and [r.split(",")[1] for r in out.splitlines()[1:]] == ["64", "1"] and
      f"{broken}:2: not valid JSON (a JSON Lines list, one object a line)" in err and "2 shapes ranked, 1 bad" in err,
      out + err)
# One shape alone: a JSON Lines file of one line, a YAML mapping (both were "expected a list of shapes").
one = write("one.jsonl", '{"m": 5, "n": 6, "k": 7, "name": "solo"}\n')
one_yaml = write("one.yaml", "m: 5\nn: 6\nk: 7\n")
for path in (one, one_yaml):
    rc, out, err = run("batch", path, "--hw", "h200", "--format", "csv", "--top", "1")
    check(f"one shape alone ({os.path.basename(path)}) is a list of one", rc == 0 and len(out.splitlines()) == 2 and
          ",5,6,7,1,bf16,NT," in out.splitlines()[1], out + err)
rc, yesterday, err = run("batch", "examples/llama3-8b.csv", "--hw", "h200", "--format", "jsonl", "--top", "1")
again = write("yesterday.jsonl", yesterday)
rc2, out2, err2 = run("batch", again, "--hw", "h200", "--format", "jsonl", "--top", "1")
strip = [{k: v for k, v in json.loads(line).items() if k != "generator"} for line in yesterday.splitlines()]
strip2 = [{k: v for k, v in json.loads(line).items() if k != "generator"} for line in out2.splitlines()]
check("batch --format jsonl output fed back: the same shapes, names and results, no unknown-key warnings",
      rc == 0 and rc2 == 0 and strip == strip2 and len(strip) == 20 and "unknown key" not in err2, err2[-300:])

# batch --format csv's own output fed back (--top 3): each shape ranked once, at its first place, and no
# warning per result column (18 warnings, and every shape three times: a fresh user's find, 2026-12-06).
rc, result, err = run("batch", "examples/llama3-8b.csv", "--hw", "h200", "--format", "csv", "--top", "3", "-q")
again = write("result.csv", result)
rc2, out2, err2 = run("batch", again, "--hw", "h100", "--format", "csv", "--top", "1", "--strict")
names = [r.split(",")[0] for r in out2.splitlines()[1:]]
check("batch --format csv output re-ranked: each shape once, in order, no warning (--strict passes)",
      rc == 0 and rc2 == 0 and len(names) == 20 and names == [r.split(",")[0] for r in result.splitlines()[1::3]]
      and "warning" not in err2, err2[-400:])

# Names that start with '#' or carry spaces at their ends are quoted in batch's CSV, so that the
# result read back keeps them: an unquoted '#1 qkv' row was read back as a comment and dropped, '  sp  '
# trimmed (a fresh user's find, 2026-12-06).
odd = write("odd-names.csv", 'name,m,n,k\n"#1 qkv",16,4096,4096\n"  sp  ",32,4096,4096\nok,64,4096,4096\n')
rc, result, err = run("batch", odd, "--hw", "h200", "--format", "csv", "--top", "1", "-q")
rows = result.splitlines()[1:]
again = write("odd-result.csv", result)
rc2, out2, err2 = run("batch", again, "--hw", "h200", "--format", "csv", "--top", "1", "-q")
check("a '#' or space-edged name is quoted in the CSV and survives a read back",
      rc == 0 and rc2 == 0 and rows[0].startswith('"#1 qkv",16,') and rows[1].startswith('"  sp  ",32,')
      and out2 == result, result + err + out2 + err2)

# A --candidates --top 0 result read back: its infeasible rows (no rank) do not rank the shape again
# (each shape was ranked once more a row: a fresh user's find, 2026-12-06).
cands = write("two-cands.txt", "256x256x128:8:6\n16x16x16:4:1\n")
shapes = write("two-shapes.txt", "16x4096x4096\n4096x4096x4096\n")
rc, result, err = run("batch", shapes, "--hw", "h200", "--candidates", cands, "--top", "0", "--format", "csv", "-q")
again = write("cands-result.csv", result)
rc2, out2, err2 = run("batch", again, "--hw", "b200", "--format", "csv", "--top", "1")
check("a --candidates --top 0 result read back ranks each shape once",
      rc == 0 and rc2 == 0 and ",0," in result and [r.split(",")[1] for r in out2.splitlines()[1:]] == ["16", "4096"]
      and "2 shapes ranked" in err2, result + out2 + err2)

# A --top 3 result filtered to its rank-2 rows (awk '$10==2') read back: each shape once, at whatever
# rank its first row has (it was "no shapes": a fresh user's find, 2026-12-06); the whole result: once.
rc, result, err = run("batch", shapes, "--hw", "h200", "--top", "3", "--format", "csv", "-q")
lines = result.splitlines()
rank2 = write("rank2.csv", "\n".join([lines[0]] + [l for l in lines[1:] if l.split(",")[9] == "2"]) + "\n")
whole = write("top3.csv", result)
rc2, out2, err2 = run("batch", rank2, "--hw", "h200", "--format", "csv", "--top", "1")
rc3, out3, err3 = run("batch", whole, "--hw", "h200", "--format", "csv", "--top", "1")
check("a result's rank-2 rows read back rank each shape once, as the whole result does",
      rc == 0 and rc2 == 0 and rc3 == 0 and len(lines) == 7
      and [r.split(",")[1] for r in out2.splitlines()[1:]] == ["16", "4096"] and "2 shapes ranked" in err2
      and out3 == out2, result + out2 + err2 + out3 + err3)

# A fused-MoE layer's CSV result read back as a dense list: refused, as its JSON Lines form is (it was
# ranked as plain tokens x N x H GEMMs with unknown-column warnings: a fresh user's find, 2026-12-06).
rc, moe_csv, err = run("batch", "examples/moe-models.csv", "--target", "vllm-fused-moe", "--hw", "h200", "--format",
                       "csv", "--m-values", "1,64", "-q")
moe_again = write("moe-result.csv", moe_csv)
rc2, out2, err2 = run("batch", moe_again, "--hw", "b200", "--format", "csv")
check("a fused-MoE CSV result as a dense list: refused, said as for JSON Lines",
      rc == 0 and rc2 != 0 and not out2 and f"{moe_again}:1: a fused-MoE layer's result (columns experts, top_k, gemm), "
      "not a dense GEMM list: rank the layer from its model list with --target vllm-fused-moe" in err2, err2)

# --emit vllm says when an (N, K) does not fit the GPU's memory, as the other outputs do (it never
# did: a fresh user's find, 2026-12-06): N x K fp8 weights of 2147483647^2 bytes, 4.61e+09 GB.
huge = write("huge-nk.txt", "1x2147483647x2147483647\n")
rc, out, err = run("batch", huge, "--hw", "h200", "--emit", "vllm", "--out", os.path.join(TMP, "huge-vllm"),
                   "--m-values", "1")
check("--emit vllm: an (N, K) beyond the GPU's memory is warned of",
      rc == 0 and f"{huge}:1: 1x2147483647x2147483647: A, B and C take 4.61e+09 GB, more than" in err, err)

# A YAML list that opens with a directive, on stdin: YAML (it was sniffed as a CSV header: a fresh user's
# find, 2026-12-06).
rc, out, err = run("batch", "-", "--hw", "h200", "--format", "csv", stdin="%YAML 1.2\n---\n- 64x64x64\n- 128x128x128\n")
check("a YAML list opening with %YAML on stdin is read as YAML",
      rc == 0 and [r.split(",")[1] for r in out.splitlines()[1:]] == ["64", "128"], out + err)

shutil.rmtree(TMP, ignore_errors=True)
# JSON Lines with a broken first line, and with cut-off lines whose open brackets would add up across
# lines (past 64 they stopped the whole file at a valid line): each broken line is a bad line, the others
# ranked (a fresh user's finds, 2026-12-07). A line nested past 64 levels is that line's error.
LATE = cli_harness.temp_dir("gemm-advisor-batch-test-late-")  # TMP is gone by now (a test above removes it)
first_bad = cli_harness.write_file(LATE, "first-bad.jsonl", '{"m": 1, "n": 8, "k": \n{"m": 2, "n": 8, "k": 8}\n{"m": 3, "n": 8, "k": 8}\n')
rc, out, err = run("batch", first_bad, "--hw", "h200", "--format", "csv", "--top", "1", "--keep-going")
check("JSON Lines, a broken first line: that line bad, the other two ranked",
      rc == 1 and f"{first_bad}:1: not valid JSON (a JSON Lines list, one object a line)" in err and
      len(out.splitlines()) == 3 and ",2,8,8," in out and ",3,8,8," in out, out + err)
cut = cli_harness.write_file(LATE, "cut-lines.jsonl", '{"m":1,"n":8,"k":8}\n' + "".join('{"m":%d,"n":8,"k":\n{"m":5,"n":8,"k":8}\n' % i
                                                                for i in range(70)))
rc, out, err = run("batch", cut, "--hw", "h200", "--format", "csv", "--top", "1", "--keep-going")
check("JSON Lines, 70 cut-off lines: 70 bad lines, 71 shapes ranked",
      rc == 1 and "71 shapes ranked, 70 bad" in err and "nested deeper" not in err, err[-400:])
deep = cli_harness.write_file(LATE, "deep-line.jsonl", '{"m":1,"n":8,"k":8,"foo":1}\n{"m":2,"n":8,"k":8,"x":' + "[" * 70 + "]" * 70 +
             '}\n{"m":3,"n":8,"k":8}\n')
rc, out, err = run("batch", deep, "--hw", "h200", "--format", "csv", "--top", "1", "--keep-going")
check("JSON Lines, one line nested 70 deep: that line's error, the others ranked, the unknown key said",
      rc == 1 and f"{deep}:2: lists or mappings nested deeper than 64 levels: not a shape list's entry" in err and
      f"{deep}:1: unknown key 'foo' ignored" in err and "2 shapes ranked, 1 bad" in err, err)

# A list's own dtype wins over --dtype, which fills only lines without one: said once, at the first such
# line (--emit triton wrote bf16 configs under --dtype fp8 unsaid: a fresh CI user's find, 2026-12-07).
rc, out, err = run("batch", "examples/llama3-8b.csv", "--hw", "h200", "--emit", "triton", "--dtype", "fp8")
check("batch --dtype fp8 over a bf16 list: ranked bf16, said once at the first line",
      rc == 0 and err.count("is ranked, not --dtype") == 1 and
      "examples/llama3-8b.csv:4: the line's own dtype bf16 is ranked, not --dtype fp8" in err and
      '"dtype":"bf16"' in out and '"dtype":"fp8"' not in out, err)
rc, out, err = run("batch", "examples/llama3-8b.csv", "--hw", "h200", "--emit", "triton", "--dtype", "bf16")
check("batch --dtype bf16 over a bf16 list: nothing to say", rc == 0 and "is ranked, not --dtype" not in err, err)

cli_harness.finish()
