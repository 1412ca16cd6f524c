"""Reading brasp's model files into exact model specifications.

A :class:`Spec` holds every parameter of a brasp transformer as an exact
:class:`fractions.Fraction`, exactly as the Go package reads it: JSON numbers
and ``"p/q"`` strings are parsed as rationals, safetensors values (F64, F32,
F16, BF16) are the dyadic rationals they encode.  The PyTorch module
(:mod:`brasp.model`) and the exact reference pass (:mod:`brasp.exact`) are
built from a Spec.
"""

import json
import math
import struct
from fractions import Fraction

import numpy as np

FORMAT = "brasp-transformer/1"
MASKS = ("none", "future", "past", "future-or-self", "past-or-self")
TIEBREAKS = ("leftmost", "rightmost")
POSITION_KINDS = ("sin", "cos", "first", "last", "mid", "mod", "table")


class FormatError(ValueError):
    """A model file that brasp's format does not allow."""


class Head:
    """One unique-hard attention head: ``score`` and ``value`` are d×d
    matrices (lists of rows of Fractions) with brasp's meaning:
    the score of query i for key j is ``x_i · (score · x_j)``, the value is
    ``value · x_j``."""

    def __init__(self, mask, tiebreak, score, value):
        self.mask, self.tiebreak, self.score, self.value = mask, tiebreak, score, value


class FFN:
    """``ffn(c) = w2 · relu(w1 · c + b1) + b2``."""

    def __init__(self, w1, b1, w2, b2):
        self.w1, self.b1, self.w2, self.b2 = w1, b1, w2, b2


class Norm:
    """Layer norm ``gamma ⊙ (x − mean) / σ + beta`` with σ = sqrt(var + eps),
    σ defined as in the Go package (see :func:`sigma`)."""

    def __init__(self, gamma, beta, eps):
        self.gamma, self.beta, self.eps = gamma, beta, eps


class Layer:
    def __init__(self, heads, ffn, attn_norm, ffn_norm):
        self.heads, self.ffn, self.attn_norm, self.ffn_norm = heads, ffn, attn_norm, ffn_norm


class PositionTerm:
    """Adds ``scale · t(i, n)`` to coordinate ``coord`` (i is 1-based)."""

    def __init__(self, kind, coord, scale=Fraction(1), frequency=None, r=0, m=0, negated=False,
                 prefix=(), table_period=()):
        self.kind, self.coord, self.scale = kind, coord, scale
        self.frequency, self.r, self.m, self.negated = frequency, r, m, negated
        # A table: prefix[i-1] for i <= len(prefix), then table_period repeated.
        self.prefix, self.table_period = list(prefix), list(table_period)

    def period(self):
        if self.kind in ("sin", "cos"):
            return self.frequency.denominator
        if self.kind == "mod":
            return self.m
        if self.kind == "table":
            return len(self.table_period)
        return 0

    def table_index(self, i):
        """The 0-based entry of prefix + table_period a table reads at
        1-based position i."""
        k, p = len(self.prefix), len(self.table_period)
        return i - 1 if i <= k else k + (i - k - 1) % p

    def value(self, i, n):
        """The term's value before scale at 1-based position i of a word of
        length n, as an exact Fraction (brasp's definition)."""
        if self.kind in ("sin", "cos"):
            return sinusoid(self.frequency, i, self.kind == "cos")
        if self.kind == "table":
            return (self.prefix + self.table_period)[self.table_index(i)]
        if self.kind == "first":
            b = i == 1
        elif self.kind == "last":
            b = i == n
        elif self.kind == "mid":
            b = n % 2 == 1 and i == (n + 1) // 2
        else:
            b = i % self.m == self.r
        return Fraction(int(b != self.negated))


_TWELFTHS = {0: Fraction(0), 1: Fraction(1, 2), 3: Fraction(1), 5: Fraction(1, 2),
             6: Fraction(0), 7: Fraction(-1, 2), 9: Fraction(-1), 11: Fraction(-1, 2)}


