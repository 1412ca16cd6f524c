"""The PyTorch module: masked unique-hard attention, exactly."""

from fractions import Fraction

import torch
from torch import nn

from .exactness import Checker, InexactError
from . import spec as specmod
from . import traces as tracemod
from . import classpass


def _tensor(rows, dtype):
    """A float tensor from exact Fractions, or InexactError naming the first
    entry that the dtype cannot hold exactly."""
    t = torch.tensor([[float(x) for x in r] for r in rows] if rows and isinstance(rows[0], list)
                     else [float(x) for x in rows], dtype=torch.float64)
    return t.to(dtype)


def _exact_in(rows, dtype):
    flat = [x for r in rows for x in r] if rows and isinstance(rows[0], list) else list(rows)
    for x in flat:
        try:
            f = float(x)
        except OverflowError:
            return False
        if Fraction(f) != x:
            return False
        if dtype != torch.float64 and float(torch.tensor(f, dtype=dtype)) != f:
            return False
    return True


class HookPoint(nn.Module):
    """An identity module: a named place in the forward pass where forward
    hooks see (and may replace) the value, and run_with_cache records it."""

    def forward(self, x):
        return x


_MASKS = {
    "none": lambda i, j: torch.ones_like(i * j, dtype=torch.bool),
    "future": lambda i, j: j < i,
    "past": lambda i, j: j > i,
    "future-or-self": lambda i, j: j <= i,
    "past-or-self": lambda i, j: j >= i,
}


