"""The parameters of a trained :class:`brasp.train.Encoder`, head by head,
as float64 tensors (float32 weights are exact in float64), read once for
the passes and the export."""

import dataclasses

import torch


@dataclasses.dataclass
class Norm:
    gamma: torch.Tensor  # [d]
    beta: torch.Tensor   # [d]
    eps: float


@dataclasses.dataclass
class Head:
    wq: torch.Tensor  # [dh, d]
    bq: torch.Tensor  # [dh]
    wk: torch.Tensor
    bk: torch.Tensor
    wv: torch.Tensor
    bv: torch.Tensor
    wo: torch.Tensor  # [d, dh]: this head's columns of the output projection


@dataclasses.dataclass
class Layer:
    heads: list
    bo: torch.Tensor  # [d]: the output projection's bias, added once
    w1: torch.Tensor  # [ff, d]
    b1: torch.Tensor
    w2: torch.Tensor  # [d, ff]
    b2: torch.Tensor
    norm1: Norm       # pre-norm: the heads' input; post-norm: after the attention residual
    norm2: Norm       # pre-norm: the FFN's input; post-norm: after the FFN residual


@dataclasses.dataclass
class Params:
    """Everything the forward pass of an Encoder reads."""

    config: object
    embed: torch.Tensor      # [|Σ|+2, d]: pad, the letters, BOS
    first: object            # [d] or None
    mods: list               # [(M, [M, d])]
    learned: object          # [n_positions+1, d] or None
    layers: list
    final_norm: object       # Norm (pre-norm models) or None
    head_w: torch.Tensor     # [d]
    head_b: float

    @property
    def pre(self):
        return self.config.norm == "pre"

    @property
    def bos(self):
        return self.config.bos()


def _norm(ln):
    return Norm(ln.weight.detach().double().cpu(), ln.bias.detach().double().cpu(), float(ln.eps))


def read(model):
    """The Params of a brasp.train Encoder."""
    c = model.config
    d, H = c.width, c.heads
    dh = d // H

    def t(x):
        return x.detach().double().cpu()

    layers = []
    for layer in model.encoder.layers:
        att = layer.self_attn
        if not att._qkv_same_embed_dim or att.in_proj_bias is None or att.out_proj.bias is None:
            raise ValueError("an attention layer without the packed projections and biases nn.TransformerEncoderLayer makes")
        w, b = t(att.in_proj_weight), t(att.in_proj_bias)
        wo = t(att.out_proj.weight)
        heads = []
        for h in range(H):
            s = slice(h * dh, (h + 1) * dh)
            heads.append(Head(wq=w[:d][s], bq=b[:d][s], wk=w[d:2 * d][s], bk=b[d:2 * d][s],
                              wv=w[2 * d:][s], bv=b[2 * d:][s], wo=wo[:, s]))
        layers.append(Layer(heads=heads, bo=t(att.out_proj.bias), w1=t(layer.linear1.weight), b1=t(layer.linear1.bias),
                            w2=t(layer.linear2.weight), b2=t(layer.linear2.bias),
                            norm1=_norm(layer.norm1), norm2=_norm(layer.norm2)))
    kinds = model.kinds
    return Params(
        config=c,
        embed=t(model.embed.weight),
        first=t(model.first) if "first" in kinds else None,
        mods=[(m, t(e.weight)) for m, e in zip(kinds.get("mod", []), model.mods)] if "mod" in kinds else [],
        learned=t(model.learned.weight) if "learned" in kinds else None,
        layers=layers,
        final_norm=_norm(model.final_norm) if c.norm == "pre" else None,
        head_w=t(model.head.weight)[0],
        head_b=float(model.head.bias.detach()[0]),
    )
