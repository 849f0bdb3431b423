"""gemm_advisor.triton: the advisor's configs in Triton's autotuner.

Two ways in::

    import triton, gemm_advisor.triton as gat

    # 1. The advisor's top configs for a representative shape, as the autotune list:
    @triton.autotune(configs=gat.configs(4096, 4096, 4096, hw="h200", top=8), key=["M", "N", "K"])

    # 2. Any config list, cut per shape to the advisor's shortlist before benchmarking:
    @triton.autotune(configs=my_configs, key=["M", "N", "K"],
                     prune_configs_by=gat.shortlist(top=8, hw="h200"))

Parameter names: the target's own (``gemm-advisor targets``: BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M,
SPLIT_K for "triton"; BLOCK_SIZE_M, ... for "triton-tutorial" and "vllm-fp8-block"); ``names``
renames them for your kernel, keyed by the advisor's field names (block_m, block_n, block_k,
group_m, split_k): ``names={"block_m": "BM", "split_k": None}`` (None: the kernel has no such
parameter; :func:`configs` then ranks only the configs with split_k 1, and a kernel without
GROUP_M is ranked with GROUP_M 8's grouped raster, the triton target's). num_warps and num_stages
are always ``triton.Config``'s own arguments.

Triton is imported only when present: without it, :func:`configs` returns plain dicts (the
kernel's names plus num_warps and num_stages, as ``gemm-advisor batch --emit triton`` writes).
"""

import operator as _operator
import warnings as _warnings

import gemm_advisor as _ga

__all__ = ["configs", "shortlist", "parameter_names"]

_OWN = ("num_warps", "num_stages")  # triton.Config's own arguments, never kernel parameters


def _triton():
    try:
        import triton  # noqa: PLC0415 (optional dependency)
    except ImportError:
        return None
    if not hasattr(triton, "Config"):
        # Not Triton: a folder named triton on the path (a checkout in the working directory) imports
        # as an empty namespace package. Plain dicts then, said once per call.
        where = getattr(triton, "__path__", None) or getattr(triton, "__file__", "?")
        _warnings.warn(f"the module 'triton' imported from {list(where) if where != '?' else where} has no Config "
                      "(a folder named triton on the path, not Triton?): configs are dicts", _ga.AdvisorWarning,
                      stacklevel=3)
        return None
    return triton


def parameter_names(target="triton", names=None):
    """{advisor field: kernel parameter name} for a target, with ``names`` applied.

    The target's own names (``gemm_advisor.targets()``) for every field it has; ``names`` maps
    field names (block_m, block_n, block_k, group_m, split_k, or the target's own parameter names,
    BLOCK_M or BLOCK_SIZE_M, as ``--names`` takes them) to your kernel's names, or to None
    to leave the field out. Raises gemm_advisor.Error for an unknown target or field, or a name
    used twice; TypeError when ``names`` is not a dict of text (or None) values.
    """
    own = _ga._parameter_names(target)  # kernel name -> field
    result = {field: name for name, field in own.items() if field not in _OWN}
    if names is not None:
        if not isinstance(names, dict):
            raise TypeError(f"names must be a dict {{field: kernel name}}, not {type(names).__name__}")
        given = {}  # field -> the key that named it
        for field, name in names.items():
            key = field
            # The target's own parameter names as keys too (BLOCK_M: block_m), as --names takes them (a
            # fresh user's find, 2026-12-04).
            if isinstance(field, str) and field not in _ga.FIELDS and own.get(field) not in (None, *_OWN):
                field = own[field]
            # One field named twice (BLOCK_M and block_m), as --names refuses it (the last was kept).
            if field in given:
                raise _ga.Error(f"names: {given[field]!r} and {key!r} both name {field}")
            given[field] = key
            # A field the target's kernel lacks may be left out (no change), not renamed, as --names.
            if field in _ga.FIELDS and field not in _OWN and field not in own.values() and name is not None:
                raise _ga.Error(f"names: {field} is not a parameter of {target} (its parameters: "
                                f"{', '.join(n for n, f in own.items() if f not in _OWN)})")
            if field in _OWN:
                raise _ga.Error(f"names: {field} is triton.Config's own argument and cannot be renamed")
            if field not in _ga.FIELDS:
                raise _ga.Error(f"names: unknown field '{field}' (fields: "
                                f"{', '.join(f for f in _ga.FIELDS if f not in _OWN)})")
            if name is not None and not isinstance(name, str):
                raise TypeError(f"names['{field}'] must be text or None, not {type(name).__name__}")
            if name is not None and not name.isidentifier():
                raise _ga.Error(f"names['{field}']: {name!r} is not a name (a Python identifier, as a kernel's "
                                f"tl.constexpr argument is)")
            if name is None and field in ("block_m", "block_n", "block_k"):
                # The configs would lose their tile (and two could be written alike), as --names refuses.
                raise _ga.Error(f"names: {field} is a block size, which every kernel has: it can be renamed, "
                                f"not left out (None)")
            if name is None:
                result.pop(field, None)
            else:
                result[field] = name
    seen = {}
    launch_options = _ga._core.triton_launch_options.split(", ")
    for field, name in result.items():
        if name in seen or name in _OWN:
            raise _ga.Error(f"names: '{name}' names both {seen.get(name, name)} and {field}")
        # triton.Config's or the launch's own keyword (num_ctas, pre_hook...): read as that option, not
        # as the kernel's parameter (accepted before: a fresh user's find, 2026-12-07; --names the same).
        if name in launch_options:
            raise _ga.Error(f"names: '{name}' (for {field}) is an argument of triton.Config or of the launch "
                            f"({_ga._core.triton_launch_options}), not a kernel parameter's name")
        seen[name] = field
    return result


