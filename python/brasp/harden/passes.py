"""The two forward passes of a trained Encoder, written out from its
parameters (:mod:`.params`) in float64:

``soft``: the trained model itself (softmax attention, scores scaled by
1/√d_h), which also returns how concentrated each head's attention is: the
weight of the position it weighs most, per layer, head, word and letter.

``hard``: the hardened model, every softmax replaced by unique-hard
attention: position i attends to the allowed position j with the greatest
score q_i·k_j (the 1/√d_h scale, a positive factor, cannot change which is
greatest), ties broken by the tie-break (``rightmost``: the greatest j, the
paper's choice for future masking; ``leftmost``: the least), and receives
that position's value.  It runs on classes: at each layer the distinct
activation vectors of the batch are computed once each (a new vector is a
function of the position's own vector and the vectors its heads attend to,
Lemma 4.3), so equal vectors get bit-equal scores and ties between them are
exact.  Every decision is checked against rounding: the gap between the
best score and the best score of a different vector (a *near tie* when it is
below ``tol`` times the score's magnitude), and the margin of the final
logit, are reported, so that a verdict that float64 could get wrong is
named rather than trusted.
"""

import math

import torch

from ..floats import unique_rows

# Entries of one batch's [b, n, n] score block.
_BLOCK = 1 << 22


def layer_norm(norm, x):
    """PyTorch's LayerNorm (population variance) in float64."""
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + norm.eps) * norm.gamma + norm.beta


def ffn(layer, x):
    return torch.relu(x @ layer.w1.t() + layer.b1) @ layer.w2.t() + layer.b2


def embed(P, tokens, lengths):
    """The embedded sequence [B, n, d] in float64 (n = N+1 with the BOS slot
    of strict masks), which positions hold the word (and BOS) [B, n], and
    the offset of the first letter."""
    c = P.config
    B, N = tokens.shape
    off = 1 if P.bos else 0
    if off:
        tokens = torch.cat([torch.full((B, 1), P.embed.shape[0] - 1, dtype=torch.long), tokens], 1)
    n = tokens.shape[1]
    pos = torch.arange(n) + (1 - off)
    x = P.embed[tokens]
    if "sinusoidal" in _kinds(c):
        from ..train.model import sinusoid
        x = x + sinusoid(pos, c.width).double()
    if P.learned is not None:
        if N > c.n_positions:
            raise ValueError("a word of length %d is longer than this model's %d learned positions (n_positions)"
                             % (N, c.n_positions))
        x = x + P.learned[pos]
    for m, table in P.mods:
        x = x + table[pos % m]
    if P.first is not None:
        x = x + (pos == 1).double().unsqueeze(-1) * P.first
    valid = torch.arange(n).unsqueeze(0) < (lengths.cpu().unsqueeze(1) + off)
    return x, valid, off


def _kinds(config):
    from ..train.model import position_kinds
    return position_kinds(config.position)


def allowed(P, n):
    """[n, n]: may position i attend to position j (before the padding
    mask of bidirectional models)."""
    i = torch.arange(n)
    mask = P.config.mask
    if mask == "causal":
        return i.unsqueeze(1) >= i.unsqueeze(0)
    if mask == "strict":
        a = i.unsqueeze(1) > i.unsqueeze(0)
        a[0, 0] = True  # BOS attends to itself; every letter may attend to BOS
        return a
    return torch.ones(n, n, dtype=torch.bool)


