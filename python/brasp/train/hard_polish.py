"""Polishing a trained HardEncoder by local search on its own exact loss.

Gradient descent fits a relaxation; what is exported is the hard model, a
finite set of discrete choices: each read's variable, each predicate's
entries, each lookup's table entries, and the verdict's integer tables.
The relaxation's optimum is often not the hard model's: a predicate entry
left near zero, a lookup entry that only a soft mixture used.  Polishing
takes the hard model as it is and changes one choice at a time, keeping a
change when the hard model's verdicts on the training prefixes get better
(first improvement, component by component, until a sweep changes
nothing); out of such a local optimum it makes a few random changes and
descends again, keeping the result when it is no worse (iterated local
search), until every prefix is right or a budget of changes tried is
spent.  The budget counts changes, not seconds, so a seed gives the same
model on every machine.

After each change of a head or a lookup, the verdict's tables are refitted
to the new variables (those from the changed one on, and the bias) by exact
coordinate steps: the best integer for one
entry, all others fixed, is found over every prefix holding that value by
a histogram of the logits without it (the verdict accepts when the logit
is > 0).  So a change is judged with the readout it deserves, not the one
fitted to the old variables.

The search works on the variables' values (integers), never on
floating-point activations, so it sees exactly the function that is
exported; ``install`` writes its choices back into the model's parameters
and the caller checks that the model's own hard pass gives the same
verdicts."""

import dataclasses
import random

import torch

from .hard import OUT_SCALE

# The verdict's tables stay within ±LOGIT_BOUND (in units of 1/OUT_SCALE).
LOGIT_BOUND = 16 * OUT_SCALE


@dataclasses.dataclass
class HeadChoice:
    q: int
    k: int
    v: int
    P: torch.Tensor  # bool [C, C]


@dataclasses.dataclass
class LookupChoice:
    x: int
    y: int
    T: torch.Tensor  # long [C+1, C+1]: the class written for each pair of values


@dataclasses.dataclass
class Discrete:
    """Every choice of a hard model: per layer its heads' and lookups'
    choices, then the verdict's integer tables Q [variables, C+1] and bias."""

    layers: list
    Q: torch.Tensor
    b: int

    def copy(self):
        return Discrete([([dataclasses.replace(h, P=h.P.clone()) for h in hs],
                          [dataclasses.replace(lk, T=lk.T.clone()) for lk in lks]) for hs, lks in self.layers],
                        self.Q.clone(), self.b)


def snapshot(model):
    """The discrete choices of model's hard pass."""
    layers = []
    for block in model.blocks:
        hs = [HeadChoice(h.q.choice(), h.k.choice(), h.v.choice(), h.predicate().clone()) for h in block["heads"]]
        lks = [LookupChoice(lk.x.choice(), lk.y.choice(), lk.table.detach().argmax(-1).clone()) for lk in block["lookups"]]
        layers.append((hs, lks))
    Q, b = model.out_weights()
    return Discrete(layers, Q.clone(), int(b))


@torch.no_grad()
def install(model, d):
    """Writes d into model's parameters, so that its hard pass makes d's
    choices (the relaxation keeps its scale: a choice's logit margin is kept
    or set to one)."""

    def pick(read, k):
        lg = read.logits
        if int(torch.argmax(lg)) != k:
            lg[k] = lg.max() + 1.0

    for block, (hs, lks) in zip(model.blocks, d.layers):
        for h, c in zip(block["heads"], hs):
            pick(h.q, c.q), pick(h.k, c.k), pick(h.v, c.v)
            mag = h.score.abs().clamp(min=1.0)
            h.score.copy_(torch.where(c.P, mag, -mag))
        for lk, c in zip(block["lookups"], lks):
            pick(lk.x, c.x), pick(lk.y, c.y)
            T = lk.table
            want = torch.nn.functional.one_hot(c.T, T.shape[-1]).bool()
            top = T.max(-1, keepdim=True).values
            T.copy_(torch.where(want, torch.maximum(T, top + 1.0), T))
    model.out_table.copy_(d.Q.to(model.out_table.dtype) / OUT_SCALE)
    model.out_bias.fill_(d.b / OUT_SCALE)