def _to_kernel(kwargs, entry, triton):
    """A config's kernel arguments (`kwargs`) with the entry's num_warps and num_stages, as triton.Config
    (or a dict without triton)."""
    if triton is None:
        return {**kwargs, "num_warps": entry["num_warps"], "num_stages": entry["num_stages"]}
    return triton.Config(kwargs, num_warps=entry["num_warps"], num_stages=entry["num_stages"])


def _dim(value, what):
    # ints, numpy and torch integer scalars; a bool is no dimension (True ran as M = 1: a fresh user's
    # find, 2026-12-04), as rank((True, ...)) refuses it.
    if not _ga._is_int(value):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    return _operator.index(value)


def configs(M, N, K, hw=None, top=8, names=None, dtype=None, target="triton", layout=None, *, batch=1,
            distinct=True, cu_count=None, max_split_k=None):
    """The advisor's top configs for one GEMM shape, ready for ``triton.autotune(configs=...)``.

    M, N, K (and batch): the problem's dimensions (ints). hw, dtype, layout, target: as for
    :func:`gemm_advisor.rank`. top: how many (0 = all). names: see the module's doc.
    distinct: one config per distinct tile (block_m, block_n, block_k, split_k) first, as an
    autotuner's shortlist wants (``gemm-advisor rank --distinct``). cu_count, max_split_k: as for
    :func:`gemm_advisor.rank` (``--cu-count`` for a partition: MIG, CPX, a CU mask; ``--max-split-k``).

    Returns a list, best first, of ``triton.Config(kwargs, num_warps=, num_stages=)`` when triton
    can be imported, else of dicts {kernel name: value, ..., "num_warps", "num_stages"}. Every
    config fits the profile's limits. Raises gemm_advisor.Error for bad input.
    """
    mapping = parameter_names(target, names)
    # The shape as given: a batch of 1 left out (errors quoted "0x4096x4096x1", a shape never written).
    shape = (_dim(M, "M"), _dim(N, "N"), _dim(K, "K"), _dim(batch, "batch"))
    if shape[3] == 1:
        shape = shape[:3]
    top = _ga._top_arg(top)
    own_fields = set(_ga._parameter_names(target).values())
    if "split_k" in own_fields and "split_k" not in mapping:
        # A kernel without SPLIT_K is ranked over the unsplit configs, as --names SPLIT_K= ranks it
        # (ranking the split ones too and dropping them broke ties against configs it cannot run: its
        # order differed from the CLI's, a fresh user's find, 2026-12-04).
        # max_split_k is checked as rank checks it first (a float, a string or 0 passed here: a fresh
        # user's find, 2026-12-06).
        if max_split_k is not None:
            _ga.ranking((64, 64, 64), hw=hw, dtype=dtype, layout=layout, target=target, top=1, cu_count=cu_count,
                        max_split_k=max_split_k)
            if max_split_k > 1:
                raise _ga.Error(f"max_split_k={max_split_k} with names leaving SPLIT_K out: the kernel cannot split K")
        max_split_k = 1
    # A field left out (GROUP_SIZE_M) makes configs that differed only there alike: each is written
    # once, at its best place, from the whole ranking, so that `top` distinct ones remain (8 configs
    # held 6 distinct ones: a fresh user's find, 2026-12-04), as --emit triton writes them.
    left_out = any(f not in mapping for f in own_fields if f not in _OWN)
    ranked = _ga.rank(shape, hw=hw, dtype=dtype, layout=layout, target=target, top=0 if left_out else top,
                      distinct=distinct, cu_count=cu_count, max_split_k=max_split_k)
    triton = _triton()
    out, seen = [], set()
    for entry in ranked:
        kwargs = {name: entry[field] for field, name in mapping.items()}
        key = (tuple(sorted(kwargs.items())), entry["num_warps"], entry["num_stages"])
        if key in seen:
            continue
        seen.add(key)
        out.append(_to_kernel(kwargs, entry, triton))
        if top and len(out) >= top:
            break
    return out