class Head(nn.Module):
    """One masked unique-hard attention head.

    forward(x, valid) returns the head's output [B, n, d] (value·x_j at the
    attended j, zero where the mask leaves nothing) and the attended
    positions [B, n] (0-based, −1 for none); the hook points ``hook_attended``
    and ``hook_out`` carry them."""

    def __init__(self, h, dtype):
        super().__init__()
        self.mask, self.tiebreak = h.mask, h.tiebreak
        self.register_buffer("score", _tensor(h.score, dtype))
        self.register_buffer("value", _tensor(h.value, dtype))
        self.hook_attended = HookPoint()
        self.hook_out = HookPoint()
        self.checker = Checker()
        self.method = "auto"
        # (scale λ, position bias b, sink logit s) for a softmax head (see
        # brasp.softmax); None for hard attention.
        self.softmax = None

    def extra_repr(self):
        return "mask=%s, tiebreak=%s" % (self.mask, self.tiebreak)

    def forward(self, x, valid):
        if self.softmax is not None:
            return self._forward_softmax(x, valid)
        B, n, d = x.shape
        flat = x.reshape(-1, d)
        uniq, inv = torch.unique(flat, dim=0, return_inverse=True)
        K = uniq.shape[0]
        method = self.method
        if method == "auto":
            method = "classes" if K * 4 < n else "dense"
        if method == "classes":
            attended = self._attend_classes(uniq, inv.view(B, n), valid)
        else:
            attended = self._attend_dense(x, valid)
        attended = self.hook_attended(attended)
        vals = self.checker.matmul(uniq, self.value.t(), "value")           # [K, d]: value·u
        cls = inv.view(B, n)
        j = attended.clamp(min=0)
        out = vals[torch.gather(cls, 1, j)]
        out = torch.where((attended >= 0).unsqueeze(-1), out, torch.zeros((), dtype=out.dtype, device=out.device))
        return self.hook_out(out), attended

    def _forward_softmax(self, x, valid):
        """Softmax attention: weights ∝ exp(λ·(x_iᵀ S x_j + b·j)) over the
        allowed j (1-based in the bias), and exp(λ·s) on a sink of value 0."""
        lam, bias, sink = self.softmax
        B, n, _ = x.shape
        pos = torch.arange(n, device=x.device)
        scores = (x @ self.score) @ x.transpose(1, 2)
        logits = lam * (scores + bias * (pos + 1).to(x.dtype).view(1, 1, n))
        allowed = _MASKS[self.mask](pos.view(n, 1), pos.view(1, n)).unsqueeze(0) & valid.unsqueeze(1)
        logits = torch.where(allowed, logits, torch.tensor(float("-inf"), dtype=x.dtype, device=x.device))
        sink_logit = torch.full((B, n, 1), lam * sink, dtype=x.dtype, device=x.device)
        w = torch.softmax(torch.cat([logits, sink_logit], -1), -1)[..., :n]
        out = w @ (x @ self.value.t())
        attended = torch.where(allowed.any(-1), w.argmax(-1), torch.full((), -1, device=x.device))
        attended = self.hook_attended(attended)
        return self.hook_out(out), attended

    def _pick(self, cand, scores, n):
        """Among candidates (cand[..., c] ≥ 0 a position), the one with the
        greatest score, ties broken by position; −1 when there is none."""
        avail = cand >= 0
        neg = torch.tensor(float("-inf"), dtype=scores.dtype, device=scores.device)
        s = torch.where(avail, scores, neg)
        best = s.max(-1, keepdim=True).values
        tie = avail & (s == best)
        if self.tiebreak == "leftmost":
            j = torch.where(tie, cand, torch.full_like(cand, n)).min(-1).values
            return torch.where(j == n, torch.full_like(j, -1), j)
        return torch.where(tie, cand, torch.full_like(cand, -1)).max(-1).values

    def attend_classes(self, uniq, cls, valid):
        """The attended positions [B, n] (−1 for none) of queries whose
        activations are the rows cls [B, n] of uniq [K, d]: brasp's class
        algorithm, or for short words (K·4 ≥ n, method "auto") every query
        against every key with the scores read from the [K, K] table."""
        n, K = cls.shape[1], uniq.shape[0]
        if self.method == "classes" or (self.method == "auto" and K * 4 < n):
            return self._attend_classes(uniq, cls, valid)
        q = self.checker.matmul(uniq, self.score, "score")
        table = self.checker.matmul(q, uniq.t(), "score")                   # [K, K]
        B = cls.shape[0]
        scores = table[cls.unsqueeze(2), cls.unsqueeze(1)]                  # [B, n, n]
        pos = torch.arange(n, device=cls.device)
        allowed = _MASKS[self.mask](pos.view(n, 1), pos.view(1, n)).unsqueeze(0) & valid.unsqueeze(1)
        cand = torch.where(allowed, pos.view(1, 1, n).expand(B, n, n), torch.full((), -1, device=cls.device))
        return self._pick(cand, scores, n)

    def _attend_dense(self, x, valid):
        """The definition: every query against every key, O(n²·d)."""
        B, n, _ = x.shape
        q = self.checker.matmul(x, self.score, "score")                      # x_iᵀ S
        scores = self.checker.matmul(q, x.transpose(1, 2), "score")         # [B, n, n]
        pos = torch.arange(n, device=x.device)
        allowed = _MASKS[self.mask](pos.view(n, 1), pos.view(1, n)).unsqueeze(0) & valid.unsqueeze(1)
        cand = torch.where(allowed, pos.view(1, 1, n).expand(B, n, n), torch.full((), -1, device=x.device))
        return self._pick(cand, scores, n)

    def _attend_classes(self, uniq, cls, valid):
        """Brasp's fast algorithm batched: positions are grouped by activation
        vector (finitely many, Lemma 4.3), the scores between distinct vectors
        are computed once, and each query needs, per key vector, only the one
        candidate position its mask and tie-break make best (the nearest or
        farthest occurrence), found with cumulative max/min. O(n·K)."""
        B, n = cls.shape
        K = uniq.shape[0]
        dev = cls.device
        q = self.checker.matmul(uniq, self.score, "score")
        table = self.checker.matmul(q, uniq.t(), "score")                   # [K, K]
        pos = torch.arange(n, device=dev).view(1, n, 1)
        occ = (cls.unsqueeze(-1) == torch.arange(K, device=dev).view(1, 1, K)) & valid.unsqueeze(-1)
        none = torch.full((), -1, dtype=torch.long, device=dev)
        big = torch.full((), n, dtype=torch.long, device=dev)
        first = torch.where(occ, pos, big).min(1, keepdim=True).values      # [B, 1, K]
        last = torch.where(occ, pos, none).max(1, keepdim=True).values
        mask, left = self.mask, self.tiebreak == "leftmost"
        if mask == "none":
            c = first if left else last
            cand = torch.where(c < n, c, none).expand(B, n, K)
        elif mask in ("future", "future-or-self"):
            strict = mask == "future"
            if left:
                ok = first < pos if strict else first <= pos
                cand = torch.where(ok, first, none)
            else:
                lastle = torch.cummax(torch.where(occ, pos, none), 1).values
                if strict:
                    lastle = torch.cat([torch.full_like(lastle[:, :1], -1), lastle[:, :-1]], 1)
                cand = lastle
        else:
            strict = mask == "past"
            if left:
                nxt = torch.where(occ, pos, big).flip(1)
                nxt = torch.cummin(nxt, 1).values.flip(1)                    # min j ≥ i
                if strict:
                    nxt = torch.cat([nxt[:, 1:], torch.full_like(nxt[:, :1], n)], 1)
                cand = torch.where(nxt < n, nxt, none)
            else:
                ok = last > pos if strict else last >= pos
                cand = torch.where(ok, last, none)
        scores = table[cls]                                                 # [B, n, K]
        return self._pick(cand, scores, n)


