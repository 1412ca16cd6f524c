"""The experiment of docs/training.md: one small softmax transformer
configuration trained on star-free languages of the paper and on languages
that are not star-free, with exact data from brasp, accuracy by length, the
exhaustive accuracy on every word up to a length, and (with --learn) the
language each trained model actually recognizes, learned back with
``brasp learn`` and compared exactly with the target.

    /usr/bin/python3 docs/experiments/train_languages.py            # train and evaluate (minutes on CPU)
    /usr/bin/python3 docs/experiments/train_languages.py --learn    # then learn every model back

Writes docs/training/: results.json, one PNG per language and
configuration, all.png (every curve), models/NAME-CONFIG/ (model.json +
model.safetensors), and table.md (the tables of docs/training.md)."""

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(REPO, "python"))

import torch  # noqa: E402

from brasp.train import Options, find_brasp, load_model, train  # noqa: E402

# name, file, what the paper says of it.
LANGUAGES = [
    ("ab_plus", "examples/ab_plus.re", "(ab)+: star-free"),
    ("dyck1_depth2", "examples/dyck1_depth2.brasp", "Dyck-1 of depth 2: star-free"),
    ("stair2", "examples/stair2.brasp", "STAIR_2: star-free, needs depth 2"),
    ("stair3", "examples/stair3.ltl", "STAIR_3: star-free, needs depth 3"),
    ("aa_plus", "examples/aa_star.re", "(aa)+: not star-free, in AC0"),
    ("parity", "examples/parity.dfa", "PARITY: not star-free, not in AC0"),
]

# The same small model for every language; two maskings.
CONFIGS = {
    "causal": dict(mask="causal", position="sinusoidal"),
    "strict": dict(mask="strict", position="none"),
}
COMMON = dict(exhaustive=20000, layers=2, heads=2, width=32, ff=64, train_lengths="1:40", test_lengths="1:160", train_count=200,
              val_count=50, test_count=50, steps=2000, batch_size=32, lr=1e-3, eval_every=100, patience=10, seed=1,
              device="cpu", threads=1, progress="none")

def run_training(out_dir, only, steps):
    results = []
    os.makedirs(os.path.join(out_dir, "models"), exist_ok=True)
    for name, file, what in LANGUAGES:
        for cname, cfg in CONFIGS.items():
            if only and name not in only:
                continue
            model_dir = os.path.join(out_dir, "models", "%s-%s" % (name, cname))
            opts = dict(COMMON, **cfg)
            if steps:
                opts["steps"] = steps
            opt = Options(file=file, out=os.path.relpath(model_dir, REPO), **opts)
            t0 = time.time()
            doc = train(opt, log=lambda s: print("  " + s, flush=True))
            wall = time.time() - t0
            ex = doc["exhaustive"]
            os.remove(os.path.join(model_dir, "checkpoint.pt"))
            shutil.move(os.path.join(model_dir, "accuracy.png"), os.path.join(out_dir, "%s-%s.png" % (name, cname)))
            shutil.move(os.path.join(model_dir, "accuracy.json"), os.path.join(out_dir, "models", "%s-%s.accuracy.json" % (name, cname)))
            rows = doc["per_length"]
            r = {"name": name, "file": file, "what": what, "config": cname, "steps": doc["steps"], "stopped": doc["stopped"],
                 "train_seconds": doc["seconds"], "wall_seconds": round(wall, 1),
                 "accuracy_train": acc(rows, 1, 40), "accuracy_41_80": acc(rows, 41, 80), "accuracy_81_160": acc(rows, 81, 160),
                 "first_error_length": next((x["length"] for x in rows if x["accuracy"] < 1), None),
                 "exhaustive": ex, "per_length": [[x["length"], x["accuracy"]] for x in rows],
                 "command": command_of(opt)}
            print("%s/%s: %s" % (name, cname, json.dumps({k: r[k] for k in ("steps", "train_seconds", "accuracy_train",
                                                                          "accuracy_41_80", "accuracy_81_160")})), flush=True)
            results.append(r)
    return results


def acc(rows, lo, hi):
    sel = [x for x in rows if lo <= x["length"] <= hi]
    return round(sum(x["correct"] for x in sel) / sum(x["words"] for x in sel), 4)


def command_of(opt):
    """The python3 -m brasp.train command that makes the same run."""
    args = ["python3", "-m", "brasp.train", opt.file]
    defaults = Options(file="")
    for k, v in vars(opt).items():
        if k not in ("file", "out", "progress") and v != getattr(defaults, k):
            args += ["--" + k.replace("_", "-"), str(v)]
    return " ".join(shlex.quote(a) for a in args)


def learn_back(out_dir, results, max_length):
    """brasp learn on every trained model (through brasp.teacher), then
    brasp equiv against the target and brasp classify of what was learned."""
    brasp = find_brasp()
    for r in results:
        model_dir = os.path.join(out_dir, "models", "%s-%s" % (r["name"], r["config"]))
        learned = os.path.join(out_dir, "models", "%s-%s.learned.dfa" % (r["name"], r["config"]))
        model = load_model(model_dir)
        # A masked model answers every prefix of a word in one pass.
        prefixes = model.config.mask != "bidirectional"
        teacher = "%s -m brasp.teacher --model %s%s" % (sys.executable, os.path.relpath(model_dir, REPO),
                                                       " --prefixes" if prefixes else "")
        cmd = [brasp, "learn", "--command", teacher, "--alphabet", " ".join(model.alphabet), "-o", learned]
        if prefixes:
            cmd.append("--prefixes")
        if max_length:
            cmd += ["--max-length", str(max_length)]
        t0 = time.time()
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO,
                           env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python")))
        entry = {"command": " ".join(shlex.quote(c) for c in cmd[1:]), "seconds": round(time.time() - t0, 1),
                 "exit": p.returncode, "stderr": p.stderr.strip()[-2000:], "stdout": p.stdout.strip()[-2000:]}
        if p.returncode == 0 and os.path.exists(learned):
            # Files named relative to the checkout, as the page shows them.
            rel = os.path.relpath(learned, REPO)
            e = subprocess.run([brasp, "equiv", r["file"], rel], capture_output=True, text=True, cwd=REPO)
            c = subprocess.run([brasp, "classify", rel], capture_output=True, text=True, cwd=REPO)
            entry.update(equiv=(e.stdout + e.stderr).strip(), equal=e.returncode == 0, classify=c.stdout.strip(),
                         classify_error=c.stderr.strip())
        r["learned"] = entry
        print("%s/%s learned: %s" % (r["name"], r["config"], json.dumps({k: entry.get(k) for k in ("exit", "equiv", "seconds")})), flush=True)