def _fields_of(config, inverse):
    """The advisor's fields of a triton.Config (or a dict as configs() returns without triton)."""
    if isinstance(config, dict):
        kwargs = {k: v for k, v in config.items() if k not in _OWN}
        own = {k: config.get(k) for k in _OWN}
    else:
        kwargs = dict(getattr(config, "kwargs", {}) or {})
        own = {k: getattr(config, k, None) for k in _OWN}
    fields = {inverse[k]: v for k, v in kwargs.items() if k in inverse}
    fields.update({k: v for k, v in own.items() if v is not None})
    return fields


def _past_search_bound(reason):
    """Whether an infeasibility reason is only the profile's bound on the search (num_stages above
    triton.max_num_stages, split_k above max_split_k): such a config may well run."""
    return "(triton.max_num_stages" in reason or "(triton.max_split_k" in reason


def _launch_dtype(args, key_names):
    """The dtype of a launch's first argument that has one (a tensor: ``x.dtype``), in argument order,
    or None (the target's default) where none has."""
    for name, value in args.items():
        if name in key_names:
            continue
        kind = getattr(value, "dtype", None)
        if kind is not None:
            return kind
    return None


def shortlist(top=8, hw=None, key_names=("M", "N", "K"), names=None, dtype=None, layout=None, target="triton", *,
              distinct=True, cu_count=None, max_split_k=None):
    """A ``prune_configs_by`` for ``triton.autotune`` that benchmarks only the advisor's shortlist.

    Returns {"early_config_prune": fn}. For each new autotune key Triton calls
    ``fn(configs, named_args, **kwargs)``; fn reads M, N, K from ``named_args`` (or, for a launch
    that passes them by keyword, from ``kwargs``) under
    ``key_names`` (a 4th name, if given, is the batch), ranks exactly those configs with the
    advisor (their parameters read back through ``names``, as for :func:`configs`; num_warps and
    num_stages from the Config) and returns the ``top`` it ranks highest among them (0: all), best first
    (configs that share the advisor's fields and differ only in other kernel arguments stay
    together). dtype=None ranks each launch in its own dtype, the first tensor argument's (A's, by
    the usual argument order; the target's default where no argument has one). Configs that cannot
    run on the GPU are dropped; those only outside the advisor's
    search bounds (num_stages above the profile's triton.max_num_stages, split_k above max_split_k)
    are kept after the shortlist, unranked, with an AdvisorWarning. cu_count, max_split_k: as for
    :func:`configs` (a kernel autotuned on a partition: MIG, MI300X CPX).

    The profile is loaded now, so a bad ``hw`` (or none found) raises gemm_advisor.Error here, at
    decoration time. At run time, a config the advisor cannot describe (a field it needs is not a
    parameter) or a shape it rejects is kept rather than lost: fn issues an AdvisorWarning and
    returns the configs it was given, so the autotuner still benchmarks them all. A name of
    ``key_names`` that is not one of the kernel's arguments is a setup error, which no shape would
    fix: the first call raises gemm_advisor.Error naming it.
    """
    # A wrong type is a TypeError, a bad value an Error, as for rank(top=...) (a fresh user's find,
    # 2026-12-04: shortlist raised Error for both).
    # top=0 keeps every config the advisor can run, best first, as rank(top=0) and configs(top=0)
    # return all (it was refused here alone: a fresh user's find, 2026-12-07).
    try:
        top = _ga._top_arg(top)
    except _ga.Error as e:
        raise _ga.Error(f"shortlist: {e}") from None
    if (not isinstance(key_names, (tuple, list)) or len(key_names) not in (3, 4) or
            not all(isinstance(k, str) for k in key_names)):
        raise _ga.Error(f"shortlist: key_names must be 3 or 4 argument names (M, N, K[, batch]), got {key_names!r}")
    # Each a distinct, non-empty argument name, none a config parameter's: such a key list failed only
    # at the first launch, or made a config carry the shape's own argument (a fresh user's finds).
    if len(set(key_names)) != len(key_names) or not all(key_names):
        raise _ga.Error(f"shortlist: key_names must be distinct, non-empty argument names, got {tuple(key_names)!r}")
    mapping = parameter_names(target, names)
    if clash := sorted(set(key_names) & set(mapping.values())):
        raise _ga.Error(f"shortlist: {clash[0]!r} names both a shape argument (key_names) and a config parameter "
                        f"(names=)")
    inverse = {name: field for field, name in mapping.items()}
    profile = _ga._profile_of(hw)
    key_names = tuple(key_names)
    # dtype, layout and target are checked now too, as hw is: one small ranking (a bad dtype found at run
    # time left every shape's configs unpruned, one warning each: a fresh user's find, 2026-12-03).
    # distinct and top too: a wrong type or an out-of-range top surfaced only at the first launch, as a
    # TypeError from inside Triton's autotuner or a warning a launch (a fresh user's finds, 2026-12-05).
    _ga.ranking((64, 64, 64), hw=profile, dtype=dtype, layout=layout, target=target, top=top, cu_count=cu_count,
                max_split_k=max_split_k, distinct=distinct)

    def early_config_prune(configs, named_args, **kwargs):
        configs = list(configs)
        # Triton's autotuner passes the positional arguments as named_args and the keyword ones as
        # **kwargs (autotuner.py, prune_configs): M=M at the launch is in kwargs (a fresh user's find,
        # 2026-12-04: such a launch failed on its first call).
        args = {**kwargs, **named_args}
        try:
            shape = tuple(_dim(args[k], k) for k in key_names)
        except KeyError as e:
            # Triton's own launch keywords are not the kernel's arguments (they were listed as such).
            kernel_args = [a for a in args if a not in ("grid", "warmup")]
            near = [a for a in kernel_args if isinstance(a, str) and a.lower() == str(e.args[0]).lower()]
            raise _ga.Error(f"shortlist: the kernel has no argument {e.args[0]!r} (key_names={key_names!r}; "
                            f"its arguments: {', '.join(map(str, kernel_args)) or 'none'}"
                            + (f"; key_names={tuple(a for k in key_names for a in kernel_args if isinstance(a, str) and a.lower() == k.lower())!r}?"
                               if near else "") + ")") from None
        except TypeError as e:
            # A shape it cannot read (M = 4096.0, '4096') is one it rejects: all configs kept, as the
            # docstring says (it raised TypeError out of the autotuner: a fresh user's find, 2026-12-04).
            _warnings.warn(f"shortlist: {e}; benchmarking all {len(configs)} configs", _ga.AdvisorWarning,
                           stacklevel=2)
            return configs
        groups = {}  # config text -> the configs with those fields, in input order
        for config in configs:
            try:
                text = _ga.config_text(_fields_of(config, inverse), target, "config")
            except (_ga.Error, TypeError) as e:
                # Say which names it looked for and which the config has: a kernel whose parameters are
                # named otherwise (BM, BLOCK_SIZE_M) needs names= (the warning named neither).
                kwargs_of = config if isinstance(config, dict) else dict(getattr(config, "kwargs", {}) or {})
                wanted = ", ".join(f"{field}={name}" for field, name in mapping.items())
                found = ", ".join(k for k in kwargs_of if k not in _OWN) or "none"
                # The names were there and a value is wrong (64.0, None): names= would not help.
                names_found = all(name in kwargs_of for field, name in mapping.items() if field in ("block_m", "block_n", "block_k"))
                hint = ("a value is not what the kernel takes" if names_found else
                        f"looked for the kernel parameters {wanted}; the config has {found}: give names= to map yours")
                _warnings.warn(f"shortlist: {e} ({hint}); benchmarking all {len(configs)} configs",
                               _ga.AdvisorWarning, stacklevel=2)
                return configs
            groups.setdefault(text, []).append(config)
        # dtype=None: the launch's own, the first tensor argument's (A's, by convention): an fp32 or fp8
        # kernel was ranked as bf16, its shortlist led by tiles that cannot fit (a fresh expert's find,
        # 2026-12-07: 128x256x64 w8 s4 first for fp32 4096^3, 393,216 bytes of shared memory).
        run_dtype = dtype if dtype is not None else _launch_dtype(args, key_names)

        def rank(candidates):
            with _warnings.catch_warnings():
                _warnings.simplefilter("ignore", _ga.AdvisorWarning)  # infeasible ones are dropped: that's the point
                return _ga.ranking(shape, hw=profile, dtype=run_dtype, layout=layout, target=target, top=top,
                                   candidates=candidates, distinct=distinct, cu_count=cu_count,
                                   max_split_k=max_split_k)

        try:
            result = rank(list(groups))
        except _ga.Error as e:
            # None ranks: each config alone, to keep those only past the search bounds and drop what
            # cannot run (every config was handed back, a 256x256x256 of 262,144 bytes of shared memory
            # among them: a fresh user's find, 2026-12-07). Otherwise (a shape it rejects) all kept.
            bounded, failed = [], None
            for text in groups:
                try:
                    rank([text])
                except _ga.Error as alone:
                    reason = str(alone)
                    if _past_search_bound(reason):
                        bounded.append(text)
                    elif "no feasible config" not in reason:
                        failed = alone
                        break
            if failed is None and str(e).startswith("no feasible config") and bounded:
                kept = [config for text in bounded for config in groups[text]]
                _warnings.warn(f"shortlist: no config ranks; {len(kept)} config(s) outside the advisor's search "
                               f"bounds kept unranked, {len(configs) - len(kept)} that cannot run dropped ({e})",
                               _ga.AdvisorWarning, stacklevel=2)
                return kept
            _warnings.warn(f"shortlist: {e}; benchmarking all {len(configs)} configs", _ga.AdvisorWarning,
                           stacklevel=2)
            return configs
        kept = []
        for entry in result["configs"]:
            kept.extend(groups[_ga.config_text(entry, target)])
        # A config outside the profile's search bounds (num_stages above triton.max_num_stages, split_k
        # above triton.max_split_k) may well run: kept, after the shortlist, and said (they were dropped
        # unsaid: a fresh user's find, 2026-12-06). What cannot run (shared memory, registers) is dropped.
        bounded = [entry for entry in result.get("infeasible", []) if _past_search_bound(entry.get("reason", ""))]
        if bounded:
            for entry in bounded:
                kept.extend(groups.get(_ga.config_text(entry, target), []))
            _warnings.warn(f"shortlist: {sum(len(groups.get(_ga.config_text(entry, target), [])) for entry in bounded)} "
                           f"config(s) outside the advisor's search bounds kept unranked, "
                           f"after its shortlist (first: {bounded[0]['reason']})", _ga.AdvisorWarning, stacklevel=2)
        return kept

    return {"early_config_prune": early_config_prune}