def sinusoid(f, i, cos):
    """sin(2π·f·i) (cos if cos) as brasp defines it: exact when rational,
    otherwise the float64 sine of 2π·t (t the exact fractional part of f·i,
    rounded to float64) rounded to float32."""
    num = (f.numerator * i) % f.denominator
    den = f.denominator
    if (12 * num) % den == 0:
        k = 12 * num // den
        if cos:
            k = (k + 3) % 12
        if k in _TWELFTHS:
            return _TWELFTHS[k]
    t = float(Fraction(num, den))
    v = math.cos(2 * math.pi * t) if cos else math.sin(2 * math.pi * t)
    return Fraction(float(np.float32(v)))


def sigma(v):
    """σ = sqrt(v) as the Go package defines it: exact when v is the square
    of a rational, otherwise the correctly rounded float64 square root of the
    float64 nearest to v (beyond the float64 range: the square root rounded
    to 53 bits)."""
    if v == 0:
        return Fraction(0)
    n, d = math.isqrt(v.numerator), math.isqrt(v.denominator)
    if n * n == v.numerator and d * d == v.denominator:
        return Fraction(n, d)
    try:
        f = float(v)
    except OverflowError:
        f = math.inf
    if f != 0 and not math.isinf(f):
        s = math.sqrt(f)
        if s != 0 and not math.isinf(s):
            return Fraction(s)
    # Outside the float64 range: round sqrt(v) to 53 significant bits
    # (nearest, ties to even), as big.Float.Sqrt does at precision 53.
    e = (v.numerator.bit_length() - v.denominator.bit_length()) // 2 - 120
    scaled = v / Fraction(2) ** (2 * e) if e >= 0 else v * Fraction(2) ** (-2 * e)
    x = scaled.numerator // scaled.denominator
    r = math.isqrt(x)
    sticky = r * r != x or x * scaled.denominator != scaled.numerator
    extra = r.bit_length() - 53
    q, rem = r >> extra, r & ((1 << extra) - 1)
    half = 1 << (extra - 1)
    if rem > half or (rem == half and (sticky or q & 1)):
        q += 1
    return Fraction(q) * Fraction(2) ** (e + extra)


class Spec:
    """An exact brasp transformer: alphabet, labels, width, embedding, position
    terms, layers, acceptor output and transducer output."""

    def __init__(self):
        self.alphabet = []
        self.labels = []
        self.width = 0
        self.embedding = []      # |Σ| rows of d Fractions (k rows over propositions)
        self.propositions = None  # the k proposition names of a model over propositions
        self.embedding_bias = None  # over propositions: the embedding of the empty step
        self.position = []       # PositionTerm
        self.layers = []         # Layer
        self.output = None       # (weight [d], bias) or None
        self.transduction = None  # (symbols, weight [|Γ|][d], bias [|Γ|]) or None

    @property
    def is_transducer(self):
        return self.transduction is not None

    @property
    def over_propositions(self):
        """Whether the model reads traces of proposition sets (multi-hot
        embedding) rather than words of symbols."""
        return self.propositions is not None

    def step_embedding(self, step):
        """The embedding of one input, exactly: the row of symbol index
        ``step``, or, over propositions, ``embedding_bias`` plus the rows of
        the propositions (indices) in the collection ``step``."""
        if self.propositions is None:
            return list(self.embedding[step])
        e = list(self.embedding_bias)
        for p in step:
            e = [a + b for a, b in zip(e, self.embedding[p])]
        return e


# Small integers, most entries of a model, as shared Fractions (read faster
# than constructed).
_SMALL = {k: Fraction(k) for k in range(-64, 65)}


def _num(v, path, k=None):
    """The number v as a Fraction; path (with the index k, when given) names
    it in the error."""
    if type(v) is int and -64 <= v <= 64:
        return _SMALL[v]
    if isinstance(v, bool) or v is None:
        raise FormatError("%s: %r is not a number" % (_at(path, k), v))
    try:
        if isinstance(v, str):
            return Fraction(v.strip())
        return Fraction(v)
    except (ValueError, ZeroDivisionError) as e:
        raise FormatError("%s: %r is not a number (%s)" % (_at(path, k), v, e))


