#!/usr/bin/env python3
"""The Python module gemm_advisor against the CLI (issue "Where users are"): rank, ranking, explain,
profiles and targets give what `gemm-advisor ... --format json` prints; bad input is
gemm_advisor.Error (a ValueError) with the CLI's one-line message; candidates= ranks exactly the
configs given; hw=None resolves as the CLI does; gemm_advisor.triton's configs() and shortlist()
work with a stand-in triton module (tests/fake_triton) and without any.
Usage: python_api_test.py PATH/TO/gemm-advisor PACKAGE_DIR (PACKAGE_DIR holds gemm_advisor/)."""
import csv
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import warnings

import cli_harness

BIN = os.path.abspath(sys.argv[1])
PKG = os.path.abspath(sys.argv[2])
HERE = os.path.dirname(os.path.abspath(__file__))
FAKE_TRITON = os.path.join(HERE, "fake_triton")
SRC = os.path.dirname(HERE)
sys.path.insert(0, PKG)
TMP = cli_harness.temp_dir("gemm-advisor-py-test-")
check = cli_harness.check

import gemm_advisor as g  # noqa: E402

check("the package comes from PACKAGE_DIR", g.__file__.startswith(PKG), g.__file__)


def cli_json(*args):
    rc, out, err = cli_harness.run(BIN, *args, "--format", "json")
    if rc != 0:
        raise AssertionError(f"gemm-advisor {' '.join(args)}: exit {rc}: {err}")
    return json.loads(out)


def cli_error(*args, code=1):
    """The CLI's error line for a command that must fail with exit `code`, without the prefix."""
    rc, out, err = cli_harness.run(BIN, *args)
    lines = [line for line in err.splitlines() if line.startswith("gemm-advisor: error: ")]
    assert rc == code and lines, (rc, err)
    return lines[-1][len("gemm-advisor: error: "):]


