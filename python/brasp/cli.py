"""brasp's commands as Python functions returning Python values.

Each function runs the brasp program (found as brasp.train finds it:
$BRASP, $BRASP_BIN, ``brasp`` on the PATH, or built from the checkout this
package sits in) with the command's ``--json`` output where it has one, and
returns what it printed as Python values::

    from brasp import cli
    cli.equiv("dyck.brasp", "dyck.dfa")          # Equivalence(equivalent=True, ...)
    cli.classify("dyck.brasp").stutter_witness   # StutterWitness(u=[], a='l', v=['r'], ...)
    cli.count("dyck.brasp", "1:8")               # [Count(length=1, accepted=0, ...), ...]
    cli.sample("dyck.brasp", "2:8", count=10, balanced=True)   # [Labelled(word=('l', 'r'), accepted=True), ...]
    cli.convert("dyck.brasp", "ltl")             # the formula's text
    cli.convert("dyck.brasp", "transformer", out="m.safetensors", multihead=True)

Flags are keyword arguments: ``multihead=True`` is ``--multihead``,
``masks="causal"`` is ``--masks causal`` (underscores become dashes) and
``limit={"exact-states": 10**6}`` is ``--limit exact-states=1000000``.

Bad input (a file brasp cannot read, a limit, a flag it does not know)
raises :class:`BraspError` carrying brasp's own message, such as
``dyck.brasp:3:9: unknown predicate Q_x``; a verdict (not equivalent,
not star-free) is a value, never an exception.
"""

import dataclasses
import json
import os
import subprocess
import tempfile

__all__ = ["BraspError", "binary", "run", "table", "convert", "equiv", "classify", "count", "sample",
           "iter_sample", "learn", "depth", "cascade", "Equivalence", "Classification", "CountingWitness",
           "StutterWitness", "Count", "Labelled", "Learned", "Depth"]


class BraspError(Exception):
    """brasp refused its input or could not finish: ``message`` is its own
    message (``file:line:col: what is wrong``, or the limit and how to
    raise it), ``args_`` the command line and ``status`` its exit status."""

    def __init__(self, message, command=None, status=None):
        super().__init__(message)
        self.message = message
        self.command = command
        self.status = status


def binary():
    """The brasp program's path (see the module docs)."""
    from .train.binary import TrainError, find_brasp
    try:
        return find_brasp()
    except TrainError as e:
        raise BraspError(str(e)) from None


def _flags(kwargs):
    out = []
    for name, v in kwargs.items():
        flag = "--" + name.replace("_", "-")
        if v is None or v is False:
            continue
        if name == "limit":
            items = v.items() if isinstance(v, dict) else [(None, v)]
            for k, x in items:
                out += [flag, "%s=%s" % (k, x) if k is not None else str(x)]
        elif v is True:
            out.append(flag)
        elif isinstance(v, (list, tuple)):
            out += [flag, " ".join(map(str, v))]
        else:
            out += [flag, str(v)]
    return out


def _run(args, ok=(0,), stdin=None):
    """Runs brasp with args: (stdout, stderr, status); a status outside ok
    raises BraspError with brasp's message."""
    cmd = [binary()] + [os.fspath(a) if isinstance(a, os.PathLike) else str(a) for a in args]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, input=stdin)
    except OSError as e:
        raise BraspError("cannot run %s: %s" % (cmd[0], e), cmd) from None
    if p.returncode not in ok:
        msg = p.stderr.strip() or p.stdout.strip() or "exit status %d" % p.returncode
        if msg.startswith("brasp: "):
            msg = msg[len("brasp: "):]
        raise BraspError(msg, cmd, p.returncode)
    return p.stdout, p.stderr, p.returncode


def _words(words):
    """Words as brasp run reads them on its command line."""
    if isinstance(words, str):
        words = [words]
    return [w if isinstance(w, str) else " ".join(w) for w in words]


# -- run, convert ----------------------------------------------------------

