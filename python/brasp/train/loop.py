"""The training run: data from brasp sample, AdamW on the words of the
training lengths, early stopping on a validation sample, checkpoints, and
the final evaluation by length."""

import dataclasses
import math
import os
import random
import sys
import time

import numpy as np
import torch

from .binary import TrainError
from .data import Language, WordDataset, describe_lacking, parse_lengths, trim
from .hard_loop import check_sides, train_hard
from .model import Config, Encoder, Shape
from .report import accuracy_by_length, exhaustive, plot, summary_line, write_json
from .storage import save_model

CHECKPOINT = "checkpoint.pt"
ACCURACY_JSON = "accuracy.json"
ACCURACY_PNG = "accuracy.png"


@dataclasses.dataclass
class Run:
    """What a run reads besides the model's shape."""

    file: str
    out: str = ""
    train_lengths: str = "1:40"
    test_lengths: str = ""  # default: 1 to 4× the longest training length
    train_count: int = 200
    val_count: int = 50
    test_count: int = 50
    exhaustive: int = 20000
    steps: int = 3000
    batch_size: int = 32
    lr: float = 1e-3
    weight_decay: float = 0.01
    warmup: int = 100
    clip: float = 1.0
    eval_every: int = 100
    patience: int = 10
    stop_at: float = 1.0
    stop_streak: int = 3
    seed: int = 1
    device: str = "auto"
    threads: int = 0
    resume: bool = False
    progress: str = "auto"
    brasp: str = ""
    attention: str = "softmax"
    lookups: int = 1
    classes: int = 3
    directions: str = "future"
    tiebreak: str = "nearest"
    relax: str = "anneal"
    head_relax: str = "alternate"
    tau_start: float = 2.0
    tau_end: float = 0.05
    restarts: int = 4
    candidates: int = 4
    limits: str = ""
    polish: int = 0
    polish_words: int = 500
    polish_all: int = 1024


@dataclasses.dataclass
class Options(Shape, Run):
    """Everything a run reads: the fields of Run, then those of the model's
    Shape; the command's flags set them (same names)."""


def pick_device(name):
    """cpu, cuda (an error where PyTorch sees no CUDA device), cuda:N, or
    auto (CUDA when present, else CPU)."""
    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if name == "cpu":
        return torch.device("cpu")
    if name.startswith("cuda"):
        if not torch.cuda.is_available():
            raise TrainError("--device %s: PyTorch sees no CUDA device here (torch.cuda.is_available() is false; "
                             "PyTorch %s%s); use --device cpu" % (name, torch.__version__,
                                                                   "" if torch.version.cuda else ", built without CUDA"))
        try:
            dev = torch.device(name)
            torch.zeros(1, device=dev)
        except (RuntimeError, AssertionError) as e:
            raise TrainError("--device %s: %s" % (name, e))
        return dev
    raise TrainError("--device %s: want auto, cpu, cuda or cuda:N" % name)


def seed_everything(seed):
    random.seed(seed)
    np.random.seed(seed % (1 << 32))
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True, warn_only=True)


