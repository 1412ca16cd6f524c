"""Time per word of brasp models in PyTorch, for comparison with Go's
BenchmarkDyckBatch (go test ./transformer -run '^$' -bench DyckBatch).

    /usr/bin/python3 python/bench.py MODEL.json

MODEL is the compiled Dyck-1 depth-2 model (brasp convert
examples/dyck1_depth2.brasp --to transformer --multihead -o MODEL.json). The
words are those of the Go benchmark: "llrr" repeated, then "lr", in batches of
max(1, 10^6/n) words of length n. Two passes: the package's batched pass with
brasp's algorithm (method "classes", exactness checks on), and the full-width
pass (method "dense": every query against every key, O(n^2) per head), which
is run only while its score tensors stay under about 10^8 entries. The
column "unchecked" is the batched pass with the exactness checks off; the
column "plain" is plain.py, a straight PyTorch script of the same class
algorithm (no checks, hooks or fallbacks), the yardstick of the package's
overhead; "ratio" is classes / plain. With --n N only that length runs
(--n 100,1000 a list; for peak memory: /usr/bin/time -v).
"""

import sys
import time

import torch

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import brasp  # noqa: E402
from plain import plain_forward  # noqa: E402


def dyck_word(n):
    w = "llrr" * (n // 4)
    return w + "lr" * ((n - len(w)) // 2)


def per_word(model, tokens, reps):
    best = None
    for _ in range(reps):
        start = time.process_time()
        with torch.no_grad():
            out = model(tokens) if callable(model) else plain_forward(*model, tokens)
        elapsed = time.process_time() - start
        assert bool((out >= 0).all()), "a Dyck word was rejected"
        best = elapsed if best is None else min(best, elapsed)
    return best / tokens.shape[0]


def main():
    torch.set_num_threads(1)
    model = brasp.load(sys.argv[1])
    print("threads 1, torch %s, float64; process CPU seconds per word (best of 3)" % torch.__version__)
    print("%9s %12s %12s %12s %7s %12s" % ("n", "classes", "unchecked", "plain", "ratio", "dense"))
    lengths = [100, 1000, 10000, 100000, 1000000]
    if "--n" in sys.argv:
        lengths = [int(v) for v in sys.argv[sys.argv.index("--n") + 1].split(",")]
    for n in lengths:
        count = max(1, 1000000 // n)
        tokens, _ = model.encode([dyck_word(n)] * count)
        model.set_method("classes")
        classes = per_word(model, tokens, 3)
        model.set_checks(False)
        unchecked = per_word(model, tokens, 3)
        model.set_checks(True)
        plain = per_word((model,), tokens, 3)
        dense = "-"
        dense_count = max(1, 10**7 // (n * n))
        if dense_count * n * n <= 10**8:
            model.set_method("dense")
            dense = "%.3g" % per_word(model, tokens[:dense_count], 3)
        print("%9d %12.3g %12.3g %12.3g %7.2f %12s" % (n, classes, unchecked, plain, classes / plain, dense), flush=True)


if __name__ == "__main__":
    main()