def py_error(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except g.Error as e:
        return e
    return None


def key(c):
    return tuple(c[f] for f in ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k"))


# --- rank / ranking: the CLI's JSON, whole ---------------------------------------------------------
for shape, hw, extra, kwargs in [
    ("4096x4096x4096", "h200", [], {}),
    ("16x6144x4096", "NVIDIA B200", ["--top", "4"], {"top": 4}),
    ("8192x8192x8192x4", "h100", ["--dtype", "fp8", "--layout", "NN"], {"dtype": "fp8", "layout": "NN"}),
    ("64x7168x2048", "h200", ["--target", "vllm-fp8-block"], {"target": "vllm-fp8-block"}),
    ("1000x3000x777", "AMD Instinct MI300X", ["--target", "triton-tutorial", "--distinct", "--top", "6"],
     {"target": "triton-tutorial", "distinct": True, "top": 6}),
]:
    want = cli_json("rank", shape, "--hw", hw, *(extra if "top" in kwargs else extra + ["--top", "10"]))
    got = g.ranking(shape, hw=hw, **kwargs)
    check(f"ranking({shape}, {hw}, {kwargs}) is `rank --format json` whole", got == want,
          f"{json.dumps(got)[:300]} != {json.dumps(want)[:300]}")
    configs = g.rank(shape, hw=hw, **kwargs)
    check(f"rank({shape}, {hw}) is its configs, ranks 1..n", configs == want["configs"]
          and [c["rank"] for c in configs] == list(range(1, len(configs) + 1)), configs[:1])
# max_split_k= is --max-split-k (Python had no way to split K past the profile's 256: a fresh user's find,
# 2026-12-03): the same JSON, whole; a split_k of 512 is refused without it, ranked with it.
want = cli_json("rank", "16x16x67108864", "--hw", "mi355x", "--max-split-k", "512", "--top", "5")
got = g.ranking("16x16x67108864", hw="mi355x", top=5, max_split_k=512)
check("ranking(max_split_k=512) is `rank --max-split-k 512` whole", got == want, f"{json.dumps(got)[:300]}")
e = py_error(g.rank, "16x16x67108864", hw="mi355x", candidates=["16x16x256:4:2:512"])
check("rank: split_k 512 beyond the profile's 256 is an Error that names max_split_k=", e is not None and
      "split_k = 512 is outside 1..256" in str(e) and "max_split_k= in Python" in str(e), repr(e))
ranked = g.rank("16x16x67108864", hw="mi355x", candidates=["16x16x256:4:2:512"], max_split_k=512)
check("... and ranked with max_split_k=512", [c["split_k"] for c in ranked] == [512], ranked[:1])
e = py_error(g.rank, "64x64x64", hw="h200", max_split_k=0)
check("rank(max_split_k=0) is an Error with the range", e is not None and "1..65536" in str(e), repr(e))
# cu_count= is --cu-count (a partition or CU mask): the same JSON, whole, for rank, explain and a
# fused-MoE layer; bad values are refused as the CLI refuses them.
want = cli_json("rank", "4096x4096x4096", "--hw", "h200", "--cu-count", "66", "--top", "3")
got = g.ranking("4096x4096x4096", hw="h200", top=3, cu_count=66)
check("ranking(cu_count=66) is `rank --cu-count 66` whole", got == want, f"{json.dumps(got)[:300]}")
check("... on 66 of the H200's 132 SMs", "(66 of 132 CUs)" in got["hardware"]["display_name"], got["hardware"])
whole = g.ranking("4096x4096x4096", hw="h200", top=3)
check("... where the same config runs twice the waves of the whole GPU's",
      got["configs"][0]["waves"] > whole["configs"][0]["waves"], (got["configs"][0], whole["configs"][0]))
want = cli_json("explain", "4096x4096x4096", "--hw", "h200", "--cu-count", "66", "--config", "128x128x64:8:3")
check("explain(cu_count=66) is `explain --cu-count 66` whole",
      g.explain("4096x4096x4096", "128x128x64:8:3", hw="h200", cu_count=66) == want)
want = cli_json("rank", "256", "--target", "vllm-fused-moe", "--experts", "8", "--top-k", "2", "--hidden", "4096",
                "--intermediate", "14336", "--tp", "2", "--hw", "h200", "--cu-count", "100", "--top", "2")
check("moe_ranking(cu_count=100) is `rank --target vllm-fused-moe --cu-count 100` whole",
      g.moe_ranking(256, 8, 2, 4096, 14336, tp=2, hw="h200", top=2, cu_count=100) == want)
# Both default to vLLM's tuner routing (uniform until 2026-12-05: a fresh user's find).
check("moe_ranking's default routing is the CLI's: tuner", want["problem"]["moe"]["routing"] == "tuner",
      want["problem"]["moe"])
e = py_error(g.rank, "64x64x64", hw="h200", cu_count=1000)
check("cu_count above the GPU's CUs: Error naming cu_count", e is not None and "cu_count" in str(e), e)
e = py_error(g.rank, "64x64x64", hw="h200", cu_count=0)
check("cu_count=0: Error", e is not None and "cu_count = 0 is not a CU count: give 1 up to the GPU's CUs" in str(e), e)
try:
    g.rank("64x64x64", hw="h200", cu_count=1.5)
    check("cu_count=1.5: TypeError", False)
except TypeError as te:
    check("cu_count=1.5: TypeError", "cu_count must be an int" in str(te), te)
got = g.rank("4096x4096x4096", hw="h200", top=3)
keys = set(cli_json("rank", "4096x4096x4096", "--hw", "h200", "--top", "3")["configs"][0])
check("rank's dicts have exactly the rank JSON's keys", all(set(c) == keys for c in got) and len(got) == 3,
      [sorted(c) for c in got])
check("rank: a tuple shape is the text shape", g.rank((4096, 4096, 4096), hw="h200", top=5) == g.rank(
    "4096x4096x4096", hw="h200", top=5))
check("rank: (M, N, K, B) is MxNxKxB", g.ranking((256, 512, 1024, 3), hw="a100", top=2)["problem"]["batch"] == 3)
check("rank top=0 is every config", len(g.rank("512x512x512", hw="h200", top=0)) ==
      len(cli_json("rank", "512x512x512", "--hw", "h200", "--top", "0")["configs"]))
check("ranking's default dtype and layout are the target's", g.ranking("64x7168x2048", hw="h200",
      target="vllm-fp8-block", top=1)["problem"] == {"m": 64, "n": 7168, "k": 2048, "batch": 1,
                                                           "dtype": "fp8", "layout": "NT"})

# --- errors: gemm_advisor.Error, a ValueError, with the CLI's message -------------------------------
broken = os.path.join(TMP, "broken.yaml")
with open(broken, "w") as f:
    f.write("name: broken\ncompute: [\n")
none_fit = os.path.join(TMP, "none-fit.csv")
with open(none_fit, "w") as f:
    f.write("block_m,block_n,block_k,num_warps,num_stages\n256,256,256,4,6\n512,512,256,8,6\n")
for what, cli_args, call in [
    ("a malformed shape", ["rank", "4096x4096", "--hw", "h200"], lambda: g.rank("4096x4096", hw="h200")),
    ("a zero dimension", ["rank", "0x64x64", "--hw", "h200"], lambda: g.rank((0, 64, 64), hw="h200")),
    ("an unknown profile", ["rank", "64x64x64", "--hw", "h900"], lambda: g.rank("64x64x64", hw="h900")),
    ("a GPU with no profile", ["rank", "64x64x64", "--hw", "NVIDIA H100 PCIe"],
     lambda: g.rank("64x64x64", hw="NVIDIA H100 PCIe")),
    ("two profiles' isa", ["rank", "64x64x64", "--hw", "gfx950"], lambda: g.rank("64x64x64", hw="gfx950")),
    ("a dtype the GPU lacks", ["rank", "64x64x64", "--hw", "a100", "--dtype", "fp8"],
     lambda: g.rank("64x64x64", hw="a100", dtype="fp8")),
    ("a broken profile file", ["rank", "64x64x64", "--hw", broken], lambda: g.rank("64x64x64", hw=broken)),
    ("a missing profile file", ["rank", "64x64x64", "--hw", "/nonexistent/x.yaml"],
     lambda: g.load_profile("/nonexistent/x.yaml")),
    # The CLI names the candidates file the configs came from; Python's come as a list.
    ("no candidate can run", (["rank", "4096x4096x4096", "--hw", "h200", "--candidates", none_fit], 1,
                              lambda m: m.removeprefix(none_fit + ": ")),
     lambda: g.rank("4096x4096x4096", hw="h200", candidates=[
         {"block_m": 256, "block_n": 256, "block_k": 256, "num_warps": 4, "num_stages": 6},
         "512x512x256:8:6"])),
    ("an infeasible explain config", ["explain", "4096x4096x4096", "--hw", "h200", "--config", "256x256x256:4:6"],
     lambda: g.explain("4096x4096x4096", "256x256x256:4:6", hw="h200")),
    # The CLI names the option (a bad option value, exit 2) and points to the help; the message is the same.
    ("a bad explain config", (["explain", "4096x4096x4096", "--hw", "h200", "--config", "128x128:4"], 2,
                              lambda m: m.removeprefix("--config: ").removesuffix(" (see gemm-advisor explain --help)")),
     lambda: g.explain("4096x4096x4096", "128x128:4", hw="h200")),
    ("a target that cannot run the problem", ["rank", "64x64x64x2", "--hw", "h200", "--target", "vllm-fp8-block"],
     lambda: g.rank("64x64x64x2", hw="h200", target="vllm-fp8-block")),
]:
    cli_args, code, normalise = cli_args if isinstance(cli_args, tuple) else (cli_args, 1, lambda m: m)
    want = normalise(cli_error(*cli_args, code=code))
    e = py_error(call)
    check(f"{what}: gemm_advisor.Error, a ValueError", isinstance(e, g.Error) and isinstance(e, ValueError), repr(e))
    check(f"{what}: the CLI's message", e is not None and str(e) == want, f"{e} != {want}")
    check(f"{what}: one line", e is not None and "\n" not in str(e), repr(e))
# Blanks around a target's name are dropped, as hw='s are (2026-12-07): the same ranking.
check("target=' triton-tutorial ' ranks as target='triton-tutorial'",
      g.rank("64x64x64", hw="h200", target=" triton-tutorial ", top=3)
      == g.rank("64x64x64", hw="h200", target="triton-tutorial", top=3))
for what, call in [
    ("an unknown dtype", lambda: g.rank("64x64x64", hw="h200", dtype="fp12")),
    ("an unknown layout", lambda: g.rank("64x64x64", hw="h200", layout="NX")),
    ("an unknown target", lambda: g.rank("64x64x64", hw="h200", target="cutlass")),
    ("a negative top", lambda: g.rank("64x64x64", hw="h200", top=-1)),
    ("a shape of two ints", lambda: g.rank((64, 64), hw="h200")),
    ("an empty candidate list", lambda: g.rank("64x64x64", hw="h200", candidates=[])),
    ("a candidate without block_k", lambda: g.rank("64x64x64", hw="h200", candidates=[
        {"block_m": 64, "block_n": 64, "num_warps": 4, "num_stages": 2}])),
    ("a candidate with a negative value", lambda: g.rank("64x64x64", hw="h200", candidates=[
        {"block_m": -64, "block_n": 64, "block_k": 64, "num_warps": 4, "num_stages": 2}])),
    ("a candidate too large", lambda: g.rank("64x64x64", hw="h200", candidates=["64x64x64:4:65"])),
]:
    e = py_error(call)
    check(f"{what}: gemm_advisor.Error with a one-line message", isinstance(e, g.Error) and str(e)
          and "\n" not in str(e), repr(e))
e = py_error(g.rank, "64x64x64", hw="h200", candidates=["64x64x64:4:2", "64x64x64:4:99"])
check("a bad candidate's error names its index", e is not None and str(e).startswith("candidates[1]: "), repr(e))
e = py_error(g.rank, "64x64x64", hw="h200", dtype="fp12")
check("an unknown dtype's message names it", e is not None and "fp12" in str(e), repr(e))
for what, call in [("a shape of another type", lambda: g.rank(4096, hw="h200")),
                   ("hw of another type", lambda: g.rank("64x64x64", hw=200)),
                   ("top of another type", lambda: g.rank("64x64x64", hw="h200", top="3")),
                   # (a fresh user's find: candidates=5 raised "'int' object is not iterable")
                   ("candidates of another type", lambda: g.rank("64x64x64", hw="h200", candidates=5)),
                   # A float in a candidate dict: TypeError, as the README says of wrong types (it was an
                   # Error: a fresh user's find, 2026-12-05).
                   ("candidates[0] with a float", lambda: g.rank("64x64x64", hw="h200", candidates=[
                       {"block_m": 64.0, "block_n": 64, "block_k": 64, "num_warps": 4, "num_stages": 2}]))]:
    try:
        call()
        check(f"{what}: TypeError", False, "no exception")
    except TypeError as te:
        check(f"{what}: TypeError", "candidates" in str(te) if what.startswith("candidates") else True, str(te))
    except Exception as e:  # noqa: BLE001
        check(f"{what}: TypeError", False, repr(e))

# --- candidates= -------------------------------------------------------------------------------------
space = g.rank("2048x2048x2048", hw="h200", top=0)
chosen = [space[i] for i in (40, 3, 17, 25)]  # out of order, on purpose
as_fields = [{k: c[k] for k in ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k")}
             for c in chosen]
got = g.rank("2048x2048x2048", hw="h200", candidates=as_fields, top=0)
check("candidates=: exactly those configs, ranked as in the whole space", [key(c) for c in got] ==
      [key(space[i]) for i in (3, 17, 25, 40)], [key(c) for c in got])
as_names = [{"BLOCK_M": c["block_m"], "BLOCK_N": c["block_n"], "BLOCK_K": c["block_k"], "GROUP_M": c["group_m"],
             "SPLIT_K": c["split_k"], "num_warps": c["num_warps"], "num_stages": c["num_stages"]} for c in chosen]
check("candidates=: the target's own parameter names work too",
      [key(c) for c in g.rank("2048x2048x2048", hw="h200", candidates=as_names, top=0)] == [key(c) for c in got])
check("candidates=: rank()'s own dicts can be passed back", [key(c) for c in g.rank(
    "2048x2048x2048", hw="h200", candidates=chosen, top=2)] == [key(c) for c in got[:2]])
csv_path = os.path.join(TMP, "chosen.csv")
with open(csv_path, "w") as f:
    f.write("block_m,block_n,block_k,group_m,num_warps,num_stages,split_k\n")
    f.writelines(",".join(str(c[k]) for k in ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages",
                                                "split_k")) + "\n" for c in chosen)
    f.write("256,256,256,8,4,6,1\n")
want = cli_json("rank", "2048x2048x2048", "--hw", "h200", "--candidates", csv_path, "--top", "0")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = g.ranking("2048x2048x2048", hw="h200", candidates=as_fields + ["256x256x256:4:6"], top=0)
check("candidates= with an infeasible one: `rank --candidates` whole, its reason under infeasible", got == want,
      f"{json.dumps(got)[:300]} != {json.dumps(want)[:300]}")
check("an infeasible candidate is an AdvisorWarning with the reason",
      len(caught) == 1 and caught[0].category is g.AdvisorWarning and "256x256x256:4:6 is infeasible on h200"
      in str(caught[0].message) and caught[0].filename == __file__, [str(w.message) for w in caught])

# Thousands of infeasible candidates: 5 named, then a count (one warning each before: a fresh Python
# user's find, 2026-12-04, twenty-eighth session); rank --candidates says them alike.
bad = [f"{bm}x512x512:8:{st}" for bm in (128, 256, 512) for st in range(8, 12)]  # 512x512 tiles: no shared memory fits
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = g.ranking("4096x4096x4096", hw="h200", top=0, candidates=bad + ["128x128x64:8:3"])
said = [str(w.message) for w in caught if w.category is g.AdvisorWarning]
check("12 infeasible candidates: 5 warnings naming one each and one counting the other 7",
      len(said) == 6 and sum("is infeasible on h200" in m for m in said) == 5 and
      "7 more configs infeasible on h200 after the 5 above" in said[-1] and len(got["infeasible"]) == 12, said)
cand_txt = os.path.join(TMP, "bad-cands.txt")
with open(cand_txt, "w") as f:
    f.write("\n".join(bad + ["128x128x64:8:3"]) + "\n")
p = subprocess.run([BIN, "rank", "4096x4096x4096", "--hw", "h200", "--candidates", cand_txt, "--top", "1"],
                   capture_output=True, text=True, timeout=60)
check("... and rank --candidates: 6 warning lines", p.returncode == 0 and
      p.stderr.count("gemm-advisor: warning:") == 6 and "7 more configs infeasible on h200" in p.stderr, p.stderr)

# An fp8 encoding the GPU does not compute is an AdvisorWarning, as the CLI's warning (it was silent
# in Python: a fresh Python user's find, 2026-12-04): ROCm's HIP "FP8 Numbers" table, gfx942 computes
# the FNUZ encodings only, NVIDIA's GPUs the OCP ones.
for hw_name, dtype, warned in (("h200", "float8_e4m3fnuz", True), ("mi300x", "float8_e4m3fn", True),
                               ("mi300x", "float8_e4m3fnuz", False), ("h200", "fp8", False)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g.rank((4096, 4096, 4096), hw=hw_name, dtype=dtype, top=1)
        g.explain((4096, 4096, 4096), hw=hw_name, dtype=dtype)
    said = [str(w.message) for w in caught if w.category is g.AdvisorWarning and "encoding" in str(w.message)]
    check(f"rank and explain, dtype {dtype} on {hw_name}: {'a warning each' if warned else 'no warning'}",
          len(said) == (2 if warned else 0) and all(m.startswith("dtype " + dtype) for m in said), said)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.moe_rank(16, 8, 2, 4096, 14336, hw="h200", dtype="torch.float8_e4m3fnuz", top=1)
check("moe_rank, torch.float8_e4m3fnuz on h200: the warning", any("FNUZ" in str(w.message) for w in caught),
      [str(w.message) for w in caught])

e = py_error(g.explain, (4096, 4096, 4096), "h200")
check("explain(shape, 'h200'): the Error says the second argument is the config", e is not None and
      "explain's second argument is the config: give the GPU as hw=" in str(e), repr(e))
# ... and with a loaded Profile there (a bare TypeError: a fresh Python user's find, 2026-12-05).
try:
    g.explain((4096, 4096, 4096), g.load_profile("h200"))
    e = None
except TypeError as err:
    e = err
check("explain(shape, Profile): the TypeError says the GPU goes in hw=", e is not None and
      "the GPU goes in hw=" in str(e) and "not Profile" in str(e), repr(e))

# A numpy dtype object (arr.dtype) is a dtype, as np.float16 is (a TypeError that listed numpy dtypes
# as accepted before: a fresh Python user's find; numpy 1.24's is a class named "dtype[float16]").
try:
    import numpy as _np
except ImportError:
    _np = None
if _np is not None:
    check("dtype=np.dtype('float16') is fp16", g.rank((512, 512, 512), hw="h200", dtype=_np.dtype("float16"), top=1) ==
          g.rank((512, 512, 512), hw="h200", dtype="fp16", top=1))

# A misspelt key of a candidate dict is an AdvisorWarning (it was ignored without a word); a rank()
# result passed back keeps its other keys without one.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = g.rank("64x64x64", hw="h200", candidates=[{"block_m": 64, "block_n": 64, "block_k": 64, "num_warps": 4,
                                                     "num_stages": 2, "splitk": 4}])
    g.rank("64x64x64", hw="h200", candidates=g.rank("64x64x64", hw="h200", top=2))
check("candidates= with a misspelt key: one AdvisorWarning naming it, the config ranked with split_k 1",
      len(caught) == 1 and caught[0].category is g.AdvisorWarning and "unknown key 'splitk' ignored" in
      str(caught[0].message) and got[0]["split_k"] == 1, [str(w.message) for w in caught])

# A profile with model parameters for one target only (a calibrated overlay) used with another is an
# AdvisorWarning, as the CLI warns (Python said nothing: a fresh user's find); none with its own target.
overlay = os.path.join(TMP, "overlay.yaml")
with open("profiles/h200.yaml") as f, open(overlay, "w") as o:
    o.write(f.read() + "targets:\n  triton-tutorial:\n    model_parameters: {k_step_overhead_cycles: 700}\n")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.rank("64x64x64", hw=overlay, top=1)
    g.explain("64x64x64", hw=overlay)
    g.rank("64x64x64", hw=overlay, top=1, target="triton-tutorial")
check("an overlay for another target: an AdvisorWarning from rank and from explain, none for its own target",
      len(caught) == 2 and all(w.category is g.AdvisorWarning and "model parameters for triton-tutorial only: "
                               "target triton runs with its own" in str(w.message) for w in caught),
      [str(w.message) for w in caught])

# An overlay calibrated on the whole GPU (its `calibration:` section) ranked for a partition: an
# AdvisorWarning, as the CLI says (taken unsaid: a fresh user's find, 2026-12-04); none on its own CUs.
calibrated = os.path.join(TMP, "calibrated.yaml")
with open("profiles/h200.yaml") as f, open(calibrated, "w") as o:
    o.write(f.read() + "calibration:\n  target: triton\n")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.rank("64x64x64", hw=calibrated, top=1, cu_count=66)
    g.rank("64x64x64", hw=calibrated, top=1)
