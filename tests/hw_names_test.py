#!/usr/bin/env python3
"""--hw as users name their GPU (issue "Where users are", deliverable 3): the names torch,
nvidia-smi and rocm-smi print, case-insensitively; GEMM_ADVISOR_HW as the default; without either,
the local GPU as nvidia-smi / rocm-smi name it (stand-in scripts on PATH here: CI has no GPU), and
without a GPU a clear error listing the profiles, never a silent H200.
Usage: hw_names_test.py PATH/TO/gemm-advisor (run from the repo root)."""
import json
import time
import os
import stat
import subprocess
import sys
import tempfile

import cli_harness

BIN = os.path.abspath(sys.argv[1])
TMP = cli_harness.temp_dir("gemm-advisor-hw-test-")
check = cli_harness.check


def run(*args, env_hw=None, path=None):
    env = {k: v for k, v in os.environ.items() if k != "GEMM_ADVISOR_HW"}
    if env_hw is not None:
        env["GEMM_ADVISOR_HW"] = env_hw
    if path is not None:
        env["PATH"] = path
    p = subprocess.run([BIN, *args], capture_output=True, text=True, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


def hardware_of(*args, **kw):
    rc, out, err = run("rank", "64x64x64", "--top", "1", "--format", "json", *args, **kw)
    return (json.loads(out)["hardware"]["name"] if rc == 0 else None), err


# Names as the drivers print them (profiles' `aliases`), any case, any punctuation.
for text, want in [("NVIDIA H100 80GB HBM3", "h100"), ("nvidia h200", "h200"), ("NVIDIA_H200", "h200"),
                   ("NVIDIA B200", "b200"), ("NVIDIA A100-SXM4-80GB", "a100"), ("AMD Instinct MI300X", "mi300x"),
                   ("AMD Instinct MI355X", "mi355x"), ("AMD Instinct MI325X", "mi325x"), ("MI325X", "mi325x"), ("gfx942", "mi300x"), ("GFX942", "mi300x"), ("gfx942:sramecc+:xnack-", "mi300x"), ("H200", "h200"),
                   ("mi350x", "mi350x"),
                   # the OAM market names some ROCm versions report (vLLM ships files under them too)
                   ("AMD Instinct MI355 OAM", "mi355x"), ("AMD_Instinct_MI350_OAM", "mi350x"),
                   ("AMD Instinct MI325 OAM", "mi325x")]:
    got, err = hardware_of("--hw", text, env_hw="")
    check(f"--hw '{text}' is {want}", got == want, f"{got} {err}")
rc, out, err = run("rank", "64x64x64", "--hw", "gfx950")
check("--hw gfx950: MI350X or MI355X, so an error naming both", rc == 1 and "mi350x or mi355x" in err, err)
rc, out, err = run("rank", "64x64x64", "--hw", "NVIDIA H100 PCIe")
check("--hw of a GPU with no profile: exit 1, the profiles listed", rc == 1 and "h100" in err and out == "", err)
# Shortened spellings of a shipped GPU's own name (2026-12-05, a fresh H100 user's find: each was an
# unknown profile): the short name in it, every word the start of a word of the profile's names.
for text, want in [("H100 SXM", "h100"), ("h100-sxm5-80gb", "h100"), ("NVIDIA H100", "h100"), ("nvidia-h100", "h100"),
                   ("H100SXM", "h100"), ("a100 80gb", "a100"), ("A100 SXM", "a100")]:
    got, err = hardware_of("--hw", text, env_hw="")
    check(f"--hw '{text}' is {want}", got == want, f"{got} {err}")
# Another card of the chip (its own SMs, clocks or memory) is not the shipped one: the error names the
# shipped card and how to make a profile of one's own (it only listed the names).
for text, near, shipped in [("NVIDIA H100 PCIe", "h100", "NVIDIA H100 SXM5 80GB"), ("NVIDIA H200 NVL", "h200", "NVIDIA H200"),
                            ("NVIDIA A100-SXM4-40GB", "a100", "NVIDIA A100 SXM4 80GB"),
                            # nvidia-smi's name of the PCIe card: "A100 80GB" squeezed read as a typo,
                            # a100 + digits (a fresh user's find, 2026-12-07)
                            ("NVIDIA A100 80GB PCIe", "a100", "NVIDIA A100 SXM4 80GB")]:
    rc, out, err = run("rank", "64x64x64", "--hw", text)
    check(f"--hw '{text}': exit 1, the shipped {near} named with its card and `profiles show {near}`",
          rc == 1 and out == "" and shipped in err and f"profiles show {near} > mine.yaml" in err
          and err.count("\n") == 1, err)
# A profile file's name with its ending left off: the file is suggested (a fresh Python user's find).
ending_dir = tempfile.mkdtemp(dir=TMP)
with open(os.path.join(ending_dir, "h100pcie.yaml"), "w") as f:
    f.write(subprocess.run([BIN, "profiles", "show", "h100"], capture_output=True, text=True, check=True).stdout)
p = subprocess.run([BIN, "rank", "64x64x64", "--hw", "h100pcie"], capture_output=True, text=True, cwd=ending_dir,
                   timeout=60)
check("--hw h100pcie beside h100pcie.yaml: exit 1, the file suggested",
      p.returncode == 1 and not p.stdout and "did you mean the file h100pcie.yaml here?" in p.stderr, p.stderr)
rc, out, err = run("rank", "64x64x64", "--hw", "NVIDIA GeForce RTX 4090")
check("--hw of a GPU near no shipped one: the plain list", rc == 1 and "known: a100" in err and "profiles show" not in err, err)
# A digit right after a shipped chip's name is a typo of it (h2000), not another card of the chip
# (it was called one: a fresh user's find, 2026-12-06).
for typo in ("h2000", "b2000"):
    rc, out, err = run("rank", "64x64x64", "--hw", typo)
    check(f"--hw {typo}: the plain list, not 'another card of the chip'",
          rc == 1 and "known: a100" in err and "another card" not in err, err)

# GEMM_ADVISOR_HW is the default, --hw wins over it.
got, err = hardware_of(env_hw="mi300x")
check("GEMM_ADVISOR_HW=mi300x is the default", got == "mi300x", err)
got, err = hardware_of("--hw", "a100", env_hw="mi300x")
check("--hw wins over GEMM_ADVISOR_HW", got == "a100", err)

# Neither: the local GPU, as nvidia-smi or rocm-smi name it.
def fake_bin(name, script):
    d = tempfile.mkdtemp(dir=TMP)
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + script)
    os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
    return d


