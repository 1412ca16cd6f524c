"""Pictures of brasp's objects for notebooks.

- :func:`attention`: which position each position attends, for every
  layer and head of a model (``brasp.load``'s hard models: one cell per
  row; softmax exports and ``brasp.train`` encoders: their weights).
- :func:`residual`: the residual stream by position with brasp's labels,
  as the paper's Figure 2 table (from ``run_with_cache``, or from
  ``brasp.cli.run`` of a program).
- :func:`accuracy`: accuracy by length of ``brasp.train`` runs.
- :func:`automaton`: a DFA (explicit or symbolic) or a Krohn–Rhodes
  cascade (``brasp.cli.cascade``) drawn by graphviz.

The first three return a :class:`matplotlib.figure.Figure`, which a
notebook shows inline (and ``fig.savefig`` writes); :func:`automaton`
returns a :class:`Graph` (SVG inline, ``.png()``, ``.dot``).  matplotlib
(Debian: python3-matplotlib) and graphviz's ``dot`` (Debian: graphviz) are
optional: without them these functions raise :class:`PlotError` saying
what to install.
"""

import os
import re
import shutil
import subprocess

__all__ = ["attention", "residual", "accuracy", "automaton", "Graph", "PlotError"]


class PlotError(Exception):
    """A picture cannot be drawn: a missing optional package, or an input
    that is not what the function draws."""


def _figure(width, height):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise PlotError("brasp.plot needs matplotlib (Debian: apt install python3-matplotlib; "
                        "or pip install matplotlib)") from None

    class _Figure(Figure):
        # Shown inline by IPython without pyplot's global figures.
        def _repr_png_(self):
            import io
            buf = io.BytesIO()
            self.savefig(buf, format="png", bbox_inches="tight")
            return buf.getvalue()

    return _Figure(figsize=(width, height), dpi=100)


def _symbols(model, word):
    """The word as the list of symbols the model reads."""
    if isinstance(word, str):
        alphabet = model.alphabet
        if all(len(a) == 1 for a in alphabet) and " " not in alphabet:
            return [c for c in word if c != " "]
        return word.split()
    return list(word)


# -- attention ---------------------------------------------------------------

def _hard_patterns(model, word):
    """[(title, matrix [n, n] as lists, hard)] for a brasp.load model."""
    import torch
    hooks = []
    for li, b in enumerate(model.blocks):
        for hi, h in enumerate(b.heads):
            hooks.append((li, hi, h))
    if not hooks:
        return []
    names = ["blocks.%d.heads.%d.hook_attended" % (li, hi) for li, hi, _ in hooks]
    names += ["blocks.%d.heads.%d.hook_weights" % (li, hi) for li, hi, _ in hooks]
    _, cache = model.run_with_cache([word], names=names)
    out = []
    for li, hi, h in hooks:
        w = cache.get("blocks.%d.heads.%d.hook_weights" % (li, hi))
        if w is not None:
            m = w[0].to(torch.float64)
            hard = False
        else:
            att = cache["blocks.%d.heads.%d.hook_attended" % (li, hi)][0]
            n = att.shape[0]
            m = torch.zeros(n, n, dtype=torch.float64)
            for i, j in enumerate(att.tolist()):
                if j >= 0:
                    m[i, j] = 1.0
            hard = True
        title = "layer %d, head %d\n[%s, %s]" % (li + 1, hi + 1, h.mask, h.tiebreak) if hard else \
            "layer %d, head %d\n[%s, softmax]" % (li + 1, hi + 1, h.mask)
        out.append((title, m.tolist(), hard))
    return out


def _encoder_patterns(model, word):
    """[(title, weights [n, n], False)] for a brasp.train Encoder: each
    layer's self-attention recomputed with its weights per head, on the
    layer's input (the letters only; the BOS slot of strict masks is left
    out of the rows and shown as the first column)."""
    import torch
    tokens, lengths = model.encode([word])
    out = []
    with torch.no_grad():
        x, mask, pad, off = model._inputs(tokens, lengths)
        for li, layer in enumerate(model.encoder.layers):
            y = layer.norm1(x) if layer.norm_first else x
            _, w = layer.self_attn(y, y, y, attn_mask=mask, key_padding_mask=pad, need_weights=True,
                                   average_attn_weights=False)
            for hi in range(w.shape[1]):
                m = w[0, hi, off:, :]  # rows: letters; columns: BOS (if any) and letters
                out.append(("layer %d, head %d\n[%s, softmax]" % (li + 1, hi + 1, model.config.mask), m.tolist(), False))
            x = layer(x, src_mask=mask, src_key_padding_mask=pad)
    return out, off


