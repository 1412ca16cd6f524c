"""A transformer layer as modules: its heads (brasp.attention), exact
layer norms, the feed-forward network and the residual connections, each
value through a hook point."""

from fractions import Fraction

import torch
from torch import nn

from .attention import Head
from .exactness import Checker, InexactError
from .floats import tensor, unique_rows
from .hooks import HookPoint
from . import spec as specmod


class LayerNorm(nn.Module):
    """Layer norm computed exactly as brasp defines it (σ of spec.sigma):
    each distinct row is normalised in exact rational arithmetic (there are
    few: Lemma 4.3) and the result must be exact in the module's dtype."""

    def __init__(self, norm, dtype):
        super().__init__()
        self.norm = norm
        self.register_buffer("gamma", tensor(norm.gamma, dtype))
        self.register_buffer("beta", tensor(norm.beta, dtype))
        self.exact = True
        self._memo = {}
        # Coordinates with the same (γ_k, β_k) share their outputs for
        # equal inputs: a number per distinct pair.
        pairs = {}
        self._pair = [pairs.setdefault((g, b), len(pairs)) for g, b in zip(norm.gamma, norm.beta)]

    def forward(self, x, valid=None):
        if valid is not None:
            # Padding positions are normalised as zero rows (output beta,
            # exactly): their activations are arbitrary and must not make
            # the exactness check fail.
            x = torch.where(valid.unsqueeze(-1), x, torch.zeros((), dtype=x.dtype, device=x.device))
        if not self.exact:
            mu = x.mean(-1, keepdim=True)
            var = ((x - mu) ** 2).mean(-1, keepdim=True) + float(self.norm.eps)
            sd = var.sqrt()
            y = torch.where(sd == 0, torch.zeros_like(x), (x - mu) / torch.where(sd == 0, torch.ones_like(sd), sd))
            return self.gamma * y + self.beta
        shape = x.shape
        flat = x.reshape(-1, shape[-1])
        uniq, inv = unique_rows(flat)
        rows = []
        for r in uniq.cpu().tolist():
            key = tuple(r)
            out = self._memo.get(key)
            if out is None:
                out = self._row(r)
                if len(self._memo) < 1 << 16:
                    self._memo[key] = out
            rows.append(out)
        t = torch.tensor(rows, dtype=torch.float64).to(dtype=x.dtype, device=x.device)
        if x.dtype != torch.float64 and not torch.equal(t.to(torch.float64), torch.tensor(rows, dtype=torch.float64).to(x.device)):
            raise InexactError("layer norm: an output is not exact in %s" % x.dtype)
        return t[inv].view(shape)

    def _row(self, r):
        """The layer norm of the float row r, exactly: in integers over the
        row's common denominator D (a power of two), c_k = d·x_k·D − Σx·D
        is d·D·(x_k − mean), so var = Σc²/(d³D²) and the output is
        c_k·γ_k/(d·D·σ) + β_k."""
        ln = self.norm
        ratios = [v.as_integer_ratio() for v in r]
        D = max(q for _, q in ratios)
        a = [n * (D // q) for n, q in ratios]
        d = len(a)
        S = sum(a)
        c = [d * x - S for x in a]
        var = Fraction(sum(x * x for x in c), d ** 3 * D * D) + ln.eps
        sd = specmod.sigma(var)
        # With σ = p/q, γ_k = g/h and β_k = b/e, the output is one fraction
        # (c_k·g·q·e + b·h·d·D·p) / (h·d·D·p·e).
        p, q = sd.numerator, sd.denominator
        ddp = d * D * p
        out, seen = [], {}
        for k, ck in enumerate(c):
            key = (ck, self._pair[k])
            f = seen.get(key)
            if f is None:
                bk = ln.beta[k]
                if sd == 0 or ck == 0:
                    y = bk
                else:
                    gk = ln.gamma[k]
                    g, h, b, e = gk.numerator, gk.denominator, bk.numerator, bk.denominator
                    y = Fraction(ck * g * q * e + b * h * ddp, h * ddp * e)
                f = seen[key] = _float(y, "layer norm: the output %s is not a float64")
            out.append(f)
        return out


def _float(y, msg):
    """The Fraction y as a float64, or InexactError(msg % y) if it is none."""
    p, q = y.numerator, y.denominator
    if q & (q - 1) == 0 and q <= 1 << 1074 and -(1 << 53) < p < 1 << 53:
        # p/2^k with |p| < 2^53 and k ≤ 1074: a float64 (normal or subnormal).
        return p / q
    f = float(y)
    if Fraction(f) != y:
        raise InexactError(msg % y)
    return f


class FFN(nn.Module):
    """The feed-forward network W2·ReLU(W1·c + b1) + b2, every operation
    certified exact."""

    def __init__(self, f, dtype, d):
        super().__init__()
        self.register_buffer("w1", tensor(f.w1, dtype).reshape(len(f.b1), d))
        self.register_buffer("b1", tensor(f.b1, dtype))
        self.register_buffer("w2", tensor(f.w2, dtype).reshape(d, len(f.b1)))
        self.register_buffer("b2", tensor(f.b2, dtype))
        self.checker = Checker()

    def forward(self, c):
        ck = self.checker
        h = ck.add([ck.matmul(c, self.w1.t(), "ffn.w1"), self.b1], "ffn.b1").clamp(min=0)
        return ck.add([ck.matmul(h, self.w2.t(), "ffn.w2"), self.b2], "ffn.b2")


class Block(nn.Module):
    """One layer: c = AttnNorm(x + Σ heads), y = FFNNorm(c + FFN(c))."""

    def __init__(self, layer, dtype, d):
        super().__init__()
        self.heads = nn.ModuleList(Head(h, dtype) for h in layer.heads)
        self.ffn = FFN(layer.ffn, dtype, d) if layer.ffn is not None else None
        self.ln_attn = LayerNorm(layer.attn_norm, dtype) if layer.attn_norm is not None else None
        self.ln_ffn = LayerNorm(layer.ffn_norm, dtype) if layer.ffn_norm is not None else None
        self.hook_resid_pre = HookPoint()
        self.hook_attn_out = HookPoint()
        self.hook_resid_mid = HookPoint()
        self.hook_ffn_out = HookPoint()
        self.hook_resid_post = HookPoint()
        self.checker = Checker()

    def forward(self, x, valid):
        x = self.hook_resid_pre(x)
        c = x
        if len(self.heads):
            outs = [h(x, valid)[0] for h in self.heads]
            a = self.checker.add(outs, "heads") if len(outs) > 1 else outs[0]
            a = self.hook_attn_out(a)
            c = self.checker.add([x, a], "attention residual")
        if self.ln_attn is not None:
            c = self.ln_attn(c, valid)
        c = self.hook_resid_mid(c)
        y = c
        if self.ffn is not None:
            f = self.hook_ffn_out(self.ffn(c))
            y = self.checker.add([c, f], "ffn residual")
        if self.ln_ffn is not None:
            y = self.ln_ffn(y, valid)
        return self.hook_resid_post(y)

