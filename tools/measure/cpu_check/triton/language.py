"""triton.language of the CPU emulator (see __init__.py): the operations tools/measure's kernels use."""
import threading

import numpy as np


class constexpr:  # used only as an annotation
    pass


class _Ctx(threading.local):
    pid = (0, 0, 0)


_ctx = _Ctx()


class DType:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"tl.{self.name}"

    def __eq__(self, other):
        return isinstance(other, DType) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


float32 = DType("float32")
float16 = DType("float16")
bfloat16 = DType("bfloat16")
int32 = DType("int32")
int64 = DType("int64")
int8 = DType("int8")
float8e4nv = DType("float8e4nv")


def _bf16_round(x):
    """float32 -> nearest bfloat16 (ties to even), returned as float32."""
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    out = r.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(x), x, out).astype(np.float32)


def _o(x):
    return x.v if isinstance(x, T) else x


class T:
    """A block value: a numpy array with Triton's operators."""
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = np.asarray(v)

    shape = property(lambda self: self.v.shape)

    def to(self, dtype, bitcast=False):
        name = dtype.name
        if name == "int64":
            return T(self.v.astype(np.int64))
        if name == "int32":
            return T(self.v.astype(np.int32))
        if name == "float32":
            return T(self.v.astype(np.float32))
        if name == "bfloat16":
            return T(_bf16_round(self.v.astype(np.float32)))
        if name == "float16":
            return T(self.v.astype(np.float16).astype(np.float32))
        raise TypeError(f"emulator: .to({dtype})")

    def __getitem__(self, idx):
        return T(self.v[idx])

    def __bool__(self):
        return bool(self.v)

    def __index__(self):
        return int(self.v)

    def __int__(self):
        return int(self.v)

    def _bin(self, other, f):
        if isinstance(other, TPtr):
            return NotImplemented
        return T(f(self.v, _o(other)))

    def __add__(self, o): return self._bin(o, np.add)
    def __radd__(self, o): return T(np.add(_o(o), self.v))
    def __sub__(self, o): return self._bin(o, np.subtract)
    def __rsub__(self, o): return T(np.subtract(_o(o), self.v))
    def __mul__(self, o): return self._bin(o, np.multiply)
    def __rmul__(self, o): return T(np.multiply(_o(o), self.v))
    def __truediv__(self, o): return self._bin(o, np.true_divide)
    def __floordiv__(self, o): return self._bin(o, np.floor_divide)
    def __rfloordiv__(self, o): return T(np.floor_divide(_o(o), self.v))
    def __mod__(self, o): return self._bin(o, np.remainder)
    def __rmod__(self, o): return T(np.remainder(_o(o), self.v))
    def __lt__(self, o): return self._bin(o, np.less)
    def __le__(self, o): return self._bin(o, np.less_equal)
    def __gt__(self, o): return self._bin(o, np.greater)
    def __ge__(self, o): return self._bin(o, np.greater_equal)
    def __eq__(self, o): return self._bin(o, np.equal)
    def __ne__(self, o): return self._bin(o, np.not_equal)
    def __and__(self, o): return self._bin(o, np.logical_and)
    def __rand__(self, o): return T(np.logical_and(_o(o), self.v))
    def __or__(self, o): return self._bin(o, np.logical_or)
    def __neg__(self): return T(-self.v)
    __hash__ = None


def _kind_of_torch(dt):
    import torch
    table = {torch.float32: "f32", torch.bfloat16: "bf16", torch.float16: "f16", torch.int32: "i32",
             torch.int64: "i64", torch.int8: "i8", torch.int16: "i16"}
    if dt not in table:
        raise TypeError(f"emulator: tensor dtype {dt}")
    return table[dt]


_dtype_of_torch = _kind_of_torch
_ELEM = {"f32": float32, "bf16": bfloat16, "f16": float16, "i32": int32, "i64": int64, "i8": int8, "i16": int32}


class _PtrType:
    def __init__(self, kind):
        self.element_ty = _ELEM[kind]


