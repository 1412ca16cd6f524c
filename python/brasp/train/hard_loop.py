"""The training run of ``--attention hard``: a HardEncoder trained by
gradient descent (the forward pass always the exported hard model, the
gradients from an annealed surrogate), validated with its exact verdicts,
exported as ``OUT/hard.safetensors`` and proved right or wrong at every
length by ``brasp equiv``.

With heads that only look back (``--directions future``), position i's
verdict is the verdict on the prefix of i letters, so every prefix of every
training word is a labelled example (its label from the language's minimal
DFA, ``brasp convert --to dfa``).  The step size shrinks with τ, so that a
step moves the relaxation's logits (parameters / τ) by about as much at
every temperature.  ``--restarts`` trains fresh models in turn until
brasp equiv proves one equivalent, keeping the best.  The hard model
settles early in the schedule (its validation accuracy rarely changes after
the first quarter), so a restart screens ``--candidates`` fresh models
through the schedule's first eighth and continues only the one with the
best validation accuracy, and a model whose validation accuracy has not
bettered in ``--patience`` validations ends its restart."""

import dataclasses
import json
import os
import re
import time

import torch

from . import hard_export, hard_polish
from .binary import TrainError, run
from .data import Language, WordDataset, describe_lacking, trim
from .hard import HEAD_RELAXES, RELAXES, HardConfig, HardEncoder, HardShape, Read
from .report import accuracy_by_length, exhaustive, plot, summary_line, write_json

HARD = "hard.safetensors"
HARD_CONFIG = "hard.json"
ACCURACY_JSON = "accuracy.json"
ACCURACY_PNG = "accuracy.png"
# Copies of a counterexample brasp equiv gives the polish: enough that its
# few prefixes outweigh a change's gains elsewhere.
COUNTEREXAMPLE_WEIGHT = 10
# Training made the attention hard when the soft model it fitted agrees with
# the hard model on this share of the validation words.
HARD_ENOUGH = 0.99
SHARP_ENOUGH = 0.9


@dataclasses.dataclass
class Candidate:
    """A model in training: its optimizer, its endless batches, the steps it
    has taken, its best validation accuracy and the validations since."""

    model: HardEncoder
    optim: torch.optim.Optimizer
    batches: object
    name: str = ""
    local: int = 0
    top: float = -1.0
    stale: int = 0


def batches(loader):
    """The loader's batches, epoch after epoch."""
    while True:
        yield from loader


def check_sides(path, words, lengths):
    """Raises TrainError when the training words hold only one verdict."""
    if not any(y for _, y in words) or all(y for _, y in words):
        side = "accepted" if not any(y for _, y in words) else "rejected"
        raise TrainError("%s: the language has no %s word of any length %d–%d: nothing to learn (choose other --train-lengths)"
                         % (path, side, lengths[0], lengths[1]))


def hard_config(opt, alphabet):
    shape = {f.name: getattr(opt, f.name) for f in dataclasses.fields(HardShape)}
    cfg = HardConfig(alphabet=alphabet, **shape)
    try:
        cfg.check()
    except ValueError as e:
        raise TrainError(str(e))
    if opt.relax not in RELAXES:
        raise TrainError("--relax %s: want one of %s" % (opt.relax, ", ".join(RELAXES)))
    if opt.head_relax not in HEAD_RELAXES:
        raise TrainError("--head-relax %s: want one of %s" % (opt.head_relax, ", ".join(HEAD_RELAXES)))
    if opt.polish < 0 or opt.polish_words < 1 or opt.polish_all < 0:
        raise TrainError("--polish %d --polish-words %d --polish-all %d: want changes ≥ 0, words ≥ 1 and all ≥ 0"
                         % (opt.polish, opt.polish_words, opt.polish_all))
    if opt.polish > 0 and cfg.directions != "future":
        raise TrainError("--polish searches on every prefix's verdict, which wants --directions future")
    if opt.restarts < 1:
        raise TrainError("--restarts %d: want at least 1" % opt.restarts)
    if opt.candidates < 1:
        raise TrainError("--candidates %d: want at least 1" % opt.candidates)
    if not (opt.tau_start > 0 and opt.tau_end > 0):
        raise TrainError("--tau-start and --tau-end want positive temperatures")
    limit_args(opt.limits)
    return cfg


_LIMIT = re.compile(r"^[a-z][a-z0-9-]*=[0-9]+$")


