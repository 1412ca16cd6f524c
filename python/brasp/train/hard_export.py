"""Exporting a trained HardEncoder in brasp's model format
(brasp-transformer/1, as safetensors): every parameter a small integer, and
the exported model the same function as the HardEncoder's forward pass.

Layout: one block of coordinates per variable, in the HardEncoder's order,
holding its values one-hot (a head's block as many values as the variable
it copies, a lookup's C).  Position variables are position terms (first,
mod).  A head's score matrix holds its predicate (1 where the query's and the key's
values match, else 0; a none key scores 0), its value matrix the identity from the value variable's block to the
head's.  A layer's lookups are one FFN, an exact integer ReLU network (see
brasp.train.hard).  The output holds the verdict's integer tables, a none value's entry folded
into the bias."""

import json

import torch

from .hard import HardEncoder
from .storage import write_safetensors

FORMAT = "brasp-transformer/1"


class Layout:
    """The coordinates of every variable of an exported HardEncoder."""

    def __init__(self, model):
        self.model = model
        self.C = model.C
        self.sizes, self.offsets, self.labels, self.can_none = [], [], [], []
        var_index = 0
        heads = [h for b in model.blocks for h in b["heads"]]
        lookups = [lk for b in model.blocks for lk in b["lookups"]]
        hi, li = 0, 0
        for v in model.variables:
            if v.kind == "head":
                src = heads[hi].v.choice()
                hi += 1
                size, none = self.sizes[src], True
                names = self.labels_of(src)
            elif v.kind == "lookup":
                li += 1
                size, none, names = self.C, False, [str(c) for c in range(self.C)]
            else:
                size, none, names = v.size, False, v.labels
            self.offsets.append(sum(self.sizes))
            self.sizes.append(size)
            self.can_none.append(none)
            self.labels += ["%s=%s" % (v.name, n) for n in names]
            var_index += 1
        self.width = sum(self.sizes)

    def labels_of(self, k):
        o = self.offsets[k]
        return [lab.split("=", 1)[1] for lab in self.labels[o:o + self.sizes[k]]]

    def coord(self, var, value):
        return self.offsets[var] + value


def _zeros(r, c):
    return [[0] * c for _ in range(r)]


