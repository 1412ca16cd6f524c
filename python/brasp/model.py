"""The PyTorch module: a brasp transformer (see the package docs), built
from its layers (brasp.layers, brasp.attention), run module by module with
hook points or by the class-tracked pass (brasp.classpass), with verdicts
on words in batches (brasp.batches) and the exact rational pass as the
fallback (brasp.exact)."""

import torch
from torch import nn

from .exactness import Checker, InexactError
from .floats import params_exact, tensor
from .hooks import Cache, HookPoint, recording
from .attention import Head
from .layers import Block, FFN, LayerNorm
from . import batches
from . import classpass
from . import exact
from . import positions
from . import traces as tracemod

__all__ = ["Model", "Cache", "HookPoint", "Head", "Block", "FFN", "LayerNorm"]


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
        self.float_exact = all(params_exact(s, dtype))
        if s.over_propositions:
            # One row per proposition (a linear layer over the multi-hot
            # vector) and the bias, the empty step's embedding.
            emb = tensor(s.embedding, dtype).reshape(len(s.propositions), s.width)
            self.register_buffer("embedding", emb)
            self.register_buffer("embedding_bias", tensor(s.embedding_bias, dtype))
        else:
            emb = tensor(s.embedding, dtype)
            self.register_buffer("embedding", torch.cat([emb, torch.zeros(1, s.width, dtype=dtype)]))
        self.blocks = nn.ModuleList(Block(l, dtype, s.width) for l in s.layers)
        if s.output is not None:
            self.register_buffer("out_weight", tensor(s.output[0], dtype))
            self.register_buffer("out_bias", tensor([s.output[1]], dtype))
        else:
            self.out_weight = self.out_bias = None
        if s.transduction is not None:
            self.register_buffer("trans_weight", tensor(s.transduction[1], dtype).reshape(len(s.transduction[0]), s.width))
            self.register_buffer("trans_bias", tensor(s.transduction[2], dtype))
        self.hook_embed = HookPoint()
        self.hook_logits = HookPoint()
        self._index = {a: k for k, a in enumerate(self.alphabet)}
        self._positions = positions.Terms()
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
        """The embedding [B, n, d]: token (or multi-hot) embedding plus the
        position terms."""
        x = self._embed_inputs(tokens, lengths)
        if self.spec.position:
            terms = [x] + self._positions.vectors(self.spec.position, lengths, tokens.shape[1], self.width,
                                                  self.dtype, self.device)
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
        out, ex = {}, None
        for part, (tokens, lengths), inputs in batches.by_length(self, words, max_tokens):
            try:
                with torch.no_grad():
                    v = (self.prefix_scores(tokens, lengths) >= 0).tolist()
                v = [row[:len(w)] for row, w in zip(v, inputs)]
            except InexactError:
                ex = ex or exact.Pass(self.spec)  # one for all the call's words
                v = [[ex.accepts(w[:i]) for i in range(1, len(w) + 1)] for w in inputs]
            for k, b in zip(part, v):
                out[k] = [bool(x) for x in b]
        return [out[k] for k in range(len(out))]

    def run_with_cache(self, words, names=None):
        """Runs words (a list as for encode, or a (tokens, lengths) pair;
        traces or (multi-hot rows, lengths) for a model over propositions)
        and returns (output scores, Cache of every hook point's value)."""
        tokens, lengths = words if isinstance(words, tuple) else self.encode(words)
        cache = Cache(self.labels)
        with recording(self, cache, names):
            out = self(tokens, lengths)
        return out, cache

    # -- verdicts --------------------------------------------------------
    def accepts(self, words, max_tokens=1 << 20):
        """The verdict on each word (list of bool): words as for word() (for
        a model over propositions, traces), or one (tokens, lengths) pair
        ((multi-hot rows, lengths) over propositions; lengths may be None)."""
        if self.out_weight is None:
            raise ValueError("the model is a transducer, not an acceptor")
        out, ex = {}, None
        for part, (tokens, lengths), inputs in batches.by_length(self, words, max_tokens):
            try:
                with torch.no_grad():
                    v = (self(tokens, lengths) >= 0).tolist()
            except InexactError:
                ex = ex or exact.Pass(self.spec)  # one for all the call's words
                v = [ex.accepts(w) for w in inputs]
            for k, b in zip(part, v):
                out[k] = bool(b)
        return [out[k] for k in range(len(out))]

    def transduce(self, words, max_tokens=1 << 20):
        """The output word of each word (list of lists of output symbols);
        words as for accepts."""
        if not self.is_transducer:
            raise ValueError("the model is an acceptor, not a transducer")
        out, ex = {}, None
        for part, (tokens, lengths), inputs in batches.by_length(self, words, max_tokens):
            try:
                with torch.no_grad():
                    ys = batches.decode(self(tokens, lengths) >= 0, lengths)
            except InexactError:
                ex = ex or exact.Pass(self.spec)  # one for all the call's words
                ys = [ex.transduce(w) for w in inputs]
            for k, y in zip(part, ys):
                out[k] = [self.output_symbols[g] for g in y]
        return [out[k] for k in range(len(out))]