def run(src, words, **flags):
    """``brasp run SRC --json WORDS``: per word, a dict with its ``input``
    (symbols), ``accept`` (or the output word of a transducer) and, for a
    program or formula, ``vectors`` (each operation's value at every
    position: the paper's Figure 2)."""
    out, _, _ = _run(["run", src, "--json"] + _flags(flags) + ["--"] + _words(words))
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def table(src, word, **flags):
    """``brasp run SRC --table WORD``: the Figure-2 table as text."""
    out, _, _ = _run(["run", src, "--table"] + _flags(flags) + ["--"] + _words(word))
    return out


def convert(src, to, out=None, **flags):
    """``brasp convert SRC --to TO [-o OUT]``: the converted input's text,
    or with ``out`` the path written (a model: .json or .safetensors)."""
    args = ["convert", src, "--to", to] + _flags(flags)
    if out is not None:
        _run(args + ["-o", out])
        return os.fspath(out)
    text, _, _ = _run(args)
    return text


def cascade(src, explicit=False, **flags):
    """``brasp inspect --cascade SRC``: the Krohn–Rhodes cascade of the
    input's minimal DFA as text (brasp.plot.automaton draws it)."""
    text, _, _ = _run(["inspect", "--cascade", src] + (["--explicit"] if explicit else []) + _flags(flags))
    return text


# -- equiv, classify ---------------------------------------------------------

@dataclasses.dataclass
class Equivalence:
    """The verdict of ``brasp equiv``: when not equivalent, ``word`` is a
    shortest word telling the inputs apart (a tuple of symbols; ``text``
    as brasp run reads it, or a trace over propositions) and
    ``accepted_by`` the input that accepts it (for transducers:
    ``position`` and the outputs there).  ``up_to`` is the bound of a
    bounded check, None for a proof."""

    equivalent: bool
    word: tuple = None
    text: str = None
    accepted_by: str = None
    rejected_by: str = None
    up_to: int = None
    position: int = None
    first_outputs: list = None
    second_outputs: list = None

    def __bool__(self):
        return self.equivalent

    def __str__(self):
        bound = " on every word up to length %d (a bounded check)" % self.up_to if self.up_to else ""
        if self.equivalent:
            return "equivalent" + bound
        if self.position is not None:
            return "not equivalent%s: %r at position %d (outputs %s and %s)" % (
                bound, self.text, self.position, self.first_outputs, self.second_outputs)
        return "not equivalent%s: %r (%s accepts, %s rejects)" % (bound, self.text, self.accepted_by, self.rejected_by)


def equiv(a, b, up_to=None, **flags):
    """``brasp equiv A B`` (``up_to=N``: the bounded check on every word up
    to length N) as an :class:`Equivalence`."""
    args = ["equiv", "--json"] + (["--up-to", up_to] if up_to else []) + _flags(flags) + [a, b]
    out, _, _ = _run(args, ok=(0, 1))
    j = json.loads(out)
    return Equivalence(equivalent=j["equivalent"], word=tuple(j["word"]) if "word" in j else None,
                       text=j.get("text"), accepted_by=j.get("accepted_by"), rejected_by=j.get("rejected_by"),
                       up_to=j.get("up_to"), position=j.get("position"), first_outputs=j.get("first_outputs"),
                       second_outputs=j.get("second_outputs"))


@dataclasses.dataclass
class CountingWitness:
    """w counts modulo ``period``: u·wⁿ·v is accepted periodically in n
    (``at_zero`` = u·w^period·v and ``at_one`` = u·w^(period+1)·v are
    treated differently), which no star-free language does."""

    u: list
    w: list
    v: list
    period: int
    accepted_at_zero: bool
    at_zero: list
    at_one: list
    description: str


@dataclasses.dataclass
class StutterWitness:
    """Exactly one of u·a·v and u·a·a·v is accepted."""

    u: list
    a: str
    v: list
    accepted: list
    rejected: list
    description: str


