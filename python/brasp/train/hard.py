"""A trainable masked unique-hard-attention transformer whose residual
stream is a list of categorical variables (the paper's §4 model, in a
family that keeps Thm 4.2's program small by construction).

Variables.  Every coordinate block of the residual is one categorical
variable with at most C values, held one-hot; the zero block is the value
"none" (what a head writes when its mask leaves no position).  The
embedding writes the variable ``token`` (the letter) and, with finite-image
positions, ``first`` (first / later) and ``mod:M`` (i mod M); every head and
every lookup writes a new variable.

Heads.  A head reads one variable for its query, one for its key and one
for its value (each chosen among the variables before it) and holds a
predicate table P[a][b] over the query's and the key's values (a none query
or key never satisfies it): B-RASP's attention ``rightmost [j<i, P(q_i,
k_j)] v_j``.  Position i attends to the preferred unmasked position (nearest
or farthest, by the tie-break) whose key satisfies the predicate, and when
none does, to the preferred unmasked position of all; it writes the value
variable's value there (none when no position is unmasked).  As a
transformer head the predicate is a 0/1 score matrix, so every tie is
exact and the export keeps it as it is.  Because the score depends only on
the values, the forward pass computes, per key value, the preferred
position holding it, then picks the value.

Lookups.  A lookup (a categorical MLP) reads two variables x and y and
writes T[x][y], a table over their C+1 values each (none included) into C
classes.  Exported, it is an exact integer ReLU network with one hidden unit
per pair of values: ReLU(x_a + y_b − 1), ReLU(y_b − Σx) for a none x,
ReLU(x_a − Σy) for a none y, ReLU(1 − Σx − Σy) for both none.

Verdict.  The output is linear in the residual at the last position, as in
brasp's model format: a table of C+1 logits per variable (none included)
and a bias, summed over the variables' values.  The hard pass rounds each
logit to a multiple of 1/OUT_SCALE, so the verdict (accept iff the sum is
> 0) is exact integer arithmetic, exported as integer weights.

Training (``relax``).  Evaluation is always the hard pass, the function
that is exported.  Training fits a relaxation at temperature τ, annealed
geometrically from tau_start to tau_end: each variable choice a softmax
over the candidate variables; each predicate entry true with probability
σ(score/τ), independently, and the head's output the value it attends in
expectation (the present key values in order of preference, each winning
when it satisfies the predicate and no preferred one does); each lookup its
table rows' softmax weighted by its inputs' values; the verdict the
expected sum of its tables.  ``anneal`` trains that soft model (the
default: measured best); ``gumbel`` adds Gumbel (for predicates logistic)
noise to its logits; ``straight-through`` runs the hard pass forward and
takes the soft model's gradients (``hard + (soft − soft.detach())``).  The
loop checks at the end that the soft model agrees with the hard one (the
attention has become hard).
"""

import dataclasses

import torch
from torch import nn

from .model import encode_words, position_kinds

MASKS = ("strict", "non-strict", "causal")
TIEBREAKS = ("nearest", "leftmost", "rightmost")
DIRECTIONS = ("future", "both")
RELAXES = ("anneal", "gumbel", "straight-through")
# How a head is relaxed: over positions (every position's key gets a
# gradient) or over the key values present (the positions the hard keys
# single out); "alternate" switches by restart.
HEAD_RELAXES = ("positions", "values", "alternate")
# The hard verdict's logits are multiples of 1/OUT_SCALE.
OUT_SCALE = 8


@dataclasses.dataclass
class HardShape:
    """The shape of a HardEncoder apart from its alphabet.

    mask: ``strict`` (a head looking back sees j < i, the paper's),
    ``non-strict`` (j ≤ i) or ``causal`` (j ≤ i, heads looking back only).
    directions: ``future`` (every head looks back, the future-masked heads
    of the paper; what the verdict at the last position needs) or ``both``
    (odd-numbered heads look ahead, past-masked).  tiebreak: ``nearest``
    (rightmost looking back, leftmost looking ahead), ``leftmost`` or
    ``rightmost``.  position: ``none``, ``first``, ``mod:M`` or several
    joined by ``+``.  classes: C, the values of a head's or lookup's
    variable (at least the alphabet's size and every M)."""

    layers: int = 2
    heads: int = 2
    lookups: int = 1
    classes: int = 3
    mask: str = "strict"
    directions: str = "future"
    tiebreak: str = "nearest"
    position: str = "none"