class LayerNorm(nn.Module):
    """Layer norm computed exactly as brasp defines it (σ of spec.sigma):
    each distinct row is normalised in exact rational arithmetic (there are
    few: Lemma 4.3) and the result must be exact in the module's dtype."""

    def __init__(self, norm, dtype):
        super().__init__()
        self.norm = norm
        self.register_buffer("gamma", _tensor(norm.gamma, dtype))
        self.register_buffer("beta", _tensor(norm.beta, dtype))
        self.exact = True
        self._memo = {}

    def forward(self, x, valid=None):
        if valid is not None:
            # Padding positions are normalised as zero rows (output beta,
            # exactly): their activations are arbitrary and must not make
            # the exactness check fail.
            x = torch.where(valid.unsqueeze(-1), x, torch.zeros((), dtype=x.dtype, device=x.device))
        if not self.exact:
            mu = x.mean(-1, keepdim=True)
            var = ((x - mu) ** 2).mean(-1, keepdim=True) + float(self.norm.eps)
            sd = var.sqrt()
            y = torch.where(sd == 0, torch.zeros_like(x), (x - mu) / torch.where(sd == 0, torch.ones_like(sd), sd))
            return self.gamma * y + self.beta
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        uniq, inv = torch.unique(flat, dim=0, return_inverse=True)
        rows = []
        for r in uniq.cpu().tolist():
            key = tuple(r)
            out = self._memo.get(key)
            if out is None:
                out = self._row(r)
                if len(self._memo) < 1 << 16:
                    self._memo[key] = out
            rows.append(out)
        t = torch.tensor(rows, dtype=torch.float64).to(dtype=x.dtype, device=x.device)
        if x.dtype != torch.float64 and not torch.equal(t.to(torch.float64), torch.tensor(rows, dtype=torch.float64).to(x.device)):
            raise InexactError("layer norm: an output is not exact in %s" % x.dtype)
        return t[inv].view(shape)

    def _row(self, r):
        ln = self.norm
        xs = [Fraction(v) for v in r]
        d = len(xs)
        mean = sum(xs) / d
        var = sum((v - mean) ** 2 for v in xs) / d + ln.eps
        sd = specmod.sigma(var)
        out = []
        for k, v in enumerate(xs):
            y = (v - mean) * ln.gamma[k] / sd if sd != 0 else Fraction(0)
            y += ln.beta[k]
            f = float(y)
            if Fraction(f) != y:
                raise InexactError("layer norm: the output %s is not a float64" % y)
            out.append(f)
        return out


class FFN(nn.Module):
    def __init__(self, f, dtype, d):
        super().__init__()
        self.register_buffer("w1", _tensor(f.w1, dtype).reshape(len(f.b1), d))
        self.register_buffer("b1", _tensor(f.b1, dtype))
        self.register_buffer("w2", _tensor(f.w2, dtype).reshape(d, len(f.b1)))
        self.register_buffer("b2", _tensor(f.b2, dtype))
        self.checker = Checker()

    def forward(self, c):
        ck = self.checker
        h = ck.add([ck.matmul(c, self.w1.t(), "ffn.w1"), self.b1], "ffn.b1").clamp(min=0)
        return ck.add([ck.matmul(h, self.w2.t(), "ffn.w2"), self.b2], "ffn.b2")


