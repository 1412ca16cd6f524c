"""The trained model: a standard PyTorch transformer encoder
(``nn.TransformerEncoder``) with the paper's choices of masking, position
information and read-out as options."""

import dataclasses
import math

import torch
from torch import nn

MASKS = ("causal", "strict", "bidirectional")
READOUTS = ("last", "mean")
NORMS = ("pre", "post")


@dataclasses.dataclass
class Shape:
    """The shape of an Encoder apart from its alphabet: what the training
    run's flags of the same names set (its Options derive from Shape).

    mask: ``causal`` (position i attends to j ≤ i), ``strict`` (j < i, the
    paper's strict future masking; a BOS slot at position 0 gives the first
    letter something to attend to), or ``bidirectional`` (every position).
    position: ``+``-separated kinds: ``none``, ``sinusoidal`` (Vaswani et
    al.'s, irrational frequencies), ``learned`` (one vector per position up
    to n_positions), and the paper's finite-image kinds ``mod:M`` (a learned
    vector per residue i mod M, the image of rational sinusoids of period M)
    and ``first`` (a learned vector at position 1 only).
    readout: ``last`` (the paper's: the vector at the last letter) or
    ``mean`` (the mean over the letters)."""

    layers: int = 2
    heads: int = 2
    width: int = 32
    ff: int = 64
    dropout: float = 0.0
    mask: str = "causal"
    position: str = "sinusoidal"
    n_positions: int = 0
    readout: str = "last"
    norm: str = "pre"


@dataclasses.dataclass
class Config(Shape):
    """The shape of an Encoder with its alphabet (a keyword argument);
    saved as JSON beside its weights."""

    alphabet: list = dataclasses.field(kw_only=True)

    def check(self):
        """Raises ValueError for a shape no Encoder has."""
        if not self.alphabet:
            raise ValueError("the alphabet is empty")
        for name in ("layers", "heads", "width", "ff"):
            if getattr(self, name) < 1:
                raise ValueError("--%s %d: want at least 1" % (name, getattr(self, name)))
        if self.width % self.heads:
            raise ValueError("--width %d is not a multiple of --heads %d" % (self.width, self.heads))
        if not 0 <= self.dropout < 1:
            raise ValueError("--dropout %g: want 0 ≤ p < 1" % self.dropout)
        for name, allowed in (("mask", MASKS), ("readout", READOUTS), ("norm", NORMS)):
            if getattr(self, name) not in allowed:
                raise ValueError("--%s %s: want one of %s" % (name, getattr(self, name), ", ".join(allowed)))
        kinds = position_kinds(self.position)
        if "learned" in kinds and self.n_positions < 1:
            raise ValueError("--position learned needs --n-positions N ≥ 1 (the longest word the model reads)")

    def bos(self):
        """Whether the model prefixes a BOS slot (strict masks do)."""
        return self.mask == "strict"


def encode_words(words, alphabet, index, device):
    """Words (strings of one-character symbols, space-separated symbols
    when a symbol is longer, or lists of symbols) as (tokens [B, N],
    lengths [B]) on device: symbol alphabet[k] is token k+1, 0 pads.  The
    one tokenizer of every model brasp.train trains."""
    seqs = []
    for w in words:
        if isinstance(w, str):
            w = w.split() if (" " in w or any(len(a) > 1 for a in alphabet)) else list(w)
        try:
            seqs.append([index[a] + 1 for a in w])
        except KeyError as e:
            raise ValueError("symbol %s is not in the alphabet %s" % (e, " ".join(alphabet)))
        if not seqs[-1]:
            raise ValueError("the empty word has no verdict (words are non-empty)")
    n = max((len(s) for s in seqs), default=1)
    tokens = torch.zeros(len(seqs), n, dtype=torch.long)
    for k, s in enumerate(seqs):
        tokens[k, :len(s)] = torch.tensor(s)
    return tokens.to(device), torch.tensor([len(s) for s in seqs], dtype=torch.long).to(device)


def position_kinds(text):
    """Parses a --position value into {kind: parameter}."""
    kinds = {}
    for part in str(text).split("+"):
        kind, _, arg = part.strip().partition(":")
        if kind == "mod":
            try:
                m = int(arg)
            except ValueError:
                m = 0
            if m < 2:
                raise ValueError("--position %s: mod:M wants a period M ≥ 2" % text)
            kinds.setdefault("mod", []).append(m)
        elif kind in ("none", "sinusoidal", "learned", "first") and not arg:
            kinds[kind] = True
        else:
            raise ValueError("--position %s: %r is not a position kind (want none, sinusoidal, learned, mod:M, first, "
                             "or several joined by +)" % (text, part))
    if "none" in kinds and len(kinds) > 1:
        raise ValueError("--position %s: none cannot be combined with other kinds" % text)
    return kinds


def sinusoid(positions, width):
    """Vaswani et al.'s position encoding of integer positions: [..., width]."""
    half = (width + 1) // 2
    freq = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) * 2 / width)
    angle = positions.to(torch.float32).unsqueeze(-1) * freq
    return torch.cat([torch.sin(angle), torch.cos(angle)], dim=-1)[..., :width]


