"""The exact reference pass: the definition of §4.1 in rational arithmetic.

Used where float64 cannot be certified exact (a parameter or a layer-norm
output that is not dyadic), and by the tests as a reference independent of
PyTorch.  Every position attends by scanning every key its mask allows in
order, as the definition says; what a position's vector determines (its
key, its score against another vector, its value, the layer norms and
feed-forward network after attention) is computed once per distinct vector
and remembered for the rest of the pass (a :class:`Pass` remembers across
words too), since a word has few distinct vectors per layer (Lemma 4.3).
Matrix products run on integers over a common denominator, one Fraction per
entry.
"""

from fractions import Fraction
from math import lcm

from . import spec as specmod

# _KEYS[mask](i, n): the key positions j the mask lets position i of n
# attend, in increasing order.
_KEYS = {
    "none": lambda i, n: range(n),
    "future": lambda i, n: range(i),
    "past": lambda i, n: range(i + 1, n),
    "future-or-self": lambda i, n: range(i + 1),
    "past-or-self": lambda i, n: range(i, n),
}


def _ints(x):
    """A rational vector as (common denominator D, integers x·D)."""
    d = lcm(*(v.denominator for v in x)) if x else 1
    return d, [v.numerator * (d // v.denominator) for v in x]


def _int_matrix(m):
    """A rational matrix's rows as (denominator, [(k, integer)] of the
    non-zero entries) for _matvec."""
    rows = []
    for row in m:
        d, ints = _ints(row)
        rows.append((d, [(k, v) for k, v in enumerate(ints) if v]))
    return rows


def _matvec(rows, x, xints=None):
    """m · x, m given by _int_matrix (xints: _ints(x), when known)."""
    dx, xi = xints or _ints(x)
    return [Fraction(sum(v * xi[k] for k, v in row), d * dx) for d, row in rows]


def _dot(a, b):
    da, ai = _ints(a)
    db, bi = _ints(b)
    return Fraction(sum(p * q for p, q in zip(ai, bi)), da * db)


def _norm(ln, x):
    """The layer norm of x, in integers over x's common denominator D:
    c_k = d·D·x_k − Σ_j D·x_j is d·D·(x_k − mean), so the variance is
    Σc²/(d³D²) and the output c_k·γ_k/(d·D·σ) + β_k."""
    d = len(x)
    D, a = _ints(x)
    S = sum(a)
    c = [d * v - S for v in a]
    var = Fraction(sum(v * v for v in c), d ** 3 * D * D) + ln.eps
    sd = specmod.sigma(var)
    if not sd:
        return list(ln.beta)
    # c_k·γ_k/(d·D·σ) + β_k as one fraction: σ = p/q, γ_k = g/h, β_k = b/e.
    p, q = sd.numerator, sd.denominator
    ddp = d * D * p
    out = []
    for ck, gk, bk in zip(c, ln.gamma, ln.beta):
        if ck:
            g, h, b, e = gk.numerator, gk.denominator, bk.numerator, bk.denominator
            bk = Fraction(ck * g * q * e + b * h * ddp, h * ddp * e)
        out.append(bk)
    return out


class Pass:
    """The exact pass of one spec over any number of words: vectors are
    numbered when first met, and what is computed from them is remembered
    by number (memory grows with the distinct vectors and class pairs
    met, as the float pass's layer-norm memo does)."""

    def __init__(self, s):
        self.spec = s
        self._vectors = []        # number -> vector (list of Fractions)
        self._ids = {}            # tuple(vector) -> number
        self._mats = {}           # id(matrix) -> (matrix, _int_matrix)
        self._commons = {}        # id(matrix or vector) -> (it, _common)
        self._vints = {}          # number -> _ints(vector)
        self._memo = {}           # (what, layer, head, numbers...) -> value

    def _id(self, x):
        k = tuple(x)
        c = self._ids.get(k)
        if c is None:
            c = self._ids[k] = len(self._vectors)
            self._vectors.append(list(x))
        return c

    def _mat(self, m):
        e = self._mats.get(id(m))
        if e is None:
            e = self._mats[id(m)] = (m, _int_matrix(m))
        return e[1]

    def _common(self, m):
        """A matrix (a list of rows) or vector with one common denominator D:
        (D, the rows as [(k, integer)] of their non-zero entries times D),
        or for a vector (D, its entries times D)."""
        e = self._commons.get(id(m))
        if e is None:
            flat = [v for r in m for v in r] if m and isinstance(m[0], list) else m
            D = lcm(*(v.denominator for v in flat)) if flat else 1
            if m and isinstance(m[0], list):
                ints = [[(k, v.numerator * (D // v.denominator)) for k, v in enumerate(r) if v] for r in m]
            else:
                ints = [v.numerator * (D // v.denominator) for v in m]
            e = self._commons[id(m)] = (m, (D, ints))
        return e[1]

    def _ffn(self, f, x):
        """x + W2·ReLU(W1·x + b1) + b2 in integers over common denominators:
        with x = X/dx, W1 = A/D1, b1 = B/E1, the hidden unit r is
        h_r/(D1·dx·E1) with h_r = max(0, (A·X)_r·E1 + B_r·D1·dx); with
        W2 = C/D2 and b2 = G/E2 every output is one fraction over
        D2·D1·dx·E1·E2."""
        D1, A = self._common(f.w1)
        E1, B = self._common(f.b1)
        D2, C = self._common(f.w2)
        E2, G = self._common(f.b2)
        dx, X = _ints(x)
        h = [max(0, sum(v * X[k] for k, v in row) * E1 + b * D1 * dx) for row, b in zip(A, B)]
        den1 = D1 * dx * E1
        den = D2 * den1 * E2
        sx, sb = den // dx, D2 * den1
        return [Fraction(xk * sx + sum(v * h[j] for j, v in row) * E2 + g * sb, den)
                for xk, row, g in zip(X, C, G)]

    def _ints_of(self, c):
        """_ints of vector number c, remembered."""
        e = self._vints.get(c)
        if e is None:
            e = self._vints[c] = _ints(self._vectors[c])
        return e

    def _matvec(self, m, c):
        """m · (vector number c)."""
        return _matvec(self._mat(m), None, self._ints_of(c))

    def _remember(self, key, compute):
        """The memo's value for key, computed by compute() the first time."""
        v = self._memo.get(key)
        if v is None:
            v = self._memo[key] = compute()
        return v

    def _score(self, l, h, head, ci, cj):
        """x_i · (score · x_j) of vectors ci, cj at head h of layer l."""
        def compute():
            # The key as _ints gives it, and x_i's: each computed once.
            dk, ki = self._remember(("key", l, h, cj), lambda: _ints(self._matvec(head.score, cj)))
            dx, xi = self._ints_of(ci)
            return Fraction(sum(p * q for p, q in zip(xi, ki)), dx * dk)
        return self._remember(("score", l, h, ci, cj), compute)

    def _after(self, l, layer, key):
        """The number of the layer's output at a position whose vector is
        key[0] and whose heads attend to vectors key[1:] (-1: none)."""
        memo = ("after", l) + key
        c = self._memo.get(memo)
        if c is not None:
            return c
        x = self._vectors[key[0]]
        for h, (head, cj) in enumerate(zip(layer.heads, key[1:])):
            if cj < 0:
                continue
            v = self._remember(("value", l, h, cj), lambda: self._matvec(head.value, cj))
            x = [a + b if b else a for a, b in zip(x, v)]
        if layer.attn_norm is not None:
            x = _norm(layer.attn_norm, x)
        if layer.ffn is not None:
            x = self._ffn(layer.ffn, x)
        if layer.ffn_norm is not None:
            x = _norm(layer.ffn_norm, x)
        c = self._memo[memo] = self._id(x)
        return c

    def trace(self, word):
        """As the module's trace."""
        s = self.spec
        n = len(word)
        if n == 0:
            raise ValueError("the empty word has no last position (transformers read non-empty words)")
        xs = [s.step_embedding(a) for a in word]
        for i in range(n):
            for t in s.position:
                xs[i][t.coord] += t.scale * t.value(i + 1, n)
        cls = [self._id(x) for x in xs]
        pattern = []
        for l, layer in enumerate(s.layers):
            pl = []
            for h, head in enumerate(layer.heads):
                keys = _KEYS[head.mask]
                rightmost = head.tiebreak == "rightmost"
                scores = {}  # (ci, cj) -> the memo's score, looked up once per pass
                att = []
                for i in range(n):
                    ci = cls[i]
                    best, bj = None, -1
                    for j in keys(i, n):
                        cj = cls[j]
                        sc = scores.get((ci, cj))
                        if sc is None:
                            sc = scores[ci, cj] = self._score(l, h, head, ci, cj)
                        if best is None or sc > best or (sc == best and rightmost):
                            best, bj = sc, j
                    att.append(bj)
                pl.append(att)
            pattern.append(pl)
            cls = [self._after(l, layer, (cls[i],) + tuple(cls[a[i]] if a[i] >= 0 else -1 for a in pl))
                   for i in range(n)]
        return [list(self._vectors[c]) for c in cls], pattern

    def accepts(self, word):
        xs, _ = self.trace(word)
        w, b = self.spec.output
        return _dot(w, xs[-1]) + b >= 0

    def transduce(self, word):
        xs, _ = self.trace(word)
        syms, w, b = self.spec.transduction
        out = []
        for i, x in enumerate(xs):
            hits = [g for g in range(len(syms)) if _dot(w[g], x) + b[g] >= 0]
            if len(hits) != 1:
                raise ValueError("position %d: %d output symbols score ≥ 0 (want exactly one)" % (i + 1, len(hits)))
            out.append(hits[0])
        return out


def trace(s, word):
    """Runs the spec on a word of symbol indices (over propositions: a trace,
    each step a collection of proposition indices); returns (final residual,
    attended positions per layer per head)."""
    return Pass(s).trace(word)


def accepts(s, word):
    return Pass(s).accepts(word)


def transduce(s, word):
    return Pass(s).transduce(word)
