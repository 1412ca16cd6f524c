"""Finding and running the brasp program (the Go binary), which samples,
counts and labels the words ``brasp.train`` learns from."""

import hashlib
import os
import shutil
import subprocess
import tempfile


class TrainError(Exception):
    """Bad input to brasp.train (a language, a length range, a model file, a
    device): the message says what is wrong and how to fix it.  The command
    prints it and exits with status 1."""


# The checkout this package sits in, when it is run from one:
# <repo>/python/brasp/train/binary.py.
_REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

_found = {}


def find_brasp(explicit=None):
    """The brasp program: ``explicit`` (the command's --brasp), else $BRASP,
    else $BRASP_BIN, else ``brasp`` on the PATH, else built with ``go build``
    from the checkout the package sits in (once per checkout, into the user's
    cache directory).  Raises TrainError naming every place it looked."""
    for name, path in (("--brasp", explicit), ("$BRASP", os.environ.get("BRASP")),
                       ("$BRASP_BIN", os.environ.get("BRASP_BIN"))):
        if path:
            if not (os.path.isfile(path) and os.access(path, os.X_OK)):
                raise TrainError("%s=%s: no such executable file (it should name the brasp program)" % (name, path))
            return path
    on_path = shutil.which("brasp")
    if on_path:
        return on_path
    main_go = os.path.join(_REPO, "cmd", "brasp", "main.go")
    go = shutil.which("go")
    if os.path.isfile(main_go) and go:
        return _build(go)
    where = "no brasp checkout around the package" if not os.path.isfile(main_go) else "no go on the PATH to build %s" % os.path.dirname(main_go)
    raise TrainError("the brasp program was not found: set $BRASP to it, put it on the PATH "
                     "(`go install ./cmd/brasp` in a brasp checkout), or pass --brasp PATH "
                     "(looked at $BRASP, $BRASP_BIN, the PATH; %s)" % where)


def _build(go):
    if _REPO in _found:
        return _found[_REPO]
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    tag = hashlib.sha256(_REPO.encode()).hexdigest()[:12]
    try:
        os.makedirs(os.path.join(cache, "brasp-train"), exist_ok=True)
        out = os.path.join(cache, "brasp-train", "brasp-" + tag)
    except OSError:
        out = os.path.join(tempfile.mkdtemp(prefix="brasp-train-"), "brasp")
    p = subprocess.run([go, "build", "-o", out, "./cmd/brasp"], cwd=_REPO, capture_output=True, text=True)
    if p.returncode != 0:
        raise TrainError("the brasp program was not found and `go build ./cmd/brasp` in %s failed:\n%s" % (_REPO, p.stderr.strip()))
    _found[_REPO] = out
    return out


def run(binary, args, what=None):
    """Runs ``binary args`` and returns (stdout, stderr); a non-zero exit
    becomes a TrainError carrying brasp's own message."""
    try:
        p = subprocess.run([binary] + [str(a) for a in args], capture_output=True, text=True)
    except OSError as e:
        raise TrainError("cannot run %s: %s" % (binary, e))
    if p.returncode != 0:
        msg = p.stderr.strip() or p.stdout.strip() or "exit status %d" % p.returncode
        if "unknown command" in msg:
            msg += "\n(%s is too old for brasp.train: rebuild it from a current checkout)" % binary
        raise TrainError("%s: %s" % (what or "brasp " + str(args[0]), msg))
    return p.stdout, p.stderr