@dataclasses.dataclass
class HardConfig(HardShape):
    alphabet: list = dataclasses.field(kw_only=True)

    def check(self):
        """Raises ValueError for a shape no HardEncoder has."""
        if not self.alphabet:
            raise ValueError("the alphabet is empty")
        for name in ("layers", "heads", "classes"):
            if getattr(self, name) < 1:
                raise ValueError("--%s %d: want at least 1" % (name, getattr(self, name)))
        if self.lookups < 0:
            raise ValueError("--lookups %d: want at least 0" % self.lookups)
        for name, allowed in (("mask", MASKS), ("directions", DIRECTIONS), ("tiebreak", TIEBREAKS)):
            if getattr(self, name) not in allowed:
                raise ValueError("--%s %s: with --attention hard, want one of %s"
                                 % (name, getattr(self, name), ", ".join(allowed)))
        if self.mask == "causal" and self.directions == "both":
            raise ValueError("--mask causal has heads looking back only; --directions both wants strict or non-strict")
        kinds = position_kinds(self.position)
        for k in kinds:
            if k not in ("none", "first", "mod"):
                raise ValueError("--position %s: hard attention takes none, first and mod:M (finite-image "
                                 "positions, which Thm 4.2's decompiler reads)" % self.position)

    def width(self):
        """C: the size of every variable's block in the trained model."""
        sizes = [self.classes, len(self.alphabet), 2] + list(position_kinds(self.position).get("mod", []))
        return max(sizes)


@dataclasses.dataclass
class Variable:
    name: str
    size: int       # the values it takes (its block is padded to C)
    kind: str       # token, first, mod, head, lookup
    labels: list    # a name per value


def soft_state(x):
    """The most likely value of soft blocks [..., C] (C: none, the missing mass)."""
    return torch.cat([x, 1 - x.sum(-1, keepdim=True)], -1).argmax(-1)


def mix(enc, hard, soft):
    """The training forward value: the surrogate itself (soft forward), or the
    hard value carrying the surrogate's gradient (straight-through)."""
    return soft if enc.soft else hard + (soft - soft.detach())


def logistic_like(x):
    """Logistic noise (the difference of two Gumbels): a binary Gumbel-softmax's."""
    u = torch.rand_like(x, dtype=torch.float32).clamp_(1e-9, 1 - 1e-9)
    return torch.log(u) - torch.log1p(-u)


def first_satisfying(sat, rank, any_candidate):
    """The distribution of the candidate a head attends [..., K]: candidates
    (positions or key values) satisfy the predicate independently with
    probabilities sat [..., K]; the head takes, in decreasing rank (its
    preference; rank 0 for no candidate), the first that satisfies it, or the
    highest-ranked of all when none does (nothing where any_candidate [...]
    is false)."""
    order = rank.argsort(dim=-1, descending=True)
    sat_o = sat.gather(-1, order)
    left = torch.cumprod(1 - sat_o, dim=-1)
    before = torch.cat([torch.ones_like(left[..., :1]), left[..., :-1]], -1)
    p_o = sat_o * before
    p_o = torch.cat([p_o[..., :1] + left[..., -1:], p_o[..., 1:]], -1)
    p = torch.zeros_like(p_o).scatter(-1, order, p_o)
    return p * any_candidate.unsqueeze(-1).to(p.dtype)


def gumbel_like(x):
    u = torch.rand_like(x).clamp_(1e-9, 1 - 1e-9)
    return -torch.log(-torch.log(u))


class Read(nn.Module):
    """The choice of one variable among the first n."""

    def __init__(self, n):
        super().__init__()
        self.logits = nn.Parameter(torch.randn(n) * 0.1)

    def choice(self):
        return int(torch.argmax(self.logits))

    def forward(self, enc, vals, states):
        """(st tensor [B, N, C], states [B, N] with C for none) of the chosen variable."""
        n = len(self.logits)
        logits = self.logits
        if enc.training and enc.noise:
            logits = logits + gumbel_like(logits)
        k = int(torch.argmax(logits))
        hard, state = vals[k], states[k]
        if not enc.training:
            return hard, state
        w = torch.softmax(logits / enc.tau, 0)
        mix = torch.einsum("v,vbnc->bnc", w, torch.stack(vals[:n]))
        if enc.soft and not enc.hard_reads:
            return mix, soft_state(mix)
        return hard + (mix - mix.detach()), state