check("an overlay calibrated on 132 CUs ranked for 66: one AdvisorWarning",
      len(caught) == 1 and caught[0].category is g.AdvisorWarning and
      "its model parameters were fitted on 132 CUs, ranking for 66" in str(caught[0].message),
      [str(w.message) for w in caught])

# ... and a shape outside the sizes it was fitted on (calibration.fitted_shapes): an AdvisorWarning from
# rank, explain and moe_rank, as the CLI says; none inside. Ranges typed in; M 64 is inside, 4096 not.
fitted = os.path.join(TMP, "fitted.yaml")
with open("profiles/h200.yaml") as f, open(fitted, "w") as o:
    o.write(f.read() + "targets:\n  triton:\n    model_parameters: {k_step_overhead_cycles: 566.4}\n"
            "  vllm-fused-moe:\n    model_parameters: {k_step_overhead_cycles: 409.2}\n"
            "calibration:\n  fitted_shapes:\n    triton: {m: [1, 64], n: [64, 64], k: [64, 64]}\n"
            "    vllm-fused-moe: {m: [1, 64], n: [1, 100000], k: [1, 100000]}\n")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.rank("64x64x64", hw=fitted, top=1)
    g.rank("4096x64x64", hw=fitted, top=1)
    g.explain("4096x64x64", hw=fitted)
    g.moe_rank(64, 8, 2, 1024, 512, hw=fitted, top=1)
    g.moe_rank(128, 8, 2, 1024, 512, hw=fitted, top=1)
check("a shape outside an overlay's fitted sizes: an AdvisorWarning from rank, explain and moe_rank, none inside",
      len(caught) == 3 and all(w.category is g.AdvisorWarning for w in caught) and
      str(caught[0].message) == f"4096x64x64: outside the shapes {fitted}'s triton parameters were calibrated on: "
      "M 4096 (fitted 1-64); the fitted values are extrapolated here (calibrate on shapes like it for a fit to them)"
      and "vllm-fused-moe parameters were calibrated on: tokens 128 (fitted 1-64)" in str(caught[2].message),
      [str(w.message) for w in caught])

# A config given twice is ranked once, with an AdvisorWarning, as `--candidates` does (it took ranks 1 and 2).
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = g.rank("64x64x64", hw="h200", candidates=["64x64x64:4:2", "64x64x64:4:2"], top=0)
check("a duplicate candidate: ranked once, an AdvisorWarning naming both places",
      len(got) == 1 and len(caught) == 1 and "candidates[1]: 64x64x64:4:2 is listed already (candidates[0])"
      in str(caught[0].message), [str(w.message) for w in caught])

# A kernel without SPLIT_K gets the unsplit configs (it got split-K-ranked ones with the key removed);
# an empty name is refused.
import gemm_advisor.triton as gat  # noqa: E402
split = g.rank((144, 16, 2800000), hw="h200", top=3)
unsplit = gat.configs(144, 16, 2800000, hw="h200", top=3, names={"split_k": None})
check("names={'split_k': None}: the best unsplit configs (the plain ranking's top are split)",
      any(e["split_k"] > 1 for e in split) and len(unsplit) == 3 and all("SPLIT_K" not in
      (c if isinstance(c, dict) else c.kwargs) for c in unsplit), [split, unsplit])
# cu_count= and max_split_k= as rank takes them (an autotuner on a MIG slice or CPX partition could not
# say so: a fresh user's find, 2026-12-04): the same configs, in the same order, as rank's.
def _kw(c):
    return c if isinstance(c, dict) else {**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages}


part = [_kw(c) for c in gat.configs(144, 16, 2800000, hw="h200", top=3, cu_count=16, max_split_k=64)]
ranked_part = g.rank((144, 16, 2800000), hw="h200", top=3, cu_count=16, max_split_k=64, distinct=True)
check("triton.configs(cu_count=, max_split_k=) gives rank's configs for the partition",
      [(c["BLOCK_M"], c["BLOCK_N"], c["BLOCK_K"], c["SPLIT_K"], c["num_warps"]) for c in part] ==
      [(e["block_m"], e["block_n"], e["block_k"], e["split_k"], e["num_warps"]) for e in ranked_part] and
      ranked_part != g.rank((144, 16, 2800000), hw="h200", top=3, distinct=True), [part, ranked_part])
prune = gat.shortlist(top=2, hw="h200", cu_count=16)["early_config_prune"]
cands = [{"BLOCK_M": 16, "BLOCK_N": 16, "BLOCK_K": bk, "GROUP_M": 8, "SPLIT_K": 1, "num_warps": 4, "num_stages": 3}
         for bk in (64, 128, 256)]
pruned = [c["BLOCK_K"] for c in prune(cands, {"M": 144, "N": 16, "K": 2800000})]
expected = [e["block_k"] for e in g.rank((144, 16, 2800000), hw="h200", top=2, cu_count=16,
                                         candidates=[f"16x16x{bk}:4:3" for bk in (64, 128, 256)])]
check("triton.shortlist(cu_count=) ranks for the partition, as rank(cu_count=) does", pruned == expected and
      len(pruned) == 2, [pruned, expected])
# dtype=None: each launch ranked in its first tensor argument's dtype (an fp32 kernel was ranked as bf16,
# its shortlist led by a tile that cannot fit: a fresh expert's find, 2026-12-07). fp32 128x256x64 at 4
# stages asks 4 x (128*64 + 64*128) x 4 = 262,144 bytes, over the H200's 232,448; in bf16, 131,072.
class _Tensor:
    def __init__(self, dtype):
        self.dtype = dtype


prune = gat.shortlist(top=0, hw="h200", distinct=False)["early_config_prune"]
cands = [{"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8, "SPLIT_K": 1, "num_warps": 8, "num_stages": st}
         for bm, bn, bk, st in ((128, 256, 64, 4), (128, 128, 32, 3))]
shape_args = {"M": 4096, "N": 4096, "K": 4096}
fp32 = [(c["BLOCK_N"], c["BLOCK_K"]) for c in prune(cands, {"a_ptr": _Tensor("torch.float32"), **shape_args})]
bf16 = [(c["BLOCK_N"], c["BLOCK_K"]) for c in prune(cands, {"a_ptr": _Tensor("torch.bfloat16"), **shape_args})]
check("triton.shortlist(dtype=None): an fp32 launch drops the tile fp32 cannot fit, a bf16 one keeps it",
      fp32 == [(128, 32)] and sorted(bf16) == [(128, 32), (256, 64)], [fp32, bf16])
forced = gat.shortlist(top=0, hw="h200", distinct=False, dtype="bf16")["early_config_prune"]
check("... dtype= given wins over the tensor's",
      len(forced(cands, {"a_ptr": _Tensor("torch.float32"), **shape_args})) == 2)
# shortlist's key_names: distinct, non-empty, none a config parameter's name (each failed only at the first
# launch, or made a config carry a shape argument: a fresh user's finds, 2026-12-04).
for kn, nm, frag in ((("M", "M", "K"), None, "distinct, non-empty"), (("", "N", "K"), None, "distinct, non-empty"),
                     (("M", "N", "K"), {"block_m": "M"}, "'M' names both a shape argument")):
    e = py_error(gat.shortlist, hw="h200", key_names=kn, names=nm)
    check(f"shortlist(key_names={kn}, names={nm}): an Error at setup", e is not None and frag in str(e), repr(e))
# ... and a bad $GEMM_ADVISOR_HW is named as coming from it, as rank names it.
os.environ["GEMM_ADVISOR_HW"] = "bogus-gpu"
try:
    e = py_error(gat.shortlist)
finally:
    del os.environ["GEMM_ADVISOR_HW"]
check("shortlist() with a bad GEMM_ADVISOR_HW names the variable", e is not None and
      str(e).startswith("GEMM_ADVISOR_HW: unknown hardware profile 'bogus-gpu'"), repr(e))
# A config read back from a vLLM AMD file (its ROCm keys) is taken without a warning; block_shape sizes
# take integer-like objects as every other integer argument does.
with warnings.catch_warnings():
    warnings.simplefilter("error", g.AdvisorWarning)
    amd_cfg = {"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1, "num_warps": 4,
               "num_stages": 2, "waves_per_eu": 0, "matrix_instr_nonkdim": 16, "kpack": 2}
    check("a vLLM AMD config's ROCm keys: no warning", g.config_text(amd_cfg, "vllm-fused-moe") == "16x64x128:4:2:1:g1")
# A dict value beyond what config text takes: an Error naming the field and the bound (text of 2**80 was
# written, then refused by rank: a fresh Python user's find, 2026-12-07). Bounds: tile_config.hpp.
for field, value, bound in (("block_m", 2**80, 65536), ("num_warps", 1025, 1024), ("num_stages", 65, 64),
                            ("group_m", 65537, 65536)):
    cfg = {"block_m": 64, "block_n": 64, "block_k": 64, "num_warps": 4, "num_stages": 2, field: value}
    e = py_error(g.config_text, cfg)
    check(f"config_text: {field} {value} beyond {bound} is an Error naming both", isinstance(e, g.Error) and
          str(e) == f"config: {field} = {value} is larger than {bound}", repr(e))
check("config_text: each field at its bound is taken", g.config_text(
    {"block_m": 65536, "block_n": 64, "block_k": 64, "num_warps": 1024, "num_stages": 64, "group_m": 65536})
    == "65536x64x64:1024:64:1:g65536")
# block_shape's forms named in its errors (a float in a list was "block_shape must be an int"); a numpy-like
# array of two ints is taken as its list.
class _ArrayLike:
    def tolist(self):
        return [128, 128]
try:
    g.moe_rank(64, 128, 8, 2048, 768, hw="h200", dtype="fp8_w8a8", block_shape=[128.0, 128])
    e = None
except TypeError as caught_error:
    e = caught_error
check("block_shape with a float: a TypeError naming the element and the forms", isinstance(e, TypeError) and
      str(e).startswith("block_shape[0] must be an int (block_shape: text ('128x128'), a pair of ints"), repr(e))
check("block_shape as an array-like of two ints: as the list",
      g.moe_rank(64, 128, 8, 2048, 768, hw="h200", dtype="fp8_w8a8", block_shape=_ArrayLike(), top=1) ==
      g.moe_rank(64, 128, 8, 2048, 768, hw="h200", dtype="fp8_w8a8", block_shape=[128, 128], top=1))
# Two configs in one candidate text: said so; a GPU name with a line break after it: the name.
e = py_error(g.rank, "64x64x64", hw="h200", candidates=["64x64x64:4:2\n128x128x64:8:3"])
check("a candidate text holding two configs: an Error saying so", e is not None and
      "a blank or line break inside it: one config an entry" in str(e), repr(e))
check("hw='h200\\n' (read from a file): the h200", g.rank("64x64x64", hw="h200\n", top=1) ==
      g.rank("64x64x64", hw="h200", top=1))


class _Index:
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


check("moe_rank(block_shape=(index-like, index-like)) as (128, 128)",
      g.moe_rank(64, 256, 8, 7168, 2048, tp=8, dtype="fp8_w8a8", block_shape=(_Index(128), _Index(128)), hw="h200",
                 top=2) == g.moe_rank(64, 256, 8, 7168, 2048, tp=8, dtype="fp8_w8a8", block_shape=[128, 128],
                                      hw="h200", top=2))
# A given tile past the problem's next power of two no longer wins a near-tie by its padded work's
# intensity (128x128x64 ranked first for 16x16x16, over a 16x16x16 tile predicted faster).
r = g.ranking("16x16x16", hw="h200", top=0, candidates=["128x128x64:8:3", "64x64x32:4:2", "16x16x16:2:1"])
check("ranking(16x16x16, candidates with oversized tiles): the fitting tile first",
      (r["configs"][0]["block_m"], r["configs"][0]["block_n"], r["configs"][0]["block_k"]) == (16, 16, 16),
      [c["block_m"] for c in r["configs"]])
# ... and where one is predicted faster than a config listed above it, the AdvisorWarning says so as `rank
# --candidates` does (cli_test.py), naming the fastest by its place in the list (the CLI gave it, Python
# did not: a review's find, 2026-12-07). On the H100, 64x64x128 and 64x128x128 for 32 rows are predicted
# 26.0 and 28.1 us, 32x128x128 33.9 us.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = g.rank("32x4096x4096", hw="h100", top=0,
                 candidates=["32x64x128:4:4", "64x128x128:4:4", "64x64x128:4:4", "32x128x128:4:4"])
