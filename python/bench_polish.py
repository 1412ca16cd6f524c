"""Time per change tried of the polish (brasp.train.hard_polish.Search.anneal)
on the page's Dyck-1 of depth 2 shape.

    /usr/bin/python3 python/bench_polish.py [--changes N] [--seed S]

The model is a fresh HardEncoder of docs/programs.md's Dyck shape (3
layers, 2 heads and 1 lookup a layer, 3 classes; seeded), the words are
those brasp.train's polish judges on for that seed (100 of the training
words of lengths 1–40 and every word of length 9), and the figure is the
CPU time of N changes tried divided by N, one thread.  The search's cost
per change hardly depends on the weights, so a fresh model measures what a
trained one would.  Needs brasp (BRASP, or built from this checkout)."""

import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from brasp.train import find_brasp, hard_polish  # noqa: E402
from brasp.train.data import Language  # noqa: E402
from brasp.train.hard import HardConfig, HardEncoder  # noqa: E402
from brasp.train.hard_loop import labelled_prefixes, polish_words  # noqa: E402

DYCK = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "examples", "dyck1_depth2.brasp")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--changes", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=2)
    a = ap.parse_args()
    torch.set_num_threads(1)
    lang = Language(DYCK, find_brasp())
    index = {x: k for k, x in enumerate(lang.alphabet)}
    words, _ = lang.sample((1, 40), 200, a.seed)
    chosen, about = polish_words(lang, words, (1, 40), a.seed, 100, 512)
    tokens, lengths, labels = labelled_prefixes(lang, chosen, index)
    torch.manual_seed(a.seed)
    model = HardEncoder(HardConfig(alphabet=lang.alphabet, layers=3, heads=2, lookups=1, classes=3)).eval()
    search = hard_polish.Search(model, tokens, lengths, labels)
    start = time.process_time()
    _, right, total = search.anneal(hard_polish.snapshot(model), a.changes, seed=a.seed)
    cpu = time.process_time() - start
    print("polish on %d prefixes (%s): %d changes tried in %.2f s CPU: %.2f ms per change; %d of %d right"
          % (total, about, search.evaluations, cpu, 1000 * cpu / max(search.evaluations, 1), right, total))


if __name__ == "__main__":
    main()