def limit_args(limits):
    """brasp's --limit arguments for --limits NAME=N,NAME=N (checked here, so
    that a malformed one is refused before training; brasp names an unknown
    NAME)."""
    out = []
    for item in filter(None, (s.strip() for s in limits.split(","))):
        if not _LIMIT.match(item):
            raise TrainError("--limits %s: want NAME=N joined by commas (e.g. decompile-classes=65536)" % limits)
        out += ["--limit", item]
    return out


def prefix_labels(lang, ds):
    """The language's verdict on every prefix of every word of ds [words, N]
    (its minimal DFA from brasp convert --to dfa, run here)."""
    text, _ = run(lang.binary, ["convert", lang.path, "--to", "dfa"], "brasp convert " + lang.path)
    strip = lambda t: t[1:-1] if len(t) >= 2 and t[0] == t[-1] == '"' else t
    start, accept, delta = None, set(), {}
    for line in text.splitlines():
        f = line.split()
        if not f or f[0] == "alphabet" or f[0].startswith("#"):
            continue
        if f[0] == "start":
            start = f[1]
        elif f[0] == "accept":
            accept.update(f[1:])
        elif len(f) == 3:
            delta[(f[0], strip(f[1]))] = f[2]
    if start is None:
        raise TrainError("brasp convert %s --to dfa: no start state in its output" % lang.path)
    out = torch.zeros(ds.tokens.shape, dtype=torch.float32)
    for k in range(len(ds)):
        q = start
        for i in range(int(ds.lengths[k])):
            q = delta[(q, lang.alphabet[int(ds.tokens[k, i]) - 1])]
            out[k, i] = float(q in accept)
    return out


@torch.no_grad()
def hard_accuracy(model, ds, device, batch_size=512):
    model.eval()
    correct = 0
    for s in range(0, len(ds), batch_size):
        tokens, lengths, labels = ds.tokens[s:s + batch_size], ds.lengths[s:s + batch_size], ds.labels[s:s + batch_size]
        got = model(trim(tokens, lengths).to(device), lengths.to(device)) > 0
        correct += int((got.float().cpu() == labels).sum())
    model.train()
    return correct / max(len(ds), 1)


@torch.no_grad()
def soft_agreement(model, ds, device, tau, batch_size=256):
    """How often the soft model at temperature tau (the one the gradients
    trained, without noise) gives the hard model's verdict on ds: 1 when the
    attention has become hard."""
    agree = 0
    for s in range(0, len(ds), batch_size):
        tokens, lengths = trim(ds.tokens[s:s + batch_size], ds.lengths[s:s + batch_size]), ds.lengths[s:s + batch_size]
        model.train()
        model.set_temperature(tau, False, True)
        soft = model(tokens.to(device), lengths.to(device)) > 0
        model.eval()
        hard = model(tokens.to(device), lengths.to(device)) > 0
        agree += int((soft == hard).sum())
    return agree / max(len(ds), 1)


@torch.no_grad()
def read_sharpness(model, tau):
    """The mean weight the soft model's variable choices put on the hard
    model's (1: every read chooses one variable)."""
    tops = [float(torch.softmax(m.logits / tau, 0).max()) for m in model.modules() if isinstance(m, Read)]
    return sum(tops) / len(tops) if tops else 1.0


_NOT_EQUIV = re.compile(r'^not equivalent: (.*) \((.*) (accepts|rejects), (.*) (accepts|rejects)\)\s*$')


def verdict(binary, lang_path, model_path, limits=""):
    """brasp equiv LANG MODEL (under the --limits given) as {"equivalent":
    bool, "word", "language", "model", "text"}."""
    try:
        out, _ = run(binary, ["equiv"] + limit_args(limits) + [lang_path, model_path], "brasp equiv")
        return {"equivalent": True, "text": "equivalent to %s at every length" % lang_path}
    except TrainError as e:
        msg = str(e)
    m = None
    for line in msg.splitlines():
        m = _NOT_EQUIV.search(line.replace("brasp equiv: ", ""))
        if m:
            break
    if not m:
        hint = " (brasp.train --limits NAME=N raises a limit for it)" if "--limit" in msg else ""
        return {"equivalent": None, "text": "brasp equiv could not decide: %s%s" % (msg, hint)}
    word = m.group(1)
    first_says, second_says = m.group(3), m.group(5)
    lang_says = first_says if m.group(2) == lang_path else second_says
    model_says = second_says if m.group(2) == lang_path else first_says
    return {"equivalent": False, "word": word, "language": lang_says, "model": model_says,
            "text": "not equivalent to %s: the shortest word where the trained model is wrong is %s "
                    "(%s %s it, the trained model %s it)" % (lang_path, word, lang_path, lang_says, model_says)}