def _blocks(B, n):
    step = max(1, _BLOCK // max(1, n * n))
    return [slice(s, min(B, s + step)) for s in range(0, B, step)]


def _readout(P, final, lengths, off):
    """Logits [B] from the final vectors [B, n, d]."""
    B = final.shape[0]
    if P.config.readout == "last":
        v = final[torch.arange(B), lengths.cpu() + off - 1]
    else:
        n = final.shape[1]
        keep = ((torch.arange(n).unsqueeze(0) >= off) & (torch.arange(n).unsqueeze(0) < lengths.cpu().unsqueeze(1) + off)).double()
        v = (final * keep.unsqueeze(-1)).sum(1) / lengths.cpu().clamp(min=1).unsqueeze(1).double()
    return v @ P.head_w + P.head_b


@torch.no_grad()
def soft(P, tokens, lengths):
    """The trained model's logits [B] (float64) and its attention's
    concentration: [layers, heads, B, N] of the greatest weight each letter's
    query gives one position (NaN past a word's end)."""
    x, valid, off = embed(P, tokens, lengths)
    B, n, d = x.shape
    H = P.config.heads
    dh = d // H
    ok = allowed(P, n)
    conc = torch.full((len(P.layers), H, B, n - off), float("nan"), dtype=torch.float64)
    for li, layer in enumerate(P.layers):
        y = layer_norm(layer.norm1, x) if P.pre else x
        out = torch.zeros_like(x) + layer.bo
        for h, hd in enumerate(layer.heads):
            q = y @ hd.wq.t() + hd.bq
            k = y @ hd.wk.t() + hd.bk
            v = y @ hd.wv.t() + hd.bv
            for s in _blocks(B, n):
                scores = q[s] @ k[s].transpose(1, 2) / math.sqrt(dh)
                keep = ok.unsqueeze(0) & valid[s].unsqueeze(1)
                w = torch.softmax(scores.masked_fill(~keep, float("-inf")), -1)
                out[s] += (w @ v[s]) @ hd.wo.t()
                mx = w.max(-1).values[:, off:]
                conc[li, h, s] = torch.where(valid[s, off:], mx, torch.tensor(float("nan"), dtype=mx.dtype))
        if P.pre:
            x = x + out
            x = x + ffn(layer, layer_norm(layer.norm2, x))
        else:
            x = layer_norm(layer.norm1, x + out)
            x = layer_norm(layer.norm2, x + ffn(layer, x))
    final = layer_norm(P.final_norm, x) if P.final_norm is not None else x
    return _readout(P, final, lengths, off), conc


class HardStats:
    """What a hard pass saw: decisions, near ties (gap below tol), the
    smallest relative gap between a best score and the best score of a
    different vector, the smallest |logit|, and the distinct vectors per
    layer (the largest batch's)."""

    def __init__(self):
        self.decisions = 0
        self.near_ties = 0
        self.min_gap = math.inf
        self.min_logit = math.inf
        self.classes = []

    def merge_classes(self, per_layer):
        for k, c in enumerate(per_layer):
            if k < len(self.classes):
                self.classes[k] = max(self.classes[k], c)
            else:
                self.classes.append(c)

    def as_dict(self):
        return {"decisions": self.decisions, "near_ties": self.near_ties,
                "min_relative_gap": None if math.isinf(self.min_gap) else self.min_gap,
                "min_abs_logit": None if math.isinf(self.min_logit) else self.min_logit,
                "classes_per_layer": self.classes}



def _unique_index_rows(t):
    """torch.unique(t, dim=0, return_inverse=True) of rows of non-negative
    integers [N, w], through one integer key per row: with base b above
    every entry, the rows in lexicographic order are their keys
    Σ_k t_k·b^(w−1−k) in increasing order, and a unique of integers is a
    sort, where a unique of rows sorts them column by column."""
    N, w = t.shape
    b = int(t.max()) + 1 if N else 1
    if N == 0 or b ** w >= 1 << 62:
        return torch.unique(t, dim=0, return_inverse=True)
    key = t[:, 0].clone()
    for k in range(1, w):
        key = key * b + t[:, k]
    keys, inv = torch.unique(key, return_inverse=True)
    rows = torch.empty(keys.shape[0], w, dtype=t.dtype, device=t.device)
    for k in range(w - 1, -1, -1):
        rows[:, k] = keys % b
        keys = keys // b
    return rows, inv


@torch.no_grad()
def hard(P, tokens, lengths, tiebreak="rightmost", stats=None, tol=1e-9):
    """The hardened model's logits [B] (float64); ``stats`` (a HardStats)
    collects the checks."""
    if tiebreak not in ("rightmost", "leftmost"):
        raise ValueError("tie-break %r: want rightmost or leftmost" % tiebreak)
    x, valid, off = embed(P, tokens, lengths)
    B, n, d = x.shape
    X, cls = unique_rows(x.reshape(-1, d))
    cls = cls.view(B, n)
    ok = allowed(P, n)
    idx = torch.arange(n)
    per_layer = [X.shape[0]]
    query = valid.clone()
    if off:
        query[:, 0] = False  # BOS attends to itself alone: no decision
    for layer in P.layers:
        Y = layer_norm(layer.norm1, X) if P.pre else X
        att = []
        for hd in layer.heads:
            Q = Y @ hd.wq.t() + hd.bq
            Kk = Y @ hd.wk.t() + hd.bk
            K = X.shape[0]
            table = Q @ Kk.t() if K * K <= _BLOCK else None
            chosen = torch.empty(B, n, dtype=torch.long)
            for s in _blocks(B, n):
                c = cls[s]
                if table is not None:
                    S = table[c.unsqueeze(2), c.unsqueeze(1)]
                else:
                    S = Q[c] @ Kk[c].transpose(1, 2)
                keep = ok.unsqueeze(0) & valid[s].unsqueeze(1)
                S = S.masked_fill(~keep, float("-inf"))
                best = S.max(-1).values
                cand = (S == best.unsqueeze(-1)) & keep
                if tiebreak == "rightmost":
                    j = torch.where(cand, idx, -1).max(-1).values
                else:
                    j = torch.where(cand, idx, n).min(-1).values
                cj = c.gather(1, j.clamp(0, n - 1))
                chosen[s] = j
                if stats is not None:
                    other = keep & (c.unsqueeze(1) != cj.unsqueeze(2))
                    second = S.masked_fill(~other, float("-inf")).max(-1).values
                    rel = (best - second) / best.abs().clamp(min=1.0)
                    q = query[s]
                    stats.decisions += int(q.sum())
                    stats.near_ties += int(((rel <= tol) & q).sum())
                    r = rel[q & torch.isfinite(rel)]
                    if r.numel():
                        stats.min_gap = min(stats.min_gap, float(r.min()))
            att.append(cls.gather(1, chosen.clamp(0, n - 1)))
        tuples = torch.stack([cls] + att, -1).view(-1, 1 + len(att))
        uniq, inv = _unique_index_rows(tuples)
        out = X[uniq[:, 0]] + layer.bo
        for h, hd in enumerate(layer.heads):
            out = out + (Y[uniq[:, 1 + h]] @ hd.wv.t() + hd.bv) @ hd.wo.t()
        if P.pre:
            out = out + ffn(layer, layer_norm(layer.norm2, out))
        else:
            out = layer_norm(layer.norm1, out)
            out = layer_norm(layer.norm2, out + ffn(layer, out))
        X, again = unique_rows(out)
        cls = again[inv].view(B, n)
        per_layer.append(X.shape[0])
    final = layer_norm(P.final_norm, X) if P.final_norm is not None else X
    if P.config.readout == "last":
        logits_per_class = final @ P.head_w + P.head_b
        logits = logits_per_class[cls[torch.arange(B), lengths.cpu() + off - 1]]
    else:
        logits = _readout(P, final[cls], lengths, off)
    if stats is not None:
        stats.min_logit = min(stats.min_logit, float(logits.abs().min())) if B else stats.min_logit
        stats.merge_classes(per_layer)
    return logits