class Search:
    """Local search over a hard model's choices on labelled prefixes
    (tokens [B, N], lengths [B], labels [B, N] of 0/1)."""

    def __init__(self, model, tokens, lengths, labels):
        self.model = model
        self.C = model.C
        with torch.no_grad():
            vals, states, valid = model._embed(tokens, lengths)
        self.base = states
        self.valid = valid
        self.labels = labels[:, :tokens.shape[1]][valid].bool()
        self.heads = [list(b["heads"]) for b in model.blocks]
        # components in the order their variables come: (layer, "head"/"lookup", index)
        self.order = []
        for li, b in enumerate(model.blocks):
            self.order += [(li, "head", h) for h in range(len(b["heads"]))]
            self.order += [(li, "lookup", f) for f in range(len(b["lookups"]))]
        self.evaluations = 0
        self._moves = [self._moves_of(n) for n in range(len(self.order))]

    # ----- the hard pass on values -----

    def _head(self, module, c, states):
        C = self.C
        qs, ks, vs = states[c.q], states[c.k], states[c.v]
        best, where = self.model._positions(module, ks, self.valid)
        present = best > 0
        any_present = present.any(-1)
        P = torch.nn.functional.pad(c.P.to(best.dtype), (0, 1, 0, 1))
        key = torch.where(present, P[qs], torch.full_like(best, -1))
        top = key.max(dim=-1, keepdim=True).values
        tied = present & (key == top)
        pick = torch.where(tied, best, torch.zeros_like(best)).argmax(dim=-1)
        jstar = where.gather(-1, pick.unsqueeze(-1)).squeeze(-1)
        return torch.where(any_present, vs.gather(1, jstar), torch.full_like(vs, C))

    def run_from(self, d, states, start):
        """The variables' values from component number start on, given the
        values of the variables before it (states, a list it extends)."""
        states = list(states)
        for n, (li, kind, idx) in enumerate(self.order):
            if n < start:
                continue
            if kind == "head":
                states.append(self._head(self.heads[li][idx], d.layers[li][0][idx], states))
            else:
                c = d.layers[li][1][idx]
                states.append(c.T[states[c.x], states[c.y]])
        return states

    def states(self, d):
        return self.run_from(d, self.base, 0)

    def first_var(self, n):
        """The index of component n's variable."""
        return len(self.base) + n

    # ----- the verdict -----

    def features(self, states):
        """The values at every valid position [P, variables]."""
        return torch.stack([s[self.valid] for s in states], -1)

    def logits(self, d, feats):
        V = feats.shape[1]
        return d.b + d.Q[torch.arange(V), feats].sum(-1)

    def correct(self, d, feats):
        return int(((self.logits(d, feats) > 0) == self.labels).sum())

    def refit(self, d, feats, sweeps=2, start=0):
        """Exact coordinate steps on the verdict's tables (and bias): each
        entry set to the integer that makes the most prefixes right with the
        others fixed (a variable's entries hold disjoint prefixes, so they
        step together).  Returns the number right."""
        V = feats.shape[1]
        lab = self.labels
        logit = self.logits(d, feats)
        for _ in range(sweeps):
            for v in list(range(start, V)) + [V]:
                col = feats[:, v] if v < V else torch.zeros_like(feats[:, 0])
                old = d.Q[v][col] if v < V else torch.full_like(logit, d.b)
                rest = logit - old
                best = self._best_shifts(rest, lab, col)
                if v < V:
                    d.Q[v] = torch.where(best > LOGIT_BOUND, d.Q[v], best.clamp(max=LOGIT_BOUND))
                    logit = rest + d.Q[v][col]
                else:
                    d.b = int(best[0])
                    logit = rest + d.b
        return int(((logit > 0) == lab).sum())

    def _best_shifts(self, rest, lab, col):
        """Per value a of col, the integer t in [−LOGIT_BOUND, LOGIT_BOUND]
        maximising the number of prefixes holding a with (rest + t > 0) ==
        label, the smallest |t| on ties (LOGIT_BOUND+1 for a value no prefix
        holds)."""
        # rest + t > 0 ⇔ t ≥ r+1 with r = −rest: an accepted prefix is right
        # for t ≥ r+1, a rejected one for t ≤ r.  r is clamped into the range.
        K = self.C + 1
        span = 2 * LOGIT_BOUND + 2
        r = (-rest).clamp(-LOGIT_BOUND - 1, LOGIT_BOUND) + LOGIT_BOUND + 1  # 0 … span−1
        idx = col * span + r
        pos = torch.bincount(idx[lab], minlength=K * span).view(K, span)
        neg = torch.bincount(idx[~lab], minlength=K * span).view(K, span)
        # t = u − LOGIT_BOUND − 1 for u in 1 … span−1: accepted right when r ≤ u−1, rejected when r ≥ u.
        right = torch.cumsum(pos, 1)[:, :-1] + (neg.sum(1, keepdim=True) - torch.cumsum(neg, 1)[:, :-1])
        ts = torch.arange(-LOGIT_BOUND, LOGIT_BOUND + 1)
        # the best score, then the smallest |t|: a key ordering them at once
        key = right * (4 * LOGIT_BOUND + 4) - ts.abs()
        best = ts[key.argmax(1)]
        held = (pos.sum(1) + neg.sum(1)) > 0
        return torch.where(held, best, torch.full_like(best, LOGIT_BOUND + 1))

    # ----- the search -----

    def moves(self, n):
        return self._moves[n]

    def _moves_of(self, n):
        """Every single change of component n, as (field, key, value): a
        predicate entry flipped (P, (a, b), None), a table entry set (T, (x,
        y), class) or a read moved to another variable (q/k/v/x/y, None,
        variable)."""
        li, kind, idx = self.order[n]
        block = self.model.blocks[li]
        nvars = len((block["heads"][idx].q if kind == "head" else block["lookups"][idx].x).logits)
        C = self.C
        if kind == "head":
            out = [("P", (a, b), None) for a in range(C) for b in range(C)]
            out += [(f, None, var) for f in ("q", "k", "v") for var in range(nvars)]
        else:
            out = [("T", (x, y), cls) for x in range(C + 1) for y in range(C + 1) for cls in range(C)]
            out += [(f, None, var) for f in ("x", "y") for var in range(nvars)]
        return out

    def changed(self, d, n, move):
        """d with move made on component n, or None when it changes nothing."""
        li, kind, idx = self.order[n]
        field, key, value = move
        c = d.layers[li][0 if kind == "head" else 1][idx]
        if field == "T" and int(c.T[key]) == value:
            return None
        if field not in ("P", "T") and getattr(c, field) == value:
            return None
        e = d.copy()
        c = e.layers[li][0 if kind == "head" else 1][idx]
        if field == "P":
            c.P[key] = not bool(c.P[key])
        elif field == "T":
            c.T[key] = value
        else:
            setattr(c, field, value)
        return e

    def judge(self, d, states, start=0, kept=()):
        """The prefixes d gets right with the variables' values states, the
        verdict's tables refitted: with start, one sweep over the entries of
        the variables from number start on (the ones a change there moves)
        and the bias; else two sweeps over all of them.  kept holds the
        values at the valid positions of the variables before start, which
        a change there shares with the model it changes."""
        feats = torch.stack(list(kept[:start]) + [s[self.valid] for s in states[start:]], -1)
        if start:
            return self.refit(d, feats, sweeps=1, start=start)
        return self.refit(d, feats)

    def descend(self, d, states, score, budget):
        """First-improvement sweeps over every single change until one
        changes nothing or the budget of evaluations is spent: (d, states,
        score)."""
        total = int(self.labels.numel())
        kept = [s[self.valid] for s in states]
        changed = True
        while changed and score < total:
            changed = False
            for n in range(len(self.order)):
                first = self.first_var(n)
                for move in self.moves(n):
                    if score == total or self.evaluations >= budget:
                        return d, states, score
                    e = self.changed(d, n, move)
                    if e is None:
                        continue
                    st = self.run_from(e, states[:first], n)
                    self.evaluations += 1
                    if self.judge(e, st, first, kept) > score:
                        d, states, changed = e, st, True
                        score = self.judge(d, states)
                        kept = [s[self.valid] for s in states]
        return d, states, score

    def run(self, d, budget, seed=0, kick=3, log=None):
        """Iterated local search from d, trying at most ``budget`` changes:
        descend, then repeatedly make ``kick`` random changes and descend
        again, keeping the result when it makes at least as many prefixes
        right.  Returns (the best Discrete, prefixes right, prefixes)."""
        gen = random.Random(seed)
        total = int(self.labels.numel())
        d = d.copy()
        states = self.states(d)
        score = self.judge(d, states)
        d, states, score = self.descend(d, states, score, budget)
        if log:
            log("polish: descent: %d of %d training prefixes right" % (score, total))
        kicks = 0
        while score < total and self.evaluations < budget:
            e = d
            for _ in range(kick):
                n = gen.randrange(len(self.order))
                moved = self.changed(e, n, gen.choice(self.moves(n)))
                e = moved if moved is not None else e
            st = self.states(e)
            s = self.judge(e, st)
            e, st, s = self.descend(e, st, s, budget)
            kicks += 1
            if s >= score:
                if log and s > score:
                    log("polish: kick %d: %d of %d training prefixes right" % (kicks, s, total))
                d, states, score = e, st, s
        return d, score, total