class Progress:
    """A progress bar over the steps: tqdm when installed and writing to a
    terminal (or asked for), a plain line per evaluation otherwise."""

    def __init__(self, kind, total, initial, out=None):
        self.bar = None
        self.out = out = out or sys.stderr
        self.total = total
        if kind == "auto":
            kind = "tqdm" if getattr(out, "isatty", lambda: False)() else "plain"
        if kind == "tqdm":
            try:
                from tqdm import tqdm
                self.bar = tqdm(total=total, initial=initial, file=out, unit="step", dynamic_ncols=True)
            except ImportError:
                kind = "plain"
        self.kind = kind

    def step(self, loss):
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix_str("loss %.4f" % loss, refresh=False)

    def note(self, step, text):
        if self.bar is not None:
            self.bar.set_description(text)
        elif self.kind == "plain":
            print("step %d/%d: %s" % (step, self.total, text), file=self.out, flush=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()


@torch.no_grad()
def evaluate(model, ds, device, batch_size=512):
    """(accuracy, mean loss) on a WordDataset."""
    model.eval()
    correct, loss, n = 0, 0.0, len(ds)
    lossf = torch.nn.BCEWithLogitsLoss(reduction="sum")
    for s in range(0, n, batch_size):
        tokens, lengths, labels = ds.tokens[s:s + batch_size], ds.lengths[s:s + batch_size], ds.labels[s:s + batch_size]
        logits = model(trim(tokens, lengths).to(device), lengths.to(device))
        y = labels.to(device)
        loss += float(lossf(logits, y))
        correct += int(((logits > 0).float() == y).sum())
    model.train()
    return correct / max(n, 1), loss / max(n, 1)


def lengths_of(opt):
    train = parse_lengths(opt.train_lengths, "--train-lengths")
    test = parse_lengths(opt.test_lengths or "1:%d" % (4 * train[1]), "--test-lengths")
    return train, test


def config_of(opt, alphabet, test):
    n_pos = opt.n_positions
    if "learned" in opt.position and n_pos == 0:
        n_pos = test[1]
    shape = {f.name: getattr(opt, f.name) for f in dataclasses.fields(Shape)}
    shape["n_positions"] = n_pos
    cfg = Config(alphabet=alphabet, **shape)
    try:
        cfg.check()
    except ValueError as e:
        raise TrainError(str(e))
    if "learned" in opt.position and n_pos < test[1]:
        raise TrainError("--n-positions %d: the test lengths reach %d, longer than the learned positions "
                         "(raise --n-positions to %d or shorten --test-lengths)" % (n_pos, test[1], test[1]))
    return cfg


# The numeric options of a run and their ranges: (name, least, most), most
# None for no upper bound.
_NUMBERS = [("steps", 1, None), ("batch_size", 1, None), ("eval_every", 1, None), ("train_count", 1, None),
            ("val_count", 1, None), ("test_count", 1, None), ("exhaustive", 0, None), ("warmup", 0, None),
            ("patience", 1, None), ("stop_streak", 1, None), ("threads", 0, None), ("seed", 0, None),
            ("lr", 0, None), ("weight_decay", 0, None), ("clip", 0, None), ("stop_at", 0, 1)]


def check_numbers(opt):
    """Every numeric option finite and in its range, before any work (NaN
    fails every comparison, so it is named apart)."""
    for name, least, most in _NUMBERS:
        v = getattr(opt, name)
        flag = "--" + name.replace("_", "-")
        if isinstance(v, float) and not math.isfinite(v):
            raise TrainError("%s %s: want a finite number" % (flag, v))
        if name == "lr" and v <= 0:
            raise TrainError("%s %s: want a number > 0" % (flag, v))
        if v < least or (most is not None and v > most):
            raise TrainError("%s %s: want %s" % (flag, v, "%s ≤ x ≤ %s" % (least, most) if most is not None else "at least %s" % least))


def prepare_out(out):
    """Makes the output directory, or says why it cannot be written, before
    any word is sampled."""
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as e:
        raise TrainError("--out %s: %s" % (out, e.strerror or e))
    if not os.path.isdir(out) or not os.access(out, os.W_OK | os.X_OK):
        raise TrainError("--out %s: not a directory this user can write" % out)


def train(opt, log=print):
    """Runs a training run; returns the result document (also written to
    OUT/accuracy.json).  ``log`` receives the warnings and the summary line."""
    check_numbers(opt)
    train_l, test_l = lengths_of(opt)
    device = pick_device(opt.device)
    if opt.threads:
        torch.set_num_threads(opt.threads)
    out = opt.out or "train-" + os.path.splitext(os.path.basename(opt.file))[0]
    if not os.path.exists(opt.file):
        raise TrainError("%s: no such file" % opt.file)
    if opt.attention not in ("softmax", "hard"):
        raise TrainError("--attention %s: want softmax or hard" % opt.attention)
    prepare_out(out)
    lang = Language(opt.file, opt.brasp or None)
    if opt.attention == "hard":
        if opt.resume:
            raise TrainError("--resume: hard-attention runs keep no checkpoint; start afresh")
        bar = Progress(opt.progress, opt.steps, 0)
        try:
            return train_hard(dataclasses.replace(opt, out=out), lang, train_l, test_l, device, log, bar)
        finally:
            bar.close()
    cfg = config_of(opt, lang.alphabet, test_l)
    t0 = time.time()
    words, lacking = lang.sample(train_l, opt.train_count, opt.seed)
    check_sides(opt.file, words, train_l)
    for msg in describe_lacking(train_l, lacking):
        log("warning: %s: %s" % (opt.file, msg))
    val_words, _ = lang.sample(train_l, opt.val_count, opt.seed + 1_000_003)
    train_ds, val_ds = WordDataset(words, {a: k for k, a in enumerate(lang.alphabet)}), None
    val_ds = WordDataset(val_words, {a: k for k, a in enumerate(lang.alphabet)})

    seed_everything(opt.seed)
    model = Encoder(cfg).to(device)
    optim = torch.optim.AdamW(model.parameters(), lr=opt.lr, weight_decay=opt.weight_decay)
    sched = torch.optim.lr_scheduler.LambdaLR(optim, lambda s: min(1.0, (s + 1) / max(opt.warmup, 1)))
    ckpt_path = os.path.join(out, CHECKPOINT)
    state = {"step": 0, "best": None, "best_state": None, "stale": 0, "streak": 0, "seconds": 0.0}
    if opt.resume:
        state = resume(ckpt_path, cfg, model, optim, sched)
    gen = torch.Generator().manual_seed(opt.seed)
    loader = torch.utils.data.DataLoader(train_ds, batch_size=opt.batch_size, shuffle=True, generator=gen, drop_last=False)
    lossf = torch.nn.BCEWithLogitsLoss()
    bar = Progress(opt.progress, opt.steps, state["step"])
    stopped = "step budget"
    model.train()
    start = time.time() - state["seconds"]
    try:
        while state["step"] < opt.steps and stopped == "step budget":
            for tokens, lengths, labels in loader:
                logits = model(trim(tokens, lengths).to(device), lengths.to(device))
                loss = lossf(logits, labels.to(device))
                optim.zero_grad(set_to_none=True)
                loss.backward()
                if opt.clip > 0:
                    torch.nn.utils.clip_grad_norm_(model.parameters(), opt.clip)
                optim.step()
                sched.step()
                state["step"] += 1
                bar.step(float(loss))
                if state["step"] % opt.eval_every == 0 or state["step"] == opt.steps:
                    acc, vloss = evaluate(model, val_ds, device)
                    score = (acc, -vloss)
                    if state["best"] is None or score > tuple(state["best"]):
                        state["best"], state["stale"] = list(score), 0
                        state["best_state"] = {k: v.detach().cpu().clone() for k, v in model.state_dict().items()}
                    else:
                        state["stale"] += 1
                    state["seconds"] = time.time() - start
                    bar.note(state["step"], "validation accuracy %.1f%%, loss %.4f" % (100 * acc, vloss))
                    save_checkpoint(ckpt_path, cfg, model, optim, sched, state)
                    state["streak"] = state["streak"] + 1 if acc >= opt.stop_at else 0
                    if state["streak"] >= opt.stop_streak:
                        stopped = "validation accuracy ≥ %g at %d validations in a row" % (opt.stop_at, opt.stop_streak)
                    elif state["stale"] >= opt.patience:
                        stopped = "no better validation score in %d evaluations (--patience)" % opt.patience
                if stopped != "step budget" or state["step"] >= opt.steps:
                    break
    finally:
        bar.close()
    seconds = time.time() - start
    if state["best_state"] is not None:
        model.load_state_dict(state["best_state"])
    model.eval()
    trained = {"language": opt.file, "alphabet": lang.alphabet, "train_lengths": list(train_l),
               "steps": state["step"], "seed": opt.seed}
    weights = save_model(model.cpu(), out, {"trained": trained})
    model.to(device)

    test_words, test_lacking = lang.sample(test_l, opt.test_count, opt.seed + 2_000_003)
    rows = accuracy_by_length(model, test_words, device)
    ex = exhaustive(model, lang, opt.exhaustive, device) if opt.exhaustive > 0 else None
    doc = {
        "language": opt.file, "train_lengths": list(train_l), "test_lengths": list(test_l),
        "steps": state["step"], "stopped": stopped, "seconds": round(seconds, 2),
        "total_seconds": round(time.time() - t0, 2), "device": str(device),
        "best_validation": {"accuracy": state["best"][0], "loss": -state["best"][1]} if state["best"] else None,
        "options": dataclasses.asdict(opt), "config": dataclasses.asdict(cfg),
        "lacking": test_lacking, "per_length": rows, "exhaustive": ex,
    }
    write_json(os.path.join(out, ACCURACY_JSON), doc)
    title = "%s: %d layers, %d heads, width %d, %s masks, positions %s" % (
        os.path.basename(opt.file), cfg.layers, cfg.heads, cfg.width, cfg.mask, cfg.position)
    doc["plot"] = plot(os.path.join(out, ACCURACY_PNG), rows, train_l, title)
    log(summary_line(opt.file, rows, train_l, test_l, state["step"], seconds, weights, ex))
    return doc


def save_checkpoint(path, cfg, model, optim, sched, state):
    """Writes the run's state (model, optimizer, schedule, step, best
    weights) atomically, for --resume."""
    tmp = path + ".tmp"
    torch.save({"format": "brasp-train-checkpoint/1", "config": dataclasses.asdict(cfg),
                "model": model.state_dict(), "optim": optim.state_dict(), "sched": sched.state_dict(),
                "state": state, "rng": torch.get_rng_state()}, tmp)
    os.replace(tmp, path)


def resume(path, cfg, model, optim, sched):
    """Restores a checkpoint written by save_checkpoint; a missing, corrupt or
    mismatched one raises TrainError."""
    if not os.path.isfile(path):
        raise TrainError("--resume: %s: no such file (no earlier run wrote a checkpoint to this --out)" % path)
    try:
        ck = torch.load(path, map_location="cpu")
    except Exception as e:  # torch.load raises many kinds on a damaged file
        raise TrainError("--resume: %s: corrupt checkpoint (%s: %s); delete it to start afresh" % (path, type(e).__name__, e))
    if not isinstance(ck, dict) or ck.get("format") != "brasp-train-checkpoint/1":
        raise TrainError("--resume: %s: not a brasp.train checkpoint" % path)
    if ck.get("config") != dataclasses.asdict(cfg):
        raise TrainError("--resume: %s: written for another model configuration (%s)" % (path, ck.get("config")))
    try:
        model.load_state_dict(ck["model"])
        optim.load_state_dict(ck["optim"])
        sched.load_state_dict(ck["sched"])
        torch.set_rng_state(ck["rng"])
        state = ck["state"]
        state["step"] = int(state["step"])
    except (KeyError, RuntimeError, ValueError, TypeError) as e:
        raise TrainError("--resume: %s: corrupt checkpoint (%s)" % (path, e))
    return state
