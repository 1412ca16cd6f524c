"""The hardened model in brasp's model format (the JSON of the Go package
``transformer``), with exact rational parameters.

What maps, and how (every step exact):

- Heads.  nn.MultiheadAttention scores (W_q y_i + b_q)·(W_k y_j + b_k)/√d_h.
  Unique-hard attention only compares the scores of one query, so the
  positive factor 1/√d_h and the terms that depend on i alone
  (y_iᵀW_qᵀb_k and b_q·b_k) are dropped: they change no argmax and no tie.
  What is left is y_iᵀ(W_qᵀW_k)y_j + (W_kᵀb_q)·y_j, and the second term,
  linear in the key alone, becomes bilinear through a *constant
  functional*: a vector a with a·y = 1 for every vector y a head of that
  layer can read, so (W_kᵀb_q)·y_j = (a·y_i)(W_kᵀb_q)·y_j, and the score
  matrix is W_qᵀW_k + a (W_kᵀb_q)ᵀ.  Likewise the value bias: a head
  outputs W_o,h(W_v,h y_j + b_v,h), and the output projection's bias b_o is
  added once (to the first head), so the value matrix is
  W_o,h W_v,h + (W_o,h b_v,h [+ b_o]) aᵀ.  This is exact because every
  position attends somewhere (causal masks include the position itself,
  bidirectional ones every position), so the biases are always added, as
  in PyTorch.
- The constant functional.  The heads of a post-norm layer after the first
  read the output of a layer norm, γ⊙z + β with Σz = 0 (z = (x−μ)/σ, or 0
  when σ = 0, exactly in brasp's definition too), so a = (1/γ)/C with
  C = Σ β_k/γ_k works when no γ_k is 0 and C ≠ 0.  The first layer reads
  the embeddings: finitely many vectors (each letter at each residue of
  the position terms), and a solves a·e = 1 on all of them exactly
  (Gaussian elimination over the rationals), which generic embeddings of
  fewer vectors than the width allow.
- Layers.  Post-norm (``--norm post``): x ↦ LN₂(c + FFN(c)), c = LN₁(x +
  attention), exactly the format's layer with its two norms; PyTorch's ε
  (a double) is kept as its exact rational.  The format's σ is the float64
  square root of the exact variance plus ε (see the Go type LayerNorm).
- Positions.  ``first`` is the format's "first" predicate scaled per
  coordinate; ``mod:M`` (all of them together) is an eventually periodic
  table per coordinate of period lcm(M…) (Thm 5.3's finite-image position
  embeddings).
- Output.  ``readout last``: accept iff w·x_n + b ≥ 0 (PyTorch accepts
  when the logit is > 0: they differ only on a logit of exactly 0, which
  the hard pass reports as its smallest |logit|).

What is refused (:func:`refusals`), each with the reason:

- ``--position sinusoidal``: Vaswani et al.'s sinusoids have frequencies
  10000^(−2k/d), not rational multiples of 2π, so no two positions share
  their encoding: over unbounded lengths the hard model has unboundedly
  many activation vectors (Lemma 4.3 fails), and the format's sin/cos
  terms take rational frequencies only (finite image, §5.3).
- ``--position learned``: there is a vector for positions up to
  n_positions only; a brasp model reads words of every length.
- ``--mask strict``: brasp.train gives strict masks a BOS slot at position
  0 that every letter may attend to and that attends to itself; the format
  has no BOS slot (a head whose mask leaves no position outputs the zero
  vector), so the first letter's and every letter's choice of BOS cannot be
  written.
- ``--norm pre``: a pre-norm layer keeps x in the residual and feeds LN(x)
  to its heads and FFN (and the read-out has a final norm); the format
  normalises after each residual (post-norm) and has no norm on a
  sublayer's input.
- ``--readout mean``: the format reads the verdict at the last position.
- A layer norm with a zero gain, C = 0, or embeddings no linear function
  maps to 1 (no constant functional): the biases could not be written.
"""

import json
import math
from fractions import Fraction

from ..train.model import position_kinds


class ExportError(ValueError):
    """The hardened model cannot be written in brasp's model format."""