def exhaustive_length(alphabet, lengths, most):
    """The longest length in lengths (lo, hi) whose words number at most
    most, or None."""
    n = None
    for k in range(lengths[0], lengths[1] + 1):
        if len(alphabet) ** k > most:
            break
        n = k
    return n


def polish_words(lang, words, lengths, seed, count, most):
    """The polish's labelled words and what they are: count of the training
    words, picked by the seed, and every word of the longest training
    length with at most most words.  Their prefixes hold every shorter
    word, so the search sees each short pattern, which a sample of long
    words holds rarely and brasp equiv's shortest counterexamples are made
    of."""
    pick = torch.randperm(len(words), generator=torch.Generator().manual_seed(seed))[:count]
    chosen = [words[int(k)] for k in pick]
    about = "%d training words" % len(chosen)
    n = exhaustive_length(lang.alphabet, lengths, most) if most > 0 else None
    if n is not None:
        every = lang.all_words((n, n))
        chosen += every
        about += " and every word of length %d (%d)" % (n, len(every))
    return chosen, about


def labelled_prefixes(lang, words, index):
    """(tokens, lengths, labels) of labelled words, every prefix labelled by
    the language (prefix_labels): what hard_polish.Search searches on."""
    ds = WordDataset(words, index)
    return ds.tokens, ds.lengths, prefix_labels(lang, ds)


def counterexample(v, alphabet):
    """The word of a verdict() that is not equivalent, as (its text without
    quotes, its list of symbols: brasp prints one-letter symbols joined,
    others apart by spaces), or None."""
    if v.get("equivalent") is not False:
        return None
    text = v["word"]
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    word = list(text) if all(len(a) == 1 for a in alphabet) else text.split()
    return (text, word) if word and all(a in alphabet for a in word) else None