def attention(model, word, columns=None):
    """For every layer and head of model, which position each position of
    word attends: a row per query position, a column per key position.  A
    hard head (brasp.load of a compiled or decompiled model) fills one cell
    per row (an empty row: the mask left nothing, the default value);
    softmax heads (a softmax export, a brasp.train encoder) show their
    weights.  Returns a Figure with one panel per head (``columns`` per
    row of panels)."""
    syms = _symbols(model, word)
    off = 0
    if hasattr(model, "blocks"):
        panels = _hard_patterns(model, word)
    elif hasattr(model, "encoder") and hasattr(model, "_inputs"):
        panels, off = _encoder_patterns(model, word)
    else:
        raise PlotError("attention: %s is neither a brasp.load model nor a brasp.train encoder" % type(model).__name__)
    if not panels:
        raise PlotError("attention: the model has no attention heads")
    cols = columns or min(len(panels), 5)
    rows = (len(panels) + cols - 1) // cols
    n = len(syms)
    size = max(1.6, min(3.2, 0.28 * n + 0.8))
    fig = _figure(size * cols + 0.6, size * rows + 0.5)
    keys = (["BOS"] if off else []) + syms
    for k, (title, m, hard) in enumerate(panels):
        ax = fig.add_subplot(rows, cols, k + 1)
        ax.imshow(m, cmap="Blues" if hard else "viridis", vmin=0, vmax=1, aspect="equal", interpolation="nearest")
        ax.set_title(title, fontsize=8)
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels(keys, fontsize=7)
        ax.set_yticks(range(n))
        ax.set_yticklabels(["%d %s" % (i + 1, a) for i, a in enumerate(syms)], fontsize=7)
        ax.tick_params(length=0)
        if k % cols == 0:
            ax.set_ylabel("query position i", fontsize=7)
        if k // cols == rows - 1:
            ax.set_xlabel("key position j", fontsize=7)
    fig.suptitle("attention on %s" % "".join(syms) if all(len(a) == 1 for a in syms) else " ".join(syms), fontsize=9)
    fig.tight_layout()
    return fig


# -- residual ---------------------------------------------------------------

def _run_table(run):
    """(labels, rows, symbols, verdict) from a brasp.cli.run record."""
    vec = run.get("vectors")
    if not vec:
        raise PlotError("residual: the run has no vectors (brasp run --json of a program or formula has them)")
    labels = list(vec)
    return labels, [vec[k] for k in labels], [str(a) for a in run["input"]], run.get("accept")


