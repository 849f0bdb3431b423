"""gemm_advisor: which tile configuration should this GEMM use on that GPU?

The Python face of the gemm-advisor library: it ranks every legal tile configuration of a GPU
kernel (a "target": the project's Triton GEMM, Triton's tutorial matmul, vLLM's block-scaled fp8
GEMM) for a GEMM shape through an analytical latency model, without running anything on a GPU.
The answers are the CLI's, computed by the same library::

    >>> import gemm_advisor as g
    >>> best = g.rank("4096x4096x4096", hw="NVIDIA H200", top=3)
    >>> [c["rank"] for c in best], best[0]["latency_s"] > 0
    ([1, 2, 3], True)

Shapes are "MxNxK" or "MxNxKxB" text (B = batch) or a tuple (M, N, K) / (M, N, K, B) of ints.
``hw`` is a shipped profile name ("h200"), the GPU's name as torch, nvidia-smi, rocm-smi or vLLM
spell it ("NVIDIA H200", "AMD Instinct MI300X", "gfx942"), a path to a profile YAML, or a
:class:`Profile` from :func:`load_profile`; None means what the CLI does without --hw:
$GEMM_ADVISOR_HW, else the local GPU as nvidia-smi or rocm-smi name it, else an error.
Times are seconds, rates TFLOP/s (``tflops``), percentages 0..100.

Bad input (a malformed shape, an unknown profile or dtype, an impossible config) raises
:class:`Error`, a ValueError whose message is the CLI's one-line error; an argument of the wrong
type (a float or None where a size goes, a number where text goes) raises TypeError, as Python
functions do, so ``except (gemm_advisor.Error, TypeError)`` catches both. Warnings the CLI prints
(an unknown key in a profile file, an infeasible given config) are :class:`AdvisorWarning`.

Submodules: :mod:`gemm_advisor.triton` (configs for ``triton.autotune`` and a
``prune_configs_by`` shortlist), :mod:`gemm_advisor.plot` (roofline, heatmap and
predicted-vs-measured figures; needs matplotlib).
"""

import copy as _copy
import functools as _functools
import hashlib as _hashlib
import json as _json
import operator as _operator
import os as _os
import stat as _stat
import threading as _threading
import warnings as _warnings

try:
    from . import _gemm_advisor as _core
except ImportError as _e:
    # Python's own message for a missing or other-version extension reads as a circular import
    # ("cannot import name '_gemm_advisor' from partially initialized module"): say what is there (a
    # fresh user's find, 2026-12-05: a pyenv python3 3.12 over a module built for Debian's 3.11).
    import glob as _glob
    import sys as _sys
    _built = sorted(_os.path.basename(p) for p in _glob.glob(_os.path.join(_os.path.dirname(__file__), "_gemm_advisor*")))
    raise ImportError(
        f"gemm_advisor: its compiled extension does not load in this Python {_sys.version_info[0]}."
        f"{_sys.version_info[1]} ({_sys.executable}): "
        + (f"found {', '.join(_built)}, built for another Python: use that Python (the build's python3), or "
           f"rebuild with -DPython3_EXECUTABLE={_sys.executable}" if _built else
           "no _gemm_advisor extension next to it (a copy of the package without it?): install with "
           "`cmake --install build`")
        + f" [{_e}]") from _e

Error = _core.Error
Error.__module__ = __name__
Error.__doc__ = ("Bad input to gemm_advisor (a ValueError): str(e) is one line naming the input and what "
                 "is wrong, the message the CLI prints after 'gemm-advisor: error: '.")
Profile = _core.Profile


def _profile_new(cls, *args, **kwargs):
    # A Profile comes from load_profile (or a copy, or a pickle, which loads it again); one made by
    # Profile.__new__ held no profile and read uninitialised memory when used (a fresh user's find,
    # 2026-12-04).
    raise TypeError("a gemm_advisor.Profile is made by gemm_advisor.load_profile(name_or_path)")


Profile.__new__ = _profile_new

__version__ = _core.__version__
__all__ = ["Error", "AdvisorWarning", "Profile", "rank", "ranking", "moe_rank", "moe_ranking", "moe_explain", "explain",
           "profiles", "targets",
           "load_profile", "default_hardware", "version", "config_text", "read_shapes"]

# The TileConfig fields, in the order of a config's text (BMxBNxBK:WARPS:STAGES:SPLITK:gGROUP_M).
FIELDS = ("block_m", "block_n", "block_k", "group_m", "num_warps", "num_stages", "split_k")
_REQUIRED = ("block_m", "block_n", "block_k", "num_warps", "num_stages")
# The keys of a rank() result besides the config fields: a result passed back as a config keeps them.
_RESULT_KEYS = frozenset(("rank", "feasible", "latency_s", "tflops", "pct_of_peak", "bound", "waves", "terms", "reason",
                          # The ROCm launch keys of vLLM's AMD files (and of those --emit vllm writes): a
                          # config read back from such a file warned of them (a fresh user's find).
                          "waves_per_eu", "matrix_instr_nonkdim", "kpack"))
_DEFAULTS = {"group_m": 8, "split_k": 1}


