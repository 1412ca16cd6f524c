"""Softmax-attention models exported by ``brasp convert --to transformer
--softmax --max-length N`` (the Go package transformer/softmax documents
the construction and the certificate).

The export keeps the hard model's parameters; each head puts on an allowed
position j the weight ∝ exp(λ·(x_iᵀ S x_j + b·j)) and on a sink of value 0
the weight ∝ exp(λ·s).  Its certificate proves, in exact arithmetic, that
on every word of length ≤ N the verdicts (and output words) equal the hard
model's.  :func:`load` runs it in float64 (default) or float32;
:meth:`SoftmaxModel.float32_safe_length` estimates where float32's rounding
eats the margins the certificate relies on.
"""

import json

import torch

from . import spec as specmod
from .model import Model

FORMAT = "brasp-softmax/1"


class SoftmaxModel(Model):
    """A Model whose heads use softmax attention (see the module docs).
    ``hard()`` returns the hard-attention model it was exported from."""

    def __init__(self, data, dtype=torch.float64):
        if data.get("format") != FORMAT:
            raise specmod.FormatError("format: %r, want %r" % (data.get("format"), FORMAT))
        s = specmod.from_json(json.dumps(data["model"]))
        super().__init__(s, dtype)
        self.max_length = int(data["max_length"])
        self.scale = float(data["scale"])
        self.certificate = data["certificate"]
        heads = data["heads"]
        if len(heads) != len(self.blocks):
            raise specmod.FormatError("heads: %d layers, the model has %d" % (len(heads), len(self.blocks)))
        for block, hs in zip(self.blocks, heads):
            if len(hs) != len(block.heads):
                raise specmod.FormatError("heads: a layer has %d heads, the model %d" % (len(hs), len(block.heads)))
            for head, h in zip(block.heads, hs):
                head.softmax = (self.scale, float(h["position_bias"]), float(h["sink_logit"]))
        # Softmax values are not exact: no exactness checks.
        self.set_checks(False)
        self.float_exact = True

    def hard(self):
        return Model(self.spec)

    def float32_safe_length(self):
        """An estimate (standard floating-point error bounds, not a proof) of
        the longest words on which float32 keeps the certificate's margins:
        the logits λ(s + b·j) must keep their spacing β = δ/(2N) well above
        their rounding error 2u(|s| + δ/2), and the weighted sums' rounding
        (about N·u times the spread of the values per head, amplified by the
        FFNs) must stay below the output margin.  u = 2⁻²⁴."""
        u = 2.0 ** -24
        c = self.certificate
        n_logits = float("inf")
        spread = 0.0
        for layer in reversed(c["layers"]):
            amp_layer = 1.0 + layer["ffn_lipschitz"]
            spread = spread * amp_layer + amp_layer * sum(h["d"] for h in (layer["heads"] or []))
        for layer in c["layers"]:
            for h in layer["heads"] or []:
                delta = h["gap"]
                n_logits = min(n_logits, delta / (16 * u * (h["score_bound"] + delta / 2)))
        n_sums = float("inf")
        if spread > 0:
            n_sums = c["output_margin"] / (4 * u * spread * max(c["output_weight"], 1e-300))
        return int(min(n_logits, n_sums))


def load(path, device=None, dtype=torch.float64):
    with open(path) as f:
        data = json.load(f)
    m = SoftmaxModel(data, dtype)
    if device is not None:
        m = m.to(device)
    return m