def to_spec(model):
    """The exported model as a dict of the JSON format (dense matrices of ints)."""
    model = model.cpu()
    lay = Layout(model)
    d, C = lay.width, lay.C
    alphabet = model.alphabet
    emb = {a: [0] * d for a in alphabet}
    for k, a in enumerate(alphabet):
        emb[a][lay.coord(0, k)] = 1
    position = []
    for vi, v in enumerate(model.variables):
        if v.kind == "first":
            position.append({"kind": "first", "coord": lay.coord(vi, 0)})
            position.append({"kind": "first", "coord": lay.coord(vi, 1), "negated": True})
        elif v.kind == "mod":
            for r in range(v.size):
                position.append({"kind": "mod", "coord": lay.coord(vi, r), "r": r, "m": v.size})
    strict = model.config.mask == "strict"
    layers = []
    var = 1 + sum(1 for v in model.variables if v.kind in ("first", "mod"))
    for block in model.blocks:
        heads = []
        for h in block["heads"]:
            qv, kv, vv = h.q.choice(), h.k.choice(), h.v.choice()
            P = h.predicate().tolist()
            score = _zeros(d, d)
            for a in range(lay.sizes[qv]):
                for b in range(lay.sizes[kv]):
                    score[lay.coord(qv, a)][lay.coord(kv, b)] = int(P[a][b])
            value = _zeros(d, d)
            for c in range(lay.sizes[vv]):
                value[lay.coord(var, c)][lay.coord(vv, c)] = 1
            mask = ("future" if h.direction == "future" else "past") + ("" if strict else "-or-self")
            heads.append({"mask": mask, "tiebreak": h.tiebreak, "score": score, "value": value})
            var += 1
        w1, b1, w2cols = [], [], []
        for lk in block["lookups"]:
            xv, yv = lk.x.choice(), lk.y.choice()
            T = lk.table.detach()
            xs = list(range(lay.sizes[xv])) + ([None] if lay.can_none[xv] else [])
            ys = list(range(lay.sizes[yv])) + ([None] if lay.can_none[yv] else [])
            for a in xs:
                for b in ys:
                    row = [0] * d
                    if a is not None and b is not None:
                        row[lay.coord(xv, a)] += 1
                        row[lay.coord(yv, b)] += 1
                        bias = -1
                    elif a is None and b is not None:
                        row[lay.coord(yv, b)] += 1
                        for c in range(lay.sizes[xv]):
                            row[lay.coord(xv, c)] -= 1
                        bias = 0
                    elif a is not None:
                        row[lay.coord(xv, a)] += 1
                        for c in range(lay.sizes[yv]):
                            row[lay.coord(yv, c)] -= 1
                        bias = 0
                    else:
                        for c in range(lay.sizes[xv]):
                            row[lay.coord(xv, c)] -= 1
                        for c in range(lay.sizes[yv]):
                            row[lay.coord(yv, c)] -= 1
                        bias = 1
                    cls = int(T[C if a is None else a, C if b is None else b].argmax())
                    w1.append(row)
                    b1.append(bias)
                    w2cols.append(lay.coord(var, cls))
            var += 1
        ffn = None
        if w1:
            w2 = _zeros(d, len(w1))
            for u, c in enumerate(w2cols):
                w2[c][u] = 1
            ffn = {"w1": w1, "b1": b1, "w2": w2, "b2": [0] * d}
        layers.append({"attention": heads, "ffn": ffn, "layernorm": None})
    # The verdict: accept iff Σ_v Q[v][value of v] + qb > 0, the integer
    # sums of the hard pass; a none value's entry is folded into the bias.
    Q, qb = model.out_weights()
    Q = Q.tolist()
    weight = [0] * d
    bias = int(qb) - 1
    for vi in range(len(model.variables)):
        bias += Q[vi][C]
        for c in range(lay.sizes[vi]):
            weight[lay.coord(vi, c)] = Q[vi][c] - Q[vi][C]
    return {"format": FORMAT, "alphabet": alphabet, "width": d, "labels": lay.labels, "embedding": emb,
            "position": position or None, "layers": layers, "output": {"weight": weight, "bias": bias}}


def write_json(model, path):
    """Writes the exported model as brasp's JSON format."""
    with open(path, "w") as f:
        json.dump(to_spec(model), f, separators=(",", ":"))
        f.write("\n")


def write(model, path, extra=None):
    """Writes the exported model as brasp's safetensors format to path."""
    spec = to_spec(model)
    t = lambda x: torch.tensor(x, dtype=torch.float64)
    tensors = {"embedding": t([spec["embedding"][a] for a in spec["alphabet"]]),
               "output.weight": t(spec["output"]["weight"]), "output.bias": t([spec["output"]["bias"]])}
    meta_layers = []
    for li, layer in enumerate(spec["layers"]):
        for hi, h in enumerate(layer["attention"]):
            tensors["layers.%d.attention.%d.score" % (li, hi)] = t(h["score"])
            tensors["layers.%d.attention.%d.value" % (li, hi)] = t(h["value"])
        f = layer["ffn"]
        if f is not None:
            for name in ("w1", "b1", "w2", "b2"):
                tensors["layers.%d.ffn.%s" % (li, name)] = t(f[name])
        meta_layers.append({"attention": [{"mask": h["mask"], "tiebreak": h["tiebreak"]} for h in layer["attention"]],
                            "ffn": f is not None, "layernorm": None})
    meta = {"format": FORMAT, "alphabet": json.dumps(spec["alphabet"]), "labels": json.dumps(spec["labels"]),
            "width": str(spec["width"]), "layers": json.dumps(meta_layers),
            "position": json.dumps(spec["position"])}
    if extra:
        meta.update(extra)
    write_safetensors(path, tensors, meta)
    return spec


__all__ = ["to_spec", "write", "write_json", "HardEncoder"]
