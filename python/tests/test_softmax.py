"""Softmax exports: agreement with the hard model (and brasp run) up to the
certified length in float64 and float32, and failure past a deliberately
small N."""

import os
import random
import unittest

import torch

import common
import brasp


def dyckish(rng, n):
    """A word of l/r close to balanced (random ones are almost all rejected)."""
    w, depth = [], 0
    for _ in range(n):
        if depth > 0 and rng.random() < 0.5:
            w.append("r")
            depth -= 1
        else:
            w.append("l")
            depth += 1
    if rng.random() < 0.5 and w:
        k = rng.randrange(len(w))
        w[k] = "l" if w[k] == "r" else "r"
    return "".join(w)


class TestSoftmax(unittest.TestCase):
    def export(self, src, n, *flags):
        out = os.path.join(common.tmpdir(), "softmax_%s_%d_%s.json" % (os.path.basename(src), n, common.name(flags)))
        common.brasp("convert", os.path.join(common.EXAMPLES, src), "--to", "transformer", *flags,
                     "--softmax", "--max-length", n, "-o", out)
        hard = common.convert(os.path.join(common.EXAMPLES, src),
                              os.path.join(common.tmpdir(), "hard_%s_%s.json" % (os.path.basename(src), common.name(flags))), *flags)
        return out, hard

    def test_agrees_up_to_n(self):
        N = 24
        for src, flags in [("dyck1_depth2.brasp", ("--multihead",)), ("dyck1_depth2.brasp", ()),
                           ("stair3.brasp", ("--multihead",))]:
            out, hard = self.export(src, N, *flags)
            m64 = brasp.load(out)
            m32 = brasp.load(out, dtype=torch.float32)
            self.assertIsInstance(m64, brasp.softmax.SoftmaxModel)
            self.assertEqual(m64.max_length, N)
            c = m64.certificate
            self.assertLess(c["output_error"], c["output_margin"])
            n32 = m64.float32_safe_length()
            self.assertGreater(n32, 0)
            rng = random.Random(4)
            words = common.test_words(m64.alphabet, budget=300, long=0)
            words += [dyckish(rng, rng.randint(1, N)) if "dyck" in src else
                      common.fmt([rng.choice(m64.alphabet) for _ in range(rng.randint(1, N))]) for _ in range(150)]
            want = common.go_run(hard, words)
            for m, what in ((m64, "float64"), (m32, "float32")):
                got = ["accept" if v else "reject" for v in m.accepts(words)]
                bad = [w for w, g, x in zip(words, got, want) if g != x]
                if what == "float32":
                    # float32 is only claimed safe up to its estimate.
                    bad = [w for w in bad if len(m.word(w)) <= n32]
                self.assertEqual(bad, [], "%s %s softmax (%s) disagrees with brasp run" % (src, common.name(flags), what))

    def test_fails_past_small_n(self):
        out, hard = self.export("dyck1_depth2.brasp", 2, "--multihead")
        m = brasp.load(out)
        h = m.hard()
        short = common.test_words(m.alphabet, budget=6, long=0)   # lengths 1 and 2
        self.assertEqual(m.accepts(short), h.accepts(short))
        rng = random.Random(9)
        words = [dyckish(rng, rng.randint(3, 60)) for _ in range(400)]
        bad = [w for w, a, b in zip(words, m.accepts(words), h.accepts(words)) if a != b]
        self.assertTrue(bad, "certified for N = 2, the softmax model should err on some longer word")
        self.assertTrue(all(len(w) > 2 for w in bad))

    def test_layernorm_refused(self):
        with self.assertRaisesRegex(RuntimeError, "layer norm"):
            self.export("dyck1_depth2.brasp", 8, "--layernorm")


if __name__ == "__main__":
    unittest.main()
