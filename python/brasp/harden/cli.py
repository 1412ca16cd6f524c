"""The command ``python3 -m brasp.harden DIR [-o FILE] [options]``."""

import argparse
import json
import os
import subprocess
import sys
import tempfile

from ..train.binary import TrainError, find_brasp
from ..train.data import Language, parse_lengths
from ..train.storage import load_model
from . import export, fidelity, params, passes


def parser():
    p = argparse.ArgumentParser(
        prog="python3 -m brasp.harden",
        description="Replaces every softmax head of a model brasp.train trained by unique-hard attention (argmax, "
                    "ties broken by --tiebreak), prints how often the hardened model agrees with the softmax one and "
                    "each one's accuracy by length, and how concentrated the softmax attention is; with -o, writes "
                    "the hardened model in brasp's model format (JSON, exact rationals) for brasp run, convert, equiv.")
    p.add_argument("model", metavar="DIR", help="a directory written by brasp.train (or its model.safetensors or model.json)")
    p.add_argument("-o", "--out", default="", help="write the hardened model here (.json)")
    p.add_argument("--language", default="", help="the language's file (default: the one the model was trained on)")
    p.add_argument("--tiebreak", default="rightmost", choices=("rightmost", "leftmost"),
                   help="which of the best-scoring positions a head attends to (default rightmost: the latest, the "
                        "paper's tie-break for future masking)")
    p.add_argument("--exhaustive", type=int, default=20000,
                   help="run every word up to the longest length whose words number at most this many (default 20000)")
    p.add_argument("--lengths", default="", help="lengths MIN:MAX of the sampled words (default: past the exhaustive "
                                                  "lengths up to 4x the longest training length)")
    p.add_argument("--count", type=int, default=20, help="sampled words per length, balanced (default 20)")
    p.add_argument("--seed", type=int, default=1, help="seed of the samples (default 1)")
    p.add_argument("--check", type=int, default=200,
                   help="with -o: words (the shortest of the fidelity words, then random longer ones) on which brasp "
                        "run of the written model must give the hard pass's verdicts (default 200; 0: none)")
    p.add_argument("--per-length", action="store_true", help="also print one line per length")
    p.add_argument("--json", default="", help="write the measurements here as JSON")
    p.add_argument("--brasp", default="", help="the brasp program (default $BRASP, $BRASP_BIN, brasp on the PATH, or "
                                               "built from this checkout)")
    return p


class HardenError(Exception):
    """Bad input: the message says what is wrong."""


def _language_path(arg, model):
    if arg:
        if not os.path.exists(arg):
            raise HardenError("--language %s: no such file" % arg)
        return arg
    lang = (model.trained.get("trained") or {}).get("language")
    if not lang:
        raise HardenError("the model's model.json names no language it was trained on: pass --language FILE")
    if os.path.exists(lang):
        return lang
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    alt = os.path.join(here, lang)
    if os.path.exists(alt):
        return alt
    raise HardenError("the model was trained on %s, which is not found here nor in %s: pass --language FILE" % (lang, here))


def brasp_verdicts(binary, path, words, alphabet):
    """brasp run's verdicts of a model file on words (lists of symbols)."""
    sep = " " if any(len(a) > 1 for a in alphabet) else ""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for w in words:
            f.write(sep.join(w) + "\n")
        name = f.name
    try:
        p = subprocess.run([binary, "run", path, "--input-file", name], capture_output=True, text=True)
    finally:
        os.unlink(name)
    if p.returncode != 0:
        raise HardenError("brasp run %s: %s" % (path, p.stderr.strip() or "exit status %d" % p.returncode))
    out = p.stdout.split()
    if len(out) != len(words) or set(out) - {"accept", "reject"}:
        raise HardenError("brasp run %s: %d verdicts for %d words" % (path, len(out), len(words)))
    return [v == "accept" for v in out]