def residual(cache, name=None, word=None, labels=None, operations=False, batch=0):
    """The residual stream by position as a labelled table, like the
    paper's Figure 2: a row per coordinate (brasp's labels), a column per
    position, each cell its value.

    ``cache`` is a Cache from ``Model.run_with_cache`` (``name`` picks the
    hook, by default the last layer's ``hook_resid_post``; ``batch`` the
    word of the batch; ``word`` labels the columns), or one record of
    ``brasp.cli.run`` (a program's or formula's vectors).  ``labels`` keeps
    the listed rows; ``operations=True`` keeps the program's operations (the
    labels without a dot: a compiled model's helper coordinates such as
    ``P_l.default_flag`` are left out)."""
    if isinstance(cache, dict) and "vectors" in cache and "input" in cache:
        all_labels, rows, syms, verdict = _run_table(cache)
        title = "B-RASP program on %s" % " ".join(syms)
    else:
        if name is None:
            posts = sorted((k for k in cache if k.endswith("hook_resid_post")), key=lambda k: int(k.split(".")[1]))
            if not posts:
                raise PlotError("residual: the cache holds no hook_resid_post (run_with_cache without names= records them)")
            name = posts[-1]
        t = cache[name]
        if t.dim() != 3:
            raise PlotError("residual: %s has shape %s, not [batch, positions, width]" % (name, list(t.shape)))
        all_labels = list(cache.labels)
        rows = t[batch].t().tolist()
        syms = list(word) if word is not None and not isinstance(word, str) else \
            (list(word) if word else [str(i + 1) for i in range(t.shape[1])])
        verdict = None
        title = "%s on %s" % (name, "".join(syms) if word else "positions 1–%d" % t.shape[1])
    keep = [k for k, lab in enumerate(all_labels)
            if (labels is None or lab in labels) and (not operations or "." not in lab)]
    if not keep:
        raise PlotError("residual: no row left (labels=%r, operations=%r)" % (labels, operations))
    shown = [all_labels[k] for k in keep]
    data = [rows[k] for k in keep]
    n = len(syms)
    fig = _figure(1.2 + 0.42 * n + 0.09 * max(len(s) for s in shown), 0.6 + 0.26 * len(shown))
    ax = fig.add_subplot(1, 1, 1)
    ax.imshow(data, cmap="Greens", aspect="auto", interpolation="nearest",
              vmin=min(0, min(min(r) for r in data)), vmax=2.5 * max(1, max(max(r) for r in data)))
    for r, row in enumerate(data):
        for i, v in enumerate(row):
            text = ("%d" % v) if float(v).is_integer() else ("%.2g" % v)
            ax.text(i, r, text, ha="center", va="center", fontsize=7)
    ax.set_xticks(range(n))
    ax.set_xticklabels(syms, fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels(shown, fontsize=7, family="monospace")
    ax.tick_params(length=0)
    if verdict is not None:
        title += ": " + ("accept" if verdict is True else "reject" if verdict is False else str(verdict))
    ax.set_title(title, fontsize=9, pad=18)
    fig.tight_layout()
    return fig


# -- accuracy ---------------------------------------------------------------

def _report(run):
    if isinstance(run, (str, os.PathLike)):
        import json
        path = os.fspath(run)
        if os.path.isdir(path):
            path = os.path.join(path, "accuracy.json")
        with open(path) as f:
            return json.load(f)
    return run


def accuracy(runs, title=None):
    """Accuracy against word length of brasp.train runs, the training
    lengths shaded and chance (50% on balanced samples) dashed.  ``runs``
    is one run or {name: run}; a run is its OUT directory, its
    accuracy.json, or the dict read from it (``per_length``: rows with
    ``length`` and ``accuracy``; ``train_lengths``)."""
    if not isinstance(runs, dict) or "per_length" in runs:
        runs = {None: runs}
    fig = _figure(6.4, 3.6)
    ax = fig.add_subplot(1, 1, 1)
    longest = 1
    shaded = set()
    for k, (name, run) in enumerate(runs.items()):
        doc = _report(run)
        rows = doc["per_length"]
        lo, hi = doc["train_lengths"]
        if (lo, hi) not in shaded:
            ax.axvspan(lo - 0.5, hi + 0.5, color="tab:green", alpha=0.15,
                       label="training lengths" if not shaded else None)
            shaded.add((lo, hi))
        ax.plot([r["length"] for r in rows], [r["accuracy"] for r in rows], marker="o", markersize=2.5,
                linestyle="-" if len(runs) > 1 else "none", linewidth=0.8, color="C%d" % k,
                label=name if name is not None else "accuracy (one dot per length)")
        longest = max([longest] + [r["length"] for r in rows])
        if title is None and len(runs) == 1:
            title = "%s: accuracy by length" % doc.get("language", "")
    ax.axhline(0.5, color="gray", linestyle="--", linewidth=0.8, label="chance")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlim(0, longest + 1)
    ax.set_xlabel("word length")
    ax.set_ylabel("accuracy")
    ax.set_title(title or "accuracy by length", fontsize=9)
    ax.legend(loc="lower left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


# -- automata ---------------------------------------------------------------

class Graph:
    """A graph drawn by graphviz: ``dot`` (its source), ``svg()`` and
    ``png()``; a notebook shows it inline as SVG."""

    def __init__(self, dot):
        self.dot = dot

    def _render(self, fmt):
        exe = shutil.which("dot")
        if exe is None:
            raise PlotError("brasp.plot.automaton needs graphviz's dot program (Debian: apt install graphviz)")
        p = subprocess.run([exe, "-T" + fmt], input=self.dot.encode(), capture_output=True)
        if p.returncode != 0:
            raise PlotError("dot -T%s: %s" % (fmt, p.stderr.decode(errors="replace").strip()))
        return p.stdout

    def __repr__(self):
        return "<brasp.plot.Graph: %d lines of dot>" % self.dot.count("\n")

    def svg(self):
        return self._render("svg").decode()

    def png(self):
        return self._render("png")

    def _repr_svg_(self):
        return self.svg()

    def save(self, path):
        """Writes the picture, its format from the extension (.svg, .png,
        .pdf, .dot)."""
        ext = os.path.splitext(path)[1].lstrip(".") or "svg"
        data = self.dot.encode() if ext == "dot" else self._render(ext)
        with open(path, "wb") as f:
            f.write(data)
        return path


def _quote(s):
    return '"' + str(s).replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dfa_dot(text, title):
    """A DFA in brasp's .dfa text (alphabet line, start, accept, one
    transition "p a q" per line) or a symbolic DFA (propositions line,
    "p q GUARD" lines; the decision-diagram form is refused)."""
    start, accept, edges, symbolic = None, set(), {}, False
    states = []

    def see(s):
        if s not in states:
            states.append(s)
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head, _, rest = line.partition(" ")
        if head == "alphabet":
            continue
        if head == "propositions":
            symbolic = True
            continue
        if head == "start":
            start = rest.strip()
            see(start)
        elif head == "accept":
            accept = set(rest.split())
            for s in rest.split():
                see(s)
        elif head in ("node", "state"):
            raise PlotError("automaton: a decision-diagram DFA (.bdd); convert it with --to dfa to its guard form "
                            "(brasp convert F --to dfa without -o prints it)")
        else:
            parts = line.split(None, 2)
            if len(parts) != 3:
                raise PlotError("automaton: %r is not a transition line (want: state symbol state)" % line)
            if symbolic:
                p, q, label = parts
            else:
                p, label, q = parts
            see(p)
            see(q)
            edges.setdefault((p, q), []).append(label)
    if start is None:
        raise PlotError("automaton: no start line: not a DFA in brasp's .dfa text")
    out = ["digraph dfa {", "  rankdir=LR; node [shape=circle, fontsize=11]; edge [fontsize=10];",
           '  label=%s; labelloc=t; fontsize=12;' % _quote(title or ""),
           '  __start [shape=point, width=0.05, label=""];']
    for s in states:
        out.append("  %s [shape=%s];" % (_quote(s), "doublecircle" if s in accept else "circle"))
    out.append("  __start -> %s;" % _quote(start))
    for (p, q), labels in edges.items():
        out.append("  %s -> %s [label=%s];" % (_quote(p), _quote(q), _quote(" | ".join(labels) if symbolic else ", ".join(labels))))
    out.append("}")
    return "\n".join(out)


_LEVEL = re.compile(r"^level (\d+): (\d+) states")
_STATE = re.compile(r"^\s+(\d+\.\d+) = (\{[^}]*\})( \(initial\))?")
_RESET = re.compile(r"^\s+reset to (\d+\.\d+) on (.+?)(?: when levels above are \(([^)]*)\))?$")


def _cascade_dot(text, title):
    """A cascade as brasp inspect --cascade prints it: a cluster per level,
    its states (with the holonomy sets they stand for), and each reset as
    an edge into the state it resets to, labelled with its letters and the
    states of the levels above that trigger it."""
    lines = text.splitlines()
    if not lines or "cascade" not in lines[0]:
        raise PlotError("automaton: not a cascade as brasp inspect --cascade prints it")
    levels = []
    for line in lines[1:]:
        if line.startswith("homomorphism"):
            break
        m = _LEVEL.match(line)
        if m:
            levels.append({"n": int(m.group(1)), "states": [], "resets": []})
            continue
        m = _STATE.match(line)
        if m and levels:
            levels[-1]["states"].append((m.group(1), m.group(2), bool(m.group(3))))
            continue
        m = _RESET.match(line)
        if m and levels:
            levels[-1]["resets"].append((m.group(1), m.group(2), m.group(3)))
    if not levels:
        raise PlotError("automaton: the cascade has no levels")
    out = ["digraph cascade {", "  rankdir=LR; compound=true; node [shape=box, style=rounded, fontsize=10]; edge [fontsize=9];",
           "  label=%s; labelloc=t; fontsize=12;" % _quote(title or lines[0])]
    for lv in levels:
        out.append("  subgraph cluster_%d {" % lv["n"])
        out.append("    label=%s; style=dashed;" % _quote("level %d" % lv["n"]))
        for name, holonomy, initial in lv["states"]:
            out.append('    %s [label=%s%s];' % (_quote(name), _quote("%s\n%s" % (name, holonomy)),
                                                ", penwidth=2" if initial else ""))
        for k, (to, letters, above) in enumerate(lv["resets"]):
            src = "reset_%d_%d" % (lv["n"], k)
            label = letters + ("\nwhen " + above if above else "")
            out.append('    %s [shape=plaintext, label=%s];' % (src, _quote(label)))
            out.append("    %s -> %s;" % (src, _quote(to)))
        out.append("  }")
    for a, b in zip(levels, levels[1:]):
        if a["states"] and b["states"]:
            out.append("  %s -> %s [style=invis];" % (_quote(a["states"][0][0]), _quote(b["states"][0][0])))
    out.append("}")
    return "\n".join(out)


def automaton(obj, title=None):
    """Draws a DFA or a Krohn–Rhodes cascade with graphviz: ``obj`` is the
    text of a DFA (``brasp convert F --to dfa``, explicit or symbolic; a
    Classification's ``dfa``), a Classification or Learned (their minimal
    DFA), a path to a .dfa file, or the text of ``brasp inspect --cascade``
    (``brasp.cli.cascade``).  Returns a :class:`Graph`."""
    if hasattr(obj, "dfa") and isinstance(obj.dfa, str):
        obj = obj.dfa
    if isinstance(obj, os.PathLike) or (isinstance(obj, str) and "\n" not in obj and os.path.isfile(obj)):
        with open(obj) as f:
            obj = f.read()
    if not isinstance(obj, str):
        raise PlotError("automaton: want a DFA's or a cascade's text, not %s" % type(obj).__name__)
    if obj.lstrip().startswith("cascade"):
        return Graph(_cascade_dot(obj, title))
    return Graph(_dfa_dot(obj, title))