def _at(path, k):
    return path if k is None else "%s[%d]" % (path, k)


def _vec(v, n, path):
    if not isinstance(v, list) or len(v) != n:
        raise FormatError("%s: want a list of %d numbers" % (path, n))
    small = _SMALL
    return [small[x] if type(x) is int and -64 <= x <= 64 else _num(x, path, k) for k, x in enumerate(v)]


def _mat(v, rows, cols, path):
    if isinstance(v, dict) and set(v) == {"sparse"}:
        # {"sparse": [[row, col, value], ...]}: the non-zero entries.
        out = [[Fraction(0)] * cols for _ in range(rows)]
        seen = set()
        for k, e in enumerate(v["sparse"] or []):
            if not isinstance(e, list) or len(e) != 3 or not all(isinstance(x, int) for x in e[:2]):
                raise FormatError("%s.sparse[%d]: want [row, col, value]" % (path, k))
            r, c = e[0], e[1]
            if not (0 <= r < rows and 0 <= c < cols) or (r, c) in seen:
                raise FormatError("%s.sparse[%d]: entry (%d, %d) out of range or repeated" % (path, k, r, c))
            seen.add((r, c))
            out[r][c] = _num(e[2], "%s.sparse[%d]" % (path, k))
        return out
    if not isinstance(v, list) or len(v) != rows:
        raise FormatError("%s: want %d rows" % (path, rows))
    return [_vec(r, cols, "%s[%d]" % (path, k)) for k, r in enumerate(v)]


def _position(raw, d):
    if raw is None:
        return []
    if isinstance(raw, dict):
        if raw.get("kind") != "sinusoidal":
            raise FormatError("position.kind: %r, want \"sinusoidal\"" % raw.get("kind"))
        fs, cs = raw.get("frequencies", []), raw.get("coords", [])
        if len(cs) != 2 * len(fs):
            raise FormatError("position.coords: want 2 coordinates per frequency")
        terms = []
        for k, f in enumerate(fs):
            f = _num(f, "position.frequencies[%d]" % k)
            terms.append(PositionTerm("sin", cs[2 * k], frequency=f))
            terms.append(PositionTerm("cos", cs[2 * k + 1], frequency=f))
        return _check_terms(terms, d)
    if not isinstance(raw, list):
        raise FormatError("position: want null, a sinusoidal object or a list of terms")
    terms = []
    for k, t in enumerate(raw):
        p = "position[%d]" % k
        kind = t.get("kind")
        if kind not in POSITION_KINDS:
            raise FormatError("%s.kind: %r is not one of %s" % (p, kind, ", ".join(POSITION_KINDS)))
        if "coord" not in t:
            raise FormatError("%s.coord: missing" % p)
        term = PositionTerm(kind, t["coord"], negated=bool(t.get("negated", False)))
        if "scale" in t:
            term.scale = _num(t["scale"], p + ".scale")
        if kind in ("sin", "cos"):
            term.frequency = _num(t.get("frequency"), p + ".frequency")
        if kind == "mod":
            term.r, term.m = t.get("r"), t.get("m")
            if not isinstance(term.m, int) or term.m < 1 or not isinstance(term.r, int) or not 0 <= term.r < term.m:
                raise FormatError("%s: want 0 ≤ r < m" % p)
        if kind == "table":
            if term.negated:
                raise FormatError("%s.negated: only predicate terms can be negated" % p)
            pre, per = t.get("prefix", []), t.get("period")
            if not isinstance(per, list) or not per:
                raise FormatError("%s.period: a table term needs a non-empty period" % p)
            if not isinstance(pre, list):
                raise FormatError("%s.prefix: want a list of numbers" % p)
            term.prefix = [_num(v, "%s.prefix[%d]" % (p, j)) for j, v in enumerate(pre)]
            term.table_period = [_num(v, "%s.period[%d]" % (p, j)) for j, v in enumerate(per)]
        elif "prefix" in t or "period" in t:
            raise FormatError("%s: only table terms have a prefix and a period" % p)
        terms.append(term)
    return _check_terms(terms, d)