def run(args, log):
    try:
        model = load_model(args.model)
    except TrainError as e:
        raise HardenError(str(e))
    P = params.read(model)
    cfg = model.config
    if args.out:
        if not args.out.endswith(".json"):
            raise HardenError("-o %s: the hardened model is written as JSON (.json): its score and value matrices hold "
                              "rationals such as 1/γ that are not float32 or float64 values, so safetensors cannot "
                              "hold them exactly" % args.out)
        export.check(cfg)
    binary = find_brasp(args.brasp or None)
    lang = Language(_language_path(args.language, model), binary)
    if lang.alphabet != list(cfg.alphabet):
        raise HardenError("the model's alphabet %s is not the language's %s" % (" ".join(cfg.alphabet), " ".join(lang.alphabet)))
    train_max = ((model.trained.get("trained") or {}).get("train_lengths") or [0, 0])[1]
    L = fidelity.exhaustive_length(len(lang.alphabet), args.exhaustive)
    words = lang.all_words((1, L)) if L else []
    if args.lengths:
        lo, hi = parse_lengths(args.lengths, "--lengths")
    else:
        lo, hi = L + 1, max(L + 1, 4 * train_max if train_max else 4 * L)
    if args.count > 0:
        more, _ = lang.sample((lo, hi), args.count, args.seed)
        words += [(w, y) for w, y in more if len(w) > L]
    stats = passes.HardStats()
    log("%s: %s masks, positions %s, %s-norm, %d layers × %d heads, width %d; hard attention ties → %s"
        % (args.model, cfg.mask, cfg.position, cfg.norm, cfg.layers, cfg.heads, cfg.width, args.tiebreak))
    rows, heads = fidelity.measure(model, P, words, L, args.tiebreak, stats)
    sums = []
    for a, b, what in fidelity.ranges(L, train_max, max((r["length"] for r in rows), default=0)):
        s = fidelity.summarize(rows, a, b)
        if s:
            s["what"] = what
            sums.append(s)
    log("lengths   words   hard=soft  soft acc  hard acc  attention max weight (mean; ≥0.9; ≥0.99)")
    for s in sums:
        log("%4d–%-4d %6d    %6.2f%%   %6.2f%%   %6.2f%%   %.3f; %.1f%%; %.1f%%  (%s)" % (
            s["lengths"][0], s["lengths"][1], s["words"], 100 * s["agree"], 100 * s["soft_correct"],
            100 * s["hard_correct"], s["attention_max_weight"], 100 * s["attention_at_least_0.9"],
            100 * s["attention_at_least_0.99"], s["what"]))
    if args.per_length:
        for r in rows:
            log("%4d      %6d    %6.2f%%   %6.2f%%   %6.2f%%   %.3f%s" % (
                r["length"], r["words"], 100 * r["agree"] / r["words"], 100 * r["soft_correct"] / r["words"],
                100 * r["hard_correct"] / r["words"], r["attention_max_weight"], "" if r["exhaustive"] else "  (samples)"))
    first = next((r["length"] for r in rows if r["agree"] < r["words"]), None)
    log("first length where hard and soft disagree: %s" % (first if first is not None else "none"))
    log("mean max attention weight per layer and head: %s" % "; ".join(
        "layer %d: %s" % (i + 1, ", ".join("%.3f" % x for x in hs)) for i, hs in enumerate(heads)))
    st = stats.as_dict()
    log("hard pass: %d decisions, %d near ties (relative gap ≤ 1e-9; smallest gap %s), smallest |logit| %s, "
        "distinct vectors per layer %s" % (st["decisions"], st["near_ties"],
                                            "%.3g" % st["min_relative_gap"] if st["min_relative_gap"] is not None else "none",
                                            "%.3g" % st["min_abs_logit"] if st["min_abs_logit"] is not None else "none",
                                            st["classes_per_layer"]))
    doc = {"model": args.model, "language": lang.path, "config": {k: getattr(cfg, k) for k in (
        "mask", "position", "norm", "layers", "heads", "width", "ff", "readout")}, "tiebreak": args.tiebreak,
        "exhaustive_up_to": L, "sampled_lengths": [lo, hi] if args.count > 0 else None, "count": args.count,
        "seed": args.seed, "summary": sums, "per_length": rows, "attention_per_head": heads, "hard_pass": st,
        "export": {"refused": export.refusals(cfg)}}
    if args.out:
        export.write(P, args.out, args.tiebreak)
        log("wrote %s" % args.out)
        doc["export"]["file"] = args.out
        if args.check > 0:
            # The shortest half, then longer words spread over the lengths.
            order = sorted(range(len(words)), key=lambda k: len(words[k][0]))
            pick = order[:args.check // 2]
            rest = [k for k in order[args.check // 2:] if len(words[k][0]) > L]
            step = max(1, len(rest) // max(1, args.check - len(pick)))
            pick += rest[::step][:args.check - len(pick)]
            check = [words[k] for k in pick]
            got = brasp_verdicts(binary, args.out, [w for w, _ in check], cfg.alphabet)
            tokens_words = [w for w, _ in check]
            want = []
            for s in range(0, len(tokens_words), 256):
                t, n = model.encode(tokens_words[s:s + 256])
                want += (passes.hard(P, t.cpu(), n.cpu(), args.tiebreak) > 0).tolist()
            bad = [w for w, g, h in zip(tokens_words, got, want) if g != h]
            doc["export"]["checked_words"] = len(check)
            doc["export"]["brasp_run_disagreements"] = len(bad)
            if bad:
                raise HardenError("brasp run of %s disagrees with the hard pass on %d of %d words, the first %r: a bug "
                                  "in the export" % (args.out, len(bad), len(check), "".join(bad[0])))
            log("brasp run of %s agrees with the hard pass on all %d words checked (lengths %d–%d)"
                % (args.out, len(check), min(len(w) for w in tokens_words), max(len(w) for w in tokens_words)))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(doc, f, indent=1, ensure_ascii=False)
            f.write("\n")
    return doc


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        run(args, lambda s: print("brasp.harden: " + s, flush=True))
    except (HardenError, TrainError, export.ExportError) as e:
        print("brasp.harden: %s" % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("brasp.harden: interrupted", file=sys.stderr)
        return 130
    return 0
