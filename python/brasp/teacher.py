"""A membership server: any model as a black-box teacher for ``brasp learn``.

``brasp learn --command 'python3 -m brasp.teacher --model M' -o learned.dfa``
learns the language a model recognises.  The server speaks brasp's line
protocol on standard input and output: one word per line (one character per
letter, or symbols separated by spaces when some symbol of the alphabet is
longer than one character), one line ``accept`` or ``reject`` per word, in
order.  With ``--prefixes`` each answer line holds one character per
non-empty prefix of its word, ``1`` accepted and ``0`` rejected (``brasp
learn --prefixes``): a causal model answers all prefixes of a word in the
one forward pass that answers the word.

Every line that has arrived when the server looks is answered in one batch:
the words are sorted by length, cut into batches of at most ``batch_size``
words (``max_tokens`` padded tokens) and each batch is one forward pass, on
CUDA when present.  brasp writes hundreds of words before it reads, so a
round of the learner costs a few passes, not one per word.

``--model`` reads what brasp and brasp.train write: a trained softmax
encoder (brasp.train's OUT directory, its ``model.json`` or
``model.safetensors``), a model compiled by brasp (``brasp convert ... --to
transformer -o m.json|m.safetensors``) or a softmax export.  From Python,
:func:`serve_membership` serves any callable::

    import brasp.teacher
    brasp.teacher.serve_membership(lambda words: [w.count("a") % 2 == 0 for w in words], ["a", "b"])

``fn`` takes a list of words (each a list of symbols) and returns one
verdict per word; with ``prefix_fn`` (``prefix_fn(words)`` returns, per
word, one verdict per non-empty prefix) prefix questions cost one call.
An ``nn.Module`` from brasp.train (``encode`` and ``prefix_logits``) or
``brasp.load`` (``accepts``; ``prefix_accepts`` when the model is causal,
every head masked to earlier positions) is wrapped by
:func:`membership_functions`.

At the end of input the server writes a line of counts to standard error
(words, forward passes, words per pass) and, with ``--stats FILE``, the same
as JSON.  A word with a symbol outside the alphabet ends the server with a
message naming the line and the symbol and exit status 2; so does a line
that is not UTF-8 or is longer than a gigabyte (brasp run's word-bytes),
or a word longer than the model reads (a brasp.train model with learned
positions reads at most ``n_positions`` letters: learn it with ``brasp learn
--max-length n_positions``), after the lines before it are answered.
"""

import argparse
import json
import os
import sys
import time


class TeacherError(Exception):
    """A bad word, model or option: the message says what is wrong."""


class Stats:
    """What the server was asked and how it answered."""

    def __init__(self):
        self.words = 0          # lines answered
        self.symbols = 0        # letters in them
        self.empty = 0          # empty lines (brasp never asks the empty word)
        self.passes = 0         # calls of the model: forward passes
        self.largest = 0        # most words in one pass
        self.seconds = 0.0      # time in the model

    def as_dict(self):
        return {"words": self.words, "symbols": self.symbols, "empty": self.empty,
                "forward_passes": self.passes, "words_per_pass": round(self.words / self.passes, 2) if self.passes else 0,
                "largest_pass": self.largest, "model_seconds": round(self.seconds, 4)}

    def line(self):
        d = self.as_dict()
        return ("brasp.teacher: %d words (%d symbols) in %d forward passes, %.1f words per pass (largest %d), %.2f s in the model"
                % (d["words"], d["symbols"], d["forward_passes"], d["words_per_pass"], d["largest_pass"], d["model_seconds"]))


# The longest line the server reads, as brasp run's word-bytes limit: a
# longer line (or one that never ends) is an error naming it, not a
# buffer that grows without end.
MAX_LINE_BYTES = 1 << 30