nvidia = fake_bin("nvidia-smi", 'echo "NVIDIA H100 80GB HBM3"\n')
got, err = hardware_of(path=nvidia)
check("no --hw, no GEMM_ADVISOR_HW: nvidia-smi's GPU", got == "h100", err)
rocm = fake_bin("rocm-smi", 'echo "============ Product Info ============"\n'
                            'echo "GPU[0]\t\t: Card Series: \t\tAMD Instinct MI300X OAM"\n'
                            'echo "GPU[0]\t\t: Card Vendor: \t\tAdvanced Micro Devices, Inc. [AMD/ATI]"\n')
got, err = hardware_of(path=rocm)
check("no --hw, no GEMM_ADVISOR_HW: rocm-smi's GPU", got == "mi300x", err)
unknown = fake_bin("nvidia-smi", 'echo "NVIDIA GeForce RTX 4090"\n')
rc, out, err = run("rank", "64x64x64", path=unknown)
check("a local GPU with no profile: exit 1 naming it and the profiles",
      rc == 1 and "NVIDIA GeForce RTX 4090" in err and "h200" in err and out == "", err)
empty = tempfile.mkdtemp(dir=TMP)
for cmd in (["rank", "64x64x64"], ["explain", "64x64x64"], ["batch", "-"]):
    rc, out, err = run(*cmd, path=empty)
    check(f"{cmd[0]} with no --hw and no GPU: exit 1, one line listing the profiles, no silent H200",
          rc == 1 and out == "" and len(err.splitlines()) == 1 and "GEMM_ADVISOR_HW" in err and "mi355x" in err, err)

hung = fake_bin("nvidia-smi", '/bin/sleep 30\necho "NVIDIA H100 80GB HBM3"\n')
t0 = time.time()
rc, out, err = run("rank", "64x64x64", path=hung)
check("a hung nvidia-smi is given 5 s, then no GPU (exit 1), said so",
      rc == 1 and time.time() - t0 < 15 and "no GPU" in err and "did not answer within 5 s" in err,
      f"{time.time() - t0:.1f} s {err}")
two = fake_bin("nvidia-smi", 'echo "NVIDIA H100 80GB HBM3"\necho "NVIDIA H200"\n')
rc, out, err = run("rank", "64x64x64", path=two)
check("GPUs of two kinds: exit 1 naming both, none picked silently",
      rc == 1 and out == "" and "NVIDIA H100 80GB HBM3" in err and "NVIDIA H200" in err and "differ" in err, err)
same = fake_bin("nvidia-smi", 'echo "NVIDIA H200"\necho "NVIDIA H200"\n')
got, err = hardware_of(path=same)
check("two GPUs of one kind: that GPU", got == "h200", err)
failing = fake_bin("nvidia-smi", 'echo "NVIDIA H100 80GB HBM3"\nexit 3\n')
rc, out, err = run("rank", "64x64x64", path=failing)
check("a failing nvidia-smi names no GPU", rc == 1 and "no GPU" in err, err)
rc, out, err = run("rank", "64x64x64", env_hw="bogus")
check("GEMM_ADVISOR_HW=bogus: the error names the variable", rc == 1 and err.startswith("gemm-advisor: error: GEMM_ADVISOR_HW:"), err)

# `profiles` lists what --hw takes.
rc, out, err = run("profiles", "--format", "json")
entries = {p["name"]: p["aliases"] for p in json.loads(out)} if rc == 0 else {}
check("profiles --format json: each profile's aliases", "NVIDIA H100 80GB HBM3" in entries.get("h100", []) and
      "gfx942" in entries.get("mi300x", []), out[:300])
rc, out, err = run("profiles", "show", "AMD Instinct MI325X")
check("profiles show takes a GPU name as --hw does", rc == 0 and out.startswith("# AMD Instinct MI325X") and
      "name: mi325x" in out, err + out[:200])
rc, out, err = run("profiles", "show", "gfx950")
check("profiles show gfx950: exit 1, the two profiles named", rc == 1 and "mi350x" in err and "mi355x" in err, err)
cli_harness.finish()
