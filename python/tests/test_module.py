"""Activations, hooks, padded batches, devices and the exact fallback."""

import os
import unittest
from fractions import Fraction

import torch

import common
import brasp
from brasp import exact


def _num(v):
    return Fraction(v) if isinstance(v, str) else Fraction(v).limit_denominator(1 << 62) if isinstance(v, float) else Fraction(v)


class TestActivations(unittest.TestCase):
    """run_with_cache's activations equal brasp run --trace's exact ones
    coordinate by coordinate, and attended positions equal position by
    position."""

    def test_cache_matches_go_trace(self):
        cases = [("dyck1_depth2.brasp", ("--multihead",)), ("dyck1_depth2.brasp", ("--layernorm",)),
                 ("stair3.brasp", ()), ("associative_recall.brasp", ("--multihead",)),
                 ("induction_heads.brasp", ("--multihead", "--layernorm")), ("mid.ltl", ("--multihead",))]
        for src, flags in cases:
            out = common.convert(os.path.join(common.EXAMPLES, src),
                                 os.path.join(common.tmpdir(), "trace_%s_%s.json" % (src, common.name(flags))), *flags)
            m = brasp.load(out)
            words = common.test_words(m.alphabet, budget=20, long=2, seed=3)
            traces = common.go_trace(out, words)
            for k, (w, tr) in enumerate(zip(words, traces)):
                _, cache = m.run_with_cache([w])
                self.assertEqual(len(tr["trace"]["layers"]), len(m.blocks))
                common.assert_exact(self, cache["hook_embed"][0], tr["trace"]["embed"], "%s embed on %r" % (src, w))
                for l, lt in enumerate(tr["trace"]["layers"]):
                    for h, att in enumerate(lt["attended"]):
                        got = cache["blocks.%d.heads.%d.hook_attended" % (l, h)][0].tolist()
                        self.assertEqual(got, att, "%s layer %d head %d on %r" % (src, l, h, w))
                    common.assert_exact(self, cache["blocks.%d.hook_resid_mid" % l][0], lt["mid"], "%s layer %d mid on %r" % (src, l, w))
                    common.assert_exact(self, cache["blocks.%d.hook_resid_post" % l][0], lt["post"], "%s layer %d post on %r" % (src, l, w))
                # The exact reference agrees too (slow: on a few words).
                if k < 3:
                    xs, pattern = exact.trace(m.spec, m.word(w))
                    self.assertEqual(pattern, [lt["attended"] for lt in tr["trace"]["layers"]])

    def test_labels(self):
        out = common.convert(os.path.join(common.EXAMPLES, "dyck1_depth2.brasp"),
                             os.path.join(common.tmpdir(), "labels.safetensors"), "--multihead")
        m = brasp.load(out)
        self.assertEqual(m.labels[:3], ["one", "Q_l", "Q_r"])
        _, cache = m.run_with_cache(["llrr", "lrrl"])
        y = cache.labelled("blocks.%d.hook_resid_post" % (len(m.blocks) - 1))
        self.assertEqual(y["Q_l"].tolist(), [[1, 1, 0, 0], [1, 0, 0, 1]])
        self.assertIn("Y", y)


class TestHooksAndBatches(unittest.TestCase):
    def setUp(self):
        self.path = common.convert(os.path.join(common.EXAMPLES, "dyck1_depth2.brasp"),
                                   os.path.join(common.tmpdir(), "hooks.json"), "--multihead")
        self.m = brasp.load(self.path)

    def test_forward_hooks(self):
        m = self.m
        seen = []
        h = m.blocks[0].heads[0].register_forward_hook(lambda mod, i, o: seen.append(o[1].clone()))
        m.accepts(["llrr"])
        h.remove()
        self.assertEqual(seen[0].tolist(), [[-1, 0, 1, 2]])
        # A hook that replaces a value changes the result: zero the last
        # layer's residual, and the output score becomes the output bias.
        last = m.blocks[-1].hook_resid_post
        h = last.register_forward_hook(lambda mod, i, o: torch.zeros_like(o))
        scores = m(*m.encode(["llrr"]))
        h.remove()
        self.assertEqual(scores.tolist(), m.out_bias.tolist())
        self.assertEqual(m.accepts(["llrr"]), [True])

    def test_padded_batch(self):
        m = self.m
        words = common.test_words(m.alphabet, budget=200, long=5, seed=7)
        want = common.go_run(self.path, words)
        for method in ("classes", "dense"):
            m.set_method(method)
            tokens, lengths = m.encode(words)
            got = (m(tokens, lengths) >= 0).tolist()
            self.assertEqual(["accept" if g else "reject" for g in got], want, method)

    def test_words_forms(self):
        m = self.m
        self.assertEqual(m.accepts(["llrr", ["l", "l", "r", "r"], "l r"]), [True, True, True])
        with self.assertRaises(ValueError):
            m.accepts(["lx"])
        with self.assertRaises(ValueError):
            m.accepts([""])

    @unittest.skipUnless(torch.cuda.is_available(), "no CUDA device")
    def test_cuda(self):
        m = brasp.load(self.path, device="cuda")
        words = common.test_words(m.alphabet, budget=200, long=5, seed=8)
        want = common.go_run(self.path, words)
        self.assertEqual(["accept" if v else "reject" for v in m.accepts(words)], want)


