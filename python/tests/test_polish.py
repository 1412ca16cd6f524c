"""Tests of brasp.train.hard_polish, the local search on a trained hard
model's own choices: its evaluator is the HardEncoder's hard pass, writing
its choices back leaves the model's verdicts as the search saw them, the
verdict's refit is exact, and a search repairs a broken Dyck-1 model until
brasp equiv proves it."""

import os
import random
import unittest

from common import EXAMPLES, brasp, brasp_bin, tmpdir

import torch  # noqa: E402

from brasp.train import hard_export, hard_polish  # noqa: E402
from brasp.train.data import Language, WordDataset  # noqa: E402
from brasp.train.hard import HardConfig, HardEncoder  # noqa: E402
from brasp.train.hard_loop import counterexample, exhaustive_length, prefix_labels  # noqa: E402
from test_hard import hand_built_dyck1_depth2  # noqa: E402

DYCK = os.path.join(EXAMPLES, "dyck1_depth2.brasp")


def random_words(alphabet, count, longest, seed):
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, longest))) for _ in range(count)]


def prefix_verdicts(model, tokens, lengths, valid):
    with torch.no_grad():
        return (model.prefix_logits(tokens, lengths) > 0)[valid]


class Evaluator(unittest.TestCase):
    SHAPES = [
        dict(layers=2, heads=2, lookups=1, classes=3),
        dict(layers=3, heads=1, lookups=2, classes=4, tiebreak="leftmost", mask="non-strict"),
        dict(layers=2, heads=2, lookups=1, classes=3, position="first+mod:2", tiebreak="rightmost"),
        dict(layers=2, heads=2, lookups=1, classes=3, mask="causal", tiebreak="leftmost"),
        dict(layers=2, heads=2, lookups=1, classes=3, tiebreak="leftmost"),
    ]

    def test_search_runs_the_hard_pass(self):
        """On random models of several shapes, the search's values give the
        model's own prefix verdicts, and install(snapshot) changes none."""
        for k, shape in enumerate(self.SHAPES):
            torch.manual_seed(k)
            m = HardEncoder(HardConfig(alphabet=["a", "b", "c"], **shape)).eval()
            with torch.no_grad():
                m.out_table.normal_()
                m.out_bias.normal_()
            tokens, lengths = m.encode(random_words("abc", 300, 30, k))
            labels = torch.zeros(tokens.shape)
            s = hard_polish.Search(m, tokens, lengths, labels)
            d = hard_polish.snapshot(m)
            with torch.no_grad():
                _, values, valid = m.run(tokens, lengths)
            for v, (a, b) in enumerate(zip(s.states(d), values)):
                self.assertTrue(torch.equal(a, b[valid]), "%s: variable %d" % (shape, v))
            want = prefix_verdicts(m, tokens, lengths, s.valid)
            got = s.logits(d, s.features(s.states(d))) > 0
            self.assertTrue(bool((got == want).all()), shape)
            self.assertGreater(int(want.sum()), 0, "a test of verdicts that are all reject cannot fail")
            hard_polish.install(m, d)
            self.assertTrue(bool((prefix_verdicts(m, tokens, lengths, s.valid) == want).all()), shape)

    def test_best_shifts_are_optimal(self):
        """Each value's refitted entry makes as many prefixes right as the
        best integer in the range does, found by trying them all."""
        gen = torch.Generator().manual_seed(5)
        m = HardEncoder(HardConfig(alphabet=["a", "b"], layers=1, heads=1, lookups=0, classes=2))
        s = hard_polish.Search(m, *m.encode(["ab"]), torch.zeros(1, 2))
        for _ in range(20):
            rest = torch.randint(-40, 40, (500,), generator=gen)
            lab = torch.rand(500, generator=gen) < 0.5
            col = torch.randint(0, s.C + 1, (500,), generator=gen)
            best = s._best_shifts(rest, lab, col)
            for a in range(s.C + 1):
                sel = col == a
                right = lambda t: int(((rest[sel] + t > 0) == lab[sel]).sum())
                top = max(right(t) for t in range(-hard_polish.LOGIT_BOUND, hard_polish.LOGIT_BOUND + 1))
                self.assertEqual(right(int(best[a])), top)


class Repair(unittest.TestCase):
    def test_repairs_a_broken_dyck_model(self):
        """The hand-built Dyck-1 model of depth 2 with a predicate entry and
        a lookup entry broken is wrong on some prefixes; the search makes
        every training prefix right and brasp equiv proves the result."""
        lang = Language(DYCK, brasp_bin())
        words, _ = lang.sample((1, 16), 20, 3)
        ds = WordDataset(words, {a: k for k, a in enumerate(lang.alphabet)})
        labels = prefix_labels(lang, ds)
        m = hand_built_dyck1_depth2()
        with torch.no_grad():
            m.blocks[2]["heads"][0].score[0, 0] = -1  # layer 3 no longer finds a bad position from an l
            lk = m.blocks[1]["lookups"][0].table
            lk[1, 1] = lk[1, 1].roll(1)  # ll after ll is no longer bad
        s = hard_polish.Search(m, ds.tokens, ds.lengths, labels)
        d = hard_polish.snapshot(m)
        before = s.correct(d, s.features(s.states(d)))
        self.assertLess(before, s.labels.numel(), "the broken model must be wrong somewhere")
        d, right, total = s.anneal(d, 5000, seed=1)
        self.assertEqual(right, total)
        hard_polish.install(m, d)
        self.assertTrue(bool((prefix_verdicts(m, ds.tokens, ds.lengths, s.valid) == s.labels).all()))
        out = os.path.join(tmpdir(), "repaired.safetensors")
        hard_export.write(m, out)
        self.assertEqual(brasp("equiv", DYCK, out).strip(), "equivalent")



class PolishWords(unittest.TestCase):
    def test_exhaustive_length(self):
        """The longest training length whose words number at most the bound."""
        self.assertEqual(exhaustive_length(["l", "r"], (1, 40), 1024), 10)
        self.assertEqual(exhaustive_length(["a", "b", "c"], (1, 40), 512), 5)
        self.assertEqual(exhaustive_length(["l", "r"], (1, 4), 1024), 4)
        self.assertEqual(exhaustive_length(["l", "r"], (3, 40), 7), None)

    def test_counterexample(self):
        """brasp equiv's word as the polish's symbols, or None."""
        self.assertEqual(counterexample({"equivalent": False, "word": '"llrr"'}, ["l", "r"]), ("llrr", list("llrr")))
        self.assertEqual(counterexample({"equivalent": False, "word": '"ab cd"'}, ["ab", "cd"]), ("ab cd", ["ab", "cd"]))
        self.assertIsNone(counterexample({"equivalent": False, "word": '"lxr"'}, ["l", "r"]))
        self.assertIsNone(counterexample({"equivalent": True}, ["l", "r"]))
        self.assertIsNone(counterexample({"equivalent": None, "text": "could not decide"}, ["l", "r"]))


if __name__ == "__main__":
    unittest.main()