class AdvisorWarning(UserWarning):
    """What the CLI reports as 'gemm-advisor: warning: ...': the input is used, but look at it."""


_PACKAGE_DIR = _os.path.dirname(_os.path.abspath(__file__))


def _warn(messages):
    """Issues each message as an AdvisorWarning, attributed to the caller's line outside this package."""
    if not messages:
        return
    import sys
    level, frame = 2, sys._getframe(1)
    while frame is not None and _os.path.dirname(_os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        level, frame = level + 1, frame.f_back
    for message in messages:
        _warnings.warn(message, AdvisorWarning, stacklevel=level)


def _is_int(v):
    """True for an int or an integer scalar (numpy, torch: what operator.index takes), never a bool."""
    if isinstance(v, bool) or type(v).__name__ in ("bool_", "bool"):
        return False
    if isinstance(v, int):
        return True
    try:
        _operator.index(v)
    except TypeError:
        return False
    return True


# The largest value the C++ half takes for any integer argument: beyond it pybind's conversion fails
# with a multi-line TypeError naming the C++ signature (2**63 tokens: a fresh user's find, 2026-12-03).
_INT_LIMIT = (1 << 63) - 1


def _int(v, name):
    """v as a Python int (numpy and torch integer scalars too); TypeError for anything else, Error
    for a value no C++ integer holds (the C++ half checks each argument's own range)."""
    if not _is_int(v):
        raise TypeError(f"{name} must be an int, not {type(v).__name__}")
    v = _operator.index(v)
    if not -_INT_LIMIT <= v <= _INT_LIMIT:
        raise Error(f"{name} = {v} is outside any range gemm_advisor accepts (at most 2147483647)")
    return v


def _utf8(text, what):
    """text itself; Error when it cannot be UTF-8 (a lone surrogate), which the C++ side needs."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        raise Error(f"{what}: {text!r} is not valid Unicode text ({e.reason} at position {e.start})") from None
    return text


def _shape_text(shape):
    """'MxNxK[xB]' text of a shape given as text or as a tuple of ints."""
    if isinstance(shape, str):
        return _utf8(shape, "shape")
    if isinstance(shape, (tuple, list)):
        if len(shape) not in (3, 4):
            raise Error(f"shape {tuple(shape)!r}: expected (M, N, K) or (M, N, K, B) of ints")
        # A wrong type is a TypeError, as top=1.0 is (a float here was an Error: a fresh user's find).
        for v in shape:
            if not _is_int(v):
                raise TypeError(f"shape {tuple(shape)!r}: dimensions must be ints, not {type(v).__name__}")
        return "x".join(str(_operator.index(v)) for v in shape)
    raise TypeError(f"shape must be 'MxNxK[xB]' text or a tuple (M, N, K[, B]) of ints, not {type(shape).__name__}")


# Profiles read from a path, by the file's path and content: a path given as hw= to every call of a
# loop was parsed and checked each time (10,000 ranks: 22 s against 5 s by name: a fresh Python user's
# find, 2026-12-05). The file is read on every call and parsed again when its bytes differ (keyed on
# its size, time and inode, a rewrite of the same size whose time was restored, as cp -p, rsync -a or
# tar leave it, was missed: a fresh user's find, 2026-12-07). A few files at most.
_path_profiles = {}
_path_profiles_lock = _threading.Lock()
_PROFILE_MAX_BYTES = 16 << 20  # as the C++ reader (read_text_file): larger is its error to say


def _path_profile(path):
    try:
        st = _os.stat(path)
        if not _stat.S_ISREG(st.st_mode) or st.st_size > _PROFILE_MAX_BYTES:
            return None
        with open(path, "rb") as f:
            content = f.read(_PROFILE_MAX_BYTES + 1)
    except (OSError, ValueError):
        return None  # the C++ side says what is wrong, as before
    key = (_os.path.realpath(path), _hashlib.blake2b(content, digest_size=16).digest())
    with _path_profiles_lock:
        profile = _path_profiles.get(key)
    if profile is None:
        profile = load_profile(path)  # its warnings issued on this read
        with _path_profiles_lock:
            if len(_path_profiles) >= 8:
                _path_profiles.clear()
            _path_profiles[key] = profile
    return profile


def _hw_arg(hw, cache=True):
    if isinstance(hw, _os.PathLike):
        hw = _os.fspath(hw)
    if isinstance(hw, str):
        if "\x00" in hw:  # the C++ side would read the path up to it (a fresh user's find, 2026-12-03)
            raise Error(f"hw: {hw!r} holds a NUL character: not a profile name or path")
        hw = _utf8(hw, "hw")
        if cache and ("/" in hw or hw.endswith((".yaml", ".yml"))):
            profile = _path_profile(hw)
            if profile is not None:
                return profile
        return hw
    if hw is None:
        env = _os.environ.get("GEMM_ADVISOR_HW")
        if env:  # loaded here so that a bad value is named as the CLI names it
            try:
                if "/" in env or env.endswith((".yaml", ".yml")):
                    profile = _path_profile(env)  # read once while the file stays as it is
                    if profile is not None:
                        return profile
                return load_profile(env)  # its warnings issued, as for hw=None before
            except Error as e:
                raise Error(f"GEMM_ADVISOR_HW: {e}") from None
        return None
    if isinstance(hw, Profile):
        return hw
    raise TypeError(f"hw must be a profile name, a GPU name, a path or a gemm_advisor.Profile, not {type(hw).__name__}")


_core_peak_flops_per_s = Profile.peak_flops_per_s


def _peak_flops_per_s(self, dtype="bf16"):
    """Datasheet dense matrix peak for a dtype, FLOP/s; 0 when the hardware has no matrix path for it.
    dtype as :func:`rank` takes it (text, or a torch, numpy or Triton dtype; None: bf16, rank's
    default for the 16-bit targets). Raises :class:`Error` for an unknown dtype, TypeError for a
    value that is no dtype."""
    # The dtype objects rank() takes (np.float16 was a TypeError here: a fresh user's find, 2026-12-05);
    # None as rank() takes it (a TypeError whose own message offered None: a fresh user's find, 2026-12-07).
    return _core_peak_flops_per_s(self, _dtype_arg("bf16" if dtype is None else dtype))


_peak_flops_per_s.__name__ = "peak_flops_per_s"
_peak_flops_per_s.__qualname__ = "Profile.peak_flops_per_s"
Profile.peak_flops_per_s = _peak_flops_per_s


def _dtype_arg(value):
    # torch, numpy and Triton dtypes as themselves: str(torch.float16) is "torch.float16" (the C++
    # parser takes it), np.float16 is a type named "float16", np.dtype("float16") and tl.float16
    # print "float16" and "fp16" (each was a TypeError or an unknown dtype: fresh users' finds,
    # 2026-12-04). A tensor or array is no dtype (its text went to the parser).
    if value is None or isinstance(value, str):
        return _text_arg("dtype", value)
    if isinstance(value, type) and value.__module__ == "numpy":
        return _text_arg("dtype", value.__name__)
    kind = type(value)
    # numpy's dtype objects are instances of subclasses of numpy.dtype (numpy 1.24: a class named
    # "dtype[float16]" in module numpy; numpy 2: numpy.dtypes.Float16DType): found on the MRO.
    numpy_dtype = any((c.__module__, c.__name__) == ("numpy", "dtype") for c in kind.__mro__)
    if (kind.__module__, kind.__name__) == ("torch", "dtype") or numpy_dtype or \
            kind.__module__.startswith("numpy.dtypes") or kind.__module__.startswith("triton.language"):
        return _text_arg("dtype", str(value))
    raise TypeError(f"dtype must be text, a torch, numpy or Triton dtype, or None, not {kind.__name__}")


def _text_arg(name, value):
    if value is None:
        return ""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be text or None, not {type(value).__name__}")
    if value == "":
        raise Error(f"{name} must not be empty (None: the target's default)")
    return _utf8(value, name)


def _target_arg(target):
    if not isinstance(target, str):
        raise TypeError(f"target must be a target name (see gemm_advisor.targets()), not {type(target).__name__}")
    # Any case, as the CLI's --target takes it (target="TRITON" was unknown: a fresh user's find, 2026-12-05).
    if target.lower() in {t["name"] for t in _targets_cached()}:
        target = target.lower()
    if target == "vllm-fused-moe":
        raise Error("target vllm-fused-moe ranks a MoE layer: call gemm_advisor.moe_rank(tokens, experts, top_k, "
                    "hidden, intermediate, ...), moe_ranking(...) or moe_explain(...)")
    return _utf8(target, "target")


@_functools.lru_cache(maxsize=None)
def _targets_cached():
    return _json.loads(_core.targets_json())


def _target_info(target):
    """The entry of ``targets()`` for a target name; Error for an unknown target, TypeError for one
    that is no text (target=None was "unknown target 'None'" here, a TypeError in rank)."""
    if not isinstance(target, str):
        raise TypeError(f"target must be a target name (see gemm_advisor.targets()), not {type(target).__name__}")
    # Any case, as _target_arg and the CLI take it (configs(target="TRITON") was unknown where
    # rank(target="TRITON") ranked: a fresh user's find, 2026-12-06).
    for t in _targets_cached():
        if t["name"] == target or t["name"] == target.lower():
            return t
    names = ", ".join(t["name"] for t in _targets_cached())
    raise Error(f"unknown target '{target}' (known: {names})")


def _parameter_names(target):
    """{kernel parameter name: field} of a target (BLOCK_SIZE_M -> block_m); Error for an unknown target."""
    return {p["name"]: p["field"] for p in _target_info(target)["parameters"]}


# `--candidates`' other spellings of the fields (lib/src/candidates.cpp), matched in lower case.
_CSV_ALIASES = {"block_size_m": "block_m", "block_size_n": "block_n", "block_size_k": "block_k",
                "group_size_m": "group_m"}


def config_text(config, target="triton", where="config"):
    """The text form 'BMxBNxBK:WARPS:STAGES:SPLITK:gGROUP_M' of a config.

    ``config`` is that text already (returned as is) or a dict of the advisor's field names
    (block_m, block_n, block_k, num_warps, num_stages; optional group_m, default 8, and split_k,
    default 1) or of the target's own parameter names (BLOCK_SIZE_M, ...; as
    :func:`targets` lists them), or the spellings ``--candidates`` takes (any case; BLOCK_SIZE_M,
    GROUP_SIZE_M for every target). The other keys of a :func:`rank` result (rank, latency_s, terms,
    ..., and the ROCm keys waves_per_eu, matrix_instr_nonkdim, kpack of vLLM's AMD files) are ignored,
    so a dict that :func:`rank` returned or a vLLM file holds can be passed back; any other key (a
    misspelt ``splitk``) is ignored with an :class:`AdvisorWarning`, as the CLI warns of an unknown
    column. Raises :class:`Error` naming ``where`` for a missing field, a value below 1 or above what
    config text takes (block sizes, split_k and group_m 65536, num_warps 1024, num_stages 64), or two
    keys for one field; TypeError for a value that is not an int (a float, None, a bool).
    """
    if isinstance(config, str):
        return _utf8(config, where)
    if not isinstance(config, dict) and hasattr(config, "kwargs") and hasattr(config, "num_warps"):
        # A triton.Config (what gemm_advisor.triton.configs returns when triton is there): its kwargs
        # and its own num_warps / num_stages (refused: a fresh user's find, 2026-12-04).
        config = {**dict(config.kwargs or {}), "num_warps": config.num_warps,
                  "num_stages": getattr(config, "num_stages", None)}
    if not isinstance(config, dict):
        # explain(shape, load_profile("h200")), as rank(shape, profile) is written: the GPU goes in hw=
        # (a bare TypeError: a fresh Python user's find, 2026-12-05).
        hint = " (the GPU goes in hw=: explain's second argument is the config)" if isinstance(config, Profile) else ""
        raise TypeError(f"{where} must be a dict of config fields, config text or a triton.Config, "
                        f"not {type(config).__name__}{hint}")
    by_name = _parameter_names(target)
    values = {}
    unknown = []
    for key, value in config.items():
        field = key if key in FIELDS else by_name.get(key)
        if field is None and isinstance(key, str):
            # The CLI's --candidates spellings, whatever the target: a header name in lower case, or
            # Triton's BLOCK_SIZE_M / GROUP_SIZE_M (Python refused those for the triton target, whose
            # own names are BLOCK_M ...: a fresh user's find, 2026-12-04).
            lower = key.lower()
            field = lower if lower in FIELDS else _CSV_ALIASES.get(lower)
        if field is None:
            if key not in _RESULT_KEYS:
                unknown.append(key)
            continue
        if field in values:
            raise Error(f"{where}: {field} given twice (as '{key}' too)")
        # A wrong type is a TypeError, a bad value an Error, as for the other arguments (a float
        # here was an Error, where the README says TypeError: a fresh user's find, 2026-12-05).
        if not _is_int(value):
            raise TypeError(f"{where}: {key} must be an int, not {type(value).__name__} ({value!r})")
        if _operator.index(value) < 1:
            raise Error(f"{where}: {key} must be a positive whole number, got {value!r}")
        # ... and within what the config parser takes: text of 2**80 was written, then refused by
        # rank and explain (a fresh Python user's find, 2026-12-07).
        if _operator.index(value) > _core.config_limits[field]:
            raise Error(f"{where}: {key} = {_operator.index(value)} is larger than {_core.config_limits[field]}")
        values[field] = _operator.index(value)
    if unknown:
        _warn([f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(repr(k) for k in unknown)} ignored "
               f"(config fields: {', '.join(FIELDS)}, or the target's parameter names)"])
    missing = [f for f in _REQUIRED if f not in values]
    if missing:
        raise Error(f"{where}: missing {', '.join(missing)} (a config needs {', '.join(_REQUIRED)})")
    v = {**_DEFAULTS, **values}
    return f"{v['block_m']}x{v['block_n']}x{v['block_k']}:{v['num_warps']}:{v['num_stages']}:{v['split_k']}:g{v['group_m']}"


def _candidate_texts(candidates, target):
    # candidates= as config texts for the core (None: the target's space).
    if candidates is None:
        return None
    if isinstance(candidates, (str, dict)):
        raise TypeError("candidates must be a list of configs (dicts or config text), not one config")
    try:
        items = list(candidates)
    except TypeError:
        raise TypeError("candidates must be a list of configs (dicts or config text), not "
                        f"{type(candidates).__name__}") from None
    return [config_text(c, target, f"candidates[{i}]") for i, c in enumerate(items)]


def _distinct_arg(distinct):
    if not isinstance(distinct, bool):
        raise TypeError(f"distinct must be True or False, not {type(distinct).__name__}")
    return distinct


def _top_arg(top):
    # The range before _int's limit, so that a huge top is told this range (a fresh user's find,
    # 2026-12-06); _int says what a non-integer is.
    if _is_int(top) and not 0 <= _operator.index(top) <= 1000000:
        raise Error(f"top must be in 0..1000000 (0 = all), got {_operator.index(top)}")
    return _int(top, "top")


def _cu_count_arg(cu_count):
    """cu_count as the C++ half takes it: 0 for None (the whole GPU)."""
    if cu_count is None:
        return 0
    if _is_int(cu_count) and not 1 <= _operator.index(cu_count) <= 1 << 20:
        # The GPU's own bound ("outside 1..132 (h200 has 132 CUs)") is the profile's, checked by the
        # C++ half; no GPU has more than this one, which the message need not quote (a fresh user read
        # three limits for one argument, 2026-12-06).
        raise Error(f"cu_count = {_operator.index(cu_count)} is not a CU count: give 1 up to the GPU's CUs")
    return _int(cu_count, "cu_count")


def _max_split_k_arg(max_split_k, target):
    """max_split_k as the C++ half takes it: 0 for None (the profile's triton.max_split_k)."""
    if max_split_k is None:
        return 0
    max_split_k = _int(max_split_k, "max_split_k")
    if max_split_k < 1 or max_split_k > 1 << 16:
        raise Error(f"max_split_k must be in 1..65536, got {max_split_k}")
    if not any(p["field"] == "split_k" for p in _target_info(target)["parameters"]):
        _warn([f"max_split_k: target {target} has no split-K: no effect"])
    return max_split_k


def ranking(shape, hw=None, dtype=None, layout=None, target="triton", top=10, candidates=None, *, distinct=False,
            cu_count=None, max_split_k=None):
    """The whole ranking of one GEMM, as ``gemm-advisor rank --format json`` prints it.

    Returns a dict with "problem" (m, n, k, batch, dtype, layout), "hardware" (name, display_name,
    peak_tflops: the dtype's datasheet peak in TFLOP/s), "target", "generator", "configs" (see
    :func:`rank`) and, when some ``candidates`` cannot run, "infeasible" (each with "reason").
    Arguments as for :func:`rank`.
    """
    target = _target_arg(target)
    texts = _candidate_texts(candidates, target)
    distinct = _distinct_arg(distinct)
    text, warnings = _core.ranking_json(_shape_text(shape), _hw_arg(hw), _dtype_arg(dtype),
                                        _text_arg("layout", layout), target, _top_arg(top),
                                        distinct, texts, _cu_count_arg(cu_count),
                                        _max_split_k_arg(max_split_k, target))
    _warn(warnings)
    return _json.loads(text)


def rank(shape, hw=None, dtype=None, layout=None, target="triton", top=10, candidates=None, *, distinct=False,
         cu_count=None, max_split_k=None):
    """Rank the tile configs of a target for one GEMM shape on a GPU, best first.

    shape: "MxNxK" or "MxNxKxB" text, or a tuple (M, N, K) or (M, N, K, B) of ints.
    hw: a profile name, a GPU name, a profile YAML path, a :class:`Profile`, or None (see the
        module's doc: $GEMM_ADVISOR_HW, else the local GPU, else :class:`Error`). A path is read
        on every call and parsed and checked again whenever its content differs: in a loop, a
        :func:`load_profile` Profile saves the read.
    dtype: fp32, fp16, bf16, fp8, fp6 or fp4; None: the target's default (bf16; fp8 for
        vllm-fp8-block). layout: NN, NT, TN or TT (storage of A and B; NT = a PyTorch Linear);
        None: the target's default (NT).
    target: the kernel (``gemm_advisor.targets()``): "triton", "triton-tutorial", "vllm-fp8-block".
    top: how many configs to return (0 = all).
    candidates: None (the target's whole candidate space) or a list of configs to rank instead,
        each a dict (see :func:`config_text`) or config text "128x128x64:8:3"; configs that cannot
        run are left out of the result with an :class:`AdvisorWarning` giving the reason (the
        whole result: :func:`ranking`'s "infeasible").
    distinct: the best config of each distinct tile (block_m, block_n, block_k, split_k) first.
    cu_count: None (the whole GPU) or the CUs (SMs) the kernel may use, for a partition (MIG, MI300X
        CPX) or a CU mask, as ``--cu-count``: waves and peak follow it, memory stays the profile's;
        :class:`Error` above the GPU's own count.
    max_split_k: None (the profile's ``triton.max_split_k``, 256) or the largest split_k the
        split-K target (triton) tries and accepts, as ``--max-split-k`` (1..65536): a few-tile,
        huge-K shape may split K across all the CUs.

    Returns a list of dicts with exactly the keys of a config entry of ``gemm-advisor rank
    --format json``: rank (1 = best), block_m, block_n, block_k, group_m, num_warps, num_stages,
    split_k, feasible (True), latency_s (predicted time, seconds), tflops (useful
    2*M*N*K*batch/s / 1e12), pct_of_peak (0..100 of the datasheet peak), bound ("compute",
    "memory" or "issue"), waves, terms (every term of the estimate, units in the key names).

    Raises :class:`Error` for bad input: a malformed shape, an unknown profile, dtype, layout or
    target, a dtype the GPU lacks, a bad candidate, or no candidate that can run (the message
    gives the reason); TypeError for an argument of the wrong type (a float size, None).
    """
    return ranking(shape, hw, dtype, layout, target, top, candidates, distinct=distinct, cu_count=cu_count,
                   max_split_k=max_split_k)["configs"]


def _moe_args(tokens, experts, top_k, hidden, intermediate, tp, dtype, block_shape, routing, gemm):
    """The layer arguments of moe_ranking / moe_explain, checked, as the C++ half takes them."""
    ints = {"tokens": tokens, "experts": experts, "top_k": top_k, "hidden": hidden, "intermediate": intermediate,
            "tp": tp}
    if isinstance(tp, (str, Profile, _os.PathLike)):
        # moe_rank(64, 128, 8, 2048, 768, "h200"): the sixth argument is tp (a bare "tp must be an int, not
        # str" did not say so: a fresh user's find, 2026-12-05).
        # A config there (moe_explain(64, 128, 8, 2048, 768, "64x64x64:4:2")) is not a GPU: it goes to
        # config= (the hint said hw='64x64x64:4:2': a fresh user's find, 2026-12-06).
        looks_like_config = isinstance(tp, str) and ":" in tp and tp.split(":")[0].count("x") == 2
        hint = (f"give the config as config={tp!r} (moe_explain's config is a keyword argument)"
                if looks_like_config else f"give the GPU as hw={tp!r}")
        raise TypeError(f"tp must be an int, not {type(tp).__name__}: the sixth argument is tp (tensor-parallel "
                        f"ranks); {hint}")
    tokens, experts, top_k, hidden, intermediate, tp = (_int(v, name) for name, v in ints.items())
    # Its forms named in the message: "must be text or None" for a numpy array, and "block_shape must
    # be an int" for a float inside a list, misdescribed them (a fresh Python user's find, 2026-12-07).
    forms = "text ('128x128'), a pair of ints ([128, 128]) or None"
    if block_shape is not None and not isinstance(block_shape, (str, list, tuple)):
        if hasattr(block_shape, "tolist"):  # a numpy array or torch tensor of the two sizes
            block_shape = block_shape.tolist()
        if not isinstance(block_shape, (list, tuple)):
            raise TypeError(f"block_shape must be {forms}, not {type(block_shape).__name__}")
    if isinstance(block_shape, (list, tuple)):
        # Each size as an int (numpy and torch integer scalars too), as the other integer arguments.
        for i, b in enumerate(block_shape):
            if not _is_int(b):
                raise TypeError(f"block_shape[{i}] must be an int (block_shape: {forms}), not {type(b).__name__}")
        block_shape = "x".join(str(_int(b, "block_shape")) for b in block_shape)
    return (tokens, experts, top_k, hidden, intermediate, tp, _dtype_arg(dtype) or "bf16",
            _text_arg("block_shape", block_shape) or "", _text_arg("routing", routing) or "tuner",
            (_text_arg("gemm", gemm) or "layer").lower())  # any case, as the CLI's --gemm


def moe_ranking(tokens, experts, top_k, hidden, intermediate, tp=1, hw=None, dtype="bf16", block_shape=None,
                routing="tuner", gemm="layer", top=10, *, cu_count=None, distinct=False, candidates=None):
    """The ranking of vLLM's fused-MoE kernel (target vllm-fused-moe) for one MoE layer, as
    ``gemm-advisor rank TOKENS --target vllm-fused-moe --experts E --top-k K --hidden H
    --intermediate I --tp T --format json`` prints it (a dict; "problem" has a "moe" entry).

    tokens: M, the tokens of the batch. experts, top_k, hidden, intermediate: the layer (the
    expert's intermediate size before tensor parallelism); tp: tensor-parallel ranks (N =
    intermediate / tp). dtype: "bf16", "fp16" or "fp8_w8a8"; block_shape: None (per-tensor scales)
    or "128x128" / [128, 128] for block-quantised fp8. routing: "tuner" (the default: as vLLM's
    benchmark_moe.py routes, random logits; "random" is the same), "uniform" (perfectly balanced
    experts) or "zipf:S" (skewed). gemm: "layer" (both launches, one config, as vLLM runs
    them), "up" or "down". hw, top, cu_count, distinct and candidates (configs in vLLM's
    BLOCK_SIZE_M, ... names or the advisor's; ranked instead of the tuner's space) as for :func:`rank`.

    Raises :class:`Error` for a bad layer (top_k > experts, tp not dividing intermediate, ...).
    """
    layer = _moe_args(tokens, experts, top_k, hidden, intermediate, tp, dtype, block_shape, routing, gemm)
    text, warnings = _core.moe_ranking_json(*layer, _hw_arg(hw), _top_arg(top),
                                            _distinct_arg(distinct), _candidate_texts(candidates, "vllm-fused-moe"),
                                            _cu_count_arg(cu_count))
    _warn(warnings)
    return _json.loads(text)


def moe_rank(tokens, experts, top_k, hidden, intermediate, tp=1, hw=None, dtype="bf16", block_shape=None,
             routing="tuner", gemm="layer", top=10, *, cu_count=None, distinct=False, candidates=None):
    """The configs of :func:`moe_ranking`, best first (the keys of :func:`rank`'s dicts; latency_s
    is the layer's: up + down). Pass them to vLLM as BLOCK_SIZE_M = block_m, ... (or write whole
    config files with ``gemm-advisor batch --target vllm-fused-moe --emit vllm``)."""
    return moe_ranking(tokens, experts, top_k, hidden, intermediate, tp, hw, dtype, block_shape, routing, gemm,
                       top, cu_count=cu_count, distinct=distinct, candidates=candidates)["configs"]


def moe_explain(tokens, experts, top_k, hidden, intermediate, tp=1, hw=None, dtype="bf16", block_shape=None,
                routing="tuner", gemm="layer", config=None, *, cu_count=None):
    """Every term of one fused-MoE estimate, as ``gemm-advisor explain TOKENS --target vllm-fused-moe
    --experts E --top-k K --hidden H --intermediate I --format json`` prints it: the :func:`moe_ranking`
    dict with one entry in "configs", "chosen", and for a layer "gemms" (its up and down launches under
    the one config, each with its latency_s, tflops, bound and terms).

    config: None (the advisor's top config), config text or a dict (vLLM's BLOCK_SIZE_M, ... names or
    the advisor's; see :func:`config_text`). The other arguments as for :func:`moe_ranking`. Raises
    :class:`Error` for bad input, including a config that cannot run (with the reason).
    """
    layer = _moe_args(tokens, experts, top_k, hidden, intermediate, tp, dtype, block_shape, routing, gemm)
    text = "" if config is None else config_text(config, "vllm-fused-moe")
    if config is not None and not text.strip():
        raise Error("moe_explain: config must not be empty (None explains the advisor's top config)")
    result, warnings = _core.moe_explain_json(*layer, _hw_arg(hw), text, _cu_count_arg(cu_count))
    _warn(warnings)
    return _json.loads(result)


def explain(shape, config=None, hw=None, dtype=None, layout=None, target="triton", *, cu_count=None,
            max_split_k=None):
    """Every term of one estimate, as ``gemm-advisor explain --format json`` prints it.

    config: None (the advisor's top config), config text "BMxBNxBK:WARPS:STAGES[:SPLITK][:gG]"
    or a dict (see :func:`config_text`). hw, dtype, layout, target, cu_count and max_split_k as
    for :func:`rank` (explain takes no top, distinct or candidates: it explains one config).
    Returns the :func:`ranking` dict with one entry in "configs" and "chosen" ("given" or "the
    advisor's top config"). Raises :class:`Error` for bad input, including a config that cannot
    run (with the reason).
    """
    target = _target_arg(target)
    if isinstance(config, str) and config.strip() and ":" not in config:
        # explain(shape, "h200"), as rank(shape, "h200") is written, took the GPU for the config and
        # said "no hw= given" (a fresh Python user's find, 2026-12-04).
        raise Error(f"explain: config {config!r} is not BMxBNxBK:WARPS:STAGES[:SPLITK][:gG]" +
                    (" (explain's second argument is the config: give the GPU as hw=)" if hw is None else ""))
    text = "" if config is None else config_text(config, target)
    if config is not None and not text.strip():
        # As the CLI's --config "" (it explained the top config unsaid: a fresh user's find).
        raise Error("explain: config must not be empty (None explains the advisor's top config)")
    result, warnings = _core.explain_json(_shape_text(shape), _hw_arg(hw), _dtype_arg(dtype),
                                          _text_arg("layout", layout), target, text, _cu_count_arg(cu_count),
                                          _max_split_k_arg(max_split_k, target))
    _warn(warnings)
    return _json.loads(result)


def profiles():
    """The shipped hardware profiles, as ``gemm-advisor profiles --format json`` lists them.

    A list of dicts, sorted by name: name ("h200", what hw= takes), display_name, vendor, arch,
    cu_count, peak_bf16_tflops (TFLOP/s), dram_tb_per_s (TB/s) and aliases (the GPU names hw=
    also takes).
    """
    return _json.loads(_core.profiles_json())


def targets():
    """The kernels configs are ranked for, as ``gemm-advisor targets --format json`` lists them.

    A list of dicts: name (what target= takes), kernel, source, parameters (each {name: the
    kernel's own name, field: the advisor's, values}) and model_parameters.
    """
    # A deep copy: the module's own list stays as it is whatever the caller does with the nested
    # parameter dicts (renaming them renamed configs()'s keys: a fresh user's find, 2026-12-06).
    return _copy.deepcopy(_targets_cached())


def read_shapes(path, dtype=None, layout=None, target="triton", *, format="auto"):
    """The shapes of a shape-list file, as ``gemm-advisor batch`` reads it, to rank one by one.

    path: a CSV with a header (m, n, k and optional batch, dtype, layout, name), a YAML or JSON
    list of such mappings (or a mapping with a ``shapes:`` list), JSON Lines, or text of one
    MxNxK[xB] a line ('#' comments and blank lines allowed), any of them gzipped (a name ending in
    ``.gz``: ``shapes.csv.gz``); the format from the name's ending (under ``.gz``),
    else sniffed (``format``: "csv", "yaml", "json", "text" or "auto"). dtype, layout: the defaults
    of entries without their own, as for :func:`rank` (None: the target's; an entry's own dtype wins,
    and the first that differs from a given dtype is warned of, once, as ``batch`` does). Returns a list of dicts
    with m, n, k, batch (ints), dtype (the standard name: bf16, fp8, ... as ``batch`` reports it),
    layout, name (text, "" where none), line (the entry's line in the file) and dtype_text (the
    entry's own spelling of its dtype, e.g. "torch.bfloat16" or "float8_e4m3fnuz", else dtype), in
    the file's order; each is ranked by ``rank((s["m"], s["n"], s["k"], s["batch"]), hw,
    dtype=s["dtype_text"], layout=s["layout"])`` (dtype_text: an fp8 encoding the GPU does not
    compute is warned of, as ``batch`` does). ``target`` gives only the defaults: an entry whose own
    dtype or layout the target's kernel does not take (a bf16 line for vllm-fp8-block) is read as
    written, and ``rank`` refuses it (``batch`` refuses it at its line; here ``s["line"]`` says where). The reader's warnings (an unknown
    column) are issued as :class:`AdvisorWarning`. Raises :class:`Error` for an unreadable file
    (over 256 MiB included), a broken list or the first bad entry, with its file:line. The list is
    held in memory, about half a kilobyte of Python objects a shape (4 million shapes, 2.3 GB):
    for lists of millions, ``gemm-advisor batch`` streams them.
    """
    if not isinstance(path, (str, _os.PathLike)):
        raise TypeError(f"read_shapes: path must be a path, not {type(path).__name__}")
    path = _utf8(_os.fspath(path), "path")
    if "\x00" in path:
        raise Error(f"path: {path!r} holds a NUL character")
    if path == "-":  # batch's stdin; here a missing file was reported (a fresh user's find, 2026-12-05)
        raise Error("read_shapes: '-' (stdin) is not read here: give a file path (or write stdin to a file first)")
    target = _target_arg(target)
    try:
        shapes, warnings = _core.read_shapes(path, _dtype_arg(dtype), _text_arg("layout", layout), target,
                                             (_text_arg("format", format) or "auto").lower())  # any case, as --input-format
    except Error as e:
        # The reader's advice is the CLI's (--target vllm-fused-moe), which read_shapes does not take: the
        # Python call for such a list said in its place (a fresh user's find, 2026-12-06).
        text = str(e)
        if text.endswith("a fused-MoE model list: give --target vllm-fused-moe"):
            raise Error(text[: -len("give --target vllm-fused-moe")] + "read_shapes reads GEMM shape lists; rank each "
                        "model's layer with gemm_advisor.moe_rank(tokens, experts, top_k, hidden, intermediate, ...)"
                        ) from None
        raise
    _warn(warnings)
    keys = ("m", "n", "k", "batch", "dtype", "layout", "name", "line", "dtype_text")
    return [dict(zip(keys, s)) for s in shapes]


def load_profile(name_or_path):
    """Load a hardware profile once, to pass as hw= to many calls.

    name_or_path: a shipped name or GPU name (as hw= takes it) or a path to a profile YAML
    (schema: profiles/SCHEMA.md): text with a '/' or a .yaml/.yml ending is a path, and so is
    the name of a file that exists, unless it is a shipped name ('h200': give './h200'). Returns a
    :class:`Profile` (name, display_name, vendor, arch, cu_count, dram_bandwidth_bytes_per_s,
    l2_bandwidth_bytes_per_s, peak_flops_per_s(dtype), warnings). The file's warnings (unknown
    keys, uncited numbers) are issued as :class:`AdvisorWarning`. Raises :class:`Error` for an
    unknown name, an unreadable file or a broken profile. A Profile copies exactly and pickles as
    a shipped profile's name or a file's text (the same profile where it is unpickled, whatever
    becomes of the file: multiprocessing, another host).
    """
    if name_or_path is not None and not isinstance(name_or_path, (str, _os.PathLike, Profile)):
        # Named as this function's argument, not as hw= (a fresh user's find, 2026-12-04).
        raise TypeError(f"load_profile: name_or_path must be a profile name, a GPU name, a path or a "
                        f"gemm_advisor.Profile, not {type(name_or_path).__name__}")
    hw = _hw_arg(name_or_path, cache=False)  # read now: load_profile is the explicit read
    if hw is None:
        raise TypeError("load_profile needs a name or a path (for the default: load_profile(default_hardware()))")
    if isinstance(hw, Profile):
        return hw
    profile = _core.load_profile(hw)
    _warn(profile.warnings)
    return profile


def _profile_of(hw):
    # hw as a loaded Profile, hw=None as everywhere: $GEMM_ADVISOR_HW (a bad value named as coming from
    # it: shortlist lost that, a fresh user's find), else the local GPU.
    arg = _hw_arg(hw)
    if isinstance(arg, Profile):
        return arg
    return load_profile(default_hardware() if arg is None else arg)


def _profile_from_text(text, source):
    # What a pickled file Profile is made from where it is unpickled: the text read when it was loaded.
    return _core.profile_from_text(text, source)


def default_hardware():
    """The profile name hw=None means: $GEMM_ADVISOR_HW, else the local GPU (nvidia-smi, rocm-smi).

    Returns $GEMM_ADVISOR_HW as it is set (a call with hw=None then checks it, and an unknown value
    is an :class:`Error` naming the variable). Raises :class:`Error` when neither names a profile,
    listing the shipped ones.
    """
    return _core.default_hardware_name()


def version():
    """'gemm-advisor VERSION (commit C, model digest D)', as ``gemm-advisor --version`` prints it."""
    return _core.version_line()
