"""Certifying that floating-point arithmetic is exact.

Hard attention compares scores, so a pass that rounds can pick another
position and change the verdict.  The module therefore checks, before each
linear operation, a sufficient condition for the floating-point result to be
the exact one (see the package documentation): every operand is an integer
multiple of a power of two (its *quantum*, read off the float bits), and the
sum of the absolute values of the terms is below 2^(p−1) quanta of the
result, p the mantissa width (53 for float64, 24 for float32).  Then every
product and every partial sum, in any order of summation (BLAS, GPU
reductions), is an integer multiple of the result's quantum of magnitude
below 2^p quanta, hence representable: no operation rounds.
"""

import numpy as np
import torch


class InexactError(ArithmeticError):
    """The floating-point pass cannot be certified exact (an operation could
    round).  Model.accepts/transduce then fall back to the exact pass."""


_MANT = {torch.float64: 53, torch.float32: 24, torch.float16: 11, torch.bfloat16: 8}
_MIN_EXP = {torch.float64: -1022, torch.float32: -126, torch.float16: -14, torch.bfloat16: -126}


def quantum_exponent(t):
    """The largest e such that every entry of t is an integer multiple of
    2^e, or None when t is all zeros."""
    return _stats(t)[0]


def _stats(t):
    """(quantum_exponent(t), the largest |entry| of t): on the CPU in NumPy,
    whose operations on the small tensors of a pass cost a fraction of
    PyTorch's."""
    if t.device.type == "cpu" and t.dtype in _NUMPY:
        a = t.detach().numpy()
        nz = a[a != 0]
        if nz.size == 0:
            return None, 0.0
        if not np.isfinite(nz).all():
            raise InexactError("a non-finite value")
        m, e = np.frexp(nz.astype(np.float64, copy=False))
        mant = (m * 2.0 ** 53).astype(np.int64)
        # The lowest set bit of each mantissa, a power of two, has exponent
        # its number of trailing zeros plus one.
        _, low = np.frexp((mant & -mant).astype(np.float64))
        return int((e + low).min()) - 54, float(np.abs(nz).max())
    nz = t[t != 0]
    if nz.numel() == 0:
        return None, 0.0
    nz = nz.to(torch.float64)
    if not torch.isfinite(nz).all():
        raise InexactError("a non-finite value")
    m, e = torch.frexp(nz)
    mant = (m * 2.0 ** 53).to(torch.int64)
    low = mant & (-mant)
    tz = torch.log2(low.to(torch.float64)).round().to(torch.int64)
    return int((e.to(torch.int64) - 53 + tz).min()), float(nz.abs().max())


_NUMPY = (torch.float64, torch.float32, torch.float16)


class Checker:
    """Checks linear operations for the dtype of its tensors; disabled, it
    only computes."""

    def __init__(self, enabled=True):
        self.enabled = enabled

    def _fits(self, bound, q, dtype, what):
        p = _MANT.get(dtype)
        if p is None:
            raise InexactError("%s: dtype %s is not checked" % (what, dtype))
        if q < _MIN_EXP[dtype]:
            raise InexactError("%s: values need quantum 2^%d, below the %s normal range" % (what, q, dtype))
        # bound was computed in floating point; the margin of one bit covers
        # its rounding.
        if bound >= 2.0 ** (p - 1 + q):
            raise InexactError("%s: terms of magnitude up to %g on quantum 2^%d need more than %d bits"
                               % (what, bound, q, p - 1))

    def matmul(self, a, b, what):
        """a @ b (a [..., k], b [k, m] or [..., k, m])."""
        if self.enabled:
            (qa, _), (qb, mb) = _stats(a), _stats(b)
            if qa is not None and qb is not None:
                bound = _max_row(a) * mb
                self._fits(bound, qa + qb, a.dtype, what)
        return a @ b

    def add(self, terms, what):
        """The sum of tensors (broadcast)."""
        if self.enabled:
            stats = [_stats(t) for t in terms]
            qs = [q for q, _ in stats if q is not None]
            if qs:
                self._fits(sum(m for _, m in stats), min(qs), terms[0].dtype, what)
        out = terms[0]
        for t in terms[1:]:
            out = out + t
        return out


def _max_row(a):
    """The largest sum of the absolute values of a row of a (over its last
    dimension)."""
    if a.numel() == 0:
        return 0.0
    if a.device.type == "cpu" and a.dtype in _NUMPY:
        return float(np.abs(a.detach().numpy()).sum(-1, dtype=np.float64).max())
    return float(a.abs().sum(-1).max())