def train_hard(opt, lang, train_l, test_l, device, log=print, progress=None):
    """Trains, exports and checks a HardEncoder; returns the result document."""
    cfg = hard_config(opt, lang.alphabet)
    out = opt.out
    t0 = time.time()
    words, lacking = lang.sample(train_l, opt.train_count, opt.seed)
    check_sides(opt.file, words, train_l)
    for msg in describe_lacking(train_l, lacking):
        log("warning: %s: %s" % (opt.file, msg))
    val_words, _ = lang.sample(train_l, opt.val_count, opt.seed + 1_000_003)
    index = {a: k for k, a in enumerate(lang.alphabet)}
    train_ds, val_ds = WordDataset(words, index), WordDataset(val_words, index)

    os.makedirs(out, exist_ok=True)
    # Heads that only look back make position i's verdict the verdict on
    # the prefix of i letters: every prefix is a labelled example.
    prefixes = cfg.directions == "future"
    if prefixes:
        labels = prefix_labels(lang, train_ds)
        train_set = torch.utils.data.TensorDataset(train_ds.tokens, train_ds.lengths, labels)
    else:
        train_set = train_ds
    if opt.polish > 0:
        polish_set, polish_about = polish_words(lang, words, train_l, opt.seed, opt.polish_words, opt.polish_all)
    lossf = torch.nn.BCEWithLogitsLoss()
    noise = opt.relax == "gumbel"
    soft = opt.relax in ("anneal", "gumbel")
    path = os.path.join(out, HARD)
    step, restarts = 0, 0
    # The best model so far: (proven, validation accuracy), its state and verdict.
    best, best_state, best_verdict = None, None, None
    stopped = "every restart ran its whole schedule (or settled); none was proven equivalent"
    start = time.time()
    cpu0 = time.process_time()

    def prove(model, acc):
        """Exports the model and asks brasp equiv (its verdict()); keeps the
        model when it beats the best."""
        nonlocal best, best_state, best_verdict
        model.eval()
        hard_export.write(model.cpu(), path)
        model.to(device)
        model.train()
        v = verdict(lang.binary, opt.file, path, opt.limits)
        key = (v["equivalent"] is True, acc)
        if best is None or key > best:
            best, best_verdict = key, v
            best_state = {k: t.detach().cpu().clone() for k, t in model.state_dict().items()}
        return v

    def fresh(restart, c):
        """Candidate c of a restart: a fresh model, its optimizer and its
        batches (candidate 0 seeded as a restart's one model always was)."""
        seed = opt.seed + 7919 * restart + 1_000_033 * c
        torch.manual_seed(seed)
        model = HardEncoder(cfg).to(device)
        model.head_relax = opt.head_relax
        if opt.head_relax == "alternate":
            model.head_relax = "positions" if restart % 2 == 0 else "values"
        model.train()
        gen = torch.Generator().manual_seed(seed)
        loader = torch.utils.data.DataLoader(train_set, batch_size=opt.batch_size, shuffle=True, generator=gen)
        name = "restart %d" % (restart + 1) + (", candidate %d" % (c + 1) if opt.candidates > 1 else "")
        return Candidate(model, torch.optim.Adam(model.parameters(), lr=opt.lr), batches(loader), name)

    def advance(cand, until):
        """Trains cand up to step until of its schedule; returns "proven"
        (brasp equiv proved it), "ended" (its schedule is over, or it has
        settled: --patience validations without a better accuracy) or None."""
        nonlocal step, stopped
        model, optim = cand.model, cand.optim
        while cand.local < until:
            tokens, lengths, labels = next(cand.batches)
            frac = cand.local / max(opt.steps - 1, 1)
            tau = opt.tau_start * (opt.tau_end / opt.tau_start) ** frac
            model.set_temperature(tau, noise, soft)
            # The step shrinks with τ, so that a step moves the logits
            # (parameters / τ) by about as much at every temperature.
            for group in optim.param_groups:
                group["lr"] = opt.lr * tau / opt.tau_start
            tokens = trim(tokens, lengths).to(device)
            if prefixes:
                logits = model.prefix_logits(tokens, lengths.to(device))
                valid = torch.arange(tokens.shape[1], device=device).unsqueeze(0) < lengths.to(device).unsqueeze(1)
                loss = lossf(logits[valid], labels[:, :tokens.shape[1]].to(device)[valid])
            else:
                loss = lossf(model(tokens, lengths.to(device)), labels.to(device))
            optim.zero_grad(set_to_none=True)
            loss.backward()
            optim.step()
            cand.local += 1
            step += 1
            if progress:
                progress.step(float(loss))
            if cand.local % opt.eval_every == 0 or cand.local == opt.steps:
                acc = hard_accuracy(model, val_ds, device)
                if progress:
                    progress.note(step, "%s: validation accuracy %.1f%% (hard), τ %.3g" % (cand.name, 100 * acc, tau))
                cand.top, cand.stale = (acc, 0) if acc > cand.top else (cand.top, cand.stale + 1)
                # A model right on every validation word, the last of its
                # schedule, or one that has settled (its hard model no
                # longer improves) goes to brasp equiv.
                ended = cand.local == opt.steps or cand.stale >= opt.patience
                if acc >= opt.stop_at or ended:
                    if prove(model, acc)["equivalent"] is True:
                        stopped = "brasp equiv proved restart %d equivalent at step %d" % (restarts, cand.local)
                        return "proven"
                if ended:
                    return "ended"
        return None

    # The hard model settles early in the schedule, so a restart screens
    # --candidates fresh models through its first eighth and continues the
    # one with the best validation accuracy.
    screen = max(opt.steps // 8, 1) if opt.candidates > 1 else opt.steps

    def restart_once(restart):
        """One restart: fresh candidates on the same words, screened, the
        best trained on; returns (proven, the last model trained)."""
        pool = []
        for c in range(opt.candidates):
            cand = fresh(restart, c)
            status = advance(cand, screen)
            if status == "proven":
                return True, cand.model
            if status is None:
                pool.append(cand)
        if not pool:
            return False, cand.model
        cand = max(pool, key=lambda k: k.top)
        return advance(cand, opt.steps) == "proven", cand.model

    def polish(model, restart):
        """The restart's hard model polished by local search on its own
        verdicts (brasp.train.hard_polish), then proved.  A polished model
        right on every prefix it was judged on but not equivalent is wrong
        on brasp equiv's counterexample: that word joins the search's words
        (COUNTEREXAMPLE_WEIGHT copies) and the search goes on within its
        budget.  Returns whether it is proven."""
        nonlocal stopped
        model.eval()
        model.cpu()
        before = hard_accuracy(model, val_ds, "cpu")
        d, spent, added, extra = hard_polish.snapshot(model), 0, [], []
        while True:
            search = hard_polish.Search(model, *labelled_prefixes(lang, polish_set + extra, index))
            d, right, total = search.anneal(d, opt.polish, seed=opt.seed + 7919 * restart + len(added), spent=spent)
            spent += search.evaluations
            hard_polish.install(model, d)
            acc = hard_accuracy(model, val_ds, "cpu")
            v = prove(model, acc)
            model.cpu()
            found = counterexample(v, lang.alphabet)
            # A word already added that the search gets right yet equiv
            # names again would loop: the search and the export disagree.
            if v["equivalent"] is True or right < total or spent >= opt.polish or found is None or found[0] in added:
                break
            added.append(found[0])
            extra += [(found[1], v["language"] == "accepts")] * COUNTEREXAMPLE_WEIGHT
            log("polish of restart %d: every prefix right after %d changes, but brasp equiv: %s; searching on with it"
                % (restart + 1, spent, v["text"]))
        model.to(device)
        log("polish of restart %d: %d changes tried: %d of %d prefixes right (of %s%s); validation accuracy %.1f%% "
            "(%.1f%% before)" % (restart + 1, spent, right, total, polish_about,
                                 " and %d counterexamples" % len(added) if added else "", 100 * acc, 100 * before))
        entry = {"restart": restart + 1, "tried": spent, "right": right, "prefixes": total, "words": polish_about,
                 "counterexamples": added, "validation": acc, "validation_before": before,
                 "proven": v["equivalent"] is True}
        polished.append(entry)
        if entry["proven"]:
            stopped = "brasp equiv proved restart %d's polished model equivalent" % (restart + 1)
        return entry["proven"]

    # Each restart ends early when brasp equiv proves a model equivalent;
    # the best model over all of them is kept.  With --polish, a restart
    # whose trained model is not proven has it polished and proved again.
    proven, polished = False, []
    for restart in range(opt.restarts):
        restarts = restart + 1
        proven, model = restart_once(restart)
        if not proven and opt.polish > 0:
            proven = polish(model, restart)
        if proven:
            break
    model.set_temperature(opt.tau_end, False, soft)
    seconds = time.time() - start
    cpu = time.process_time() - cpu0
    if best_state is not None:
        model.load_state_dict(best_state)
    agreement = soft_agreement(model, val_ds, device, opt.tau_end)
    sharpness = read_sharpness(model, opt.tau_end)
    model.eval()
    trained = {"language": opt.file, "train_lengths": list(train_l), "steps": step, "restarts": restarts, "seed": opt.seed}
    hard_export.write(model.cpu(), path, {"trained": json.dumps(trained)})
    model.to(device)
    with open(os.path.join(out, HARD_CONFIG), "w") as f:
        json.dump({"format": "brasp-train-hard/1", "config": dataclasses.asdict(cfg), "trained": trained,
                   "state": {k: v.tolist() for k, v in model.state_dict().items()}}, f)
        f.write("\n")
    if agreement < HARD_ENOUGH or sharpness < SHARP_ENOUGH:
        log("warning: the attention never became hard: at τ %.3g the soft model that training fitted gives the hard "
            "model's verdict on %.1f%% of the validation words and its heads and lookups put %.1f%% of their weight on "
            "the variables the hard model reads (want ≥ %.0f%% and %.0f%%); the best hard model is saved all the same "
            "(lower --tau-end or train longer)" % (opt.tau_end, 100 * agreement, 100 * sharpness, 100 * HARD_ENOUGH, 100 * SHARP_ENOUGH))

    test_words, test_lacking = lang.sample(test_l, opt.test_count, opt.seed + 2_000_003)
    rows = accuracy_by_length(model, test_words, device)
    ex = exhaustive(model, lang, opt.exhaustive, device) if opt.exhaustive > 0 else None
    v = best_verdict if best_verdict is not None else verdict(lang.binary, opt.file, path, opt.limits)
    doc = {
        "language": opt.file, "attention": "hard", "train_lengths": list(train_l), "test_lengths": list(test_l),
        "steps": step, "restarts": restarts, "stopped": stopped, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2),
        "total_seconds": round(time.time() - t0, 2), "device": str(device),
        "best_validation": {"accuracy": best[1] if best else None}, "polish": polished, "soft_hard_agreement": agreement, "read_sharpness": sharpness,
        "options": dataclasses.asdict(opt), "config": dataclasses.asdict(cfg),
        "lacking": test_lacking, "per_length": rows, "exhaustive": ex, "verdict": v,
    }
    write_json(os.path.join(out, ACCURACY_JSON), doc)
    title = "%s: hard attention, %d layers, %d heads, %s masks, positions %s" % (
        os.path.basename(opt.file), cfg.layers, cfg.heads, cfg.mask, cfg.position)
    doc["plot"] = plot(os.path.join(out, ACCURACY_PNG), rows, train_l, title)
    log(summary_line(opt.file, rows, train_l, test_l, step, seconds, path, ex))
    log(v["text"])
    return doc