class TPtr:
    """A block of pointers into one allocation: (flat numpy view, element offsets)."""

    def __init__(self, buf, kind, off):
        self.buf, self.kind, self.off = buf, kind, off

    @classmethod
    def of_tensor(cls, t):
        import torch
        kind = _kind_of_torch(t.dtype)
        n = t.storage().size() - t.storage_offset()
        flat = torch.as_strided(t, (n,), (1,), t.storage_offset())
        buf = flat.view(torch.int16).numpy() if kind == "bf16" else flat.numpy()
        return cls(buf, kind, 0)

    @property
    def dtype(self):
        return _PtrType(self.kind)

    def __add__(self, x):
        if isinstance(x, TPtr):
            raise TypeError("pointer + pointer")
        return TPtr(self.buf, self.kind, np.add(np.asarray(self.off, dtype=np.int64), np.asarray(_o(x), dtype=np.int64)))

    __radd__ = __add__

    def flush(self):
        return None

    def _decode(self, raw):
        if self.kind == "bf16":
            return (raw.astype(np.int32).astype(np.uint32) << 16).astype(np.uint32).view(np.float32)
        if self.kind in ("f16", "f32"):
            return raw.astype(np.float32)
        return raw

    def _encode(self, val):
        val = np.asarray(val)
        if self.kind == "bf16":
            f = _bf16_round(val.astype(np.float32))
            return (f.view(np.uint32) >> 16).astype(np.uint16).view(np.int16)
        if self.kind == "f16":
            return val.astype(np.float16)
        if self.kind == "f32":
            return val.astype(np.float32)
        return val.astype(self.buf.dtype)


def _mask_and_offsets(ptr, mask, extra_shape=()):
    off = np.asarray(ptr.off, dtype=np.int64)
    m = np.ones((), dtype=bool) if mask is None else np.asarray(_o(mask), dtype=bool)
    shape = np.broadcast_shapes(off.shape, m.shape, extra_shape)
    off = np.broadcast_to(off, shape)
    m = np.broadcast_to(m, shape)
    bad = m & ((off < 0) | (off >= ptr.buf.size))
    if bad.any():
        i = np.argwhere(bad)[0]
        raise IndexError(f"emulator: out-of-bounds access at offset {int(off[tuple(i)])} of an allocation of "
                         f"{ptr.buf.size} elements (block index {tuple(int(x) for x in i)}, pid {_ctx.pid})")
    return off, m, shape


def load(ptr, mask=None, other=None, **_kw):
    off, m, _shape = _mask_and_offsets(ptr, mask)
    vals = ptr._decode(ptr.buf[np.where(m, off, 0)])
    if other is not None:
        vals = np.where(m, vals, _o(other))
    else:
        vals = np.where(m, vals, np.zeros((), dtype=vals.dtype))
    return T(vals)


def store(ptr, val, mask=None, **_kw):
    v = np.asarray(_o(val))
    off, m, shape = _mask_and_offsets(ptr, mask, v.shape)
    v = np.broadcast_to(v, shape)
    ptr.buf[off[m]] = ptr._encode(v[m])


def program_id(axis):
    return T(np.int32(_ctx.pid[axis]))


def arange(start, end):
    return T(np.arange(start, end, dtype=np.int32))


def zeros(shape, dtype):
    if dtype.name in ("int32", "int64"):
        return T(np.zeros(shape, dtype=np.int64 if dtype.name == "int64" else np.int32))
    return T(np.zeros(shape, dtype=np.float32))


def dot(a, b, acc=None, **_kw):
    a, b = np.asarray(_o(a), dtype=np.float32), np.asarray(_o(b), dtype=np.float32)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"emulator: dot of {a.shape} and {b.shape}")
    r = a @ b
    if acc is not None:
        r = r + _o(acc)
    return T(r.astype(np.float32))


def cdiv(a, b):
    return (a + b - 1) // b


def minimum(a, b):
    return T(np.minimum(_o(a), _o(b)))


def maximum(a, b):
    return T(np.maximum(_o(a), _o(b)))


def multiple_of(x, _v):
    return x


def max_contiguous(x, _v):
    return x


def where(c, a, b):
    return T(np.where(_o(c), _o(a), _o(b)))