said = [str(w.message) for w in caught if w.category is g.AdvisorWarning]
check("rank(candidates with oversized tiles predicted faster): one AdvisorWarning naming the fastest's place",
      [(c["block_m"], c["block_n"]) for c in got] == [(32, 64), (32, 128), (64, 64), (64, 128)] and len(said) == 1
      and said[0].startswith("candidates[2]: 2 given configs larger than 32x4096x4096") and
      "the fastest, 64x64x128:4:4" in said[0], said)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.rank("32x4096x4096", hw="h100", top=1, candidates=["64x64x128:4:4", "32x64x128:4:4"])
check("... none where the result shows no slower config above a faster one",
      not [w for w in caught if w.category is g.AdvisorWarning], [str(w.message) for w in caught])
e = py_error(gat.configs, 144, 16, 2800000, hw="h200", names={"block_m": None})
check("names={'block_m': None}: an Error (every config would lose its tile)", e is not None and
      "block_m is a block size" in str(e), repr(e))
try:
    gat.configs(4096, 4096, 4096, hw="h200", top=1, names={"block_m": ""})
    check("names with an empty name: Error", False)
except g.Error as e:
    check("names with an empty name: Error", "is not a name" in str(e), str(e))
try:
    g.rank("64x64x64", hw="h200", distinct="no")
    check("distinct='no': TypeError (it was truthy)", False)
except TypeError as e:
    check("distinct='no': TypeError (it was truthy)", "distinct must be True or False" in str(e), str(e))
# Text the C++ side cannot take (a lone surrogate) is gemm_advisor.Error, not pybind11's TypeError.
for what, call in (("shape", lambda: g.rank("4096x4096x4096\udcff", hw="h200")),
                   ("hw", lambda: g.rank("64x64x64", hw="h2\udcff00"))):
    try:
        call()
        check(f"a lone surrogate in {what}: Error", False)
    except g.Error as e:
        check(f"a lone surrogate in {what}: Error naming it", str(e).startswith(what + ":") and "not valid Unicode" in str(e),
              str(e))
explained = g.explain("4096x4096x4096", "128x128x64:8:3", hw="h200")
check("explain of a given config: rank null (estimated, not ranked)", explained["configs"][0]["rank"] is None,
      str(explained["configs"][0].get("rank")))

# --- explain, profiles, targets, load_profile -------------------------------------------------------
for args, kwargs in [(("1x8192x8192",), {}), (("4096x4096x4096", "128x256x64:8:3"), {}),
                     (("4096x4096x4096", {"block_m": 128, "block_n": 256, "block_k": 64, "num_warps": 8,
                                          "num_stages": 3}), {}),
                     (("144x16x28000000",), {"hw": "mi355x"})]:
    hw = kwargs.get("hw", "h200")
    cli_args = ["explain", args[0], "--hw", hw]
    if len(args) > 1:
        cli_args += ["--config", args[1] if isinstance(args[1], str) else "128x256x64:8:3"]
    want = cli_json(*cli_args)
    got = g.explain(*args, hw=hw)
    check(f"explain{args} is `explain --format json`", got == want, f"{json.dumps(got)[:300]}")
check("explain's given config is 'given'", g.explain("4096x4096x4096", "128x256x64:8:3", hw="h200")["chosen"] ==
      "given")
check("profiles() is `profiles --format json`", g.profiles() == cli_json("profiles"))
check("targets() is `targets --format json`", g.targets() == cli_json("targets"))
check("version() is --version's line", g.version() == cli_harness.run(BIN, "--version")[1].strip(), g.version())

h200 = g.load_profile("h200")
check("load_profile: a Profile with the profile's figures", isinstance(h200, g.Profile) and h200.name == "h200"
      and h200.cu_count == 132 and h200.dram_bandwidth_bytes_per_s > 4e12 and h200.peak_flops_per_s("bf16") > 9e14,
      repr(h200))
check("load_profile: usable as hw=", g.ranking("4096x4096x4096", hw=h200) == g.ranking("4096x4096x4096", hw="h200"))
mine = os.path.join(TMP, "my-h200.yaml")
with open(os.path.join(SRC, "profiles", "h200.yaml")) as src, open(mine, "w") as dst:
    text = src.read()
    dst.write(text.replace("name: h200", "name: my-h200", 1) + "\nfavourite_colour: green\n")
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    p = g.load_profile(mine)
check("load_profile(path): the file's warnings as AdvisorWarning", p.name == "my-h200" and any(
    "favourite_colour" in str(w.message) and w.category is g.AdvisorWarning for w in caught),
    [str(w.message) for w in caught])
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    ranked = g.rank("4096x4096x4096", hw=p, top=5)
check("a loaded Profile warns once, at load", not caught, [str(w.message) for w in caught])
check("a copy of h200 ranks as h200", [key(c) for c in ranked] ==
      [key(c) for c in g.rank("4096x4096x4096", hw="h200", top=5)])
e = py_error(g.load_profile, "h900")
check("load_profile of an unknown name: Error", e is not None and "h900" in str(e), repr(e))


# --- hw=None: GEMM_ADVISOR_HW, else the local GPU (stand-in nvidia-smi), else an error ---------------
def py_run(code, env_hw=None, path=None, extra_path=()):
    env = {k: v for k, v in os.environ.items() if k not in ("GEMM_ADVISOR_HW", "PYTHONPATH")}
    if env_hw is not None:
        env["GEMM_ADVISOR_HW"] = env_hw
    if path is not None:
        env["PATH"] = path
    env["PYTHONPATH"] = os.pathsep.join([PKG, *extra_path])
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    return p.returncode, p.stdout.strip(), p.stderr


# A copy of the package without its extension (or one built for another Python): an ImportError that
# says so, not Python's "partially initialized module (most likely due to a circular import)" (a fresh
# user's find, 2026-12-05).
bare = os.path.join(TMP, "bare-package")
shutil.copytree(os.path.join(PKG, "gemm_advisor"), os.path.join(bare, "gemm_advisor"),
                ignore=shutil.ignore_patterns("_gemm_advisor*"))
env_bare = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
env_bare["PYTHONPATH"] = bare
p_bare = subprocess.run([sys.executable, "-c", "import gemm_advisor"], capture_output=True, text=True, env=env_bare,
                        timeout=60)
check("the package without its extension: an ImportError naming what is missing",
      p_bare.returncode != 0 and "ImportError: gemm_advisor: its compiled extension does not load" in p_bare.stderr and
      "no _gemm_advisor extension next to it" in p_bare.stderr, p_bare.stderr[-400:])

rank_hw = "import gemm_advisor as g; print(g.ranking('64x64x64', top=1)['hardware']['name'])"
check("hw=None: GEMM_ADVISOR_HW", py_run(rank_hw, env_hw="mi300x")[:2] == (0, "mi300x"))
smi_dir = os.path.join(TMP, "smi")
os.makedirs(smi_dir)
smi = os.path.join(smi_dir, "nvidia-smi")
with open(smi, "w") as f:
    f.write("#!/bin/sh\necho 'NVIDIA H100 80GB HBM3'\n")
os.chmod(smi, os.stat(smi).st_mode | stat.S_IEXEC)
check("hw=None: the local GPU as nvidia-smi names it",
      py_run(rank_hw, env_hw="", path=smi_dir + os.pathsep + "/usr/bin:/bin")[:2] == (0, "h100"))
no_gpu = os.path.join(TMP, "no-gpu")
os.makedirs(no_gpu)
rc, out, err = py_run("import gemm_advisor as g\ntry:\n    g.rank('64x64x64')\nexcept g.Error as e:\n    print(e)",
                      env_hw="", path=no_gpu)
p = subprocess.run([BIN, "rank", "64x64x64"], capture_output=True, text=True, timeout=60,
                   env={**{k: v for k, v in os.environ.items() if k != "GEMM_ADVISOR_HW"}, "GEMM_ADVISOR_HW": "",
                        "PATH": no_gpu})
cli_line = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
check("hw=None without a GPU: an Error saying hw= and listing the profiles", rc == 0 and out.startswith(
    "no hw= given, GEMM_ADVISOR_HW is empty and no GPU was found") and "h200" in out and "give hw=NAME" in out,
    out + err)
check("... the CLI's message, with hw= for --hw", p.returncode == 1 and cli_line.replace("--hw", "hw=").replace(
    "hw= NAME", "hw=NAME") == "gemm-advisor: error: " + out, f"{cli_line!r} vs {out!r}")

# --- gemm_advisor.triton, with no triton importable: plain dicts ------------------------------------
code = ("import json, gemm_advisor.triton as t\n"
        "print(json.dumps(t.configs(4096, 4096, 4096, hw='h200', top=3)))")
rc, out, err = py_run(code)
no_triton = json.loads(out) if rc == 0 else None
want = g.rank("4096x4096x4096", hw="h200", top=3, distinct=True)
check("triton.configs without triton: dicts with the target's names, in rank --distinct order",
      no_triton == [{"BLOCK_M": c["block_m"], "BLOCK_N": c["block_n"], "BLOCK_K": c["block_k"],
                     "GROUP_M": c["group_m"], "SPLIT_K": c["split_k"], "num_warps": c["num_warps"],
                     "num_stages": c["num_stages"]} for c in want], out + err)

# A folder named triton on the path (a Triton checkout in the working directory) imports as an empty
# namespace package: configs() gives plain dicts with an AdvisorWarning (an AttributeError traceback
# from inside gemm_advisor before: a fresh Python user's find, 2026-12-04, twenty-eighth session).
shadow = os.path.join(TMP, "shadow")
os.makedirs(os.path.join(shadow, "triton"))
rc, out, err = py_run("import json, warnings, gemm_advisor as g, gemm_advisor.triton as t\n"
                      "with warnings.catch_warnings(record=True) as w:\n"
                      "    warnings.simplefilter('always')\n"
                      "    c = t.configs(4096, 4096, 4096, hw='h200', top=3)\n"
                      "print(json.dumps([c, [str(x.message) for x in w if x.category is g.AdvisorWarning]]))",
                      extra_path=(shadow,))
shadowed = json.loads(out) if rc == 0 else [None, []]
check("a folder named triton on the path: plain dicts and an AdvisorWarning saying so", shadowed[0] == no_triton and
      any("has no Config" in m for m in shadowed[1]), out + err)

# --- gemm_advisor.triton with the stand-in triton -----------------------------------------------------
sys.path.insert(0, FAKE_TRITON)
import triton  # noqa: E402

import gemm_advisor.triton as gat  # noqa: E402

check("the stand-in triton is the one imported", getattr(triton, "FAKE", False))
cfgs = gat.configs(4096, 4096, 4096, hw="h200", top=4)
want = g.rank("4096x4096x4096", hw="h200", top=4, distinct=True)
check("configs(): triton.Config objects, best first", len(cfgs) == 4 and all(isinstance(c, triton.Config)
      for c in cfgs) and [(c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.kwargs["BLOCK_K"], c.kwargs["GROUP_M"],
                           c.num_warps, c.num_stages, c.kwargs["SPLIT_K"]) for c in cfgs] == [key(c) for c in want],
      cfgs)