def parse_word(line, alphabet, index, separated, lineno):
    """The symbols of one protocol line (bytes as read, or str), a list of
    str.  Every line goes through here: a line that is not UTF-8 or holds a
    symbol outside the alphabet is a TeacherError naming the line."""
    if isinstance(line, (bytes, bytearray)):
        line = bytes(line).rstrip(b"\r")
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            raise TeacherError("line %d: not UTF-8 (byte 0x%02x at offset %d)" % (lineno, line[e.start], e.start))
    else:
        line = line.rstrip("\r")
    symbols = line.split() if separated else list(line)
    for s in symbols:
        if s not in index:
            raise TeacherError("line %d: %r is not in the alphabet %s" % (lineno, s, " ".join(alphabet)))
    return symbols


def membership_functions(model, device=None):
    """(fn, prefix_fn) for a model: prefix_fn is None unless the model
    answers every prefix in one pass (a causal or strict brasp.train
    encoder, or a causal model compiled by brasp)."""
    import torch
    if hasattr(model, "encode") and hasattr(model, "prefix_logits"):
        def run(words):
            with torch.no_grad():
                tokens, lengths = model.encode(words)
                return (model(tokens, lengths) > 0).tolist()

        prefix_fn = None
        if getattr(getattr(model, "config", None), "mask", "bidirectional") != "bidirectional":
            def prefix_fn(words):
                with torch.no_grad():
                    tokens, lengths = model.encode(words)
                    v = (model.prefix_logits(tokens, lengths) > 0).tolist()
                return [row[:len(w)] for row, w in zip(v, words)]
        return run, prefix_fn
    if hasattr(model, "accepts"):
        prefix_fn = None
        if getattr(model, "causal", False):
            def prefix_fn(words):
                return model.prefix_accepts(words)
        return (lambda words: model.accepts(words)), prefix_fn
    if callable(model):
        return model, None
    raise TeacherError("%r is neither callable nor a model with accepts()" % (model,))