@dataclasses.dataclass
class Classification:
    """``brasp classify``: star-free (Schützenberger, the class of masked
    hard-attention transformers), stutter-invariant, in AC0 (``None`` when
    a limit left it unknown: ``ac0_unknown`` says which), each "no" with a
    witness; the minimal DFA (text) and its number of states; and which
    transformer variants of the paper's §5 recognise the language."""

    star_free: bool
    stutter_invariant: bool
    ac0: bool
    dfa_states: int
    dfa: str
    transformers: list
    star_free_witness: CountingWitness = None
    stutter_witness: StutterWitness = None
    ac0_witness: CountingWitness = None
    ac0_unknown: str = None
    stability_index: int = None


def classify(src, **flags):
    """``brasp classify SRC`` as a :class:`Classification`."""
    out, _, _ = _run(["classify", "--json"] + _flags(flags) + [src])
    j = json.loads(out)
    counting = lambda w: CountingWitness(**w) if w else None  # noqa: E731
    return Classification(
        star_free=j["star_free"], stutter_invariant=j["stutter_invariant"],
        ac0={"yes": True, "no": False}.get(j["ac0"]), dfa_states=j["dfa_states"], dfa=j["dfa"],
        transformers=j["transformers"], star_free_witness=counting(j.get("star_free_witness")),
        stutter_witness=StutterWitness(**j["stutter_witness"]) if j.get("stutter_witness") else None,
        ac0_witness=counting(j.get("ac0_witness")), ac0_unknown=j.get("ac0_unknown"),
        stability_index=j.get("stability_index"))


# -- count, sample -----------------------------------------------------------

@dataclasses.dataclass
class Count:
    """How many words of ``length`` the input accepts and rejects (exact
    integers, however large)."""

    length: int
    accepted: int
    rejected: int
    total: int


def _lengths(lengths):
    if isinstance(lengths, int):
        return str(lengths)
    if isinstance(lengths, (tuple, list, range)):
        lo, hi = (lengths[0], lengths[-1])
        return "%d:%d" % (lo, hi)
    return str(lengths)


def count(src, lengths="1:10", **flags):
    """``brasp count SRC --lengths A:B`` (or a (lo, hi) pair or range): a
    list of :class:`Count`, one per length."""
    out, _, _ = _run(["count", src, "--lengths", _lengths(lengths), "--json"] + _flags(flags))
    return [Count(**json.loads(line)) for line in out.splitlines() if line.strip()]


@dataclasses.dataclass
class Labelled:
    """A word (a tuple of symbols) and whether the language accepts it;
    ``text`` is the word as brasp run and brasp.load's models read it."""

    word: tuple
    accepted: bool

    @property
    def text(self):
        return "".join(self.word) if all(len(a) == 1 for a in self.word) else " ".join(self.word)


def _sample_args(src, lengths, count, seed, balanced, all, distinct, flags):
    args = ["sample", src, "--lengths", _lengths(lengths), "--json"]
    if all:
        args.append("--all")
    else:
        args += ["--count", count, "--seed", seed]
    if balanced:
        args.append("--balanced")
    if distinct:
        args.append("--distinct")
    return args + _flags(flags)


def _labelled(line):
    o = json.loads(line)
    return Labelled(tuple(x if isinstance(x, str) else json.dumps(x, sort_keys=True) for x in o["word"]),
                    o["label"] == "accept")


def sample(src, lengths="1:10", count=100, seed=1, balanced=False, all=False, distinct=False, **flags):
    """``brasp sample``: labelled words, ``count`` per length drawn uniformly
    (``balanced``: half accepted, half rejected where the length has both;
    ``all``: every word of each length once), as a list of
    :class:`Labelled`, shortest first."""
    out, _, _ = _run(_sample_args(src, lengths, count, seed, balanced, all, distinct, flags))
    return [_labelled(line) for line in out.splitlines() if line.strip()]


