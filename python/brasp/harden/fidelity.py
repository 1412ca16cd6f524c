"""Fidelity by length: the softmax model against its hardening, on every
word up to a length and on samples of longer ones, each against the
language's exact labels; and how concentrated the softmax attention is."""

import torch

from . import passes

THRESHOLDS = (0.9, 0.99)


def exhaustive_length(k, budget):
    """The longest L such that the words of lengths 1..L number at most
    budget over k letters (0 when not even length 1 fits)."""
    L, total = 0, 0
    while total + k ** (L + 1) <= budget:
        L += 1
        total += k ** L
    return L


class Row:
    """One length's counts."""

    def __init__(self, length, exhaustive):
        self.length, self.exhaustive = length, exhaustive
        self.words = self.agree = self.soft_correct = self.hard_correct = self.accepted = 0
        self.conc_sum = 0.0
        self.conc_n = 0
        self.conc_over = [0] * len(THRESHOLDS)

    def as_dict(self):
        d = {"length": self.length, "exhaustive": self.exhaustive, "words": self.words, "accepted": self.accepted,
             "agree": self.agree, "soft_correct": self.soft_correct, "hard_correct": self.hard_correct}
        d["attention_max_weight"] = self.conc_sum / self.conc_n if self.conc_n else None
        for t, c in zip(THRESHOLDS, self.conc_over):
            d["attention_at_least_%g" % t] = c / self.conc_n if self.conc_n else None
        return d


@torch.no_grad()
def measure(model, P, words, exhaustive_upto, tiebreak="rightmost", stats=None, batch_tokens=1 << 16, progress=None):
    """Runs the softmax model, its hardening and the soft pass's
    concentration on labelled words [(symbols, accepted)]; returns (rows
    by length, per-head concentration [[mean max weight]] over all
    words), and collects the hard pass's checks in stats."""
    by_len = {}
    for w, y in words:
        by_len.setdefault(len(w), []).append((w, y))
    rows = []
    L, H = model.config.layers, model.config.heads
    head_sum = [[0.0] * H for _ in range(L)]
    head_n = 0
    for n in sorted(by_len):
        group = by_len[n]
        row = Row(n, n <= exhaustive_upto)
        step = max(1, batch_tokens // max(1, n * n // 16 + n))
        for s in range(0, len(group), step):
            chunk = group[s:s + step]
            tokens, lengths = model.encode([w for w, _ in chunk])
            tokens, lengths = tokens.cpu(), lengths.cpu()
            soft = (model(tokens.to(model.head.weight.device), lengths.to(model.head.weight.device)) > 0).cpu()
            hard = passes.hard(P, tokens, lengths, tiebreak, stats) > 0
            _, conc = passes.soft(P, tokens, lengths)
            labels = torch.tensor([y for _, y in chunk])
            row.words += len(chunk)
            row.accepted += int(labels.sum())
            row.agree += int((soft == hard).sum())
            row.soft_correct += int((soft == labels).sum())
            row.hard_correct += int((hard == labels).sum())
            c = conc[~torch.isnan(conc)]
            row.conc_sum += float(c.sum())
            row.conc_n += c.numel()
            for k, t in enumerate(THRESHOLDS):
                row.conc_over[k] += int((c >= t).sum())
            per_head = torch.nan_to_num(conc, nan=0.0).sum((2, 3))
            for li in range(L):
                for h in range(H):
                    head_sum[li][h] += float(per_head[li, h])
            head_n += int((~torch.isnan(conc[0, 0])).sum())
        rows.append(row.as_dict())
        if progress:
            progress(n, row)
    heads = [[x / head_n if head_n else None for x in r] for r in head_sum]
    return rows, heads


def summarize(rows, lo, hi):
    """Totals of the rows of lengths lo..hi, or None."""
    sel = [r for r in rows if lo <= r["length"] <= hi]
    words = sum(r["words"] for r in sel)
    if not words:
        return None
    out = {"lengths": [lo, hi], "words": words}
    for k in ("agree", "soft_correct", "hard_correct"):
        out[k] = sum(r[k] for r in sel) / words
    first = next((r["length"] for r in sel if r["agree"] < r["words"]), None)
    out["first_disagreement_length"] = first
    n = [r for r in sel if r["attention_max_weight"] is not None]
    # Weighted by queries, approximately by words × length.
    wts = [r["words"] * r["length"] for r in n]
    tot = sum(wts)
    out["attention_max_weight"] = sum(r["attention_max_weight"] * w for r, w in zip(n, wts)) / tot if tot else None
    for t in THRESHOLDS:
        k = "attention_at_least_%g" % t
        out[k] = sum(r[k] * w for r, w in zip(n, wts)) / tot if tot else None
    return out


def ranges(exhaustive_upto, train_max, longest):
    """The length ranges a report sums over: every word up to L, then the
    sampled training lengths, then 1-2x and 2-4x... beyond them."""
    out = []
    if exhaustive_upto:
        out.append((1, exhaustive_upto, "all words"))
    lo = exhaustive_upto + 1
    if train_max and lo <= train_max:
        out.append((lo, train_max, "samples, training lengths"))
        lo = train_max + 1
    hi = max(lo, 2 * train_max) if train_max else longest
    while lo <= longest:
        hi = min(hi, longest)
        out.append((lo, hi, "samples, longer" if train_max and lo > train_max else "samples"))
        lo, hi = hi + 1, 2 * hi
    return out

