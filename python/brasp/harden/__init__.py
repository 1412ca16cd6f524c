"""Hardening softmax models: ``python3 -m brasp.harden DIR [-o FILE]``.

Takes a model :mod:`brasp.train` trained (softmax attention) and replaces
every head's softmax by unique-hard attention: position i attends to the
allowed position j with the greatest score q_i·k_j and receives its value.
Ties are broken to the right by default (the greatest j: the paper's
tie-break for future masking, and the most recent of equal vectors);
``--tiebreak leftmost`` takes the least j.  Under strict masks the BOS slot
is position 0, so BOS wins a tie only under ``leftmost``.  Everything else
(embeddings, biases, layer norms, FFNs, the read-out) is kept as trained.

The command prints the fidelity by length: on every word up to the longest
length whose words number at most ``--exhaustive`` and on ``--count``
balanced samples of each longer length up to ``--lengths``, how often the
hardened model agrees with the softmax one, and each one's accuracy against
the language's exact labels (``brasp sample``); and how concentrated the
softmax attention is (the weight a query gives the one position it weighs
most: its mean, and how often it is at least 0.9 and 0.99), the paper's
remark (§2.2) that trained transformers often attend to very few positions put to
a measurement.

With ``-o FILE.json`` it also writes the hardened model in brasp's model
format (exact rationals; see :mod:`brasp.harden.export` for the mapping and
for what it refuses: sinusoidal and learned positions, strict masks' BOS
slot, pre-norm, mean read-out) and checks that ``brasp run`` of the file
gives the hard pass's verdicts on ``--check`` words.

In Python::

    from brasp.train import load_model
    from brasp.harden import HardEncoder
    hard = HardEncoder(load_model("ab"))      # the trained model, hardened
    hard.accepts(["abab", "aba"])
    hard(tokens, lengths)                     # float64 logits, > 0 accepts
"""

import torch
from torch import nn

from . import export, fidelity, params, passes
from .export import ExportError, refusals


class HardEncoder(nn.Module):
    """A trained Encoder with unique-hard attention (see the module
    docstring); its state_dict is the Encoder's.  ``forward(tokens,
    lengths)`` takes the Encoder's batch interface and returns float64
    logits on the CPU; ``stats`` (a passes.HardStats) collects the
    rounding checks of every pass."""

    def __init__(self, encoder, tiebreak="rightmost"):
        super().__init__()
        if tiebreak not in ("rightmost", "leftmost"):
            raise ValueError("tie-break %r: want rightmost or leftmost" % tiebreak)
        self.encoder = encoder
        self.tiebreak = tiebreak
        self.stats = passes.HardStats()

    @property
    def config(self):
        return self.encoder.config

    def forward(self, tokens, lengths):
        P = params.read(self.encoder)
        return passes.hard(P, tokens.cpu(), lengths.cpu(), self.tiebreak, self.stats)

    def encode(self, words):
        return self.encoder.encode(words)

    @torch.no_grad()
    def accepts(self, words):
        if not words:
            return []
        tokens, lengths = self.encode(words)
        return (self(tokens, lengths) > 0).tolist()

    def to_json_doc(self):
        """The hardened model in brasp's format (a dict), or ExportError."""
        return export.to_json_doc(params.read(self.encoder), self.tiebreak)


__all__ = ["HardEncoder", "ExportError", "refusals", "export", "fidelity", "params", "passes"]