def _check_terms(terms, d):
    for t in terms:
        if not isinstance(t.coord, int) or not 0 <= t.coord < d:
            raise FormatError("position: coordinate %r is out of range 0..%d" % (t.coord, d - 1))
    return terms


def _width(v, path):
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise FormatError("%s: %r is not a width" % (path, v))
    try:
        d = int(v)
    except ValueError:
        raise FormatError("%s: %r is not a width" % (path, v))
    if d < 1:
        raise FormatError("%s: %d is not positive" % (path, d))
    return d


def _names(v, path):
    """A list of distinct non-empty proposition names."""
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise FormatError("%s: want a list of names" % path)
    seen = set()
    for x in v:
        if x == "" or x in seen:
            raise FormatError("%s: empty or duplicate proposition %r" % (path, x))
        seen.add(x)
    return list(v)


def _check_choice(v, choices, path):
    if v not in choices:
        raise FormatError("%s: %r is not one of %s" % (path, v, ", ".join(choices)))
    return v


def from_json(data):
    """Reads a model from the JSON format (bytes or str)."""
    try:
        jm = json.loads(data, parse_float=str)
    except ValueError as e:
        raise FormatError("model JSON: %s" % e)
    except RecursionError:
        raise FormatError("model JSON: nested too deeply")
    if not isinstance(jm, dict):
        raise FormatError("model JSON: want an object")
    if jm.get("format") != FORMAT:
        raise FormatError("format: %r, want %r" % (jm.get("format"), FORMAT))
    s = Spec()
    s.width = d = _width(jm.get("width", 0), "width")
    s.labels = list(jm.get("labels") or [])
    if len(s.labels) != d:
        raise FormatError("labels: %d labels for width %d" % (len(s.labels), d))
    emb = jm.get("embedding") or {}
    if not isinstance(emb, dict):
        raise FormatError("embedding: want an object keyed by symbol or proposition")
    if "propositions" in jm:
        if jm.get("alphabet"):
            raise FormatError("alphabet: a model over propositions has no alphabet")
        s.propositions = _names(jm["propositions"], "propositions")
        if "embedding_bias" not in jm:
            raise FormatError("embedding_bias: missing (a model over propositions embeds the empty step as it)")
        s.embedding_bias = _vec(jm["embedding_bias"], d, "embedding_bias")
        inputs, what = s.propositions, "proposition"
    else:
        if "embedding_bias" in jm:
            raise FormatError("embedding_bias: only a model over propositions has one")
        s.alphabet = list(jm.get("alphabet") or [])
        if not s.alphabet:
            raise FormatError("alphabet: missing or empty")
        inputs, what = s.alphabet, "symbol"
    for a in emb:
        if a not in inputs:
            raise FormatError("embedding: %s %r is not in the %s" % (what, a, "alphabet" if what == "symbol" else "propositions"))
    for a in inputs:
        if a not in emb:
            raise FormatError("embedding: no vector for %s %r" % (what, a))
        s.embedding.append(_vec(emb[a], d, "embedding[%r]" % a))
    s.position = _position(jm.get("position"), d)
    for l, jl in enumerate(jm.get("layers") or []):
        p = "layers[%d]" % l
        heads = []
        for h, jh in enumerate(jl.get("attention") or []):
            ph = "%s.attention[%d]" % (p, h)
            heads.append(Head(_check_choice(jh.get("mask"), MASKS, ph + ".mask"),
                              _check_choice(jh.get("tiebreak"), TIEBREAKS, ph + ".tiebreak"),
                              _mat(jh.get("score"), d, d, ph + ".score"),
                              _mat(jh.get("value"), d, d, ph + ".value")))
        ffn = None
        if jl.get("ffn") is not None:
            jf = jl["ffn"]
            b1 = jf.get("b1") or []
            hid = len(b1)
            ffn = FFN(_mat(jf.get("w1"), hid, d, p + ".ffn.w1"), _vec(b1, hid, p + ".ffn.b1"),
                      _mat(jf.get("w2"), d, hid, p + ".ffn.w2"), _vec(jf.get("b2"), d, p + ".ffn.b2"))
        norms = []
        for which in ("attention", "ffn"):
            jn = (jl.get("layernorm") or {}).get(which)
            if jn is None:
                norms.append(None)
                continue
            pn = "%s.layernorm.%s" % (p, which)
            norms.append(Norm(_vec(jn.get("gamma"), d, pn + ".gamma"), _vec(jn.get("beta"), d, pn + ".beta"),
                              _num(jn.get("eps"), pn + ".eps")))
        s.layers.append(Layer(heads, ffn, norms[0], norms[1]))
    jt = jm.get("transduction")
    if jt is not None:
        syms = list(jt.get("symbols") or [])
        s.transduction = (syms, _mat(jt.get("weight"), len(syms), d, "transduction.weight"),
                          _vec(jt.get("bias"), len(syms), "transduction.bias"))
    jo = jm.get("output")
    if jo is not None:
        s.output = (_vec(jo.get("weight"), d, "output.weight"), _num(jo.get("bias"), "output.bias"))
    elif jt is None:
        raise FormatError("output: missing")
    return s