class Server:
    """Answers protocol lines in batches (see the module doc)."""

    def __init__(self, fn, alphabet, prefixes=False, prefix_fn=None, batch_size=1024, max_tokens=1 << 18,
                 max_length=None):
        self.fn, self.prefix_fn = fn, prefix_fn
        # The longest word the model reads (None: any): a model with learned
        # positions has none past its last one.
        self.max_length = max_length
        self.alphabet = list(alphabet)
        if not self.alphabet:
            raise TeacherError("the alphabet is empty")
        self.index = {a: k for k, a in enumerate(self.alphabet)}
        self.separated = any(len(a) != 1 for a in self.alphabet)
        if any(" " in a or a == "" for a in self.alphabet):
            raise TeacherError("a symbol of the protocol holds no blank and is not empty: %r" % self.alphabet)
        self.max_length_reason = "%s letters" % max_length
        self.prefixes = prefixes
        self.batch_size, self.max_tokens = max(1, batch_size), max(1, max_tokens)
        self.stats = Stats()
        self.lineno = 0

    def _call(self, f, words):
        t = time.perf_counter()
        out = f(words)
        self.stats.seconds += time.perf_counter() - t
        self.stats.passes += 1
        self.stats.largest = max(self.stats.largest, len(words))
        if len(out) != len(words):
            raise TeacherError("the model answered %d verdicts for %d words" % (len(out), len(words)))
        return out

    def _batches(self, order, words):
        """Runs of ``order`` (indices sorted by length) within the batch limits."""
        part, longest = [], 0
        for k in order:
            n = len(words[k])
            if part and (len(part) >= self.batch_size or max(longest, n) * (len(part) + 1) > self.max_tokens):
                yield part
                part, longest = [], 0
            part.append(k)
            longest = max(longest, n)
        if part:
            yield part

    def answer(self, lines):
        """The answer lines (without newlines) for a list of protocol lines
        (bytes as read, or str); a bad line raises TeacherError."""
        out, err = self._answer(lines)
        if err is not None:
            raise err
        return out

    def _answer(self, lines):
        """(answers, error): the answers to the lines before the first bad
        one, and the TeacherError of that line (None when all are good)."""
        words, err = [], None
        for line in lines:
            self.lineno += 1
            try:
                w = parse_word(line, self.alphabet, self.index, self.separated, self.lineno)
                if self.max_length is not None and len(w) > self.max_length:
                    raise TeacherError("line %d: a word of %d letters is longer than the model reads (%s); "
                                       "learn within it: brasp learn --max-length %d"
                                       % (self.lineno, len(w), self.max_length_reason, self.max_length))
            except TeacherError as e:
                err = e
                break
            words.append(w)
            self.stats.words += 1
            self.stats.symbols += len(w)
            self.stats.empty += not w
        out = [None] * len(words)
        if self.prefixes and self.prefix_fn is None:
            # A model that cannot answer prefixes in one pass: each distinct
            # prefix becomes a word of its own (still batched).
            asked = sorted({tuple(w[:i]) for w in words for i in range(1, len(w) + 1)}, key=len)
            verdict = dict(zip(asked, self._run(self.fn, [list(p) for p in asked])))
            for k, w in enumerate(words):
                out[k] = "".join("1" if verdict[tuple(w[:i])] else "0" for i in range(1, len(w) + 1))
            return out, err
        nonempty = [k for k in range(len(words)) if words[k]]
        for k in range(len(words)):
            if not words[k]:
                out[k] = "" if self.prefixes else "reject"  # no language of brasp holds the empty word
        f = self.prefix_fn if self.prefixes else self.fn
        got = self._run(f, [words[k] for k in nonempty]) if nonempty else []
        for k, v in zip(nonempty, got):
            out[k] = "".join("1" if b else "0" for b in v) if self.prefixes else ("accept" if v else "reject")
        return out, err

    def _run(self, f, words):
        order = sorted(range(len(words)), key=lambda k: len(words[k]))
        res = [None] * len(words)
        for part in self._batches(order, words):
            for k, v in zip(part, self._call(f, [words[k] for k in part])):
                res[k] = v
        return res

    def serve(self, stdin=None, stdout=None, max_line=MAX_LINE_BYTES):
        """Reads protocol lines until end of input, answering every line that
        has arrived in one batch.  A bad line (not UTF-8, a symbol outside
        the alphabet, longer than max_line bytes) ends it with a
        TeacherError naming the line, after the lines before it are
        answered."""
        fin = stdin if stdin is not None else sys.stdin.buffer
        fout = stdout if stdout is not None else sys.stdout
        for lines in read_lines(fin, max_line, lambda: self.lineno):
            out, err = self._answer(lines)
            self._write(fout, out)
            if err is not None:
                raise err

    @staticmethod
    def _write(fout, answers):
        if answers:
            fout.write("\n".join(answers) + "\n")
            fout.flush()


def read_lines(fin, max_line=MAX_LINE_BYTES, lines_before=lambda: 0):
    """The lines of a byte stream, in batches: each batch is every complete
    line that has arrived when the server looks (bytes, without the
    newline), and the last line when the input ends without one.  A line
    longer than max_line bytes is a TeacherError naming it (its number is
    lines_before() + its place in the batch)."""
    fd = fin.fileno() if hasattr(fin, "fileno") else None
    parts, size = [], 0  # the line being read, in pieces (no quadratic joins)
    while True:
        chunk = os.read(fd, 1 << 20) if fd is not None else fin.read(1 << 20)
        if not chunk:
            break
        if b"\n" in chunk:
            *complete, rest = (b"".join(parts) + chunk).split(b"\n")
            parts, size = [rest], len(rest)
            for k, line in enumerate(complete):
                if len(line.rstrip(b"\r")) > max_line:
                    yield complete[:k]
                    raise TeacherError("line %d: longer than %d bytes" % (lines_before() + 1, max_line))
            yield complete
        else:
            parts.append(chunk)
            size += len(chunk)
        if size > max_line:
            raise TeacherError("line %d: longer than %d bytes" % (lines_before() + 1, max_line))
    if size:
        yield [b"".join(parts)]


def serve_membership(fn, alphabet, prefixes=False, prefix_fn=None, batch_size=1024, stdin=None, stdout=None):
    """Serves ``fn`` (a callable on a list of words, or a model: see
    :func:`membership_functions`) over brasp's line protocol until end of
    input and returns the :class:`Stats`."""
    if prefix_fn is None and (hasattr(fn, "accepts") or hasattr(fn, "prefix_logits")):
        fn, prefix_fn = membership_functions(fn)
    s = Server(fn, alphabet, prefixes=prefixes, prefix_fn=prefix_fn, batch_size=batch_size)
    s.serve(stdin, stdout)
    return s.stats


