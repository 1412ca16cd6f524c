"""Accuracy by length: measured on exact samples, written as JSON, drawn as
a PNG (with matplotlib when installed, else a plain plot written by this
module), and summed up in one line."""

import json
import os
import struct
import zlib

import torch

from .data import WordDataset, trim


@torch.no_grad()
def accuracy_by_length(model, words, device, batch_size=256):
    """Runs the model on labelled words; returns one row per length:
    {"length", "words", "correct", "accuracy", "accepted"} (accepted: how
    many of the words the language accepts)."""
    model.eval()
    ds = WordDataset(words, model.index)
    rows = {}
    order = torch.argsort(ds.lengths)
    for s in range(0, len(order), batch_size):
        idx = order[s:s + batch_size]
        tokens, lengths, labels = trim(ds.tokens[idx], ds.lengths[idx]), ds.lengths[idx], ds.labels[idx]
        got = (model(tokens.to(device), lengths.to(device)) > 0).cpu()
        for n, g, y in zip(lengths.tolist(), got.tolist(), labels.tolist()):
            r = rows.setdefault(n, {"length": n, "words": 0, "correct": 0, "accepted": 0})
            r["words"] += 1
            r["correct"] += int(g == (y > 0.5))
            r["accepted"] += int(y > 0.5)
    out = []
    for n in sorted(rows):
        r = rows[n]
        r["accuracy"] = r["correct"] / r["words"]
        out.append(r)
    return out


@torch.no_grad()
def exhaustive(model, lang, budget, device, batch_size=1024):
    """The model on every word up to the longest length L whose words number
    at most ``budget`` in all (balanced samples hide the rare words a model
    gets wrong; every word does not): {"up_to": L, "words", "wrong",
    "accuracy", "first_error": {"word", "accepted"} or None}, the first
    error being the shortest, then first in brasp's alphabet order.  None
    when not even the words of length 1 fit in the budget."""
    k, L, total = len(lang.alphabet), 0, 0
    while total + k ** (L + 1) <= budget:
        L += 1
        total += k ** L
    if L == 0:
        return None
    model.eval()
    words = lang.all_words((1, L))
    wrong, first = 0, None
    for s in range(0, len(words), batch_size):
        chunk = words[s:s + batch_size]
        ds = WordDataset(chunk, model.index)
        got = (model(trim(ds.tokens, ds.lengths).to(device), ds.lengths.to(device)) > 0).cpu().tolist()
        for (w, y), g in zip(chunk, got):
            if g != y:
                wrong += 1
                if first is None:
                    sep = " " if any(len(a) > 1 for a in w) else ""
                    first = {"word": sep.join(w), "accepted": y}
    return {"up_to": L, "words": len(words), "wrong": wrong, "accuracy": 1 - wrong / len(words), "first_error": first}


def summarize(rows, lo, hi):
    """Accuracy over the rows whose length is in [lo, hi] (None if none)."""
    sel = [r for r in rows if lo <= r["length"] <= hi]
    words = sum(r["words"] for r in sel)
    return sum(r["correct"] for r in sel) / words if words else None


def write_json(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


def plot(path, rows, train_lengths, title):
    """Draws accuracy against length, the training lengths shaded, chance
    (50% on balanced samples) dashed (brasp.plot.accuracy).  Returns
    "matplotlib" or "plain"."""
    from .. import plot as plots
    try:
        fig = plots.accuracy({"per_length": rows, "train_lengths": list(train_lengths)}, title=title)
    except plots.PlotError:
        plain_plot(path, rows, train_lengths)
        return "plain"
    fig.savefig(path)
    return "matplotlib"


def plain_plot(path, rows, train_lengths, width=640, height=360):
    """The plot without matplotlib: no text, a white canvas with the
    training lengths shaded green, grey lines at accuracy 0, 0.5 and 1, and
    one blue dot per length."""
    m = 20
    W, H = width - 2 * m, height - 2 * m
    img = bytearray(b"\xff" * (width * height * 3))
    longest = max(r["length"] for r in rows) + 1

    def put(x, y, rgb):
        if 0 <= x < width and 0 <= y < height:
            img[(y * width + x) * 3:(y * width + x) * 3 + 3] = bytes(rgb)

    def px(n):
        return m + int(n / longest * W)

    def py(a):
        return m + int((1 - a) * H)

    for x in range(px(train_lengths[0] - 0.5), px(train_lengths[1] + 0.5) + 1):
        for y in range(m, m + H + 1):
            put(x, y, (214, 236, 214))
    for a in (0.0, 0.5, 1.0):
        for x in range(m, m + W + 1):
            put(x, py(a), (150, 150, 150))
    for r in rows:
        cx, cy = px(r["length"]), py(r["accuracy"])
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                put(cx + dx, cy + dy, (31, 119, 180))
    raw = b"".join(b"\x00" + bytes(img[y * width * 3:(y + 1) * width * 3]) for y in range(height))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)

    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def summary_line(name, rows, train_lengths, test_lengths, steps, seconds, out, ex=None):
    """The one-line summary the command prints."""
    parts = ["%s: %d steps in %.1f s" % (name, steps, seconds)]
    tr = summarize(rows, *train_lengths)
    if tr is not None:
        parts.append("accuracy %.1f%% on lengths %d–%d (training)" % (100 * tr, train_lengths[0], train_lengths[1]))
    if test_lengths[1] > train_lengths[1]:
        lo = max(test_lengths[0], train_lengths[1] + 1)
        te = summarize(rows, lo, test_lengths[1])
        if te is not None:
            first_bad = next((r["length"] for r in rows if r["length"] >= lo and r["accuracy"] < 1), None)
            parts.append("%.1f%% on %d–%d (longer)%s" % (100 * te, lo, test_lengths[1],
                                                         ", first error at length %d" % first_bad if first_bad else ", no error"))
    if ex is not None:
        fe = ex["first_error"]
        parts.append("all %d words up to length %d: %.2f%%%s" % (
            ex["words"], ex["up_to"], 100 * ex["accuracy"],
            ", first wrong %r (%s by the language)" % (fe["word"], "accepted" if fe["accepted"] else "rejected") if fe else ""))
    parts.append("saved to %s" % out)
    return "; ".join(parts)