_DTYPES = {"F64": ("<f8", 8), "F32": ("<f4", 4), "F16": ("<f2", 2), "BF16": ("<u2", 2)}


def from_safetensors(data):
    """Reads a model from brasp's safetensors layout (bytes)."""
    if len(data) < 8:
        raise FormatError("safetensors: file too short")
    (hlen,) = struct.unpack("<Q", data[:8])
    if hlen > len(data) - 8:
        raise FormatError("safetensors: header length %d exceeds the file size" % hlen)
    try:
        header = json.loads(data[8:8 + hlen])
    except ValueError as e:
        raise FormatError("safetensors: header JSON: %s" % e)
    except RecursionError:
        raise FormatError("safetensors: header JSON: nested too deeply")
    if not isinstance(header, dict):
        raise FormatError("safetensors: header JSON: want an object")
    body = data[8 + hlen:]
    meta = header.pop("__metadata__", None)
    if not meta:
        raise FormatError("safetensors: no __metadata__")
    if meta.get("format") != FORMAT:
        raise FormatError("safetensors: __metadata__.format is %r, want %r" % (meta.get("format"), FORMAT))

    def tensor(name, shape):
        t = header.get(name)
        if t is None:
            raise FormatError("safetensors: tensor %s is missing" % name)
        if not isinstance(t, dict) or not isinstance(t.get("shape"), list):
            raise FormatError("safetensors: tensor %s: want an object with shape, dtype and data_offsets" % name)
        if list(t["shape"]) != list(shape):
            raise FormatError("safetensors: tensor %s has shape %s, want %s" % (name, t["shape"], list(shape)))
        dtype = t.get("dtype")
        if dtype not in _DTYPES:
            raise FormatError("safetensors: tensor %s has dtype %r; brasp reads F64, F32, F16 and BF16" % (name, dtype))
        np_dtype, size = _DTYPES[dtype]
        offsets = t.get("data_offsets")
        if not (isinstance(offsets, list) and len(offsets) == 2 and all(isinstance(x, int) for x in offsets)
                and 0 <= offsets[0] <= offsets[1] <= len(body)):
            raise FormatError("safetensors: tensor %s has data_offsets %s outside the %d-byte data section" % (name, offsets, len(body)))
        a, b = offsets
        count = int(np.prod(shape)) if shape else 1
        if b - a != count * size:
            raise FormatError("safetensors: tensor %s spans %d bytes, want %d for shape %s of %s" % (name, b - a, count * size, list(shape), dtype))
        arr = np.frombuffer(body[a:b], dtype=np_dtype)
        if t["dtype"] == "BF16":
            arr = (arr.astype(np.uint32) << 16).view(np.float32)
        arr = arr.astype(np.float64)
        if not np.all(np.isfinite(arr)):
            raise FormatError("safetensors: tensor %s has a non-finite entry" % name)
        # A model's matrices repeat few values: one Fraction per value.
        fr = {}
        vals = [fr[x] if x in fr else fr.setdefault(x, Fraction(x)) for x in arr.tolist()]
        if len(shape) == 2:
            return [vals[r * shape[1]:(r + 1) * shape[1]] for r in range(shape[0])]
        return vals

    s = Spec()
    s.alphabet = _meta_json(meta, "alphabet", "[]")
    s.width = d = _width(meta.get("width"), "safetensors: __metadata__.width")
    s.labels = _meta_json(meta, "labels", "[]")
    if len(s.labels) != d:
        raise FormatError("safetensors: %d labels for width %d" % (len(s.labels), d))
    if "propositions" in meta:
        if s.alphabet:
            raise FormatError("safetensors: __metadata__.alphabet: a model over propositions has no alphabet")
        s.propositions = _names(_meta_json(meta, "propositions", None), "safetensors: __metadata__.propositions")
        s.alphabet = []
        s.embedding_bias = tensor("embedding_bias", [d])
        s.embedding = tensor("embedding", [len(s.propositions), d])
    else:
        if not s.alphabet:
            raise FormatError("safetensors: __metadata__.alphabet: missing or empty")
        s.embedding = tensor("embedding", [len(s.alphabet), d])
    s.position = _position(json.loads(meta.get("position") or "null", parse_float=str), d)
    for l, ml in enumerate(json.loads(meta["layers"])):
        heads = []
        for h, mh in enumerate(ml.get("attention") or []):
            p = "layers.%d.attention.%d." % (l, h)
            heads.append(Head(_check_choice(mh.get("mask"), MASKS, p + "mask"),
                              _check_choice(mh.get("tiebreak"), TIEBREAKS, p + "tiebreak"),
                              tensor(p + "score", [d, d]), tensor(p + "value", [d, d])))
        ffn = None
        if ml.get("ffn"):
            p = "layers.%d.ffn." % l
            hid = header.get(p + "b1", {}).get("shape", [0])[0]
            ffn = FFN(tensor(p + "w1", [hid, d]), tensor(p + "b1", [hid]),
                      tensor(p + "w2", [d, hid]), tensor(p + "b2", [d]))
        norms = []
        for which in ("attention", "ffn"):
            mn = (ml.get("layernorm") or {}).get(which)
            if mn is None:
                norms.append(None)
                continue
            p = "layers.%d.layernorm.%s." % (l, which)
            norms.append(Norm(tensor(p + "gamma", [d]), tensor(p + "beta", [d]), _num(mn.get("eps"), p + "eps")))
        s.layers.append(Layer(heads, ffn, norms[0], norms[1]))
    if "transduction" in meta:
        syms = json.loads(meta["transduction"])
        s.transduction = (syms, tensor("transduction.weight", [len(syms), d]),
                          tensor("transduction.bias", [len(syms)]))
    if "output.weight" in header:
        s.output = (tensor("output.weight", [d]), tensor("output.bias", [1])[0])
    elif s.transduction is None:
        raise FormatError("safetensors: tensor output.weight is missing")
    return s


def _meta_json(meta, key, default):
    raw = meta.get(key, default)
    if raw is None:
        raise FormatError("safetensors: __metadata__.%s: missing" % key)
    try:
        return json.loads(raw)
    except (TypeError, ValueError) as e:
        raise FormatError("safetensors: __metadata__.%s: %s" % (key, e))
    except RecursionError:
        raise FormatError("safetensors: __metadata__.%s: nested too deeply" % key)


def read(path):
    """Reads a model file: safetensors if it starts like one (or ends in
    .safetensors), JSON otherwise."""
    with open(path, "rb") as f:
        data = f.read()
    if str(path).endswith(".safetensors"):
        return from_safetensors(data)
    if data.lstrip()[:1] == b"{":
        return from_json(data)
    return from_safetensors(data)