def iter_sample(src, lengths="1:10", count=100, seed=1, balanced=False, all=False, distinct=False, **flags):
    """As :func:`sample`, one word at a time as brasp writes them (for
    samples too large to hold); brasp's error is raised at the end."""
    cmd = [binary()] + [str(a) for a in _sample_args(src, lengths, count, seed, balanced, all, distinct, flags)]
    with tempfile.TemporaryFile(mode="w+") as err:
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            for line in p.stdout:
                if line.strip():
                    yield _labelled(line)
        finally:
            p.stdout.close()
            status = p.wait()
        if status != 0:
            err.seek(0)
            msg = err.read().strip() or "exit status %d" % status
            raise BraspError(msg[len("brasp: "):] if msg.startswith("brasp: ") else msg, cmd, status)


# -- learn, depth ------------------------------------------------------------

@dataclasses.dataclass
class Learned:
    """What ``brasp learn`` learned: the minimal DFA (``dfa``, its text in
    the .dfa format, or a symbolic DFA over propositions), its number of
    states, the first line of brasp's report (``verdict``: how the result
    was checked), its counts (``stats``: queries, rounds, ...), the
    classification it printed, and the file written in the asked form
    (``output``: ``out``, the DFA or with ``to=`` the language converted)."""

    dfa: str
    states: int
    verdict: str
    stats: dict
    report: str
    output: str = None


def learn(src=None, command=None, alphabet=None, to=None, out=None, **flags):
    """``brasp learn``: from an input file (an exact teacher), or from a
    black box ``command`` (a list of arguments, or one string) over
    ``alphabet`` (a list of symbols, or one space-separated string), as a
    :class:`Learned`.  ``out`` keeps the DFA in a file; ``to="brasp"`` (or
    ltl, transformer) with ``out`` writes the language in that form
    instead (brasp convert of the learned DFA)."""
    if (src is None) == (command is None):
        raise BraspError("learn: give an input file or a command, not both or neither")
    if to is not None and out is None:
        raise BraspError("learn: to=%r needs out= (the file to write)" % to)
    with tempfile.TemporaryDirectory(prefix="brasp-learn-") as tmp:
        dfa_path = out if (to is None and out is not None) else os.path.join(tmp, "learned.dfa")
        stats_path = os.path.join(tmp, "stats.json")
        args = ["learn"]
        if command is not None:
            # brasp splits the command at spaces.
            args += ["--command", command if isinstance(command, str) else " ".join(map(str, command))]
            if alphabet is not None:
                args += ["--alphabet", alphabet if isinstance(alphabet, str) else " ".join(alphabet)]
        args += ["-o", dfa_path, "--stats", stats_path] + _flags(flags)
        if src is not None:
            args.append(src)
        report, _, _ = _run(args)
        with open(stats_path) as f:
            stats = json.load(f)
        with open(dfa_path) as f:
            dfa = f.read()
        output = convert(dfa_path, to, out) if to is not None else (os.fspath(out) if out is not None else None)
    return Learned(dfa=dfa, states=stats.get("states", 0), verdict=report.splitlines()[0] if report else "",
                   stats=stats, report=report, output=output)


@dataclasses.dataclass
class Depth:
    """``brasp depth``: the attention depth the language needs, between
    ``lower`` (certified by ``witness``: two words ``in`` and ``out`` that
    no program of depth ``witness["depth"]`` tells apart) and ``upper``
    (achieved by ``program``, B-RASP text); ``exact`` when they meet."""

    fragment: str
    lower: int
    upper: int
    witness: dict
    program: str
    program_source: str
    exact: bool
    raw: dict


def depth(src, fragment=None, **flags):
    """``brasp depth SRC [--fragment F]`` as a :class:`Depth`."""
    out, _, _ = _run(["depth", src, "--json"] + (["--fragment", fragment] if fragment else []) + _flags(flags))
    j = json.loads(out)
    return Depth(fragment=j.get("fragment"), lower=j.get("lower"), upper=j.get("upper"), witness=j.get("witness"),
                 program=j.get("program"), program_source=j.get("program_source"), exact=j.get("exact"), raw=j)