def fmt_acc(x):
    return "%.1f" % (100 * x)


def table(results):
    lines = ["| language | masks, positions | steps | train s | 1–40 | 41–80 | 81–160 | first length < 100% | all words ≤ L: accuracy | shortest wrong word |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        ex = r["exhaustive"]
        fe = ex["first_error"]
        cfg = CONFIGS[r["config"]]
        lines.append("| %s | %s, %s | %d | %.0f | %s | %s | %s | %s | L=%d: %s (%d wrong of %d) | %s |" % (
            r["what"], cfg["mask"], cfg["position"], r["steps"], r["train_seconds"], fmt_acc(r["accuracy_train"]),
            fmt_acc(r["accuracy_41_80"]), fmt_acc(r["accuracy_81_160"]), r["first_error_length"] or "none",
            ex["up_to"], "%.2f" % (100 * ex["accuracy"]), ex["wrong"], ex["words"],
            "`%s` (%s by the language)" % (fe["word"], "accepted" if fe["accepted"] else "rejected") if fe else "none"))
    if any("learned" in r for r in results):
        lines += ["", "| language | masks | learned back: equal to the target? | shortest counterexample | learned language | learn time |",
                  "|---|---|---|---|---|---|"]
        for r in results:
            e = r.get("learned")
            if e is None:
                continue
            if e["exit"] != 0:
                lines.append("| %s | %s | learn failed (exit %d): %s | | | %.0f s |" % (r["what"], r["config"], e["exit"],
                                                                                  e["stderr"].splitlines()[-1] if e["stderr"] else "", e["seconds"]))
                continue
            cls = dict(line.split(": ", 1) for line in e.get("classify", "").splitlines() if ": " in line and not line.startswith(" "))
            learned = "star-free: %s, %s states" % (cls.get("star-free"), cls.get("dfa-states"))
            if "dfa-states" not in cls:
                learned = "not classified: %s" % e.get("classify_error", "").split(": ", 2)[-1]
            lines.append("| %s | %s | %s | %s | %s | %.0f s |" % (
                r["what"], r["config"], "yes" if e["equal"] else "no", "" if e["equal"] else e["equiv"].replace("|", "\\|"),
                learned, e["seconds"]))
    return "\n".join(lines) + "\n"


def plot_all(out_dir, results):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    names = [n for n, _, _ in LANGUAGES if any(r["name"] == n for r in results)]
    fig, axes = plt.subplots(len(names), 1, figsize=(7, 1.7 * len(names)), dpi=100, sharex=True, squeeze=False)
    for ax, name in zip(axes[:, 0], names):
        ax.axvspan(0.5, 40.5, color="tab:green", alpha=0.15)
        ax.axhline(0.5, color="gray", linestyle="--", linewidth=0.8)
        for r in results:
            if r["name"] == name:
                xs, ys = zip(*r["per_length"])
                ax.plot(xs, ys, marker="o", markersize=2, linestyle="none", label=r["config"])
                ax.set_title(r["what"], fontsize=9)
        ax.set_ylim(-0.02, 1.05)
        ax.set_ylabel("accuracy", fontsize=8)
        ax.legend(loc="lower left", fontsize=7)
    axes[-1, 0].set_xlabel("word length (training lengths shaded)")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "all.png"))
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=os.path.join(REPO, "docs", "training"))
    p.add_argument("--only", nargs="*", help="language names to run")
    p.add_argument("--steps", type=int, default=0, help="override the step budget")
    p.add_argument("--learn", action="store_true", help="learn the saved models back (no training)")
    p.add_argument("--max-length", type=int, default=0, help="brasp learn --max-length")
    p.add_argument("--table", action="store_true", help="only write table.md again from results.json")
    a = p.parse_args()
    torch.set_num_threads(1)
    os.chdir(REPO)  # files and outputs are named relative to the checkout
    a.out = os.path.abspath(a.out)
    path = os.path.join(a.out, "results.json")
    if a.table:
        with open(path) as f:
            results = json.load(f)
    elif a.learn:
        with open(path) as f:
            results = json.load(f)
        learn_back(a.out, [r for r in results if not a.only or r["name"] in a.only], a.max_length)
    else:
        results = run_training(a.out, a.only, a.steps)
        if a.only and os.path.exists(path):
            with open(path) as f:
                old = [r for r in json.load(f) if r["name"] not in a.only]
            results = old + results
            order = [n for n, _, _ in LANGUAGES]
            results.sort(key=lambda r: (order.index(r["name"]), list(CONFIGS).index(r["config"])))
        plot_all(a.out, results)
    with open(path, "w") as f:
        json.dump(results, f, indent=1, ensure_ascii=False)
        f.write("\n")
    t = table(results)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write(t)
    print(t)


if __name__ == "__main__":
    main()