check("configs(): num_warps and num_stages are Config's arguments, not kernel kwargs",
      all("num_warps" not in c.kwargs and "num_stages" not in c.kwargs for c in cfgs))
cfgs = gat.configs(16, 6144, 4096, hw="b200", top=2, names={"block_m": "BM", "block_n": "BN", "split_k": None})
check("configs(names=): renamed, and None leaves a parameter out", all(set(c.kwargs) == {"BM", "BN", "BLOCK_K",
      "GROUP_M"} for c in cfgs), [c.kwargs for c in cfgs])
cfgs = gat.configs(16, 6144, 4096, hw="h200", top=1, target="triton-tutorial")
check("configs(target=triton-tutorial): that kernel's names, no SPLIT_K", set(cfgs[0].kwargs) == {
    "BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M"}, cfgs[0].kwargs)
check("configs(distinct=False) is rank's plain order", [
    (c.kwargs["BLOCK_M"], c.num_stages) for c in gat.configs(4096, 4096, 4096, hw="h200", top=5, distinct=False)] ==
    [(c["block_m"], c["num_stages"]) for c in g.rank("4096x4096x4096", hw="h200", top=5)])
for what, call in [("an unknown field in names", lambda: gat.configs(64, 64, 64, hw="h200", names={"blockm": "BM"})),
                   ("renaming num_warps", lambda: gat.configs(64, 64, 64, hw="h200", names={"num_warps": "W"})),
                   ("two fields one name", lambda: gat.configs(64, 64, 64, hw="h200", names={"block_m": "BLOCK_N"})),
                   # Onto triton.Config's own keyword: read as that option (accepted before, 2026-12-07).
                   ("renaming onto maxnreg", lambda: gat.configs(64, 64, 64, hw="h200", names={"block_m": "maxnreg"})),
                   ("renaming onto pre_hook", lambda: gat.configs(64, 64, 64, hw="h200", names={"split_k": "pre_hook"})),
                   ("a bad hw", lambda: gat.configs(64, 64, 64, hw="h900")),
                   ("shortlist with a bad hw", lambda: gat.shortlist(hw="h900")),
                   ("shortlist with top=-1", lambda: gat.shortlist(top=-1, hw="h200")),
                   # Checked at decoration, not at the first launch (a fresh user's find, 2026-12-05).
                   ("shortlist with top=2_000_000", lambda: gat.shortlist(top=2_000_000, hw="h200")),
                   ("shortlist with two key names", lambda: gat.shortlist(hw="h200", key_names=("M", "N")))]:
    e = py_error(call)
    check(f"triton helpers, {what}: gemm_advisor.Error", isinstance(e, g.Error), repr(e))
# A wrong type is a TypeError in shortlist as in rank (shortlist raised Error: a fresh user's find).
try:
    gat.shortlist(top="8", hw="h200")
    e = None
except Exception as caught:  # noqa: BLE001 - the type is what is checked
    e = caught
check("shortlist(top='8'): TypeError, as rank(top='3')", isinstance(e, TypeError) and not isinstance(e, g.Error), repr(e))
try:
    gat.shortlist(hw="h200", distinct="no")
    e = None
except Exception as caught:  # noqa: BLE001 - the type is what is checked
    e = caught
check("shortlist(distinct='no'): TypeError at decoration (it escaped from Triton's autotuner at the first launch)",
      isinstance(e, TypeError) and "distinct" in str(e), repr(e))

grid = [triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8, "SPLIT_K": 1}, num_warps=w,
                      num_stages=s)
        for bm in (32, 64, 128, 256) for bn in (32, 64, 128, 256) for bk in (32, 64) for w in (4, 8) for s in (3, 4)]