def refusals(config):
    """The reasons a model of this configuration cannot be exported: a
    list of sentences, empty when its shape maps."""
    out = []
    kinds = position_kinds(config.position)
    if "sinusoidal" in kinds:
        out.append("--position sinusoidal: Vaswani et al.'s sinusoids have frequencies 10000^(-2k/d), not rational "
                   "multiples of 2π, so no two positions share their encoding; over unbounded lengths the hard model "
                   "has unboundedly many activation vectors, and brasp's position terms must have finite image "
                   "(rational sin/cos frequencies, first, mod, periodic tables: the paper's §5.3)")
    if "learned" in kinds:
        out.append("--position learned: the model has vectors for positions up to n_positions=%d only, and a brasp "
                   "model reads words of every length" % config.n_positions)
    if config.mask == "strict":
        out.append("--mask strict: the model's BOS slot at position 0 (which every letter may attend to, and which "
                   "attends to itself) has no counterpart in brasp's format, where a head whose mask leaves no "
                   "position outputs the zero vector")
    if config.norm == "pre":
        out.append("--norm pre: a pre-norm layer feeds LN(x) to its heads and FFN and keeps x in the residual (and "
                   "the read-out has a final norm); brasp's format normalises after each residual (post-norm) only")
    if config.readout != "last":
        out.append("--readout %s: brasp's format reads the verdict at the last position" % config.readout)
    return out


def check(config):
    """Raises ExportError listing every reason the shape does not map."""
    r = refusals(config)
    if r:
        raise ExportError("cannot export to brasp's model format (retrain with --mask causal or bidirectional, "
                          "--norm post, --position none, first or mod:M, --readout last):\n  " + "\n  ".join(r))


def _frac(x):
    return Fraction(float(x))


def _vec(t):
    return [_frac(x) for x in t.tolist()]


def _mat(t):
    return [[_frac(x) for x in row] for row in t.tolist()]


def _matmul(a, b):
    """Exact a @ b of Fraction matrices."""
    bt = list(zip(*b))
    return [[sum((x * y for x, y in zip(row, col) if x and y), Fraction(0)) for col in bt] for row in a]


def _transpose(a):
    return [list(r) for r in zip(*a)]


def _num(x):
    """A rational as the format writes it: an integer, or "p/q"."""
    x = Fraction(x)
    return x.numerator if x.denominator == 1 else "%d/%d" % (x.numerator, x.denominator)


def _solve_ones(vectors):
    """Some a with a·e = 1 for every e in vectors (exact), or None."""
    d = len(vectors[0])
    rows = [list(e) + [Fraction(1)] for e in vectors]
    pivots, r = [], 0
    for c in range(d):
        p = next((k for k in range(r, len(rows)) if rows[k][c] != 0), None)
        if p is None:
            continue
        rows[r], rows[p] = rows[p], rows[r]
        inv = 1 / rows[r][c]
        rows[r] = [v * inv for v in rows[r]]
        for k in range(len(rows)):
            if k != r and rows[k][c] != 0:
                f = rows[k][c]
                rows[k] = [v - f * w for v, w in zip(rows[k], rows[r])]
        pivots.append(c)
        r += 1
        if r == len(rows):
            break
    for k in range(r, len(rows)):
        if rows[k][d] != 0:
            return None
    a = [Fraction(0)] * d
    for k, c in enumerate(pivots):
        a[c] = rows[k][d]
    return a


def _positions(P):
    """The distinct position vectors a letter can get (exact), and the
    period L of the mod terms (1 without them)."""
    L = 1
    for m, _ in P.mods:
        L = L * m // math.gcd(L, m)
    d = P.config.width
    first = _vec(P.first) if P.first is not None else None
    mods = [(m, _mat(t)) for m, t in P.mods]
    seen, out = set(), []
    for i in range(1, L + 1 + (1 if first else 0)):
        v = [Fraction(0)] * d
        for m, t in mods:
            v = [a + b for a, b in zip(v, t[i % m])]
        if first and i == 1:
            v = [a + b for a, b in zip(v, first)]
        key = tuple(v)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out, L, mods, first


