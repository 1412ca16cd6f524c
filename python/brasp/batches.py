"""Words in batches for a Model's verdicts: grouped by length (no padding)
and bounded in positions, and the output symbols read off a transducer's
scores."""

import torch

from . import traces as tracemod


def by_length(model, words, max_tokens):
    """Groups words (or traces) by length (no padding), in batches of at
    most max_tokens positions: (indices into words, input tensor, the
    inputs as model.word() gives them).  A (tokens, lengths) pair, or (multi-hot
    rows, lengths), is one batch as it is."""
    if isinstance(words, tuple):
        tokens, lengths = words
        B, n = tokens.shape[0], tokens.shape[1]
        if lengths is None:
            lengths = torch.full((B,), n, dtype=torch.long)
        if model.over_propositions:
            inputs = tracemod.from_multi_hot(tokens, lengths)
        else:
            inputs = [row[:int(l)] for row, l in zip(tokens.tolist(), lengths)]
        yield list(range(B)), (tokens.to(model.device), lengths.to(model.device)), inputs
        return
    idx = [model.word(w) for w in words]
    by_len = {}
    for k, w in enumerate(idx):
        by_len.setdefault(len(w), []).append(k)
    for n, ks in sorted(by_len.items()):
        # A position costs one index, or k multi-hot entries.
        cost = n * (len(model.propositions) if model.over_propositions else 1)
        step = max(1, max_tokens // max(cost, 1))
        for a in range(0, len(ks), step):
            part = ks[a:a + step]
            inputs = [idx[k] for k in part]
            if model.over_propositions:
                tokens = tracemod.multi_hot(len(model.propositions), inputs, dtype=model.dtype, device=model.device)
            else:
                tokens = (torch.tensor(inputs, dtype=torch.long, device=model.device), None)
            yield part, tokens, inputs


def decode(pos, lengths=None):
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

