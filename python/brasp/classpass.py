"""The class-tracked pass: a hard-attention model run on activation classes.

A position's activation after a layer is a function of its activation
before the layer and of the activations at the positions its heads attend
(Lemma 4.3 of the paper: finitely many vectors occur).  So the pass keeps,
per layer, a table of the distinct activation vectors [K, d] and each
position's row in it (its class, [B, n]), never the activations [B, n, d]:

- the first classes are the token indices (or, with position terms or
  propositions, the distinct embedding rows, found once per batch);
- each head finds, per query, the attended position from the class ids
  (Head.attend_classes: O(n·K) with the nearest occurrence of each class,
  or O(n²) for short words), and its attended class;
- the next classes are the distinct tuples (class, attended class of each
  head), numbered with one-dimensional ``torch.unique`` on integer keys;
- the layer's arithmetic (residuals, layer norms, FFN) and its exactness
  checks run on one representative row per new class, then equal rows are
  merged.

Memory is linear in the batch (the [B, n, K] candidate tensors of a head),
and the checks cost O(K·d) per layer instead of O(B·n·d).  The pass gives
the same result as Model's module-by-module pass; it is used when no hook
is registered and every head is hard (a softmax export mixes positions).
"""

import torch

from .attention import Head
from .floats import unique_rows


def applies(model):
    """Whether the class-tracked pass may replace the module-by-module one:
    no forward hook anywhere (hooks see [B, n, d] values), hard heads only."""
    for m in model.modules():
        if m._forward_hooks or m._forward_pre_hooks:
            return False
        if isinstance(m, Head) and (m.softmax is not None or m.method not in ("auto", "classes")):
            return False
    return True


def _renumber(keys):
    """Dense ids for integer keys [N]: (ids [N], number of ids, one index
    into keys per id)."""
    uniq, inv = torch.unique(keys, return_inverse=True)
    rep = torch.empty(uniq.shape[0], dtype=torch.long, device=keys.device)
    rep.scatter_(0, inv, torch.arange(keys.shape[0], device=keys.device))
    return inv, uniq.shape[0], rep


def _merge(table, cls):
    """Merges equal rows of table [K, d]: (distinct rows, cls renumbered)."""
    uniq, inv = unique_rows(table)
    if uniq.shape[0] == table.shape[0]:
        return table, cls
    return uniq, inv[cls]


def first_classes(model, tokens, lengths, valid):
    """(table [K, d], cls [B, n]) of the embedding."""
    if not model.over_propositions and not model.spec.position:
        # The rows of the embedding (the padding index's row is zero).
        return _merge(model.embedding, tokens)
    x = model.embed(tokens, lengths)
    B, n, d = x.shape
    table, inv = unique_rows(x[valid])
    cls = torch.zeros(B, n, dtype=torch.long, device=x.device)
    cls[valid] = inv
    return table, cls


def block(b, table, cls, valid):
    """One layer on classes: (table', cls')."""
    if not len(b.heads) and b.ffn is None and b.ln_attn is None and b.ln_ffn is None:
        return table, cls
    ck = b.checker
    flat = cls[valid]
    key = flat
    attended = []  # per head: (values [K, d], attended class per valid position, -1 none)
    for h in b.heads:
        att = h.attend_classes(table, cls, valid)
        acls = torch.where(att >= 0, torch.gather(cls, 1, att.clamp(min=0)), torch.full((), -1, device=cls.device))
        a = acls[valid]
        attended.append((h.checker.matmul(table, h.value.t(), "value"), a))
        # Pair the key so far with the attended class (+1: none is 0).
        key, _, _ = _renumber(key * (table.shape[0] + 1) + (a + 1))
    if b.heads:
        key, _, rep = _renumber(key)
        c = table[flat[rep]]  # one representative row per new class
    else:
        c = table
    if b.heads:
        zero = torch.zeros((), dtype=table.dtype, device=table.device)
        outs = []
        for vals, a in attended:
            ar = a[rep]
            outs.append(torch.where((ar >= 0).unsqueeze(-1), vals[ar.clamp(min=0)], zero))
        s = ck.add(outs, "heads") if len(outs) > 1 else outs[0]
        c = ck.add([c, s], "attention residual")
    if b.ln_attn is not None:
        c = b.ln_attn(c)
    y = c
    if b.ffn is not None:
        y = ck.add([c, b.ffn(c)], "ffn residual")
    if b.ln_ffn is not None:
        y = b.ln_ffn(y)
    out = torch.zeros_like(cls)
    out[valid] = key
    return _merge(y, out)


def residual_classes(model, tokens, lengths, valid):
    """The final residual stream as (table [K, d], cls [B, n])."""
    table, cls = first_classes(model, tokens, lengths, valid)
    for b in model.blocks:
        table, cls = block(b, table, cls, valid)
    return table, cls