def to_json_doc(P, tiebreak="rightmost"):
    """The brasp model (a JSON-ready dict) of the hardened model, or
    ExportError saying why it cannot be written."""
    c = P.config
    check(c)
    d = c.width
    alphabet = list(c.alphabet)
    emb = _mat(P.embed)
    letters = [emb[k + 1] for k in range(len(alphabet))]
    posvecs, L, mods, first = _positions(P)
    inputs = []
    seen = set()
    for e in letters:
        for p in posvecs:
            v = tuple(a + b for a, b in zip(e, p))
            if v not in seen:
                seen.add(v)
                inputs.append(list(v))
    a0 = _solve_ones(inputs)
    if a0 is None:
        raise ExportError("cannot export: no linear function of the first layer's %d input vectors (letter embeddings "
                          "plus position terms) is 1 on all of them, so the attention biases cannot be written as "
                          "bilinear scores and linear values" % len(inputs))
    mask = {"causal": "future-or-self", "bidirectional": "none"}[c.mask]
    layers = []
    a = a0
    for li, layer in enumerate(P.layers):
        heads = []
        for h, hd in enumerate(layer.heads):
            wq, wk, wv, wo = _mat(hd.wq), _mat(hd.wk), _mat(hd.wv), _mat(hd.wo)
            bq, bv = _vec(hd.bq), _vec(hd.bv)
            score = _matmul(_transpose(wq), wk)
            u = [sum((x * y for x, y in zip(col, bq)), Fraction(0)) for col in zip(*wk)]  # W_kᵀ b_q
            for r in range(d):
                if a[r]:
                    score[r] = [s + a[r] * uc for s, uc in zip(score[r], u)]
            value = _matmul(wo, wv)
            w = [sum((x * y for x, y in zip(row, bv)), Fraction(0)) for row in wo]  # W_o,h b_v,h
            if h == 0:
                w = [x + y for x, y in zip(w, _vec(layer.bo))]
            for r in range(d):
                if w[r]:
                    value[r] = [v + w[r] * ac for v, ac in zip(value[r], a)]
            heads.append({"mask": mask, "tiebreak": tiebreak,
                          "score": [[_num(x) for x in row] for row in score],
                          "value": [[_num(x) for x in row] for row in value]})
        norms = {}
        for key, norm in (("attention", layer.norm1), ("ffn", layer.norm2)):
            norms[key] = {"gamma": [_num(x) for x in _vec(norm.gamma)], "beta": [_num(x) for x in _vec(norm.beta)],
                          "eps": _num(Fraction(norm.eps))}
        layers.append({"attention": heads,
                       "ffn": {"w1": [[_num(x) for x in r] for r in _mat(layer.w1)], "b1": [_num(x) for x in _vec(layer.b1)],
                               "w2": [[_num(x) for x in r] for r in _mat(layer.w2)], "b2": [_num(x) for x in _vec(layer.b2)]},
                       "layernorm": norms})
        # The next layer's heads read this layer's FFN norm: γ⊙z + β, Σz = 0.
        gamma, beta = _vec(layer.norm2.gamma), _vec(layer.norm2.beta)
        zero = [k for k, g in enumerate(gamma) if g == 0]
        if li + 1 < len(P.layers):
            if zero:
                raise ExportError("cannot export: layer %d's FFN norm has gain γ_%d = 0, so no constant functional of its "
                                  "outputs carries layer %d's attention biases" % (li + 1, zero[0], li + 2))
            C = sum((b / g for b, g in zip(beta, gamma)), Fraction(0))
            if C == 0:
                raise ExportError("cannot export: layer %d's FFN norm has Σ β_k/γ_k = 0, so no constant functional of "
                                  "its outputs carries layer %d's attention biases" % (li + 1, li + 2))
            a = [1 / (g * C) for g in gamma]
    position = []
    if first:
        for k, v in enumerate(first):
            if v:
                position.append({"kind": "first", "coord": k, "scale": _num(v)})
    if mods:
        for k in range(d):
            period = [sum((t[(i + 1) % m][k] for m, t in mods), Fraction(0)) for i in range(L)]
            if any(period):
                position.append({"kind": "table", "coord": k, "period": [_num(x) for x in period]})
    return {
        "format": "brasp-transformer/1",
        "alphabet": alphabet,
        "width": d,
        "labels": ["x%d" % k for k in range(d)],
        "embedding": {s: [_num(x) for x in e] for s, e in zip(alphabet, letters)},
        "position": position or None,
        "layers": layers,
        "output": {"weight": [_num(x) for x in _vec(P.head_w)], "bias": _num(Fraction(P.head_b))},
    }


def write(P, path, tiebreak="rightmost"):
    """Writes the hardened model to path (JSON); returns the document."""
    doc = to_json_doc(P, tiebreak)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    import os
    os.replace(tmp, path)
    return doc
