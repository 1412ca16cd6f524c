"""Masked unique-hard attention (and the softmax heads of brasp.softmax
exports): one head as a module, with brasp's two algorithms, the
definition (every query against every key) and the class algorithm."""

import torch
from torch import nn

from .exactness import Checker
from .floats import tensor, unique_rows
from .hooks import HookPoint

# MASKS[mask](i, j): whether query position i may attend key position j.
MASKS = {
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
        self.register_buffer("score", tensor(h.score, dtype))
        self.register_buffer("value", tensor(h.value, dtype))
        self.hook_attended = HookPoint()
        self.hook_out = HookPoint()
        # A softmax head's weights [B, n, n] (brasp.plot draws them).
        self.hook_weights = HookPoint()
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
        uniq, inv = unique_rows(flat)
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
        allowed = MASKS[self.mask](pos.view(n, 1), pos.view(1, n)).unsqueeze(0) & valid.unsqueeze(1)
        logits = torch.where(allowed, logits, torch.tensor(float("-inf"), dtype=x.dtype, device=x.device))
        sink_logit = torch.full((B, n, 1), lam * sink, dtype=x.dtype, device=x.device)
        w = self.hook_weights(torch.softmax(torch.cat([logits, sink_logit], -1), -1)[..., :n])
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
        allowed = MASKS[self.mask](pos.view(n, 1), pos.view(1, n)).unsqueeze(0) & valid.unsqueeze(1)
        cand = torch.where(allowed, pos.view(1, 1, n).expand(B, n, n), torch.full((), -1, device=cls.device))
        return self._pick(cand, scores, n)

    def _attend_dense(self, x, valid):
        """The definition: every query against every key, O(n²·d)."""
        B, n, _ = x.shape
        q = self.checker.matmul(x, self.score, "score")                      # x_iᵀ S
        scores = self.checker.matmul(q, x.transpose(1, 2), "score")         # [B, n, n]
        pos = torch.arange(n, device=x.device)
        allowed = MASKS[self.mask](pos.view(n, 1), pos.view(1, n)).unsqueeze(0) & valid.unsqueeze(1)
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
        occ = cls.unsqueeze(-1) == torch.arange(K, device=dev).view(1, 1, K)
        if not bool(valid.all()):
            occ &= valid.unsqueeze(-1)
        none = torch.full((), -1, dtype=torch.long, device=dev)
        big = torch.full((), n, dtype=torch.long, device=dev)
        mask, left = self.mask, self.tiebreak == "leftmost"
        # The first and last occurrence of each class [B, 1, K], each
        # computed only where the mask and tie-break read it.
        if left and mask in ("none", "future", "future-or-self"):
            first = torch.where(occ, pos, big).min(1, keepdim=True).values
        if not left and mask in ("none", "past", "past-or-self"):
            last = torch.where(occ, pos, none).max(1, keepdim=True).values
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