grid.append(triton.Config({"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 256, "GROUP_M": 8, "SPLIT_K": 1}, num_warps=4,
                          num_stages=6))  # cannot run on the H200: never benchmarked
prune = gat.shortlist(top=8, hw="h200")
check("shortlist(): a prune_configs_by dict", set(prune) == {"early_config_prune"} and callable(
    prune["early_config_prune"]))


@triton.autotune(configs=grid, key=["M", "N", "K"], prune_configs_by=prune)
def matmul(a, b, c, M, N, K):
    return (M, N, K)


for shape in [(4096, 4096, 4096), (16, 6144, 4096), (1000, 3000, 777)]:
    matmul(None, None, None, *shape)
    benchmarked = matmul.benchmarked[shape]
    as_dicts = [{**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages} for c in grid]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", g.AdvisorWarning)
        want = g.rank(shape, hw="h200", candidates=as_dicts, top=8, distinct=True)
    check(f"autotune + shortlist at {shape}: only the advisor's top 8 of the list, best first",
          len(benchmarked) == 8 and [(c.kwargs["BLOCK_M"], c.kwargs["BLOCK_N"], c.kwargs["BLOCK_K"], 8, c.num_warps,
                                      c.num_stages, 1) for c in benchmarked] == [key(c) for c in want],
          [(c.kwargs, c.num_warps, c.num_stages) for c in benchmarked])
    check(f"autotune + shortlist at {shape}: the very objects given", all(any(c is x for x in grid)
                                                                        for c in benchmarked))
check("the infeasible config is never benchmarked", all(grid[-1] not in b for b in matmul.benchmarked.values()))
small = gat.shortlist(top=3, hw="h200")["early_config_prune"](grid, {"M": 64, "N": 64, "K": 64, "a": None})
check("shortlist's fn, called as Triton 2.x does (no kwargs): top 3", len(small) == 3, small)
# top=0: every config that can run, best first, as rank(top=0) (refused here alone before: a fresh
# user's find, 2026-12-07); the grid's last config cannot run (the check above) and is dropped.
every = gat.shortlist(top=0, hw="h200")["early_config_prune"](grid, {"M": 64, "N": 64, "K": 64, "a": None})
with warnings.catch_warnings():
    warnings.simplefilter("ignore", g.AdvisorWarning)
    runnable = g.rank("64x64x64", hw="h200", top=0, candidates=[
        {**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages} for c in grid])
check("shortlist(top=0): every config rank calls runnable, best first, the infeasible ones dropped",
      len(small) < len(every) == len(runnable) < len(grid) and grid[-1] not in every and every[:3] == small,
      (len(every), len(runnable), len(grid)))
# A shape it cannot read (M = 4096.0) keeps every config with an AdvisorWarning, as its docstring says
# (it raised TypeError out of the autotuner: a fresh user's find, 2026-12-04).
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kept = gat.shortlist(top=3, hw="h200")["early_config_prune"](grid, {"M": 4096.0, "N": 64, "K": 64})
check("shortlist's fn with M = 4096.0: every config kept, an AdvisorWarning naming M", len(kept) == len(grid) and
      any(issubclass(w.category, g.AdvisorWarning) and "M must be an int" in str(w.message) for w in caught),
      [str(w.message) for w in caught])
renamed = [triton.Config({"BM": c.kwargs["BLOCK_M"], "BN": c.kwargs["BLOCK_N"], "BLOCK_K": c.kwargs["BLOCK_K"],
                          "EVEN_K": True}, num_warps=c.num_warps, num_stages=c.num_stages) for c in grid[:-1]]
picked = gat.shortlist(top=4, hw="h200", names={"block_m": "BM", "block_n": "BN", "split_k": None, "group_m": None})[
    "early_config_prune"](renamed, {"M": 4096, "N": 4096, "K": 4096})
with warnings.catch_warnings():
    warnings.simplefilter("ignore", g.AdvisorWarning)
    want = g.rank((4096, 4096, 4096), hw="h200", top=4, distinct=True, candidates=[
        {"block_m": c.kwargs["BM"], "block_n": c.kwargs["BN"], "block_k": c.kwargs["BLOCK_K"],
         "num_warps": c.num_warps, "num_stages": c.num_stages} for c in renamed])
check("shortlist(names=): read back through the kernel's names, other kwargs ignored", [
    (c.kwargs["BM"], c.kwargs["BN"], c.kwargs["BLOCK_K"], c.num_warps, c.num_stages) for c in picked] == [
    (c["block_m"], c["block_n"], c["block_k"], c["num_warps"], c["num_stages"]) for c in want], picked)
undescribed = [triton.Config({"BLOCK_M": 64, "BLOCK_N": 64}, num_warps=4, num_stages=3)] + grid[:5]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kept = prune["early_config_prune"](undescribed, {"M": 64, "N": 64, "K": 64})
check("a config without BLOCK_K: a warning, and every config kept", kept == undescribed and any(
    "block_k" in str(w.message) for w in caught), [str(w.message) for w in caught])
e = py_error(prune["early_config_prune"], grid, {"M": 64, "N": 64})
check("named_args without K: an Error naming it", e is not None and "'K'" in str(e), repr(e))
# A launch that passes M, N, K by keyword (kernel[grid](a, b, c, M=M, N=N, K=K)): Triton's autotuner gives
# them as **kwargs, not in named_args (it failed on the first call: a fresh user's find, 2026-12-04).
by_keyword = gat.shortlist(top=3, hw="h200")["early_config_prune"](grid, {"a_ptr": 0, "b_ptr": 0}, M=64, N=64, K=64)
check("shortlist's fn with M, N, K as keyword arguments: the same top 3", by_keyword == small, by_keyword)
# Configs named otherwise (BM, BN) without names=: the warning says what it looked for and what it found.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kept = prune["early_config_prune"](renamed, {"M": 64, "N": 64, "K": 64})
check("configs named otherwise: kept, the warning naming the names looked for and found, and names=",
      kept == renamed and any("block_m=BLOCK_M" in str(w.message) and "the config has BM, BN" in str(w.message) and
                              "names=" in str(w.message) for w in caught), [str(w.message) for w in caught])

# --- fused-MoE layers: moe_ranking is the CLI's `rank M --target vllm-fused-moe` JSON -----------------
for kwargs, cli in [
    (dict(tokens=64, experts=128, top_k=8, hidden=2048, intermediate=768, hw="h200", top=3),
     ["64", "--experts", "128", "--top-k", "8", "--hidden", "2048", "--intermediate", "768", "--hw", "h200",
      "--top", "3"]),
    (dict(tokens=16, experts=256, top_k=8, hidden=7168, intermediate=2048, tp=8, hw="h200", dtype="fp8_w8a8",
          block_shape=[128, 128], routing="tuner", gemm="up", top=2),
     ["16", "--experts", "256", "--top-k", "8", "--hidden", "7168", "--intermediate", "2048", "--tp", "8", "--hw",
      "h200", "--dtype", "fp8_w8a8", "--block-shape", "128x128", "--routing", "tuner", "--gemm", "up", "--top", "2"]),
]:
    want = cli_json("rank", *cli, "--target", "vllm-fused-moe")
    got = g.moe_ranking(**kwargs)
    want.pop("generator", None)
    got.pop("generator", None)
    check(f"moe_ranking({kwargs['tokens']}, E={kwargs['experts']}) is the CLI's JSON", got == want,
          json.dumps(got)[:300] + " vs " + json.dumps(want)[:300])
# moe_explain is the CLI's `explain M --target vllm-fused-moe` JSON, with each launch's terms ("gemms"; Python
# had no MoE explain: a fresh user's find, 2026-12-04), for the top config and for a given one.
for config, extra in ((None, []), ("16x64x128:4:3", ["--config", "16x64x128:4:3"])):
    want = cli_json("explain", "64", "--target", "vllm-fused-moe", "--experts", "128", "--top-k", "8", "--hidden",
                    "2048", "--intermediate", "768", "--hw", "h200", *extra)
    got = g.moe_explain(64, 128, 8, 2048, 768, hw="h200", config=config)
    want.pop("generator", None)
    got.pop("generator", None)
    check(f"moe_explain(config={config!r}) is the CLI's explain JSON, with the up and down launches",
          got == want and [x["gemm"] for x in got.get("gemms", [])] == ["up", "down"],
          json.dumps(got)[:300] + " vs " + json.dumps(want)[:300])
e = py_error(g.moe_explain, 64, 128, 8, 2048, 768, hw="h200", config="")
check("moe_explain with config '': an Error", e is not None and "must not be empty" in str(e), repr(e))
check("moe_rank returns the configs", [key(c) for c in g.moe_rank(64, 128, 8, 2048, 768, hw="h200", top=3)] ==
      [key(c) for c in cli_json("rank", "64", "--target", "vllm-fused-moe", "--experts", "128", "--top-k", "8",
                                "--hidden", "2048", "--intermediate", "768", "--hw", "h200", "--top", "3")["configs"]])
# distinct= and candidates= as the CLI's --distinct and --candidates (Python lacked both for MoE: a
# fresh user's find, 2026-12-04).
moe_cli = ["64", "--target", "vllm-fused-moe", "--experts", "8", "--top-k", "2", "--hidden", "4096",
           "--intermediate", "14336", "--tp", "2", "--hw", "h200", "--top", "3"]
check("moe_rank(distinct=True) is rank --distinct's configs",
      [key(c) for c in g.moe_rank(64, 8, 2, 4096, 14336, tp=2, hw="h200", top=3, distinct=True)] ==
      [key(c) for c in cli_json("rank", *moe_cli, "--distinct")["configs"]])
moe_cands = os.path.join(TMP, "moe-cands.csv")
with open(moe_cands, "w") as f:
    f.write("BLOCK_SIZE_M,BLOCK_SIZE_N,BLOCK_SIZE_K,GROUP_SIZE_M,num_warps,num_stages\n16,64,128,1,4,3\n64,64,64,1,4,3\n")
got = g.moe_ranking(64, 8, 2, 4096, 14336, tp=2, hw="h200", top=3,
                    candidates=[{"BLOCK_SIZE_M": 16, "BLOCK_SIZE_N": 64, "BLOCK_SIZE_K": 128, "GROUP_SIZE_M": 1,
                                 "num_warps": 4, "num_stages": 3}, "64x64x64:4:3:1:g1"])
want = cli_json("rank", *moe_cli, "--candidates", moe_cands)
got.pop("generator", None)
want.pop("generator", None)
check("moe_ranking(candidates=...) is rank --candidates' JSON", got == want and len(got["configs"]) == 2,
      json.dumps(got)[:300] + " vs " + json.dumps(want)[:300])
e = py_error(g.moe_rank, 64, 8, 9, 2048, 768, hw="h200")
check("moe_rank: top_k > experts is an Error with the CLI's words", e is not None and "top_k = 9" in str(e), repr(e))
e = py_error(g.moe_rank, 64, 8, 2, 4096, 14336, tp=3, hw="h200")
check("moe_rank: tp not dividing the intermediate size is an Error", e is not None and "tp = 3" in str(e), repr(e))
e = py_error(g.moe_rank, 64, 8, 2, 4096, 14336, hw="h200", routing="zipf:0")
check("moe_rank: a bad routing is an Error", e is not None and "[0.001, 16]" in str(e), repr(e))


# --- a fresh user's finds (2026-12-03) -------------------------------------------------------------
class Index:
    """An integer scalar that is not an int (as numpy's and torch's are): it has __index__ only."""
    def __init__(self, v):
        self.v = v

    def __index__(self):
        return self.v


# Integer scalars are ints everywhere (they were refused as "not ints" in shapes, candidates, top, moe_rank).
plain = g.rank((16, 6144, 4096), hw="h200", top=2)
check("rank: a shape of integer scalars ranks as the ints", g.rank((Index(16), 6144, Index(4096)), hw="h200",
      top=Index(2)) == plain)
cand = [{"block_m": Index(64), "block_n": 64, "block_k": 64, "num_warps": 4, "num_stages": 3}]
check("rank: a candidate's integer scalars are its fields",
      g.rank((16, 6144, 4096), hw="h200", candidates=cand)[0]["block_m"] == 64)
check("moe_rank: integer scalars", g.moe_rank(Index(64), 128, 8, 2048, 768, hw="h200", top=1) ==
      g.moe_rank(64, 128, 8, 2048, 768, hw="h200", top=1))
# A value no C++ integer holds is an Error, not pybind's multi-line TypeError with the C++ signature.
e = py_error(g.moe_rank, 2**63, 128, 8, 2048, 768, hw="h200")
check("moe_rank(2**63, ...): one-line Error naming tokens", e is not None and str(e).startswith("tokens = 2**63"
      .replace("2**63", str(2**63))) and "\n" not in str(e), repr(e))
try:
    g.load_profile("h200").peak_flops_per_s(5)
    err = None
except TypeError as ex:
    err = str(ex)
check("Profile.peak_flops_per_s(5): a one-line TypeError, no C++ signature", err is not None and
      err.startswith("dtype must be text") and "\n" not in err, err)
# A NUL in a profile path was read up to it (the file before the NUL loaded).
e = py_error(g.load_profile, "profiles/h200.yaml\x00junk")
check("load_profile: a path with a NUL is an Error", e is not None and "holds a NUL character" in str(e), repr(e))
# hw=None with a bad $GEMM_ADVISOR_HW names the variable, as the CLI does.
os.environ["GEMM_ADVISOR_HW"] = "bogus"
try:
    e = py_error(g.rank, (16, 6144, 4096), top=1)
finally:
    del os.environ["GEMM_ADVISOR_HW"]
check("rank(hw=None) with GEMM_ADVISOR_HW=bogus: the Error names the variable", e is not None and
      str(e).startswith("GEMM_ADVISOR_HW: unknown hardware profile 'bogus'"), repr(e))
# ... and a profile file it names still has its warnings issued (an unknown key).
with open("profiles/h200.yaml") as f:
    warn_text = f.read().replace("compute:", "bogus_key: 1\ncompute:", 1)
warn_path = os.path.join(tempfile.mkdtemp(), "warn.yaml")
with open(warn_path, "w") as f:
    f.write(warn_text)
os.environ["GEMM_ADVISOR_HW"] = warn_path
try:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g.rank((64, 64, 64), top=1)
finally:
    del os.environ["GEMM_ADVISOR_HW"]
check("rank(hw=None) with GEMM_ADVISOR_HW naming a file: its unknown key is an AdvisorWarning",
      any("unknown key 'bogus_key'" in str(w.message) and issubclass(w.category, g.AdvisorWarning) for w in caught),
      [str(w.message) for w in caught])
# The fused-MoE target through rank/explain points to moe_rank (it said "shape '64': expected MxNxK").
e = py_error(g.explain, "64", target="vllm-fused-moe", hw="h200")
check("explain(target='vllm-fused-moe'): the Error points to moe_rank", e is not None and "moe_rank(" in str(e),
      repr(e))
# gemm_advisor.triton: top is checked on the path without SPLIT_K too (-1 returned all but the last).
e = py_error(gat.configs, 4096, 4096, 4096, hw="h200", top=-1, names={"split_k": None})
check("triton.configs(top=-1) without SPLIT_K is an Error", e is not None and "top must be in 0..1000000" in str(e),
      repr(e))
# A huge top is told top's range (it said "at most 2147483647", another limit: a fresh user's find, 2026-12-06).
e = py_error(g.rank, "64x64x64", hw="h200", top=10**20)
check("rank(top=10**20): top's own range in the message", e is not None and "top must be in 0..1000000" in str(e), repr(e))
# shortlist checks dtype and layout when decorating, as it checks hw (a bad dtype left every shape
# unpruned at run time, one warning each).
for kw, says in (({"dtype": "int8"}, "unknown dtype 'int8'"), ({"layout": "XY"}, "unknown layout 'XY'"),
                 ({"key_names": 5}, "key_names must be 3 or 4 argument names")):
    e = py_error(gat.shortlist, hw="h200", **kw)
    check(f"triton.shortlist({kw}): an Error when decorating", e is not None and says in str(e), repr(e))
# 20,000 repeated candidates gave 20,000 warnings: the first 5 are named, the rest counted.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.rank((1024, 1024, 1024), hw="h200", candidates=["64x64x64:4:3"] * 9, top=1)
texts = [str(w.message) for w in caught if issubclass(w.category, g.AdvisorWarning)]
check("rank: 8 repeated candidates give 5 named warnings and one count of the other 3", len(texts) == 6 and
      sum("is listed already" in t for t in texts) == 5 and
      "candidates: 3 more configs listed again after the 5 above" in texts[-1], texts)
# A bool is no dimension in gemm_advisor.triton either (True ran as M = 1), and a float in a shape tuple is
# a TypeError as top=1.0 is (it was an Error): a fresh user's finds, 2026-12-04.
for call, what in ((lambda: gat.configs(True, 4096, 4096, hw="h200"), "configs(True, ...)"),
                   (lambda: g.rank((4096.0, 4096, 4096), hw="h200"), "rank((4096.0, ...))"),
                   (lambda: g.rank((True, 4096, 4096), hw="h200"), "rank((True, ...))")):
    try:
        call()
        raised = None
    except Exception as e:  # noqa: BLE001
        raised = e
    check(f"{what}: a TypeError", isinstance(raised, TypeError) and not isinstance(raised, g.Error), repr(raised))
# A Profile pickles (a shipped one as its name, a file as its text and path) and copies, for multiprocessing.
import copy as _copy  # noqa: E402
import pickle as _pickle  # noqa: E402
prof = g.load_profile("profiles/mi300x.yaml")
pickled = _pickle.dumps(prof)
here = os.getcwd()
os.chdir("/")  # unpickled in another working directory, as a worker process may be (it failed: a fresh user's find)
try:
    again = _pickle.loads(pickled)
finally:
    os.chdir(here)
check("Profile: a pickle round trip gives the same file's profile (named by absolute path), ranking alike, elsewhere",
      again.source == os.path.abspath("profiles/mi300x.yaml") and
      g.rank((1024, 1024, 1024), hw=again, top=3) == g.rank((1024, 1024, 1024), hw=prof, top=3), repr(again))
check("Profile: a shipped one pickles by its name", _pickle.loads(_pickle.dumps(g.load_profile("h200"))).source == "h200")
# ... and carries the file's text: edited or removed after the pickle, the unpickled profile is the one
# loaded (it loaded the path again, so a worker saw other numbers or failed: a fresh user's find).
import tempfile as _tempfile  # noqa: E402
edit_dir = _tempfile.mkdtemp()
edited = os.path.join(edit_dir, "mine.yaml")
shutil.copy("profiles/h200.yaml", edited)
mine = g.load_profile(edited)
pickled = _pickle.dumps(mine)
with open(edited) as f:
    text = f.read()
with open(edited, "w") as f:
    f.write(text.replace("cu_count: 132", "cu_count: 100", 1))
edited_back = _pickle.loads(pickled)
os.remove(edited)
removed_back = _pickle.loads(pickled)
check("Profile: a pickle carries the file's text (edited, then removed, after the pickle)",
      edited_back.cu_count == 132 and removed_back.cu_count == 132 and removed_back.source == edited and
      g.rank((1024, 1024, 1024), hw=removed_back, top=3) == g.rank((1024, 1024, 1024), hw=mine, top=3),
      repr(removed_back))
e = py_error(g.explain, "4096x4096x4096", "", hw="h200")
check("explain with config '': an Error, as the CLI's --config ''", e is not None and "must not be empty" in str(e),
      repr(e))
for make in (lambda: g.Profile.__new__(g.Profile), lambda: g.Profile()):
    try:
        make()
        made = "made"
    except TypeError as e:
        made = str(e)
    # Profile.__new__ gave an object that read uninitialised memory (a fresh user's find, 2026-12-04).
    check("Profile: only load_profile makes one (__new__ and Profile() raise TypeError)", "load_profile" in made, made)
# The CLI's --candidates spellings (BLOCK_SIZE_M ... for every target, any case) in Python dicts too
# (refused for the triton target, whose own names are BLOCK_M: a fresh user's find, 2026-12-04).
spelled = g.rank("4096x4096x4096", hw="h200", candidates=[{"BLOCK_SIZE_M": 64, "BLOCK_SIZE_N": 64, "block_size_k": 64,
                                                           "NUM_WARPS": 4, "num_stages": 3, "GROUP_SIZE_M": 4}])
check("candidates: BLOCK_SIZE_M / GROUP_SIZE_M and upper case name the fields for the triton target",
      len(spelled) == 1 and (spelled[0]["block_m"], spelled[0]["block_k"], spelled[0]["num_warps"],
                             spelled[0]["group_m"]) == (64, 64, 4, 4), spelled)
check("Profile: copy and deepcopy", _copy.copy(prof).name == "mi300x" and _copy.deepcopy(prof).cu_count == prof.cu_count)
check("triton.shortlist(top=<integer scalar>) is accepted",
      callable(gat.shortlist(top=Index(8), hw="h200")["early_config_prune"]))

# A fresh user's pass (2026-12-04): torch's dtype names (and torch/numpy dtype objects, whose text
# or type name is one), the target's own parameter names as names= keys, load_profile's TypeError
# naming its own argument.


def type_error(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except TypeError as e:
        return e
    return None


want = g.rank("16x4096x4096", hw="h200", dtype="fp16", top=3)
check("dtype='torch.float16' is fp16", g.rank("16x4096x4096", hw="h200", dtype="torch.float16", top=3) == want)
check("dtype='float8_e4m3fn' (torch's fp8) is fp8",
      g.rank("16x4096x4096", hw="h200", dtype="float8_e4m3fn", top=3) == g.rank("16x4096x4096", hw="h200", dtype="fp8",
                                                                                 top=3))
e = type_error(g.moe_rank, 64, 128, 8, 2048, 768, "h200")
check("moe_rank(..., 'h200') as the sixth argument: TypeError saying the sixth is tp and to give hw=",
      isinstance(e, TypeError) and "the sixth argument is tp" in str(e) and "hw='h200'" in str(e), repr(e))
e = type_error(g.moe_explain, 64, 128, 8, 2048, 768, "64x64x64:4:2", hw="h200")
check("moe_explain(..., '64x64x64:4:2') as the sixth argument: TypeError saying to give config=, not hw=",
      isinstance(e, TypeError) and "config='64x64x64:4:2'" in str(e) and "hw=" not in str(e), repr(e))
check("dtype='float8_e4m3fn' on a100: the error quotes it as given",
      "dtype float8_e4m3fn (fp8) is not supported by a100" in str(py_error(g.rank, "64x64x64", hw="a100", dtype="float8_e4m3fn")))
# Triton's fp8 dtypes print as fp8e4nv / fp8e5 (OCP) and fp8e4b8 / fp8e5b16 (AMD's FNUZ): "unknown dtype"
# before (a fresh user's find, 2026-12-05); torch's fp4 likewise.
check("dtype='fp8e4nv' (str(tl.float8e4nv)) is fp8",
      g.rank("16x4096x4096", hw="h200", dtype="fp8e4nv", top=3) == g.rank("16x4096x4096", hw="h200", dtype="fp8", top=3))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.rank("16x4096x4096", hw="h200", dtype="fp8e4b8", top=1)
check("dtype='fp8e4b8' (Triton's FNUZ e4m3) on h200: the encoding warning",
      any("FNUZ" in str(w.message) for w in caught), [str(w.message) for w in caught])
check("dtype='torch.float4_e2m1fn_x2' is fp4 on b200",
      g.rank("4096x4096x4096", hw="b200", dtype="torch.float4_e2m1fn_x2", top=1) ==
      g.rank("4096x4096x4096", hw="b200", dtype="fp4", top=1))
Float16 = type("float16", (), {"__module__": "numpy"})  # a numpy scalar type, as np.float16 is to the module
check("Profile.peak_flops_per_s takes the dtype objects rank takes (np.float16 was a TypeError)",
      g.load_profile("h200").peak_flops_per_s(Float16) == g.load_profile("h200").peak_flops_per_s("fp16") > 0)
check("dtype=<a numpy scalar type named float16> is fp16", g.rank("16x4096x4096", hw="h200", dtype=Float16, top=3) == want)
e = type_error(g.rank, "16x4096x4096", hw="h200", dtype=3)
check("dtype=3: TypeError saying what dtype may be", isinstance(e, TypeError) and "a torch, numpy or Triton dtype" in str(e), repr(e))
check("names={'BLOCK_M': 'BM'}: the target's own name as a key, as --names takes it",
      gat.parameter_names("triton", {"BLOCK_M": "BM"})["block_m"] == "BM" and
      gat.parameter_names("triton-tutorial", {"BLOCK_SIZE_N": "BN"})["block_n"] == "BN")
e = type_error(g.load_profile, 123)
check("load_profile(123): TypeError naming load_profile's argument", isinstance(e, TypeError) and
      str(e).startswith("load_profile: name_or_path must be"), repr(e))
# A fresh user's Triton pass (2026-12-04): names leaving SPLIT_K out rank as --names SPLIT_K= (over the
# unsplit configs, not the split ones dropped after); GROUP_SIZE_M left out writes each config once;
# what --names refuses, names= refuses; a triton.Config (duck-typed) is a candidate.
cli = subprocess.run([sys.argv[1], "batch", "-", "--hw", "a100", "--emit", "triton", "--top", "3", "--names", "SPLIT_K=",
                      "--no-distinct", "-q"], input="144x16x2800000\n", capture_output=True, text=True)
py = gat.configs(144, 16, 2800000, hw="a100", top=3, names={"split_k": None}, distinct=False)
as_dicts = [dict(c) if isinstance(c, dict) else {**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages}
            for c in py]
check("names={'split_k': None}: the configs --names SPLIT_K= writes, in its order",
      cli.returncode == 0 and json.loads(cli.stdout)[0]["configs"] == as_dicts, cli.stdout[:300])
# Both default to distinct tiles first (--emit triton listed one tile at several stage counts while
# triton.configs gave distinct ones: a fresh CI user's find, 2026-12-05).
cli8 = subprocess.run([sys.argv[1], "batch", "-", "--hw", "h200", "--emit", "triton", "--top", "8", "-q"],
                      input="4096x4096x4096\n", capture_output=True, text=True)
py8 = gat.configs(4096, 4096, 4096, hw="h200", top=8)
py8_dicts = [dict(c) if isinstance(c, dict) else {**c.kwargs, "num_warps": c.num_warps, "num_stages": c.num_stages}
             for c in py8]
cli8_configs = json.loads(cli8.stdout)[0]["configs"] if cli8.returncode == 0 else []
check("--emit triton and triton.configs agree by default: 8 configs, 8 distinct tiles",
      cli8_configs == py8_dicts and len({(c["BLOCK_M"], c["BLOCK_N"], c["BLOCK_K"], c["SPLIT_K"]) for c in cli8_configs}) == 8,
      cli8.stdout[:300])
fp8 = gat.configs(64, 7168, 2048, hw="h200", target="vllm-fp8-block", names={"group_m": None}, distinct=False)
keys = [json.dumps(dict(c) if isinstance(c, dict) else {**c.kwargs, "w": c.num_warps, "s": c.num_stages},
                   sort_keys=True) for c in fp8]
check("names={'group_m': None}: 8 configs, each once", len(keys) == 8 and len(set(keys)) == 8, keys)
e = py_error(gat.parameter_names, "triton-tutorial", {"split_k": "SK"})
check("names renaming a field the target lacks: Error, as --names", e is not None and "not a parameter of" in str(e),
      repr(e))
e = py_error(gat.parameter_names, "triton", {"BLOCK_M": "BM", "block_m": "X"})
check("names naming one field twice: Error, as --names", e is not None and "both name block_m" in str(e), repr(e))


class FakeConfig:  # what triton.Config holds
    def __init__(self, kwargs, num_warps, num_stages):
        self.kwargs, self.num_warps, self.num_stages = kwargs, num_warps, num_stages


got = g.rank("4096x4096x4096", hw="h200", candidates=[FakeConfig({"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64}, 4, 3)])
check("a triton.Config is a candidate", [(c["block_m"], c["num_warps"], c["num_stages"]) for c in got] == [(64, 4, 3)], got)

# A path as hw= is read once while the file stays as it is (it was read on every call: a fresh Python
# user's find, 2026-12-05), and again once it changes: 114 SMs instead of 132 is a slower 4096^3.
own = os.path.join(TMP, "own-h100.yaml")
shipped = subprocess.run([BIN, "profiles", "show", "h100"], capture_output=True, text=True, check=True).stdout
with open(own, "w") as f:
    f.write(shipped)
by_name = g.rank((4096, 4096, 4096), hw="h100", top=1)[0]["latency_s"]
by_path = [g.rank((4096, 4096, 4096), hw=own, top=1)[0]["latency_s"] for _ in range(3)]
with open(own, "w") as f:
    f.write(shipped.replace("cu_count: 132", "cu_count: 114", 1) + "\n")
changed = g.rank((4096, 4096, 4096), hw=own, top=1)[0]["latency_s"]
check("hw= a path: the shipped profile's copy ranks as the name does; the file changed is read again",
      by_path == [by_name] * 3 and changed > by_name, (by_name, by_path, changed))

# read_shapes: a shape list as batch reads it, each shape ranked as batch ranks it (a fresh Python user's
# find, 2026-12-05: Python had no way to read one), its first bad entry an Error at its line.
listed = g.read_shapes("examples/llama3-8b.csv")
batch_csv = subprocess.run([BIN, "batch", "examples/llama3-8b.csv", "--hw", "h200", "--top", "1", "--format", "csv"],
                           capture_output=True, text=True, check=True).stdout.splitlines()
by_batch = [(int(r["block_m"]), int(r["block_n"]), int(r["block_k"]), round(float(r["latency_us"]), 4))
            for r in csv.DictReader(batch_csv)]
by_python = []
for shp in listed:
    top = g.rank((shp["m"], shp["n"], shp["k"], shp["batch"]), hw="h200", dtype=shp["dtype_text"], layout=shp["layout"],
                 top=1)[0]
    by_python.append((top["block_m"], top["block_n"], top["block_k"], round(top["latency_s"] * 1e6, 4)))
check("read_shapes + rank: the same top configs and times as batch, in the file's order",
      len(listed) == len(by_batch) > 0 and by_python == by_batch and listed[0]["name"] and listed[0]["line"] > 1,
      (listed[:1], by_python[:2], by_batch[:2]))
# dtype is the standard name, as batch reports it, whatever the spelling; dtype_text the spelling (two
# spellings of one type were two groups to code grouping by dtype: a fresh Python user's find, 2026-12-07).
spelled = os.path.join(TMP, "spelled.csv")
with open(spelled, "w") as f:
    f.write("m,n,k,dtype,layout\n64,64,64,torch.bfloat16,nt\n64,64,64,float8_e4m3fnuz,NN\n64,64,64,,NT\n")
got = [(s["dtype"], s["dtype_text"], s["layout"]) for s in g.read_shapes(spelled)]
check("read_shapes: dtype the standard name, dtype_text as written (the default's name where none)",
      got == [("bf16", "torch.bfloat16", "NT"), ("fp8", "float8_e4m3fnuz", "NN"), ("bf16", "bf16", "NT")], got)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.rank((64, 64, 64), hw="h200", dtype=g.read_shapes(spelled)[1]["dtype_text"], top=1)
check("... and rank(dtype=dtype_text) warns of the FNUZ encoding on the H200, as batch does",
      len(caught) == 1 and "fnuz" in str(caught[0].message).lower(), [str(w.message) for w in caught])
# A line's own dtype wins over dtype=, said once at the first line that differs, as batch says it of
# --dtype (read_shapes was silent). Expected: spelled.csv's line 2 (bf16) under dtype="fp8"; nothing
# with no dtype= given, nor where every line's dtype is the one given.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    got = [s["dtype"] for s in g.read_shapes(spelled, dtype="fp8")]
check("read_shapes(dtype=): a line's own dtype read, said once at its line",
      got == ["bf16", "fp8", "fp8"] and len(caught) == 1 and
      str(caught[0].message).startswith(f"{spelled}:2: the line's own dtype bf16 is read, not dtype=fp8"),
      (got, [str(w.message) for w in caught]))
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    g.read_shapes(spelled)
    g.read_shapes("examples/llama3-8b.csv", dtype="bf16")
check("read_shapes: no dtype= given, or the lines' own the one given: nothing said",
      not caught, [str(w.message) for w in caught])
bad_list = os.path.join(TMP, "bad-list.csv")
with open(bad_list, "w") as f:
    f.write("m,n,k\n64,64,64\n0,64,64\n")
e = py_error(g.read_shapes, bad_list)
check("read_shapes: the first bad entry is an Error at its line", e is not None and f"{bad_list}:3:" in str(e), repr(e))
# A gzipped list reads as batch reads it (thirty-sixth session): the same entries as the plain file,
# the format from the name under .gz; a plain file named .gz is an Error naming it.
import gzip  # noqa: E402
gz_list = os.path.join(TMP, "llama3-8b.csv.gz")
with open("examples/llama3-8b.csv", "rb") as src, open(gz_list, "wb") as dst:
    dst.write(gzip.compress(src.read()))
check("read_shapes of a .csv.gz: the plain file's entries", g.read_shapes(gz_list) == listed)
plain_gz = os.path.join(TMP, "plain.csv.gz")
with open(plain_gz, "w") as f:
    f.write("m,n,k\n64,64,64\n")
e = py_error(g.read_shapes, plain_gz)
check("read_shapes of a plain file named .gz: an Error naming it", e is not None and f"{plain_gz}: not gzip data" in str(e),
      repr(e))
gz_plain_name = os.path.join(TMP, "llama3-8b-gzipped.csv")
shutil.copy(gz_list, gz_plain_name)
check("read_shapes of gzip data under a plain name (magic bytes, as batch tells it): the plain file's entries",
      g.read_shapes(gz_plain_name) == [dict(s, line=s["line"]) for s in listed])
check("target= and gemm= in any case, as the CLI takes them",
      g.rank("64x4096x4096", hw="h200", target="TRITON", top=1) == g.rank("64x4096x4096", hw="h200", top=1)
      and g.moe_rank(64, 8, 2, 4096, 14336, hw="h200", gemm="UP", top=1) ==
      g.moe_rank(64, 8, 2, 4096, 14336, hw="h200", gemm="up", top=1))
e = py_error(g.read_shapes, "-")
check("read_shapes('-'): an Error saying stdin is not read here (it said the file '-' was missing)",
      e is not None and "'-' (stdin) is not read here" in str(e), repr(e))

# A fresh Python user's finds, 2026-12-06. (1) A problem beyond the GPU's memory: the CLI's warning, as an
# AdvisorWarning from rank, explain and moe_rank (none came).
for what, call in (("rank", lambda: g.rank((1048576,) * 3, hw="h200", top=1)),
                   ("explain", lambda: g.explain((1048576,) * 3, hw="h200")),
                   ("moe_rank", lambda: g.moe_rank(2 ** 27, 256, 8, 7168, 2048, hw="h200", top=1))):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    said = [str(w.message) for w in caught if issubclass(w.category, g.AdvisorWarning)]
    check(f"{what} beyond the GPU's memory: the CLI's warning",
          any("of memory: no one GPU " + ("holds" if what == "moe_rank" else "runs") + " it" in m for m in said), said)
# (2) A profile loaded by a relative path is named by its absolute one after os.chdir (it named the
# path again from the new directory).
rel_dir = os.path.join(TMP, "rel")
os.makedirs(rel_dir, exist_ok=True)
shutil.copy("profiles/h200.yaml", os.path.join(rel_dir, "mine.yaml"))
here = os.getcwd()
os.chdir(TMP)
try:
    mine = g.load_profile("rel/mine.yaml")
    os.chdir("/")
    named = g.ranking("64x64x64", hw=mine, top=1)["hardware"]["profile"]
finally:
    os.chdir(here)
check("a profile loaded by a relative path keeps its absolute path after os.chdir",
      named == os.path.join(rel_dir, "mine.yaml"), named)
# (3) targets() is a copy all the way down: renaming its parameters leaves configs()' names alone.
for t in g.targets():
    for prm in t["parameters"]:
        prm["name"] = prm["name"].lower()
def kw(c):  # a triton.Config's parameters, or the plain dict without triton
    return c if isinstance(c, dict) else dict(c.kwargs, num_warps=c.num_warps, num_stages=c.num_stages)


check("targets(): editing the nested parameters changes nothing inside the module",
      "BLOCK_SIZE_M" in kw(gat.configs(64, 64, 64, hw="h200", top=1, target="triton-tutorial")[0]), g.targets()[1])
# (4) target= in any case in gemm_advisor.triton too, as rank() takes it; read_shapes' format= too.
check("gemm_advisor.triton: target='TRITON' as 'triton'",
      [kw(c) for c in gat.configs(64, 64, 64, hw="h200", top=2, target="TRITON")] ==
      [kw(c) for c in gat.configs(64, 64, 64, hw="h200", top=2)]
      and gat.parameter_names("TRITON") == gat.parameter_names("triton"))
check("read_shapes(format='CSV') as 'csv'", g.read_shapes(gz_list, format="CSV") == listed)
# (5) shortlist keeps a config that is only outside the search bounds (num_stages 7 > max_num_stages 6),
# after its shortlist, and says so; one that cannot run (shared memory) is still dropped.
prune = gat.shortlist(top=8, hw="h200")["early_config_prune"]
given = [{"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "SPLIT_K": 1, "num_warps": 4, "num_stages": st}
         for st in (3, 7)] + [{"BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 128, "GROUP_M": 8, "SPLIT_K": 1,
                               "num_warps": 8, "num_stages": 5}]
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kept = prune(given, {"M": 4096, "N": 4096, "K": 4096})
said = [str(w.message) for w in caught]
check("shortlist: num_stages 7 kept after the ranked one, warned; 256x256x128 s5 (640 KiB) dropped",
      [c["num_stages"] for c in kept] == [3, 7] and any("outside the advisor's search bounds" in m for m in said),
      (kept, said))
# ... and one that is past a bound and cannot run either (256x256x128 at 7 stages: 917,504 bytes of
# shared memory) is dropped too: its reason is the shared memory, the bound checked last (it was kept as
# "outside the search bounds": a fresh user's find, 2026-12-07).
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kept = prune(given + [{**given[2], "num_stages": 7}], {"M": 4096, "N": 4096, "K": 4096})
check("shortlist: a config past the stage bound that needs 917,504 bytes of shared memory is dropped",
      [(c["BLOCK_M"], c["num_stages"]) for c in kept] == [(64, 3), (64, 7)], kept)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", g.AdvisorWarning)
    ranked = g.ranking((4096, 4096, 4096), hw="h200", candidates=["256x256x128:8:7", "64x64x32:4:3"])
check("rank's reason for 256x256x128 s7: its shared memory, not the bound",
      [e["reason"] for e in ranked["infeasible"]] == ["needs 917504 bytes of shared memory, more than the 232448 a "
                                                      "block may use on h200"], ranked["infeasible"])
# When no config ranks, the ones only past a bound are kept and those that cannot run dropped (all were
# handed back: a fresh user's find, 2026-12-07).
alone = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 64, "GROUP_M": 8, "SPLIT_K": 1, "num_warps": 4, "num_stages": 7}
huge = {**alone, "BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 256, "num_warps": 8}
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kept = prune([alone, huge, dict(alone)], {"M": 1000, "N": 1000, "K": 1000})
said = [str(w.message) for w in caught]
check("shortlist, nothing ranks: the two 7-stage 64x64x64 kept, the 256x256x256 (262,144 bytes) dropped",
      kept == [alone, alone] and any("2 config(s) outside the advisor's search bounds kept unranked, 1 that cannot "
                                     "run dropped" in m for m in said), (kept, said))

# (6) configs(names={'split_k': None}) checks max_split_k as rank does (a float, text or 0 passed).
for bad, kind in ((4.0, TypeError), ("lots", TypeError), (0, g.Error)):
    try:
        gat.configs(64, 64, 64, hw="h200", names={"split_k": None}, max_split_k=bad)
        raised = None
    except (g.Error, TypeError) as e:
        raised = e
    check(f"configs(names={{'split_k': None}}, max_split_k={bad!r}): {kind.__name__}", type(raised) is kind, repr(raised))

# (7) A fused-MoE model list given to read_shapes: the Python call in the advice, not the CLI's flag.
e = py_error(g.read_shapes, "examples/moe-models.csv")
check("read_shapes of a fused-MoE model list: points at moe_rank, not --target", e is not None and
      "gemm_advisor.moe_rank(" in str(e) and "--target" not in str(e) and "moe-models.csv:" in str(e), repr(e))

# A profile path given as hw= is read on every call and parsed again when its content differs: a
# rewrite of the same size whose modification time was put back (cp -p, rsync -a, tar) was missed, the
# ranking still the old file's (a fresh user's find, 2026-12-07). Two overlays of the same length
# (coresident_load_overlap 0 and 1: model_params.hpp; 1 shortens the latency of a CU's co-resident
# blocks, so a latency-bound config's predicted time falls).
same = os.path.join(TMP, "same-size.yaml")
base_text = open("profiles/h200.yaml").read()
with open(same, "w") as f:
    f.write(base_text + "model_parameters:\n  coresident_load_overlap: 0\n")
st0 = os.stat(same)
t0 = g.explain("4096x4096x4096", hw=same, config="64x64x64:4:2")["configs"][0]["latency_s"]
with open(same, "w") as f:
    f.write(base_text + "model_parameters:\n  coresident_load_overlap: 1\n")
os.utime(same, ns=(st0.st_atime_ns, st0.st_mtime_ns))
st1 = os.stat(same)
t1 = g.explain("4096x4096x4096", hw=same, config="64x64x64:4:2")["configs"][0]["latency_s"]
check("hw= a path rewritten at the same size and time: the new content is used",
      st1.st_size == st0.st_size and st1.st_mtime_ns == st0.st_mtime_ns and t1 < t0, (t0, t1))

# Profile.peak_flops_per_s(None) is bf16's, as rank(dtype=None) takes the 16-bit default (a TypeError
# whose message offered None: a fresh user's find, 2026-12-07). The H200's bf16 dense peak: 989.4
# TFLOP/s (profiles/h200.yaml, NVIDIA's H200 datasheet, 1,979 with sparsity).
h200p = g.load_profile("h200")
check("Profile.peak_flops_per_s(None) is bf16's",
      h200p.peak_flops_per_s(None) == h200p.peak_flops_per_s("bf16") and abs(h200p.peak_flops_per_s(None) / 1e12 - 989.4) < 1,
      h200p.peak_flops_per_s(None))

cli_harness.finish()
