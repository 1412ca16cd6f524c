"""Shared helpers of the Python tests: the brasp binary, model conversion,
Go verdicts and traces, words."""

import contextlib
import io
import itertools
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest
from fractions import Fraction

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON)
EXAMPLES = os.path.join(REPO, "examples")
# BRASP_INSTALLED=1 (CI, after pip install ./python): the tests import the
# installed package, never the source tree beside them.
INSTALLED = os.environ.get("BRASP_INSTALLED", "") == "1"
if not INSTALLED and PYTHON not in sys.path:
    sys.path.insert(0, PYTHON)

import torch  # noqa: E402

import brasp as _brasp  # noqa: E402

if INSTALLED and os.path.dirname(os.path.dirname(os.path.abspath(_brasp.__file__))) == PYTHON:
    raise RuntimeError("BRASP_INSTALLED=1 but brasp was imported from the source tree %s" % PYTHON)


def python_env(**extra):
    """The environment of a `python -m brasp...` subprocess: the source
    tree on PYTHONPATH, or nothing added when testing the install."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **extra)
    if not INSTALLED:
        env["PYTHONPATH"] = PYTHON + os.pathsep + os.environ.get("PYTHONPATH", "")
    return env

# Small batches: threads cost more than they save (and CI machines are shared).
torch.set_num_threads(1)

_tmp = None
_bin = None


def tmpdir():
    global _tmp
    if _tmp is None:
        _tmp = os.environ.get("BRASP_TMP") or tempfile.mkdtemp(prefix="brasp-py-")
    return _tmp


def brasp_bin():
    """The brasp binary: $BRASP_BIN (the Go test that runs this suite builds
    it), or built here with `go build`."""
    global _bin
    if _bin is None:
        _bin = os.environ.get("BRASP_BIN")
        if not _bin:
            go = shutil.which("go")
            if go is None:
                raise unittest.SkipTest("no brasp binary (set BRASP_BIN or put go on PATH)")
            _bin = os.path.join(tmpdir(), "brasp")
            subprocess.run([go, "build", "-o", _bin, "./cmd/brasp"], cwd=REPO, check=True)
    return _bin


def brasp(*args, stdin=None):
    p = subprocess.run([brasp_bin()] + [str(a) for a in args], input=stdin, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("brasp %s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr.strip()))
    return p.stdout


def convert(src, out, *flags):
    """Compiles src with brasp convert --to transformer flags -o out; a
    safetensors file the model cannot be written as falls back to JSON.
    Returns the path written."""
    try:
        brasp("convert", src, "--to", "transformer", *flags, "-o", out)
        return out
    except RuntimeError as e:
        if out.endswith(".safetensors") and "not exactly representable" in str(e):
            out = out[:-len(".safetensors")] + ".json"
            brasp("convert", src, "--to", "transformer", *flags, "-o", out)
            return out
        raise


def run_main(main, *args, **env):
    """A Python command's main(argv) in this process, with env added to the
    environment (a process per call would import PyTorch again, seconds
    each): (exit code, stdout, stderr). An exception main lets out fails
    the calling test, as a traceback of the command would."""
    saved = dict(os.environ)
    os.environ.update(env)
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main([str(a) for a in args])
            except SystemExit as e:
                code = e.code
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return code, out.getvalue(), err.getvalue()


def assert_exact(test, t, rows, what):
    """The float tensor t [n, d] equals brasp's exact rows (JSON numbers or
    "p/q" strings) entry by entry: a float equals a number or a Fraction
    only when their values are the same, so the rows compare whole, and
    entry by entry only to say where they differ."""
    test.assertEqual(list(t.shape), [len(rows), len(rows[0])], what)
    got = t.tolist()
    if got == [[Fraction(v) if isinstance(v, str) else v for v in row] for row in rows]:
        return
    for i, row in enumerate(rows):
        for k, v in enumerate(row):
            test.assertEqual(Fraction(got[i][k]), Fraction(v), "%s: position %d coordinate %d" % (what, i + 1, k))
    test.fail("%s: the rows differ" % what)


def fmt(word):
    return "".join(word) if all(len(a) == 1 for a in word) else " ".join(word)


def go_run(model, words):
    """brasp run's verdicts ("accept"/"reject") or output words, one per
    word; "error" for a word brasp run rejects with an error (a transducer
    whose outputs are not exactly one symbol)."""
    try:
        out = brasp("run", model, "--input-file", "-", stdin="".join(w + "\n" for w in words))
    except RuntimeError:
        if len(words) == 1:
            return ["error"]
        h = len(words) // 2
        return go_run(model, words[:h]) + go_run(model, words[h:])
    lines = out.split("\n")[:-1]
    assert len(lines) == len(words), (len(lines), len(words))
    return lines


def go_trace(model, words):
    out = brasp("run", "--trace", model, "--input-file", "-", stdin="".join(w + "\n" for w in words))
    return [json.loads(line) for line in out.splitlines()]


def all_words(alphabet, max_len):
    for n in range(1, max_len + 1):
        for t in itertools.product(alphabet, repeat=n):
            yield fmt(t)


def test_words(alphabet, budget=600, long=8, seed=1):
    """Every word up to the largest length whose words number at most
    budget, plus `long` random words of length 20..150."""
    k = len(alphabet)
    n, total = 0, 0
    while total + k ** (n + 1) <= budget and n < 12:
        n += 1
        total += k ** n
    words = list(all_words(alphabet, max(n, 1)))
    rng = random.Random(seed)
    for _ in range(long):
        words.append(fmt([rng.choice(alphabet) for _ in range(rng.randint(20, 150))]))
    return words


CONSTRUCTIONS = [(), ("--multihead",), ("--layernorm",), ("--multihead", "--layernorm")]


def name(flags):
    return "+".join(f.strip("-") for f in flags) or "sequential"


def ci():
    return os.environ.get("CI", "") not in ("", "0", "false")
