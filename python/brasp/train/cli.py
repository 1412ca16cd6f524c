"""The command ``python3 -m brasp.train FILE [options]``."""

import argparse
import dataclasses
import sys

from .binary import TrainError
from .loop import Options, train

_HELP = {
    "out": "directory for model.safetensors, model.json, checkpoint.pt, accuracy.json, accuracy.png (default train-STEM)",
    "train_lengths": "training word lengths MIN:MAX",
    "test_lengths": "evaluation word lengths MIN:MAX (default 1 to 4× the longest training length)",
    "train_count": "training words per length (balanced: half accepted, half rejected where the language allows)",
    "val_count": "validation words per length (for early stopping)",
    "test_count": "evaluation words per length",
    "exhaustive": "also run every word up to the longest length whose words number at most this many in all (0: none)",
    "steps": "optimizer steps at most",
    "batch_size": "words per batch",
    "lr": "AdamW learning rate",
    "weight_decay": "AdamW weight decay",
    "warmup": "steps of linear learning-rate warm-up",
    "clip": "gradient norm clip (0: none)",
    "eval_every": "steps between validations (and checkpoints)",
    "patience": "stop after this many validations without a better score (hard: a restart's model whose validation "
                "accuracy has not bettered in this many validations has settled: it goes to brasp equiv and the "
                "restart ends)",
    "stop_at": "stop once validation accuracy reaches this (1.0: 100%%) --stop-streak times in a row (hard: a model "
               "reaching it goes to brasp equiv, and training stops when it is proven equivalent)",
    "stop_streak": "validations in a row at --stop-at accuracy that stop training",
    "seed": "random seed of the data and the model",
    "device": "auto (CUDA when present), cpu, cuda or cuda:N",
    "threads": "PyTorch CPU threads (0: PyTorch's default)",
    "resume": "continue from OUT/checkpoint.pt",
    "progress": "auto (tqdm on a terminal), tqdm, plain or none",
    "brasp": "the brasp program (default $BRASP, $BRASP_BIN, brasp on the PATH, or built from this checkout)",
    "layers": "encoder layers",
    "heads": "attention heads per layer",
    "width": "model width d",
    "ff": "feed-forward hidden width",
    "dropout": "dropout probability",
    "mask": "causal (j ≤ i), strict (j < i, the paper's; a BOS slot at position 0 for softmax) or bidirectional; "
            "with --attention hard: strict, non-strict (j ≤ i; j ≥ i looking ahead) or causal",
    "position": "none, sinusoidal, learned, mod:M, first, or several joined by + (e.g. first+mod:2)",
    "n_positions": "learned positions (default: the longest test length)",
    "readout": "last (the paper's: the last letter's vector) or mean (mean over letters)",
    "norm": "pre or post layer norm",
    "attention": "softmax (a PyTorch encoder) or hard (the paper's unique-hard attention over categorical variables, "
                 "exported as OUT/hard.safetensors and checked by brasp equiv)",
    "lookups": "hard: lookup tables (categorical FFNs) per layer",
    "classes": "hard: values of each head's and lookup's variable",
    "directions": "hard: future (every head looks back) or both (odd heads look ahead)",
    "tiebreak": "hard: nearest (rightmost looking back, leftmost ahead), leftmost or rightmost",
    "relax": "hard: how the discrete choices get gradients: anneal (train the relaxation itself, annealing τ), gumbel "
             "(with Gumbel noise) or straight-through (the hard pass forward, the relaxation's gradients)",
    "head_relax": "hard: a head's relaxation: positions (every position's key gets a gradient), values (over the key "
                  "values present) or alternate (positions on odd restarts, values on even ones)",
    "tau_start": "hard: the surrogate's temperature at the first step",
    "tau_end": "hard: the surrogate's temperature at the last step",
    "restarts": "hard: fresh models trained in turn (each through its --steps schedule, or until it settles: see "
                "--patience) until brasp equiv proves one equivalent to FILE; the best is kept",
    "candidates": "hard: fresh models each restart screens: each trains through the first eighth of the --steps "
                  "schedule and the one with the best validation accuracy continues (1: one model a restart)",
    "polish": "hard: changes tried by a local search on each restart's hard model that is not proven: simulated "
              "annealing over its choices (a read, a predicate entry, a lookup entry changed at a time, the verdict's "
              "tables refitted exactly), judged on every prefix of the polish's words; the result goes to brasp "
              "equiv, and a counterexample to a model right on all of them joins its words (0: none)",
    "polish_words": "hard: training words the polish judges a change on (every prefix of each)",
    "polish_all": "hard: the polish also judges on every word of the longest training length with at most this many "
                  "words (every prefix of each: so on every shorter word too; 0: none)",
    "limits": "hard: brasp's limits for the verdict, NAME=N joined by commas (each passed to brasp equiv as --limit "
              "NAME=N; a deep model over several letters may need more than decompile-classes, decompile-combos or "
              "decompile-work allow)",
}

# Flags whose default depends on --attention: softmax's default, then hard's.
_PER_ATTENTION = {"mask": ("causal", "strict"), "position": ("sinusoidal", "none"), "lr": (1e-3, 0.1),
                  "eval_every": (100, 25), "steps": (3000, 600),
                  "patience": (10, 6)}


def parser():
    p = argparse.ArgumentParser(
        prog="python3 -m brasp.train",
        description="Trains a softmax transformer encoder on the language of FILE (any file brasp reads), with exact "
                    "labelled words from `brasp sample`, and reports its accuracy by length.")
    p.add_argument("file", metavar="FILE")
    for f in dataclasses.fields(Options):
        if f.name == "file":
            continue
        flag = "--" + f.name.replace("_", "-")
        if f.type in (bool, "bool"):
            p.add_argument(flag, action="store_true", help=_HELP[f.name])
        else:
            typ = {"int": int, "float": float, "str": str}.get(f.type if isinstance(f.type, str) else f.type.__name__, str)
            if f.name in _PER_ATTENTION:
                soft, hard = _PER_ATTENTION[f.name]
                p.add_argument(flag, type=typ, default=None,
                               help=_HELP[f.name] + " (default %s; with --attention hard %s)" % (soft, hard))
            else:
                p.add_argument(flag, type=typ, default=f.default, help=_HELP[f.name] + " (default %(default)s)")
    return p


def main(argv=None):
    args = vars(parser().parse_args(argv))
    for name, (soft, hard) in _PER_ATTENTION.items():
        if args[name] is None:
            args[name] = hard if args["attention"] == "hard" else soft
    opt = Options(**args)
    try:
        train(opt, log=lambda s: print("brasp.train: " + s, file=sys.stderr if s.startswith("warning") else sys.stdout, flush=True))
    except TrainError as e:
        print("brasp.train: %s" % e, file=sys.stderr)
        return 1
    except OSError as e:  # a write that failed mid-run (a full disk, a removed directory)
        print("brasp.train: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("brasp.train: interrupted (resume with --resume)", file=sys.stderr)
        return 130
    return 0
