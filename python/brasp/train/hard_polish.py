"""Polishing a trained HardEncoder by local search on its own exact loss.

Gradient descent fits a relaxation; what is exported is the hard model, a
finite set of discrete choices: each read's variable, each predicate's
entries, each lookup's table entries, and the verdict's integer tables.
The relaxation's optimum is often not the hard model's: a predicate entry
left near zero, a lookup entry that only a soft mixture used.  Polishing
takes the hard model as it is and searches its choices by simulated
annealing: a random single change (a read moved, a predicate entry
flipped, a lookup entry set) is kept when it makes at least as many
training prefixes right, and one making k fewer right with probability
exp(−k/T), the temperature T falling geometrically over a budget of
changes tried; the best model seen is the result.  Measured on Dyck-1 of
depth 2 from the same trained models and budget, this beat first-improvement
descent with random kicks (iterated local search), which stalls on
plateaus that annealing crosses by sideways and downhill steps.  The
budget counts changes, not seconds, so a seed gives the same model on
every machine.

After each change of a head or a lookup, the verdict's tables are refitted
to the new variables (those whose values it moved, and the bias) by exact
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
import math
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
    (tokens [B, N], lengths [B], labels [B, N] of 0/1).

    Every variable's values are held flat, one entry per prefix (the valid
    positions of the words, word after word, in order: valid [B, N] says
    where they sit), so that no work goes to padding and the verdict's
    refit reads them as they are."""

    def __init__(self, model, tokens, lengths, labels):
        self.model = model
        self.C = model.C
        with torch.no_grad():
            _, states, valid = model._embed(tokens, lengths)
        self.valid = valid
        self.base = [s[valid] for s in states]
        self.labels = labels[:, :tokens.shape[1]][valid].bool()
        B, N = valid.shape
        # word[p]: the word (of words) prefix p belongs to; start[p]: the
        # flat index of that word's first position.
        self.words = B
        self.word = torch.arange(B).unsqueeze(1).expand(B, N)[valid]
        self.start = (torch.cumsum(lengths, 0) - lengths)[self.word]
        self.flat = torch.arange(len(self.word))
        self.strict = model.config.mask == "strict"
        self.heads = [list(b["heads"]) for b in model.blocks]
        # components in the order their variables come: (layer, "head"/"lookup", index)
        self.order = []
        for li, b in enumerate(model.blocks):
            self.order += [(li, "head", h) for h in range(len(b["heads"]))]
            self.order += [(li, "lookup", f) for f in range(len(b["lookups"]))]
        self.evaluations = 0
        self._ranks = {}
        self._moves = [self._moves_of(n) for n in range(len(self.order))]

    # ----- the hard pass on values -----

    def _head(self, module, c, states):
        """The head's values at every prefix: the model's hard pass (among
        the key values present before the position, the preferred one that
        satisfies the predicate, else the preferred of all)."""
        C = self.C
        qs, ks, vs = states[c.q], states[c.k], states[c.v]
        best, where = self._positions(module, ks)
        present = best > 0
        any_present = present.any(-1)
        P = torch.nn.functional.pad(c.P.to(best.dtype), (0, 1, 0, 1))
        key = torch.where(present, P[qs], torch.full_like(best, -1))
        top = key.max(dim=-1, keepdim=True).values
        tied = present & (key == top)
        pick = torch.where(tied, best, torch.zeros_like(best)).argmax(dim=-1)
        jstar = where.gather(-1, pick.unsqueeze(-1)).squeeze(-1)
        return torch.where(any_present, vs[jstar], torch.full_like(vs, C))

    def _positions(self, module, ks):
        """(best [P, C+1], where [P, C+1]): per prefix and key value, a
        preference rank of the position the head prefers among those of
        its word it sees holding that value (0: none) and that position's
        flat index.  Heads here look back (the polish wants directions
        future): rightmost takes the last such position, leftmost the
        word's first, each a running extremum of flat indices.  Cached by ks: a change leaves most
        variables' values as they were (the same tensor), and with them the
        positions each key value singles out."""
        cache = (id(ks), module.tiebreak)
        hit = self._ranks.get(cache)
        if hit is not None and hit[0] is ks:
            return hit[1]
        if len(self._ranks) >= 256:
            self._ranks.clear()
        n, K = len(ks), self.C + 1
        holds = ks.unsqueeze(-1) == torch.arange(K)
        flat = self.flat.unsqueeze(-1)
        if module.tiebreak == "rightmost":
            # The last position so far holding the value: a running maximum
            # of flat indices + 1 (0: none), in the word when past its start.
            run = torch.where(holds, flat + 1, torch.zeros_like(flat)).cummax(0).values
            fill = 0
        else:
            # The word's first position holding the value: a running minimum
            # of flat indices lifted by (words − word)·n, so that an earlier
            # word's positions, lifted higher, never win.
            lift = (self.words - self.word).unsqueeze(-1) * n
            fill = (self.words + 1) * n
            run = torch.where(holds, lift + flat, torch.full_like(flat, fill)).cummin(0).values
        if self.strict:
            run = torch.cat([torch.full_like(run[:1], fill), run[:-1]])
        if module.tiebreak == "rightmost":
            seen, where, rank = run > self.start.unsqueeze(-1), run - 1, run
        else:
            seen, where = run < lift + n, run - lift
            rank = n - where
        out = (torch.where(seen, rank, torch.zeros_like(rank)), torch.where(seen, where, torch.zeros_like(where)))
        self._ranks[cache] = (ks, out)  # ks kept alive, so its id is not reused while cached
        return out

    def run_from(self, d, states, start, old=None):
        """The variables' values from component number start on, given the
        values of the variables before it (states, a list it extends).
        With old, the values before a change of component start: a later
        component none of whose inputs moved keeps its old values (the
        same tensor), so a change is computed only as far as it reaches.
        Returns (the values, the numbers of the variables whose values
        differ from old)."""
        states = list(states)
        moved = set()
        for n, (li, kind, idx) in enumerate(self.order):
            if n < start:
                continue
            var = len(states)
            c = d.layers[li][0 if kind == "head" else 1][idx]
            reads = (c.q, c.k, c.v) if kind == "head" else (c.x, c.y)
            if old is not None and n > start and not moved.intersection(reads):
                states.append(old[var])
                continue
            if kind == "head":
                states.append(self._head(self.heads[li][idx], c, states))
            else:
                states.append(c.T[states[c.x], states[c.y]])
            if old is None or not torch.equal(states[var], old[var]):
                moved.add(var)
        return states, moved

    def states(self, d):
        return self.run_from(d, self.base, 0)[0]

    def first_var(self, n):
        """The index of component n's variable."""
        return len(self.base) + n

    # ----- the verdict -----

    def features(self, states):
        """The values at every prefix [P, variables]."""
        return torch.stack(states, -1)

    def logits(self, d, feats):
        V = feats.shape[1]
        return d.b + d.Q[torch.arange(V), feats].sum(-1)

    def correct(self, d, feats):
        return int(((self.logits(d, feats) > 0) == self.labels).sum())

    def refit(self, d, feats, sweeps=2, only=None):
        """Exact coordinate steps on the verdict's tables (and bias): each
        entry set to the integer that makes the most prefixes right with the
        others fixed (a variable's entries hold disjoint prefixes, so they
        step together); the tables of the variables numbered in only, or of
        all.  Returns the number right."""
        V = feats.shape[1]
        lab = self.labels
        logit = self.logits(d, feats)
        for _ in range(sweeps):
            for v in (list(range(V)) if only is None else list(only)) + [V]:
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

    def judge(self, d, states, moved=None):
        """The prefixes d gets right with the variables' values states, the
        verdict's tables refitted: after a change, one sweep over the tables
        of the variables it moved (their numbers) and the bias; else two
        sweeps over all of them."""
        feats = self.features(states)
        if moved is not None:
            return self.refit(d, feats, sweeps=1, only=moved)
        return self.refit(d, feats)

    def anneal(self, d, budget, seed=0, t_start=3.0, t_end=0.2, spent=0):
        """Simulated annealing from d, trying at most ``budget`` − spent
        changes: a random single change, its verdict tables refitted, is
        kept when it makes at least as many prefixes right, or k fewer with
        probability exp(−k/T), the temperature T falling geometrically from
        t_start to t_end over the budget (spent: changes an earlier search
        of the same schedule tried, so that it goes on where that one
        stopped).  Returns (the best Discrete seen, prefixes right,
        prefixes)."""
        gen = random.Random(seed)
        total = int(self.labels.numel())
        d = d.copy()
        states = self.states(d)
        score = self.judge(d, states)
        best, top = d.copy(), score
        while top < total and spent + self.evaluations < budget:
            t = t_start * (t_end / t_start) ** ((spent + self.evaluations) / budget)
            n = gen.randrange(len(self.order))
            e = self.changed(d, n, gen.choice(self.moves(n)))
            if e is None:
                continue
            first = self.first_var(n)
            st, moved = self.run_from(e, states[:first], n, states)
            self.evaluations += 1
            if not moved:
                d = e  # the same function: a free sideways step
                continue
            s = self.judge(e, st, sorted(moved))
            if s >= score or gen.random() < math.exp((s - score) / t):
                d, states, score = e, st, s
                if score > top:
                    score = self.judge(d, states)
                    best, top = d.copy(), score
        return best, top, total
