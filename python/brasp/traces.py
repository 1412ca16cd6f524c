"""Traces of proposition sets: the inputs of models over propositions.

A model compiled from LTLf (``brasp convert f.ltlf --to transformer``)
reads traces, each step the set of propositions true there, through a
multi-hot token embedding (see :mod:`brasp.model`).  A trace is given as

- a string in the syntax of ``brasp run``: steps separated by ``;``, each
  step the comma-separated propositions true in it, optionally in braces
  (``"a,b;;c"`` and ``"{a,b};{};{c}"`` are the steps {a,b}, {}, {c}; ``"{}"``
  is the one step where nothing holds); names may be double-quoted;
- or a sequence of steps, each a collection of proposition names (a set,
  list, tuple or frozenset; a string step is read in the step syntax).

LTLf traces are non-empty: the empty trace is refused, as brasp run does.
"""

import torch


def _step_names(part):
    """The names of one step written as text ("a,b", "{a,b}", "{}")."""
    part = part.strip()
    if part.startswith("{") and part.endswith("}"):
        part = part[1:-1].strip()
    if part == "":
        return []
    names = []
    for name in part.split(","):
        name = name.strip()
        if len(name) >= 2 and name[0] == '"' and name[-1] == '"':
            name = name[1:-1]
        names.append(name)
    return names


def steps(props, trace):
    """The trace as a list of steps, each the sorted list of the indices (in
    props) of its true propositions; ValueError naming the step for a name
    that is not a proposition or an empty trace."""
    if isinstance(trace, str):
        if trace.strip() == "":
            raise ValueError("empty trace: LTLf traces have at least one step (write {} for one step where nothing holds)")
        raw = [_step_names(part) for part in trace.split(";")]
    else:
        raw = []
        for step in trace:
            if isinstance(step, str):
                raw.append(_step_names(step))
            else:
                raw.append(list(step))
        if not raw:
            raise ValueError("empty trace: LTLf traces have at least one step (write {} for one step where nothing holds)")
    index = {p: k for k, p in enumerate(props)}
    out = []
    for k, names in enumerate(raw):
        idx = set()
        for name in names:
            if name not in index:
                if name == "":
                    raise ValueError("step %d: empty proposition name" % (k + 1))
                raise ValueError("step %d: %r is not a proposition of the model (%s)" % (k + 1, name, " ".join(props)))
            idx.add(index[name])
        out.append(sorted(idx))
    return out


def format_trace(props, trace):
    """Writes a trace (steps of proposition indices) in brasp run's syntax."""
    if len(trace) == 1 and not trace[0]:
        return "{}"
    return ";".join(",".join(props[p] for p in sorted(s)) for s in trace)


def multi_hot(k, traces, dtype=torch.float64, device=None):
    """Traces (lists of steps of proposition indices) as a padded multi-hot
    tensor [B, n, k] (1 where the proposition holds, padding rows 0) and
    their lengths [B]."""
    n = max(len(t) for t in traces)
    hot = torch.zeros(len(traces), n, k, dtype=dtype)
    # Every (trace, step, proposition) that holds, set in one indexing.
    where = [(b, i, p) for b, t in enumerate(traces) for i, s in enumerate(t) for p in s]
    if where:
        hot[tuple(torch.tensor(where, dtype=torch.long).t())] = 1
    lengths = torch.tensor([len(t) for t in traces], dtype=torch.long)
    if device is not None:
        hot, lengths = hot.to(device), lengths.to(device)
    return hot, lengths


def from_multi_hot(hot, lengths=None):
    """The traces (lists of steps of proposition indices) a multi-hot tensor
    [B, n, k] holds, each cut at its length."""
    B, n = hot.shape[0], hot.shape[1]
    ls = [n] * B if lengths is None else [int(v) for v in lengths]
    rows = (hot != 0).cpu().tolist()
    return [[[p for p, on in enumerate(step) if on] for step in rows[b][:ls[b]]] for b in range(B)]