class Block(nn.Module):
    """One layer: c = AttnNorm(x + Σ heads), y = FFNNorm(c + FFN(c))."""

    def __init__(self, layer, dtype, d):
        super().__init__()
        self.heads = nn.ModuleList(Head(h, dtype) for h in layer.heads)
        self.ffn = FFN(layer.ffn, dtype, d) if layer.ffn is not None else None
        self.ln_attn = LayerNorm(layer.attn_norm, dtype) if layer.attn_norm is not None else None
        self.ln_ffn = LayerNorm(layer.ffn_norm, dtype) if layer.ffn_norm is not None else None
        self.hook_resid_pre = HookPoint()
        self.hook_attn_out = HookPoint()
        self.hook_resid_mid = HookPoint()
        self.hook_ffn_out = HookPoint()
        self.hook_resid_post = HookPoint()
        self.checker = Checker()

    def forward(self, x, valid):
        x = self.hook_resid_pre(x)
        c = x
        if len(self.heads):
            outs = [h(x, valid)[0] for h in self.heads]
            a = self.checker.add(outs, "heads") if len(outs) > 1 else outs[0]
            a = self.hook_attn_out(a)
            c = self.checker.add([x, a], "attention residual")
        if self.ln_attn is not None:
            c = self.ln_attn(c, valid)
        c = self.hook_resid_mid(c)
        y = c
        if self.ffn is not None:
            f = self.hook_ffn_out(self.ffn(c))
            y = self.checker.add([c, f], "ffn residual")
        if self.ln_ffn is not None:
            y = self.ln_ffn(y, valid)
        return self.hook_resid_post(y)


class Cache(dict):
    """Activations by hook name (``embed.hook_out``,
    ``blocks.L.hook_resid_pre|attn_out|resid_mid|ffn_out|resid_post``,
    ``blocks.L.heads.H.hook_attended|hook_out``, ``hook_logits``), with the
    model's labels to read residual coordinates by name."""

    def __init__(self, labels, *a):
        super().__init__(*a)
        self.labels = labels

    def labelled(self, name):
        """The residual activation ``name`` [B, n, d] as {label: [B, n]}."""
        t = self[name]
        return {lab: t[..., k] for k, lab in enumerate(self.labels)}


