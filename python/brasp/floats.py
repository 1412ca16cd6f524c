"""A model's exact rational parameters as float tensors, and whether a
float dtype holds them exactly (the module runs only on exact values; see
brasp.exactness for the operations)."""

from fractions import Fraction

import torch


def tensor(rows, dtype):
    """A tensor of dtype from exact Fractions (a vector, or a matrix given
    as a list of rows), each rounded to the nearest float64 first; whether
    nothing rounds is exact_in's question."""
    matrix = bool(rows) and isinstance(rows[0], list)
    # A model's parameters share few Fraction objects (brasp.spec reads
    # small integers and repeated values as one object each): each is
    # converted once.
    f = {id(x): x for x in ([x for r in rows for x in r] if matrix else rows)}
    for k, x in f.items():
        f[k] = float(x)
    t = torch.tensor([[f[id(x)] for x in r] for r in rows] if matrix else [f[id(x)] for x in rows], dtype=torch.float64)
    return t.to(dtype)


# The integers every value of which dtype holds: |n| ≤ 2^(mantissa bits).
_SMALL_INTS = {torch.float64: 1 << 53, torch.float32: 1 << 24}


def exact_in(rows, dtype):
    """Whether every Fraction of rows (a vector or a list of rows) is a
    value of dtype exactly."""
    flat = [x for r in rows for x in r] if rows and isinstance(rows[0], list) else rows
    small = _SMALL_INTS.get(dtype, 0)
    # Each Fraction object once (see tensor).
    for x in {id(x): x for x in flat}.values():
        if x.denominator == 1 and -small <= x.numerator <= small:
            continue  # most parameters: the test below, answered without floats
        try:
            f = float(x)
        except OverflowError:
            return False
        if Fraction(f) != x:
            return False
        if dtype != torch.float64 and float(torch.tensor(f, dtype=dtype)) != f:
            return False
    return True



def params_exact(s, dtype):
    """Per parameter group of the spec s: whether dtype holds it exactly."""
    yield exact_in(s.embedding, dtype)
    if s.embedding_bias is not None:
        yield exact_in(s.embedding_bias, dtype)
    for l in s.layers:
        for h in l.heads:
            yield exact_in(h.score, dtype) and exact_in(h.value, dtype)
        if l.ffn is not None:
            f = l.ffn
            yield all(exact_in(v, dtype) for v in (f.w1, f.b1, f.w2, f.b2))
        for n in (l.attn_norm, l.ffn_norm):
            if n is not None:
                yield exact_in(n.gamma, dtype) and exact_in(n.beta, dtype)
    if s.output is not None:
        yield exact_in(s.output[0], dtype) and exact_in([s.output[1]], dtype)
    if s.transduction is not None:
        yield exact_in(s.transduction[1], dtype) and exact_in(s.transduction[2], dtype)


_PROBES = {}


def unique_rows(flat):
    """torch.unique(flat, dim=0, return_inverse=True) of a float matrix
    [N, d], faster when rows repeat (sorting every row is what costs): the
    rows are grouped by their dot product with a fixed random vector, every
    row is checked to equal its group's representative, and only the
    representatives go through torch.unique.  The result is torch.unique's
    (its distinct rows, sorted); when a check fails (NaN, or a group that
    would hold two different rows) it is torch.unique of every row."""
    N, d = flat.shape
    if N == 0 or not flat.is_floating_point():
        return torch.unique(flat, dim=0, return_inverse=True)
    key = (d, flat.dtype, flat.device)
    probe = _PROBES.get(key)
    if probe is None:
        g = torch.Generator().manual_seed(20240917)
        probe = _PROBES[key] = (torch.rand(d, generator=g, dtype=torch.float64) + 0.5).to(flat.dtype).to(flat.device)
    h = flat @ probe
    if not torch.isfinite(h).all():
        return torch.unique(flat, dim=0, return_inverse=True)
    groups, ginv = torch.unique(h, return_inverse=True)
    rep = torch.zeros(groups.shape[0], dtype=torch.long, device=flat.device)
    rep.scatter_(0, ginv, torch.arange(N, device=flat.device))
    reps = flat[rep]
    if not torch.equal(reps[ginv], flat):
        return torch.unique(flat, dim=0, return_inverse=True)
    uniq, rinv = torch.unique(reps, dim=0, return_inverse=True)
    return uniq, rinv[ginv]
