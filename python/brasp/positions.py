"""Position terms as tensors: each term of a model's position embedding
(rational sinusoids, mod, tables, first, last, mid; see the Go package
transformer) as its [B, n, d] contribution to the residual stream, with
the periodic values tabulated once per term and checked exact."""

import torch

from .exactness import InexactError
from .floats import exact_in, tensor


class Terms:
    """The tabulated values of position terms, by term, dtype and device."""

    def __init__(self):
        self._tables = {}

    def _table(self, term, kind, dtype, device):
        key = (id(term), kind, dtype, device)
        t = self._tables.get(key)
        if t is None:
            if kind == "table":
                vals = [term.scale * v for v in term.prefix + term.table_period]
                what = "a table value"
            else:
                vals = [term.scale * term.value(i, 0) for i in range(term.period())]
                what = "a value"
            if not exact_in(vals, dtype):
                raise InexactError("position term: %s is not exact in %s" % (what, dtype))
            t = torch.tensor([float(v) for v in vals], dtype=dtype, device=device)
            self._tables[key] = t
        return t

    def vectors(self, terms, lengths, n, width, dtype, device):
        """One [B, n, width] tensor per term: the term's value at each
        position (1-based) of words of the given lengths [B] in its
        coordinate, zero elsewhere and past each word's end."""
        B = lengths.shape[0]
        pos = torch.arange(1, n + 1, device=device).view(1, n).expand(B, n)
        ln = lengths.view(B, 1)
        zero = torch.zeros((), dtype=dtype, device=device)
        out = []
        for t in terms:
            if t.kind in ("sin", "cos", "mod"):
                v = self._table(t, "period", dtype, device)[pos % t.period()]
            elif t.kind == "table":
                k, p = len(t.prefix), len(t.table_period)
                idx = torch.where(pos <= k, pos - 1, k + (pos - k - 1) % p)
                v = self._table(t, "table", dtype, device)[idx]
            else:
                if t.kind == "first":
                    b = pos == 1
                elif t.kind == "last":
                    b = pos == ln
                else:
                    b = (ln % 2 == 1) & (pos == (ln + 1) // 2)
                if t.negated:
                    b = ~b
                v = b.to(dtype) * tensor([t.scale], dtype).to(device)
            x = torch.zeros(B, n, width, dtype=dtype, device=device)
            x[:, :, t.coord] = torch.where(pos <= ln, v, zero)
            out.append(x)
        return out