class TestExactness(unittest.TestCase):
    def test_inexact_parameters_fall_back(self):
        # Scale the output by 1/3 (not a float64): the float64 pass cannot be
        # certified, accepts falls back to the exact pass, and agrees with Go.
        import json
        src = common.convert(os.path.join(common.EXAMPLES, "dyck1_depth2.brasp"),
                             os.path.join(common.tmpdir(), "third.json"), "--multihead")
        with open(src) as f:
            jm = json.load(f)
        jm["output"]["weight"] = ["1/3" if v else 0 for v in jm["output"]["weight"]]
        jm["output"]["bias"] = "-1/6"
        path = os.path.join(common.tmpdir(), "third2.json")
        with open(path, "w") as f:
            json.dump(jm, f)
        m = brasp.load(path)
        with self.assertRaises(brasp.InexactError):
            m(*m.encode(["lr"]))
        words = common.test_words(m.alphabet, budget=60, long=0)
        self.assertEqual(["accept" if v else "reject" for v in m.accepts(words)], common.go_run(path, words))

    def test_sparse_heads(self):
        # Head matrices in the sparse form {"sparse": [[row, col, value]]}
        # load, and agree with brasp run on the same file.
        import json
        src = common.convert(os.path.join(common.EXAMPLES, "stair3.brasp"),
                             os.path.join(common.tmpdir(), "dense.json"), "--multihead")
        with open(src) as f:
            jm = json.load(f)
        for layer in jm["layers"]:
            for h in layer["attention"]:
                for k in ("score", "value"):
                    h[k] = {"sparse": [[r, c, v] for r, row in enumerate(h[k]) for c, v in enumerate(row) if v != 0]}
        path = os.path.join(common.tmpdir(), "sparse.json")
        with open(path, "w") as f:
            json.dump(jm, f)
        m = brasp.load(path)
        words = common.test_words(m.alphabet, budget=120, long=3)
        self.assertEqual(["accept" if v else "reject" for v in m.accepts(words)], common.go_run(path, words))
        self.assertEqual(m.accepts(words), brasp.load(src).accepts(words))

    def test_checker_catches_rounding(self):
        from brasp.exactness import Checker
        a = torch.tensor([[2.0 ** 52, 1.0]], dtype=torch.float64)
        b = torch.tensor([[1.0], [0.5]], dtype=torch.float64)
        with self.assertRaises(brasp.InexactError):
            Checker().matmul(a, b, "test")
        Checker().matmul(torch.tensor([[3.0, 1.0]], dtype=torch.float64), b, "test")


class TestClassPass(unittest.TestCase):
    """The class-tracked pass (brasp.classpass, used when no hook is
    registered) gives the module-by-module pass's scores exactly, on padded
    batches of words of many lengths, and its prefix scores are the scores
    of the prefixes."""

    def test_equals_module_pass(self):
        from brasp import classpass
        cases = [("dyck1_depth2.brasp", ("--multihead",)), ("dyck1_depth2.brasp", ("--layernorm",)),
                 ("induction_heads.brasp", ("--multihead", "--layernorm")), ("mid.ltl", ("--multihead",)),
                 ("aa_star.re", ()), ("stair3.brasp", ())]
        causal = []
        for src, flags in cases:
            out = common.convert(os.path.join(common.EXAMPLES, src),
                                 os.path.join(common.tmpdir(), "cls_%s_%s.json" % (src, common.name(flags))), *flags)
            m = brasp.load(out)
            words = common.test_words(m.alphabet, budget=200, long=20, seed=5)
            tokens, lengths = m.encode(words)
            self.assertTrue(classpass.applies(m))
            with torch.no_grad():
                fast = m(tokens, lengths)
                handle = m.hook_logits.register_forward_hook(lambda mod, i, o: None)  # any hook: the module pass
                self.assertFalse(classpass.applies(m))
                slow = m(tokens, lengths)
                handle.remove()
            if m.is_transducer:  # scores at padding positions are arbitrary
                valid = torch.arange(tokens.shape[1]).view(1, -1) < lengths.view(-1, 1)
                fast, slow = fast[valid], slow[valid]
            self.assertTrue(torch.equal(fast, slow), src)
            causal.append(m.causal)
            if m.causal:
                syms = [[m.alphabet[k] for k in m.word(w)] for w in words]
                pre = m.prefix_accepts(syms)
                want = m.accepts([w[:i] for w in syms for i in range(1, len(w) + 1)])
                self.assertEqual([v for p in pre for v in p], want, src)
        self.assertEqual(causal, [False, False, False, False, True, False])


if __name__ == "__main__":
    unittest.main()
