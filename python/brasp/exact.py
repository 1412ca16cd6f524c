"""The exact reference pass: the definition of §4.1 in rational arithmetic.

Slow (O(n²·d²) per head, Python Fractions) and used where float64 cannot be
certified exact (a parameter or a layer-norm output that is not dyadic), and
by the tests as a reference independent of PyTorch.
"""

from fractions import Fraction

from . import spec as specmod

_ALLOWS = {
    "none": lambda i, j: True,
    "future": lambda i, j: j < i,
    "past": lambda i, j: j > i,
    "future-or-self": lambda i, j: j <= i,
    "past-or-self": lambda i, j: j >= i,
}


def _matvec(m, x):
    nz = [k for k, v in enumerate(x) if v]
    return [sum((row[k] * x[k] for k in nz), Fraction(0)) for row in m]


def _dot(a, b):
    return sum((p * q for p, q in zip(a, b) if p and q), Fraction(0))


def _norm(ln, x):
    d = len(x)
    mean = sum(x) / d
    var = sum((v - mean) ** 2 for v in x) / d + ln.eps
    sd = specmod.sigma(var)
    return [((v - mean) * ln.gamma[k] / sd if sd else Fraction(0)) + ln.beta[k] for k, v in enumerate(x)]


def trace(s, word):
    """Runs the spec on a word of symbol indices (over propositions: a trace,
    each step a collection of proposition indices); returns (final residual,
    attended positions per layer per head)."""
    n = len(word)
    if n == 0:
        raise ValueError("the empty word has no last position (transformers read non-empty words)")
    xs = [s.step_embedding(a) for a in word]
    for i in range(n):
        for t in s.position:
            xs[i][t.coord] += t.scale * t.value(i + 1, n)
    pattern = []
    for layer in s.layers:
        cs = [list(x) for x in xs]
        pl = []
        for h in layer.heads:
            allows = _ALLOWS[h.mask]
            keys = [_matvec(h.score, x) for x in xs]
            att = []
            for i in range(n):
                best, bj = None, -1
                for j in range(n):
                    if not allows(i, j):
                        continue
                    sc = _dot(xs[i], keys[j])
                    if best is None or sc > best or (sc == best and h.tiebreak == "rightmost"):
                        best, bj = sc, j
                att.append(bj)
                if bj >= 0:
                    v = _matvec(h.value, xs[bj])
                    cs[i] = [a + b for a, b in zip(cs[i], v)]
            pl.append(att)
        pattern.append(pl)
        if layer.attn_norm is not None:
            cs = [_norm(layer.attn_norm, c) for c in cs]
        ys = cs
        if layer.ffn is not None:
            f = layer.ffn
            ys = []
            for c in cs:
                hid = [max(Fraction(0), v + b) for v, b in zip(_matvec(f.w1, c), f.b1)]
                ys.append([a + v + b for a, v, b in zip(c, _matvec(f.w2, hid), f.b2)])
        if layer.ffn_norm is not None:
            ys = [_norm(layer.ffn_norm, y) for y in ys]
        xs = ys
    return xs, pattern


def accepts(s, word):
    xs, _ = trace(s, word)
    w, b = s.output
    return _dot(w, xs[-1]) + b >= 0


def transduce(s, word):
    xs, _ = trace(s, word)
    syms, w, b = s.transduction
    out = []
    for i, x in enumerate(xs):
        hits = [g for g in range(len(syms)) if _dot(w[g], x) + b[g] >= 0]
        if len(hits) != 1:
            raise ValueError("position %d: %d output symbols score ≥ 0 (want exactly one)" % (i + 1, len(hits)))
        out.append(hits[0])
    return out