class Head(nn.Module):
    def __init__(self, n, C, direction, tiebreak):
        super().__init__()
        self.q, self.k, self.v = Read(n), Read(n), Read(n)
        self.score = nn.Parameter(torch.randn(C, C))
        self.direction = direction  # "future": looks back (j < i); "past": looks ahead
        self.tiebreak = tiebreak    # "leftmost" or "rightmost"

    def predicate(self):
        """The hard predicate table [C, C] of booleans: the query's value a
        and the key's value b match when score[a][b] > 0."""
        return self.score.detach() > 0


class Lookup(nn.Module):
    def __init__(self, n, C):
        super().__init__()
        self.x, self.y = Read(n), Read(n)
        self.table = nn.Parameter(torch.randn(C + 1, C + 1, C))


class HardEncoder(nn.Module):
    """The categorical hard-attention transformer (see the module docs).
    ``forward(tokens, lengths)`` returns accept logits [B] (> 0 accepts), the
    exact verdicts of the exported model; in training mode the logits carry
    the surrogate's gradients."""

    def __init__(self, config):
        super().__init__()
        config.check()
        self.config = config
        self.alphabet = list(config.alphabet)
        self.index = {a: k for k, a in enumerate(self.alphabet)}
        self.C = C = config.width()
        self.tau = 1.0
        self.noise = False
        self.soft = False
        self.hard_reads = False
        self.head_relax = "positions"
        self.variables = [Variable("token", len(self.alphabet), "token", list(self.alphabet))]
        kinds = position_kinds(config.position)
        if "first" in kinds:
            self.variables.append(Variable("first", 2, "first", ["first", "later"]))
        for m in kinds.get("mod", []):
            self.variables.append(Variable("mod%d" % m, m, "mod", ["%d" % r for r in range(m)]))
        self.blocks = nn.ModuleList()
        for layer in range(config.layers):
            n = len(self.variables)
            heads = nn.ModuleList()
            for h in range(config.heads):
                direction = "past" if config.directions == "both" and h % 2 == 1 else "future"
                tb = config.tiebreak
                if tb == "nearest":
                    tb = "rightmost" if direction == "future" else "leftmost"
                heads.append(Head(n, C, direction, tb))
            for h in range(config.heads):
                self.variables.append(Variable("att%d_%d" % (layer + 1, h + 1), C, "head", None))
            n = len(self.variables)
            lookups = nn.ModuleList(Lookup(n, C) for _ in range(config.lookups))
            for f in range(config.lookups):
                self.variables.append(Variable("ffn%d_%d" % (layer + 1, f + 1), C, "lookup", None))
            self.blocks.append(nn.ModuleDict({"heads": heads, "lookups": lookups}))
        self.out_table = nn.Parameter(torch.zeros(len(self.variables), C + 1))
        self.out_bias = nn.Parameter(torch.zeros(()))

    # ----- the forward pass -----

    def _embed(self, tokens, lengths):
        B, N = tokens.shape
        dev = tokens.device
        C = self.C
        valid = torch.arange(N, device=dev).unsqueeze(0) < lengths.unsqueeze(1)
        tok = torch.where(valid, tokens - 1, torch.full_like(tokens, C))
        states = [tok]
        pos = torch.arange(1, N + 1, device=dev).unsqueeze(0).expand(B, N)
        for v in self.variables[1:]:
            if v.kind == "first":
                states.append(torch.where(pos == 1, 0, 1))
            elif v.kind == "mod":
                states.append(pos % v.size)
        vals = [nn.functional.one_hot(s, C + 1)[..., :C].to(torch.float32) for s in states]
        return vals, states, valid

    def _allowed(self, head, N, dev):
        i = torch.arange(N, device=dev)
        strict = self.config.mask == "strict"
        if head.direction == "future":
            return (i.unsqueeze(0) < i.unsqueeze(1)) if strict else (i.unsqueeze(0) <= i.unsqueeze(1))
        return (i.unsqueeze(0) > i.unsqueeze(1)) if strict else (i.unsqueeze(0) >= i.unsqueeze(1))

    def _head(self, head, vals, states, valid):
        C = self.C
        B, N = valid.shape
        dev = valid.device
        q, qs = head.q(self, vals, states)
        k, ks = head.k(self, vals, states)
        v, vs = head.v(self, vals, states)
        allowed = self._allowed(head, N, dev).unsqueeze(0) & valid.unsqueeze(1)  # [B, i, j]
        j = torch.arange(N, device=dev, dtype=torch.int32)
        pref = ((j + 1) if head.tiebreak == "rightmost" else (N - j)).view(1, 1, N)
        best, where = self._positions(head, ks, valid)
        present = best > 0
        any_present = present.any(-1)
        # The hard pass: the predicate's table (none queries and keys never
        # satisfy it); among the present key values that satisfy it the
        # preferred position wins, and with none, the preferred of all.
        logits = head.score / self.tau
        if self.training and self.noise:
            logits = logits + logistic_like(logits)
        P = nn.functional.pad((logits.detach() > 0).to(best.dtype), (0, 1, 0, 1))
        sat_hard = P[qs]  # [B, i, C+1]
        key = torch.where(present, sat_hard, torch.full_like(sat_hard, -1))
        top = key.max(dim=-1, keepdim=True).values
        tied = present & (key == top)
        pick = torch.where(tied, best, torch.zeros_like(best)).argmax(dim=-1)  # [B, i]
        jstar = where.gather(-1, pick.unsqueeze(-1)).squeeze(-1)  # [B, i]
        gathered = v.gather(1, jstar.unsqueeze(-1).expand(B, N, C))
        out = gathered * any_present.unsqueeze(-1).to(v.dtype)
        state = torch.where(any_present, vs.gather(1, jstar), torch.full_like(vs, C))
        if self.training and self.soft:
            state = None
        if self.training:
            if self.head_relax == "values":
                soft = self._attend_values(logits, q, k, v, best, where)
            else:
                soft = self._attend(logits, q, k, v, allowed, pref)
            out = mix(self, out, soft)
            if state is None:
                state = soft_state(out)
        return out, state

    def _positions(self, head, ks, valid):
        """(best [B, i, C+1], where [B, i, C+1]): per key value, the preference
        rank of the preferred unmasked position holding it (0: none) and
        that position (0 when none).  The rank of position j is j+1 for
        rightmost heads and N−j for leftmost ones, and a head's mask keeps
        the positions up to i (future) or from i on (past), i itself too
        unless the mask is strict: so the best rank of a key value is a
        running maximum along the word of the ranks of the positions
        holding it, one pass per direction instead of a maximum over every
        (i, j) pair."""
        C = self.C
        B, N = ks.shape
        dev = ks.device
        j = torch.arange(N, device=dev, dtype=torch.int32)
        rightmost = head.tiebreak == "rightmost"
        pref = (j + 1) if rightmost else (N - j)
        holds = (ks.unsqueeze(-1) == torch.arange(C + 1, device=dev)) & valid.unsqueeze(-1)  # [B, j, C+1]
        rank = torch.where(holds, pref.view(1, N, 1), torch.zeros((), dtype=torch.int32, device=dev))
        future = head.direction == "future"
        if not future:
            rank = rank.flip(1)
        best = rank.cummax(dim=1).values
        if self.config.mask == "strict":
            best = torch.cat([torch.zeros_like(best[:, :1]), best[:, :-1]], 1)
        if not future:
            best = best.flip(1)
        where = ((best - 1) if rightmost else (N - best)).to(torch.int64)
        return best, where.masked_fill(best == 0, 0)

    def _attend(self, logits, q, k, v, allowed, pref):
        """The relaxation of a head: position j's key satisfies the predicate
        with probability Σ_ab q_i[a] σ(logits[a][b]) k_j[b] (its value and
        the table's entries drawn independently; a none key never does),
        and the head attends, in order of preference, the first position
        that satisfies it, or the preferred of all when none does.  The
        output is the value attended in expectation.  Every position's key
        gets a gradient, so a lookup can learn to mark a position for a
        head later in the word."""
        sat = torch.einsum("bic,cd,bjd->bij", q, torch.sigmoid(logits), k).clamp(0, 1)
        sat = sat * allowed.to(sat.dtype)
        rank = pref.expand_as(allowed).masked_fill(~allowed, 0)
        p = first_satisfying(sat, rank, allowed.any(-1))
        return torch.einsum("bij,bjc->bic", p, v)

    def _attend_values(self, logits, q, k, v, best, where):
        """The other relaxation of a head: over the key values present (each
        standing for the preferred position holding it, where the hard pass
        would attend if it won), value e satisfying the predicate with
        probability Σ q_i[a] σ(logits[a][b]) k[b] at that position; the
        output is the value attended in expectation, the present values in
        order of preference.  Only the positions the hard keys single out
        get a gradient."""
        C = self.C
        B, N = best.shape[:2]
        present = best > 0
        any_present = present.any(-1)
        kk = k.gather(1, where.reshape(B, N * (C + 1)).unsqueeze(-1).expand(-1, -1, C)).reshape(B, N, C + 1, C)
        kk = kk * present.unsqueeze(-1).to(k.dtype)
        sat = torch.einsum("bic,cd,bied->bie", q, torch.sigmoid(logits), kk).clamp(0, 1)
        p = first_satisfying(sat, best, any_present)
        vv = v.gather(1, where.reshape(B, N * (C + 1)).unsqueeze(-1).expand(-1, -1, C)).reshape(B, N, C + 1, C)
        return torch.einsum("bie,biec->bic", p, vv)

    def _lookup(self, lk, vals, states):
        C = self.C
        x, xs = lk.x(self, vals, states)
        y, ys = lk.y(self, vals, states)
        T = lk.table
        if self.training and self.noise:
            T = T + gumbel_like(T)
        cls = T.detach()[xs, ys].argmax(-1)
        out = nn.functional.one_hot(cls, C).to(x.dtype)
        if self.training:
            px = torch.cat([x, 1 - x.sum(-1, keepdim=True)], -1)
            py = torch.cat([y, 1 - y.sum(-1, keepdim=True)], -1)
            soft = torch.einsum("bna,bnc,acd->bnd", px, py, torch.softmax(T / self.tau, -1))
            out = mix(self, out, soft)
            if self.soft:
                cls = soft_state(out)
        return out, cls

    def run(self, tokens, lengths):
        """(vals, states, valid): every variable's block [B, N, C] and value [B, N] (C: none)."""
        vals, states, valid = self._embed(tokens, lengths)
        for block in self.blocks:
            new = [self._head(h, vals, states, valid) for h in block["heads"]]
            for o, s in new:
                vals.append(o)
                states.append(s)
            for lk in block["lookups"]:
                o, s = self._lookup(lk, vals, states)
                vals.append(o)
                states.append(s)
        return vals, states, valid

    def prefix_logits(self, tokens, lengths):
        """Accept logits at every position [B, N]: with heads that only look
        back (directions "future"), entry [b, i] is the verdict on word b's
        prefix of i+1 letters."""
        vals, states, _ = self.run(tokens, lengths)
        Q, qb = self.out_weights()
        logit = qb.to(torch.float32) / OUT_SCALE
        for v, st in enumerate(states):
            logit = logit + Q[v][st].to(torch.float32) / OUT_SCALE
        if self.training:
            soft = self.out_bias
            for v, x in enumerate(vals):
                px = torch.cat([x, 1 - x.sum(-1, keepdim=True)], -1)
                soft = soft + px @ self.out_table[v]
            logit = mix(self, logit, soft)
        return logit

    def out_weights(self):
        """The hard verdict's integer tables [variables, C+1] and bias: the
        logit is their sum over the values at the position, / OUT_SCALE."""
        return (torch.round(self.out_table.detach() * OUT_SCALE).long(),
                torch.round(self.out_bias.detach() * OUT_SCALE).long())

    def forward(self, tokens, lengths):
        """Accept logits of whole words [B]: > 0 accepts."""
        logit = self.prefix_logits(tokens, lengths)
        last = (lengths - 1).to(tokens.device)
        return logit[torch.arange(tokens.shape[0], device=tokens.device), last]

    def set_temperature(self, tau, noise, soft):
        self.tau, self.noise, self.soft = tau, noise, soft

    def encode(self, words):
        """Words as (tokens [B, N], lengths [B]): symbol alphabet[k] is token k+1, 0 pads."""
        return encode_words(words, self.alphabet, self.index, self.out_table.device)

    @torch.no_grad()
    def accepts(self, words, max_cells=1 << 22):
        """The hard model's verdicts on words, a list of bools (batched by
        length, at most max_cells query-key pairs a batch)."""
        was = self.training
        self.eval()
        out = [None] * len(words)
        order = sorted(range(len(words)), key=lambda k: len(self.encode([words[k]])[0][0]))
        try:
            s = 0
            while s < len(order):
                n = len(self.encode([words[order[s]]])[0][0])
                e = s + 1
                while e < len(order) and (e - s + 1) * len(self.encode([words[order[e]]])[0][0]) ** 2 <= max_cells:
                    e += 1
                chunk = order[s:e]
                tokens, lengths = self.encode([words[k] for k in chunk])
                for k, v in zip(chunk, (self(tokens, lengths) > 0).tolist()):
                    out[k] = v
                s = e
        finally:
            self.train(was)
        return out
