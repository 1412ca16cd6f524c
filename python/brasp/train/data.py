"""Exact data from brasp: the alphabet of a language, labelled words of
each length sampled uniformly by ``brasp sample`` (counted on the minimal
DFA, so every label is exact), and the torch Dataset that batches them."""

import json
import re

import torch

from .binary import TrainError, find_brasp, run

# A length range's longest length: words are padded to it in a batch.
MAX_LENGTH = 100000


def parse_lengths(text, flag="--lengths"):
    """Reads ``A:B`` (or one length ``N``) into (A, B), 1 ≤ A ≤ B."""
    a, sep, b = str(text).partition(":")
    try:
        lo = int(a)
        hi = int(b) if sep else lo
    except ValueError:
        raise TrainError("%s %s: want MIN:MAX (such as 1:40) or one length N" % (flag, text))
    if lo < 1:
        raise TrainError("%s %s: lengths start at 1 (words are non-empty)" % (flag, text))
    if lo > hi:
        raise TrainError("%s %s: the shortest length, %d, is longer than the longest, %d" % (flag, text, lo, hi))
    if hi > MAX_LENGTH:
        raise TrainError("%s %s: %d is longer than %d, the longest length brasp.train pads to" % (flag, text, hi, MAX_LENGTH))
    return lo, hi


def _symbol(x):
    # A letter is a string; a step of a trace over propositions (whatever
    # brasp writes for it) is kept as its JSON text.
    return x if isinstance(x, str) else json.dumps(x, sort_keys=True)


_NOTE = re.compile(r"length (\d+): no (accepted|rejected) word")


class Language:
    """The language of a file brasp reads (any kind: .brasp, .ltl, .re,
    .dfa, a model...), seen through ``brasp sample``.  ``alphabet`` is its
    list of symbols in brasp's order (every word of length 1)."""

    def __init__(self, path, binary=None):
        self.path = path
        self.binary = find_brasp(binary)
        out, _ = run(self.binary, ["sample", path, "--all", "--lengths", "1", "--json"], "brasp sample " + path)
        self.alphabet = []
        for line in out.splitlines():
            w = json.loads(line)["word"]
            if len(w) != 1:
                raise TrainError("brasp sample %s --all --lengths 1 wrote a word of %d symbols" % (path, len(w)))
            self.alphabet.append(_symbol(w[0]))
        if not self.alphabet:
            raise TrainError("%s: the language has an empty alphabet" % path)

    def sample(self, lengths, count, seed, balanced=True):
        """``count`` labelled words of every length in ``lengths`` (lo, hi):
        a list of (symbols, accepted), and the lengths lacking accepted or
        rejected words as {"accepted": [n...], "rejected": [n...]} (balanced
        sampling fills those lengths with the other side)."""
        args = ["sample", self.path, "--lengths", "%d:%d" % lengths, "--count", count, "--seed", seed, "--json"]
        if balanced:
            args.append("--balanced")
        out, err = run(self.binary, args, "brasp sample " + self.path)
        words = []
        for line in out.splitlines():
            o = json.loads(line)
            words.append(([_symbol(x) for x in o["word"]], o["label"] == "accept"))
        lacking = {"accepted": [], "rejected": []}
        for m in _NOTE.finditer(err):
            lacking[m.group(2)].append(int(m.group(1)))
        return words, lacking

    def all_words(self, lengths):
        """Every word of the lengths with its verdict (``brasp sample --all``),
        shortest first, then in brasp's alphabet order."""
        out, _ = run(self.binary, ["sample", self.path, "--all", "--lengths", "%d:%d" % lengths, "--json"],
                     "brasp sample " + self.path)
        return [([_symbol(x) for x in o["word"]], o["label"] == "accept") for o in map(json.loads, out.splitlines())]

    def counts(self, lengths):
        """``brasp count``: per length n, {"length", "accepted", "rejected", "total"}."""
        out, _ = run(self.binary, ["count", self.path, "--lengths", "%d:%d" % lengths, "--json"], "brasp count " + self.path)
        return [json.loads(line) for line in out.splitlines()]


def describe_lacking(lengths, lacking):
    """One sentence per side that some lengths lack, or []."""
    out = []
    for side, other in (("accepted", "rejected"), ("rejected", "accepted")):
        ns = lacking[side]
        if ns:
            shown = ", ".join(map(str, ns[:8])) + (", …" if len(ns) > 8 else "")
            out.append("the language has no %s word of length %s (%d of lengths %d–%d): those lengths hold %s words only"
                       % (side, shown, len(ns), lengths[0], lengths[1], other))
    return out


class WordDataset(torch.utils.data.Dataset):
    """Labelled words as token ids (symbol k is k+1, 0 pads), padded to the
    longest word; items are (tokens, length, label)."""

    def __init__(self, words, index):
        n = max((len(w) for w, _ in words), default=1)
        self.tokens = torch.zeros(len(words), n, dtype=torch.long)
        self.lengths = torch.zeros(len(words), dtype=torch.long)
        self.labels = torch.zeros(len(words), dtype=torch.float32)
        for k, (w, y) in enumerate(words):
            if w:
                self.tokens[k, :len(w)] = torch.tensor([index[a] + 1 for a in w])
            self.lengths[k] = len(w)
            self.labels[k] = float(y)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, k):
        return self.tokens[k], self.lengths[k], self.labels[k]


def trim(tokens, lengths):
    """Drops the padding columns no word of the batch reaches."""
    return tokens[:, :int(lengths.max())] if len(lengths) else tokens