class Encoder(nn.Module):
    """A transformer encoder classifying words: see the package docstring
    for its batch interface (``forward``, ``prefix_logits``, ``encode``,
    ``accepts``)."""

    def __init__(self, config):
        super().__init__()
        config.check()
        self.config = config
        self.alphabet = list(config.alphabet)
        self.index = {a: k for k, a in enumerate(self.alphabet)}
        d = config.width
        # Token 0 pads, symbol k is k+1, and len(alphabet)+1 is BOS.
        self.embed = nn.Embedding(len(self.alphabet) + 2, d)
        self.kinds = position_kinds(config.position)
        if "learned" in self.kinds:
            self.learned = nn.Embedding(config.n_positions + 1, d)
        if "mod" in self.kinds:
            self.mods = nn.ModuleList(nn.Embedding(m, d) for m in self.kinds["mod"])
        if "first" in self.kinds:
            self.first = nn.Parameter(torch.zeros(d))
            nn.init.normal_(self.first, std=0.02)
        layer = nn.TransformerEncoderLayer(d, config.heads, config.ff, config.dropout, activation="relu",
                                           batch_first=True, norm_first=config.norm == "pre")
        self.encoder = nn.TransformerEncoder(layer, config.layers, enable_nested_tensor=False)
        self.final_norm = nn.LayerNorm(d) if config.norm == "pre" else nn.Identity()
        self.head = nn.Linear(d, 1)

    def _inputs(self, tokens, lengths):
        """The embedded sequence [B, N', d] (N' = N+1 with BOS), the
        attention mask, the key padding mask, and the offset of the first letter."""
        B, N = tokens.shape
        dev = tokens.device
        off = 1 if self.config.bos() else 0
        if off:
            bos = torch.full((B, 1), len(self.alphabet) + 1, dtype=torch.long, device=dev)
            tokens = torch.cat([bos, tokens], dim=1)
        n = tokens.shape[1]
        # Position numbers: letters 1..n as in the paper, BOS 0.
        pos = torch.arange(n, device=dev) + (1 - off)
        x = self.embed(tokens)
        if "sinusoidal" in self.kinds:
            x = x + sinusoid(pos, self.config.width).to(x.dtype)
        if "learned" in self.kinds:
            if N > self.config.n_positions:
                raise ValueError("a word of length %d is longer than this model's %d learned positions (n_positions)"
                                 % (N, self.config.n_positions))
            x = x + self.learned(pos)
        if "mod" in self.kinds:
            for m, emb in zip(self.kinds["mod"], self.mods):
                x = x + emb(pos % m)
        if "first" in self.kinds:
            x = x + (pos == 1).to(x.dtype).unsqueeze(-1) * self.first
        i = torch.arange(n, device=dev)
        if self.config.mask == "causal":
            mask = i.unsqueeze(0) > i.unsqueeze(1)  # True where j > i: masked
        elif self.config.mask == "strict":
            mask = i.unsqueeze(0) >= i.unsqueeze(1)
            mask[0, 0] = False  # BOS attends to itself; every letter may attend to BOS
        else:
            mask = None
        pad = None
        if self.config.mask == "bidirectional":
            pad = i.unsqueeze(0) >= (lengths.to(dev).unsqueeze(1) + off)
        return x, mask, pad, off

    def hidden(self, tokens, lengths):
        """The final vectors of the letters, [B, N, d]."""
        x, mask, pad, off = self._inputs(tokens, lengths)
        h = self.encoder(x, mask=mask, src_key_padding_mask=pad)
        return self.final_norm(h)[:, off:]

    def forward(self, tokens, lengths):
        """Accept logits of whole words, [B]: > 0 means accepted."""
        h = self.hidden(tokens, lengths)
        lengths = lengths.to(h.device)
        if self.config.readout == "last":
            v = h[torch.arange(h.shape[0], device=h.device), lengths - 1]
        else:
            keep = (torch.arange(h.shape[1], device=h.device).unsqueeze(0) < lengths.unsqueeze(1)).to(h.dtype)
            v = (h * keep.unsqueeze(-1)).sum(1) / lengths.clamp(min=1).unsqueeze(1).to(h.dtype)
        return self.head(v).squeeze(-1)

    def prefix_logits(self, tokens, lengths):
        """Accept logits of every prefix, [B, N]: entry [b, i] is the verdict
        on the first i+1 letters of word b (meaningless at i ≥ lengths[b]).
        Only masked models (causal, strict) have them: a position sees only
        its prefix, so one pass gives the verdict on every prefix."""
        if self.config.mask == "bidirectional":
            raise ValueError("prefix_logits: a bidirectional model's verdict on a prefix needs its own pass")
        h = self.hidden(tokens, lengths)
        if self.config.readout == "mean":
            h = h.cumsum(1) / torch.arange(1, h.shape[1] + 1, device=h.device, dtype=h.dtype).unsqueeze(-1)
        return self.head(h).squeeze(-1)

    def encode(self, words):
        """Words (strings of one-character symbols, space-separated symbols
        when a symbol is longer, or lists of symbols) as (tokens [B, N],
        lengths [B]) on the model's device."""
        return encode_words(words, self.alphabet, self.index, self.head.weight.device)

    @torch.no_grad()
    def accepts(self, words):
        """The model's verdicts on words, a list of bools."""
        if not words:
            return []
        tokens, lengths = self.encode(words)
        return (self(tokens, lengths) > 0).tolist()