def longest_word(model):
    """(n, why): the longest word a model reads and why, or (None, None)
    when it reads words of any length.  A brasp.train model with learned
    positions reads at most its n_positions letters."""
    config = getattr(model, "config", None)
    kinds = getattr(model, "kinds", None) or {}
    if config is not None and "learned" in kinds:
        n = int(config.n_positions)
        return n, "its %d learned positions" % n
    return None, None


def load_teacher_model(path, device):
    """A model file or brasp.train directory, loaded for serving."""
    if os.path.isdir(path) or path.endswith("model.json") or _is_trained(path):
        from .train import load_model
        return load_model(path, device=device)
    from . import load
    return load(path, device=device)


def _is_trained(path):
    """Whether ``path`` is a brasp.train model.safetensors (its model.json beside it)."""
    side = os.path.join(os.path.dirname(path) or ".", "model.json")
    if not path.endswith(".safetensors") or not os.path.exists(side):
        return False
    try:
        with open(side) as f:
            return str(json.load(f).get("format", "")).startswith("brasp-train/")
    except (OSError, ValueError, AttributeError):
        return False


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python3 -m brasp.teacher",
                                 description="Answer brasp learn's membership queries with a model (see brasp.teacher).")
    ap.add_argument("--model", required=True, help="brasp.train output (directory, model.json or model.safetensors), or a brasp model .json/.safetensors")
    ap.add_argument("--alphabet", help="the symbols, separated by spaces (default: the model's)")
    ap.add_argument("--prefixes", action="store_true", help="answer one 0/1 per non-empty prefix of each word")
    ap.add_argument("--batch-size", type=int, default=1024, help="most words in one forward pass (default 1024)")
    ap.add_argument("--device", default="auto", help="cpu, cuda or auto (CUDA when present; default)")
    ap.add_argument("--stats", help="write the counts as JSON to this file at the end")
    a = ap.parse_args(argv)
    try:
        import torch
        device = a.device
        if device == "auto":
            device = "cuda" if torch.cuda.is_available() else "cpu"
        elif device.startswith("cuda") and not torch.cuda.is_available():
            raise TeacherError("--device %s: PyTorch sees no CUDA device here; use --device cpu" % device)
        try:
            model = load_teacher_model(a.model, device)
        except TeacherError:
            raise
        except Exception as e:  # the loaders' own errors say what is wrong with the file
            raise TeacherError("%s: %s" % (a.model, e))
        if getattr(model, "propositions", None):
            raise TeacherError("%s reads traces of propositions; the membership server serves models over letters" % a.model)
        alphabet = list(getattr(model, "alphabet", []))
        if a.alphabet is not None:
            asked = a.alphabet.split()
            if alphabet and sorted(asked) != sorted(alphabet):
                raise TeacherError("--alphabet %s differs from the model's alphabet %s" % (" ".join(asked), " ".join(alphabet)))
            alphabet = asked
        if not alphabet:
            raise TeacherError("the model names no alphabet: give --alphabet")
        fn, prefix_fn = membership_functions(model)
        longest, why = longest_word(model)
        server = Server(fn, alphabet, prefixes=a.prefixes, prefix_fn=prefix_fn, batch_size=a.batch_size,
                        max_length=longest)
        if why:
            server.max_length_reason = why
        stats = None
        if a.stats:
            try:  # opened before the first word, so that the counts have a place
                stats = open(a.stats, "w")
            except OSError as e:
                raise TeacherError("--stats %s: %s" % (a.stats, e.strerror or e))
        try:
            server.serve()
        finally:
            print(server.stats.line(), file=sys.stderr)
            if stats is not None:
                with stats:
                    json.dump(server.stats.as_dict(), stats)
    except TeacherError as e:
        print("brasp.teacher: %s" % e, file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