class Model(nn.Module):
    """A brasp transformer as a torch.nn.Module (see the package docs).

    forward(tokens, lengths=None) takes symbol indices [B, n] (padded
    positions any index) and the word lengths [B] (default: all n) and
    returns the output scores: [B] (acceptor: accept iff ≥ 0) or [B, n, |Γ|]
    (transducer: the output symbol at each position is the one scoring ≥ 0).

    A model over propositions (``over_propositions``; compiled from LTLf)
    reads traces of proposition sets instead: forward takes multi-hot rows
    [B, n, k] (1 where proposition p holds at the step, entries 0 or 1;
    padding rows any 0/1 values) and embeds each step as
    ``embedding_bias + hot @ embedding``; ``accepts``, ``transduce``,
    ``encode`` and ``run_with_cache`` take traces (see :mod:`brasp.traces`).
    """

    def __init__(self, s, dtype=torch.float64):
        super().__init__()
        self.spec = s
        self.alphabet = list(s.alphabet)
        self.propositions = list(s.propositions) if s.over_propositions else None
        self.labels = list(s.labels)
        self.width = s.width
        self.output_symbols = list(s.transduction[0]) if s.transduction else None
        self.float_exact = all(_params_exact(s, dtype))
        if s.over_propositions:
            # One row per proposition (a linear layer over the multi-hot
            # vector) and the bias, the empty step's embedding.
            emb = _tensor(s.embedding, dtype).reshape(len(s.propositions), s.width)
            self.register_buffer("embedding", emb)
            self.register_buffer("embedding_bias", _tensor(s.embedding_bias, dtype))
        else:
            emb = _tensor(s.embedding, dtype)
            self.register_buffer("embedding", torch.cat([emb, torch.zeros(1, s.width, dtype=dtype)]))
        self.blocks = nn.ModuleList(Block(l, dtype, s.width) for l in s.layers)
        if s.output is not None:
            self.register_buffer("out_weight", _tensor(s.output[0], dtype))
            self.register_buffer("out_bias", _tensor([s.output[1]], dtype))
        else:
            self.out_weight = self.out_bias = None
        if s.transduction is not None:
            self.register_buffer("trans_weight", _tensor(s.transduction[1], dtype).reshape(len(s.transduction[0]), s.width))
            self.register_buffer("trans_bias", _tensor(s.transduction[2], dtype))
        self.hook_embed = HookPoint()
        self.hook_logits = HookPoint()
        self._index = {a: k for k, a in enumerate(self.alphabet)}
        self._position_tables = {}
        self.checker = Checker()

    # -- configuration ---------------------------------------------------
    @property
    def is_transducer(self):
        return self.output_symbols is not None

    @property
    def over_propositions(self):
        """Whether the model reads traces of proposition sets (multi-hot
        embedding) rather than words."""
        return self.propositions is not None

    @property
    def dtype(self):
        return self.embedding.dtype

    @property
    def device(self):
        return self.embedding.device

    def set_method(self, method):
        """'classes' (brasp's algorithm, O(n·K) per head), 'dense' (every
        query against every key, O(n²)) or 'auto' (default)."""
        for m in self.modules():
            if isinstance(m, Head):
                m.method = method
        return self

    def set_checks(self, enabled):
        """Turns the exactness checks on (default) or off."""
        for m in self.modules():
            if hasattr(m, "checker"):
                m.checker.enabled = enabled
        return self

    def label_index(self, label):
        return self.labels.index(label)

    # -- words and traces -------------------------------------------------
    def word(self, w):
        """Symbol indices of a word: a string of one-character symbols (or of
        symbols separated by spaces) or a list of symbols.  For a model over
        propositions: the trace w as steps of proposition indices (see
        :func:`trace`)."""
        if self.over_propositions:
            return self.trace(w)
        if isinstance(w, str):
            if all(len(a) == 1 for a in self.alphabet) and " " not in self.alphabet:
                syms = [c for c in w if c != " "]
            else:
                syms = w.split()
        else:
            syms = list(w)
        out = []
        for k, a in enumerate(syms):
            if a not in self._index:
                raise ValueError("position %d: %r is not in the alphabet %s" % (k + 1, a, self.alphabet))
            out.append(self._index[a])
        if not out:
            raise ValueError("the empty word has no last position (transformers read non-empty words)")
        return out

    def trace(self, t):
        """A trace of a model over propositions as a list of steps, each the
        sorted indices of its true propositions: t is a string as brasp run
        writes traces ("a,b;;c") or a sequence of collections of names."""
        if not self.over_propositions:
            raise ValueError("the model reads words over %s, not traces of propositions" % self.alphabet)
        return tracemod.steps(self.propositions, t)

    def multi_hot(self, traces):
        """Traces (as for trace()) as multi-hot rows: (hot [B, n, k] in the
        model's dtype, lengths [B]); padding rows are 0."""
        return tracemod.multi_hot(len(self.propositions), [self.trace(t) for t in traces],
                                  dtype=self.dtype, device=self.device)

    def encode(self, words):
        """Pads words (given as in word()) to one tensor: (tokens [B, n],
        lengths [B]); padding uses the index |Σ|, embedded as zero.  For a
        model over propositions: multi_hot(words)."""
        if self.over_propositions:
            return self.multi_hot(words)
        idx = [self.word(w) for w in words]
        n = max(len(w) for w in idx)
        pad = len(self.alphabet)
        tokens = torch.tensor([w + [pad] * (n - len(w)) for w in idx], dtype=torch.long, device=self.device)
        lengths = torch.tensor([len(w) for w in idx], dtype=torch.long, device=self.device)
        return tokens, lengths

    # -- the pass ----------------------------------------------------------
    def _position_table(self, term, period):
        key = (id(term), period)
        t = self._position_tables.get(key)
        if t is None:
            vals = [term.scale * term.value(i, 0) for i in range(period)]
            if not _exact_in(vals, self.dtype):
                raise InexactError("position term: a value is not exact in %s" % self.dtype)
            t = torch.tensor([float(v) for v in vals], dtype=self.dtype, device=self.device)
            self._position_tables[key] = t
        return t

    def _entry_table(self, term):
        key = (id(term), "table")
        t = self._position_tables.get(key)
        if t is None:
            vals = [term.scale * v for v in term.prefix + term.table_period]
            if not _exact_in(vals, self.dtype):
                raise InexactError("position term: a table value is not exact in %s" % self.dtype)
            t = torch.tensor([float(v) for v in vals], dtype=self.dtype, device=self.device)
            self._position_tables[key] = t
        return t

    def _embed_inputs(self, tokens, lengths):
        """The token embedding: a row per symbol index, or for a model over
        propositions the multi-hot embedding bias + hot @ embedding (zero on
        padding, as a padding symbol is)."""
        if not self.over_propositions:
            return self.embedding[tokens]
        k = len(self.propositions)
        if tokens.dim() != 3 or tokens.shape[-1] != k:
            raise ValueError("a model over %d propositions takes multi-hot rows [B, n, %d], not a tensor of shape %s"
                             % (k, k, list(tokens.shape)))
        hot = tokens.to(self.dtype)
        if not ((hot == 0) | (hot == 1)).all():
            raise ValueError("multi-hot rows must hold 0 or 1 (proposition false or true)")
        B, n = tokens.shape[0], tokens.shape[1]
        x = self.checker.add([self.checker.matmul(hot, self.embedding, "embedding"), self.embedding_bias],
                             "embedding bias")
        valid = torch.arange(n, device=x.device).view(1, n) < lengths.view(B, 1)
        return torch.where(valid.unsqueeze(-1), x, torch.zeros((), dtype=x.dtype, device=x.device))

    def embed(self, tokens, lengths):
        B, n = tokens.shape[0], tokens.shape[1]
        x = self._embed_inputs(tokens, lengths)
        terms = [x]
        if self.spec.position:
            pos = torch.arange(1, n + 1, device=self.device).view(1, n).expand(B, n)
            ln = lengths.view(B, 1)
            for t in self.spec.position:
                if t.kind in ("sin", "cos", "mod"):
                    period = t.period()
                    v = self._position_table(t, period)[pos % period]
                elif t.kind == "table":
                    k, p = len(t.prefix), len(t.table_period)
                    idx = torch.where(pos <= k, pos - 1, k + (pos - k - 1) % p)
                    v = self._entry_table(t)[idx]
                else:
                    if t.kind == "first":
                        b = pos == 1
                    elif t.kind == "last":
                        b = pos == ln
                    else:
                        b = (ln % 2 == 1) & (pos == (ln + 1) // 2)
                    if t.negated:
                        b = ~b
                    v = b.to(self.dtype) * _tensor([t.scale], self.dtype).to(self.device)
                p = torch.zeros(B, n, self.width, dtype=self.dtype, device=self.device)
                p[:, :, t.coord] = torch.where(pos <= ln, v, torch.zeros((), dtype=self.dtype, device=self.device))
                terms.append(p)
            x = self.checker.add(terms, "position embedding")
        return self.hook_embed(x)

    def residual(self, tokens, lengths=None):
        """The final residual stream [B, n, d]."""
        if self.checker.enabled and not self.float_exact:
            raise InexactError("a parameter is not exactly representable in %s" % self.dtype)
        B, n = tokens.shape[0], tokens.shape[1]
        if lengths is None:
            lengths = torch.full((B,), n, dtype=torch.long, device=tokens.device)
        valid = torch.arange(n, device=tokens.device).view(1, n) < lengths.view(B, 1)
        x = self.embed(tokens, lengths)
        for b in self.blocks:
            x = b(x, valid)
        return x, lengths

    def forward(self, tokens, lengths=None):
        if classpass.applies(self):
            return self._forward_classes(tokens, lengths)
        x, lengths = self.residual(tokens, lengths)
        if self.is_transducer:
            logits = self.checker.add([self.checker.matmul(x, self.trans_weight.t(), "transduction"),
                                       self.trans_bias], "transduction")
        else:
            if self.out_weight is None:
                raise ValueError("the model has no acceptor output")
            last = x[torch.arange(x.shape[0], device=x.device), lengths - 1]
            logits = self.checker.add([self.checker.matmul(last, self.out_weight, "output"), self.out_bias],
                                      "output")
        return self.hook_logits(logits)

    def _valid(self, tokens, lengths):
        """(lengths, valid [B, n]), checking the parameters are exact."""
        if self.checker.enabled and not self.float_exact:
            raise InexactError("a parameter is not exactly representable in %s" % self.dtype)
        B, n = tokens.shape[0], tokens.shape[1]
        if lengths is None:
            lengths = torch.full((B,), n, dtype=torch.long, device=tokens.device)
        return lengths, torch.arange(n, device=tokens.device).view(1, n) < lengths.view(B, 1)

    def _forward_classes(self, tokens, lengths):
        """forward by the class-tracked pass (see brasp.classpass): the
        output layer runs on the K distinct final activations."""
        lengths, valid = self._valid(tokens, lengths)
        table, cls = classpass.residual_classes(self, tokens, lengths, valid)
        ck = self.checker
        if self.is_transducer:
            logits = ck.add([ck.matmul(table, self.trans_weight.t(), "transduction"), self.trans_bias], "transduction")
            return self.hook_logits(logits[cls])
        if self.out_weight is None:
            raise ValueError("the model has no acceptor output")
        last = table[cls[torch.arange(cls.shape[0], device=cls.device), lengths - 1]]
        return self.hook_logits(ck.add([ck.matmul(last, self.out_weight, "output"), self.out_bias], "output"))

    @property
    def causal(self):
        """Whether the acceptor reads its words left to right: every head
        attends only to earlier positions (future masks) and no position
        term depends on the length.  Then position i's activation depends
        on the first i+1 symbols only, and the output layer applied there
        gives the verdict on that prefix (prefix_scores)."""
        if self.out_weight is None or self.is_transducer:
            return False
        if any(t.kind in ("last", "mid") for t in (self.spec.position or [])):
            return False
        return all(h.mask in ("future", "future-or-self") for b in self.blocks for h in b.heads)

    def prefix_scores(self, tokens, lengths=None):
        """Output scores [B, n] of a causal model at every position: at i,
        the score of the word's prefix of length i+1 (accept iff ≥ 0)."""
        if not self.causal:
            raise ValueError("the model is not causal (a head sees later positions, or a position term the length)")
        ck = self.checker
        if classpass.applies(self):
            lengths, valid = self._valid(tokens, lengths)
            table, cls = classpass.residual_classes(self, tokens, lengths, valid)
            return ck.add([ck.matmul(table, self.out_weight, "output"), self.out_bias], "output")[cls]
        x, _ = self.residual(tokens, lengths)
        return ck.add([ck.matmul(x, self.out_weight, "output"), self.out_bias], "output")

    def prefix_accepts(self, words, max_tokens=1 << 20):
        """The verdict on every non-empty prefix of each word (a list of
        lists of bool) of a causal model: one pass per batch."""
        out = {}
        for part, (tokens, lengths), inputs in self._batches(words, max_tokens):
            try:
                with torch.no_grad():
                    v = (self.prefix_scores(tokens, lengths) >= 0).tolist()
                v = [row[:len(w)] for row, w in zip(v, inputs)]
            except InexactError:
                from . import exact
                v = [[exact.accepts(self.spec, w[:i]) for i in range(1, len(w) + 1)] for w in inputs]
            for k, b in zip(part, v):
                out[k] = [bool(x) for x in b]
        return [out[k] for k in range(len(out))]

    def run_with_cache(self, words, names=None):
        """Runs words (a list as for encode, or a (tokens, lengths) pair;
        traces or (multi-hot rows, lengths) for a model over propositions)
        and returns (output scores, Cache of every hook point's value)."""
        tokens, lengths = words if isinstance(words, tuple) else self.encode(words)
        cache = Cache(self.labels)
        handles = []
        for name, mod in self.named_modules():
            if isinstance(mod, HookPoint) and (names is None or name in names):
                handles.append(mod.register_forward_hook(
                    lambda m, i, o, name=name: cache.__setitem__(name, o.detach())))
        try:
            out = self(tokens, lengths)
        finally:
            for h in handles:
                h.remove()
        return out, cache

    # -- verdicts --------------------------------------------------------
    def _batches(self, words, max_tokens):
        """Groups words (or traces) by length (no padding), in batches of at
        most max_tokens positions: (indices into words, input tensor, the
        inputs as word() gives them).  A (tokens, lengths) pair, or (multi-hot
        rows, lengths), is one batch as it is."""
        if isinstance(words, tuple):
            tokens, lengths = words
            B, n = tokens.shape[0], tokens.shape[1]
            if lengths is None:
                lengths = torch.full((B,), n, dtype=torch.long)
            if self.over_propositions:
                inputs = tracemod.from_multi_hot(tokens, lengths)
            else:
                inputs = [row[:int(l)] for row, l in zip(tokens.tolist(), lengths)]
            yield list(range(B)), (tokens.to(self.device), lengths.to(self.device)), inputs
            return
        idx = [self.word(w) for w in words]
        by_len = {}
        for k, w in enumerate(idx):
            by_len.setdefault(len(w), []).append(k)
        for n, ks in sorted(by_len.items()):
            # A position costs one index, or k multi-hot entries.
            cost = n * (len(self.propositions) if self.over_propositions else 1)
            step = max(1, max_tokens // max(cost, 1))
            for a in range(0, len(ks), step):
                part = ks[a:a + step]
                inputs = [idx[k] for k in part]
                if self.over_propositions:
                    tokens = tracemod.multi_hot(len(self.propositions), inputs, dtype=self.dtype, device=self.device)
                else:
                    tokens = (torch.tensor(inputs, dtype=torch.long, device=self.device), None)
                yield part, tokens, inputs

    def accepts(self, words, max_tokens=1 << 20):
        """The verdict on each word (list of bool): words as for word() (for
        a model over propositions, traces), or one (tokens, lengths) pair
        ((multi-hot rows, lengths) over propositions; lengths may be None)."""
        if self.out_weight is None:
            raise ValueError("the model is a transducer, not an acceptor")
        out = {}
        for part, (tokens, lengths), inputs in self._batches(words, max_tokens):
            try:
                with torch.no_grad():
                    v = (self(tokens, lengths) >= 0).tolist()
            except InexactError:
                from . import exact
                v = [exact.accepts(self.spec, w) for w in inputs]
            for k, b in zip(part, v):
                out[k] = bool(b)
        return [out[k] for k in range(len(out))]

    def transduce(self, words, max_tokens=1 << 20):
        """The output word of each word (list of lists of output symbols);
        words as for accepts."""
        if not self.is_transducer:
            raise ValueError("the model is an acceptor, not a transducer")
        out = {}
        for part, (tokens, lengths), inputs in self._batches(words, max_tokens):
            try:
                with torch.no_grad():
                    ys = _decode(self(tokens, lengths) >= 0, lengths)
            except InexactError:
                from . import exact
                ys = [exact.transduce(self.spec, w) for w in inputs]
            for k, y in zip(part, ys):
                out[k] = [self.output_symbols[g] for g in y]
        return [out[k] for k in range(len(out))]


def _decode(pos, lengths=None):
    """Output symbol indices from a [B, n, |Γ|] Boolean tensor, checking that
    exactly one symbol scores ≥ 0 at each position (before each word's
    length, when lengths are given)."""
    B, n = pos.shape[0], pos.shape[1]
    count = pos.sum(-1)
    valid = torch.ones(B, n, dtype=torch.bool, device=pos.device)
    if lengths is not None:
        valid = torch.arange(n, device=pos.device).view(1, n) < lengths.view(B, 1)
    bad = (count != 1) & valid
    if bad.any():
        b, i = [int(v) for v in bad.nonzero()[0]]
        raise ValueError("word %d, position %d: %d output symbols score ≥ 0 (want exactly one)"
                         % (b + 1, i + 1, int(count[b, i])))
    ys = pos.to(torch.int8).argmax(-1).tolist()
    if lengths is None:
        return ys
    return [y[:int(l)] for y, l in zip(ys, lengths)]


def _params_exact(s, dtype):
    yield _exact_in(s.embedding, dtype)
    if s.embedding_bias is not None:
        yield _exact_in(s.embedding_bias, dtype)
    for l in s.layers:
        for h in l.heads:
            yield _exact_in(h.score, dtype) and _exact_in(h.value, dtype)
        if l.ffn is not None:
            f = l.ffn
            yield all(_exact_in(v, dtype) for v in (f.w1, f.b1, f.w2, f.b2))
        for n in (l.attn_norm, l.ffn_norm):
            if n is not None:
                yield _exact_in(n.gamma, dtype) and _exact_in(n.beta, dtype)
    if s.output is not None:
        yield _exact_in(s.output[0], dtype) and _exact_in([s.output[1]], dtype)
    if s.transduction is not None:
        yield _exact_in(s.transduction[1], dtype) and _exact_in(s.transduction[2], dtype)
