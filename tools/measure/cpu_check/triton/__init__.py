"""A small CPU emulator of the part of Triton that tools/measure's kernels use, for cpu_check.py only
(never on sys.path in a real run). `@triton.jit` functions run program by program in Python/numpy:
pointers are (flat numpy view of the tensor's storage, offsets); loads and stores check that every
unmasked offset is inside the allocation (an out-of-bounds access raises); tl.dot is an fp32 matmul;
bf16 values are rounded to nearest-even on .to(bf16) and on stores. It checks what a kernel computes
and which addresses it touches, not its speed or Triton's compile rules (a config Triton would reject,
e.g. a dot smaller than 16, still runs here).

It also emulates the compile-key handshake of harness.py: warmup() with torch dtypes (the compile
worker) or with real tensors (the main process) computes a specialisation key as Triton does in the
respects that matter here (pointer dtypes, None, ints: ==1 / %16 unless do_not_specialize, constexprs,
num_warps, num_stages) and keeps it in the directory $EMU_CACHE; a main-process warmup whose key no
worker wrote sleeps 1.5 s ("compiles"), which harness.py's slow-load check reports.
"""
import hashlib
import inspect
import os
import time

import numpy as np

from . import language  # noqa: F401
from .language import T, TPtr, constexpr, _ctx, _dtype_of_torch

__version__ = "emulator"

try:  # fp8 tensors are kept in fp32 when torch has no float8 dtype (Debian's torch 1.13)
    import torch as _torch
    if not hasattr(_torch, "float8_e4m3fn"):
        _torch.float8_e4m3fn = _torch.float32
except Exception:
    pass


def cdiv(a, b):
    return -(-a // b)


class _Meta:
    shared = 0


class _Compiled:
    metadata = _Meta()

    def _init_handles(self):
        return None


def _is_torch_tensor(x):
    return hasattr(x, "data_ptr") and hasattr(x, "dtype") and hasattr(x, "stride")


def _is_torch_dtype(x):
    try:
        import torch
        return isinstance(x, torch.dtype)
    except Exception:
        return False


class JITFunction:
    def __init__(self, fn, do_not_specialize=()):
        self.fn = fn
        self.sig = inspect.signature(fn)
        self.params = list(self.sig.parameters.values())
        self.nospec = set(do_not_specialize)
        for name in self.nospec:
            if name not in self.sig.parameters:
                raise ValueError(f"do_not_specialize: {name} is not a parameter of {fn.__name__}")
        self.constexprs = {p.name for p in self.params if p.annotation is constexpr}
        self.__name__ = fn.__name__

    # ---- compile key
    def _bind(self, args, kwargs):
        kw = dict(kwargs)
        opts = {k: kw.pop(k) for k in ("num_warps", "num_stages") if k in kw}
        b = self.sig.bind(*args, **kw)
        for p in self.params:
            if p.name not in b.arguments:
                raise TypeError(f"{self.fn.__name__}: missing argument {p.name}")
        return b.arguments, opts

    def _key(self, arguments, opts):
        parts = [self.fn.__module__, self.fn.__name__]
        for p in self.params:
            v = arguments[p.name]
            if p.name in self.constexprs:
                parts.append(f"{p.name}=c:{v!r}")
            elif v is None:
                parts.append(f"{p.name}=none")
            elif _is_torch_tensor(v):
                parts.append(f"{p.name}=*{v.dtype}:D")
            elif _is_torch_dtype(v):
                parts.append(f"{p.name}=*{v}:D")
            elif isinstance(v, bool):
                parts.append(f"{p.name}=i1")
            elif isinstance(v, int):
                width = "i32" if -2 ** 31 <= v < 2 ** 31 else "i64"
                if p.name in self.nospec:
                    parts.append(f"{p.name}={width}")
                else:
                    parts.append(f"{p.name}={width}:{'1' if v == 1 else ('D' if v % 16 == 0 else '-')}")
            elif isinstance(v, float):
                parts.append(f"{p.name}=fp32")
            else:
                raise TypeError(f"{self.fn.__name__}: argument {p.name} of type {type(v).__name__}")
        parts.append(f"w{opts.get('num_warps', 4)}s{opts.get('num_stages', 3)}")
        return hashlib.sha1("|".join(parts).encode()).hexdigest()

    def warmup(self, *args, grid, **kwargs):
        arguments, opts = self._bind(args, kwargs)
        key = self._key(arguments, opts)
        cache = os.environ.get("EMU_CACHE")
        if cache:
            os.makedirs(cache, exist_ok=True)
            path = os.path.join(cache, key)
            worker = not any(_is_torch_tensor(v) for v in arguments.values())
            if worker:
                time.sleep(0.02)
                open(path, "w").close()
            elif not os.path.exists(path):
                with open(os.path.join(cache, "misses.txt"), "a") as f:
                    f.write(f"{self.fn.__name__} {key}\n")
                time.sleep(1.5)
                open(path, "w").close()
        return _Compiled()

    # ---- launch
    def __getitem__(self, grid):
        def launch(*args, **kwargs):
            arguments, _opts = self._bind(args, kwargs)
            conv = {}
            for p in self.params:
                v = arguments[p.name]
                if _is_torch_tensor(v):
                    conv[p.name] = TPtr.of_tensor(v)
                else:
                    conv[p.name] = v
            g = tuple(grid) + (1,) * (3 - len(grid))
            for z in range(g[2]):
                for y in range(g[1]):
                    for x in range(g[0]):
                        _ctx.pid = (x, y, z)
                        self.fn(**conv)
            for v in conv.values():
                if isinstance(v, TPtr):
                    v.flush()
        return launch


def jit(fn=None, *, do_not_specialize=(), **_kw):
    if fn is None:
        return lambda f: JITFunction(f, do_not_specialize)
    return JITFunction(fn, do_not_specialize)


__all__ = ["jit", "cdiv", "language", "T", "np"]
