"""A plain PyTorch script of brasp's class algorithm, the yardstick of
bench.py: the same pass as brasp.Model (classes of activations, the
nearest occurrence of each class per query, one representative row per
class), written straight, with no exactness checks, hooks, exact layer
norm or fallbacks.  It takes its weights from a loaded brasp model
(plain_forward(model, tokens) → output scores [B]); words unpadded.
"""

import torch


def attend(score, mask, left, table, cls):
    """Attended positions [B, n] (−1 none) of one head."""
    B, n = cls.shape
    K = table.shape[0]
    scores = ((table @ score) @ table.t())[cls]                            # [B, n, K]
    pos = torch.arange(n).view(1, n, 1)
    occ = cls.unsqueeze(-1) == torch.arange(K).view(1, 1, K)
    none, big = torch.tensor(-1), torch.tensor(n)
    if mask == "none":
        c = torch.where(occ, pos, big).amin(1, keepdim=True) if left else torch.where(occ, pos, none).amax(1, keepdim=True)
        cand = torch.where(c < n, c, none).expand(B, n, K)
    elif mask.startswith("future"):
        if left:
            first = torch.where(occ, pos, big).amin(1, keepdim=True)
            cand = torch.where(first < pos if mask == "future" else first <= pos, first, none)
        else:
            cand = torch.cummax(torch.where(occ, pos, none), 1).values
            if mask == "future":
                cand = torch.cat([torch.full_like(cand[:, :1], -1), cand[:, :-1]], 1)
    else:
        if left:
            cand = torch.cummin(torch.where(occ, pos, big).flip(1), 1).values.flip(1)
            if mask == "past":
                cand = torch.cat([cand[:, 1:], torch.full_like(cand[:, :1], n)], 1)
            cand = torch.where(cand < n, cand, none)
        else:
            last = torch.where(occ, pos, none).amax(1, keepdim=True)
            cand = torch.where(last > pos if mask == "past" else last >= pos, last, none)
    s = torch.where(cand >= 0, scores, torch.tensor(float("-inf"), dtype=scores.dtype))
    tie = (cand >= 0) & (s == s.amax(-1, keepdim=True))
    if left:
        j = torch.where(tie, cand, big).amin(-1)
        return torch.where(j == n, none, j)
    return torch.where(tie, cand, none).amax(-1)


def layer_norm(x, gamma, beta, eps):
    mu = x.mean(-1, keepdim=True)
    sd = (((x - mu) ** 2).mean(-1, keepdim=True) + eps).sqrt()
    return gamma * torch.where(sd == 0, torch.zeros_like(x), (x - mu) / sd) + beta


def plain_forward(model, tokens):
    """Output scores [B] of an acceptor without position terms."""
    table, cls = model.embedding, tokens
    for b in model.blocks:
        K = table.shape[0]
        key, outs = cls.reshape(-1), []
        for h in b.heads:
            j = attend(h.score, h.mask, h.tiebreak == "leftmost", table, cls)
            a = torch.where(j >= 0, torch.gather(cls, 1, j.clamp(min=0)), torch.tensor(-1)).reshape(-1)
            outs.append((table @ h.value.t(), a))
            key = torch.unique(key * (K + 1) + a + 1, return_inverse=True)[1]
        key_u, key = torch.unique(key, return_inverse=True)
        rep = torch.empty(key_u.shape[0], dtype=torch.long).scatter_(0, key, torch.arange(key.shape[0]))
        c = table[cls.reshape(-1)[rep]]
        for vals, a in outs:
            ar = a[rep]
            c = c + torch.where((ar >= 0).unsqueeze(-1), vals[ar.clamp(min=0)], torch.zeros((), dtype=c.dtype))
        if b.ln_attn is not None:
            c = layer_norm(c, b.ln_attn.gamma, b.ln_attn.beta, float(b.ln_attn.norm.eps))
        if b.ffn is not None:
            f = b.ffn
            c = c + ((c @ f.w1.t() + f.b1).clamp(min=0) @ f.w2.t() + f.b2)
        if b.ln_ffn is not None:
            c = layer_norm(c, b.ln_ffn.gamma, b.ln_ffn.beta, float(b.ln_ffn.norm.eps))
        table, inv = torch.unique(c, dim=0, return_inverse=True)
        cls = inv[key].view(cls.shape)
    return table[cls[:, -1]] @ model.out_weight + model.out_bias
