"""Tests of brasp.train's hard-attention family (--attention hard): the
exported model (hard.safetensors) is the same function as the PyTorch hard
forward pass, for models trained briefly under every mask, direction,
tie-break and position option, on every word up to length 10 and on 1,000
random words up to length 200 (brasp run against HardEncoder); brasp.load
reads the export; brasp convert decompiles it; and the command's bad inputs
get a message, never a traceback."""

import json
import os
import random
import subprocess
import sys
import unittest

from common import EXAMPLES, brasp, brasp_bin, go_run, python_env, run_main, tmpdir

import torch  # noqa: E402

import brasp as braspmod  # noqa: E402
from brasp.train import cli as train_cli  # noqa: E402
from brasp.train import hard_export  # noqa: E402
from brasp.train.hard_loop import verdict  # noqa: E402
from brasp.train.data import Language, WordDataset, trim  # noqa: E402
from brasp.train import hard as hard_mod  # noqa: E402
from brasp.train.hard import HardConfig, HardEncoder  # noqa: E402

AB_PLUS = os.path.join(EXAMPLES, "ab_plus.re")
STAIR2 = os.path.join(EXAMPLES, "stair2.brasp")
DYCK = os.path.join(EXAMPLES, "dyck1_depth2.brasp")


def words_up_to(alphabet, n):
    out = [""]
    res = []
    for _ in range(n):
        out = [w + a for w in out for a in alphabet]
        res += out
    return res


def brief_training(cfg, lang, steps, seed, relax):
    """A HardEncoder trained for a few steps (its verdicts are whatever they
    became: the test is that the export computes the same ones)."""
    torch.manual_seed(seed)
    m = HardEncoder(cfg)
    words, _ = lang.sample((1, 12), 20, seed)
    ds = WordDataset(words, {a: k for k, a in enumerate(lang.alphabet)})
    opt = torch.optim.Adam(m.parameters(), lr=0.1)
    lossf = torch.nn.BCEWithLogitsLoss()
    m.train()
    for step in range(steps):
        m.set_temperature(1.0 * 0.1 ** (step / steps), relax == "gumbel", relax != "straight-through")
        idx = torch.randint(len(ds), (16,))
        loss = lossf(m(trim(ds.tokens[idx], ds.lengths[idx]), ds.lengths[idx]), ds.labels[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
    m.eval()
    return m


# Shapes covering every option: (language, config keywords, relax).
SHAPES = [
    (AB_PLUS, dict(), "anneal"),
    (AB_PLUS, dict(mask="non-strict", directions="both", position="first+mod:2"), "gumbel"),
    (AB_PLUS, dict(mask="causal", tiebreak="leftmost", position="mod:3"), "straight-through"),
    (STAIR2, dict(directions="both", tiebreak="rightmost", layers=3, classes=4, lookups=2), "anneal"),
    (STAIR2, dict(mask="strict", directions="both", tiebreak="leftmost", position="first"), "gumbel"),
]


class ForwardAgreement(unittest.TestCase):
    """brasp run on hard.safetensors == HardEncoder's forward pass."""

    def test_trained_models(self):
        rng = random.Random(37)
        for k, (path, kw, relax) in enumerate(SHAPES):
            lang = Language(path, brasp_bin())
            cfg = HardConfig(alphabet=lang.alphabet, **kw)
            m = brief_training(cfg, lang, 40, k + 1, relax)
            out = os.path.join(tmpdir(), "hard%d.safetensors" % k)
            hard_export.write(m, out)
            small = words_up_to(lang.alphabet, 10 if len(lang.alphabet) == 2 else 6)
            long = ["".join(rng.choice(lang.alphabet) for _ in range(rng.randint(1, 200))) for _ in range(1000)]
            words = small + long
            py = m.accepts(words)
            go = go_run(out, words)
            wrong = [(w, p, g) for w, p, g in zip(words, py, go) if (g == "accept") != p]
            self.assertEqual(wrong[:3], [], "shape %d (%s %s): %d of %d words differ" % (k, path, kw, len(wrong), len(words)))
            self.assertTrue(all(g in ("accept", "reject") for g in go))
            # brasp.load reads the export and runs it the same way.
            loaded = braspmod.load(out)
            self.assertEqual(loaded.accepts(small[:300]), py[:300])

    def test_scores_are_predicates(self):
        """A head's exported score matrix is its predicate, 0/1 (so every
        tie of the hard pass is an exact tie of the export)."""
        lang = Language(AB_PLUS, brasp_bin())
        m = brief_training(HardConfig(alphabet=lang.alphabet), lang, 5, 3, "anneal")
        spec = hard_export.to_spec(m)
        for layer in spec["layers"]:
            for h in layer["attention"]:
                self.assertTrue({x for row in h["score"] for x in row} <= {0, 1})


class SoftLimit(unittest.TestCase):
    """The relaxation training fits tends to the hard pass as τ falls: a
    head's soft output at a low τ is the value the hard pass attends."""

    def test_low_temperature(self):
        m = HardEncoder(HardConfig(alphabet=["a", "b"], layers=1, heads=1, lookups=0, classes=2))
        tau = 0.05
        with torch.no_grad():
            h = m.blocks[0]["heads"][0]
            for r in (h.q, h.k, h.v):
                r.logits.copy_(torch.tensor([1.0]))
            # A letter attends the nearest earlier copy of itself (and
            # with none, the nearest letter).
            set_score(h, 2 * torch.eye(2) - 1)
        tokens, lengths = m.encode(words_up_to(["a", "b"], 6))
        valid = torch.arange(tokens.shape[1]).unsqueeze(0) < lengths.unsqueeze(1)
        with torch.no_grad():
            m.eval()
            _, hard, _ = m.run(tokens, lengths)
            m.train()
            m.set_temperature(tau, False, True)
            soft, _, _ = m.run(tokens, lengths)
        same = (hard_mod.soft_state(soft[1]) == hard[1])[valid]
        self.assertTrue(bool(same.all()), "the soft pass at τ %g attends elsewhere than the hard pass at %d of %d positions"
                        % (tau, int((~same).sum()), same.numel()))


def set_score(head, S):
    """Sets a head's predicate scores [C, C]."""
    head.score.copy_(S)


def set_table(lookup, T):
    """Sets a lookup's table [C+1, C+1, C]."""
    lookup.table.copy_(T)


def hand_built_ab_plus():
    """(ab)+ set by hand: the previous letter, a lookup marking bad
    positions, a head finding an earlier bad one, a lookup for the verdict."""
    m = HardEncoder(HardConfig(alphabet=["a", "b"], layers=2, heads=1, lookups=1, classes=3))

    def pick(read, k):
        read.logits.fill_(-5)
        read.logits[k] = 5
    with torch.no_grad():
        b1, b2 = m.blocks
        h = b1["heads"][0]
        pick(h.q, 0), pick(h.k, 0), pick(h.v, 0)
        set_score(h, torch.zeros(3, 3))
        lk = b1["lookups"][0]
        pick(lk.x, 0), pick(lk.y, 1)
        T = torch.full((4, 4, 3), -5.0)
        T[:, :, 2] = 5  # bad
        for a, b, c in ((0, 3, 0), (0, 1, 0), (1, 0, 1)):
            T[a, b] = -5
            T[a, b, c] = 5
        set_table(lk, T)
        h = b2["heads"][0]
        pick(h.q, 0), pick(h.k, 2), pick(h.v, 2)
        S = torch.zeros(3, 3)
        S[:, 2] = 1
        set_score(h, S)
        lk = b2["lookups"][0]
        pick(lk.x, 2), pick(lk.y, 3)
        T = torch.full((4, 4, 3), -5.0)
        T[:, :, 1] = 5
        for b in (0, 1, 3):
            T[1, b, 0] = 10
        set_table(lk, T)
        m.out_table.zero_()
        m.out_table[4].fill_(-1)
        m.out_table[4, 0] = 1
    m.eval()
    return m


def lookup_table(entries, default, C=3):
    """A lookup's table [C+1, C+1, C] writing entries[(x, y)] (default elsewhere)."""
    T = torch.full((C + 1, C + 1, C), -5.0)
    T[:, :, default] = 5
    for (x, y), c in entries.items():
        T[x, y] = -5
        T[x, y, c] = 5
    return T


def hand_built_dyck1_depth2():
    """Dyck-1 of depth 2 set by hand in the smallest shape the page trains
    it in (3 layers of one head and one lookup, 3 classes): the word is
    (l (l r)* r)*, i.e. it starts with l, ends with r, and its doubled
    letters alternate ll, rr, ll, … starting with ll.  Layer 1: the previous
    letter, and a lookup writing ll, rr (an r first counts as rr) or plain.
    Layer 2: the last double before i, and a lookup writing bad (a double
    repeating the last, or rr with no ll before), may-end (the last double
    so far is rr or none) or may-not-end.  Layer 3: an earlier bad position.
    Verdict: the letter is r, may-end, and no bad position before."""
    m = HardEncoder(HardConfig(alphabet=["l", "r"], layers=3, heads=1, lookups=1, classes=3))
    L, R, NONE = 0, 1, 3
    PLAIN, LL, RR = 0, 1, 2
    BAD, MAY_END, NOT_END = 0, 1, 2
    token, double, last, verdict, earlier = 0, 2, 3, 4, 5  # variables read

    def pick(read, k):
        read.logits.fill_(-5)
        read.logits[k] = 5
    with torch.no_grad():
        b1, b2, b3 = m.blocks
        h = b1["heads"][0]
        pick(h.q, token), pick(h.k, token), pick(h.v, token)
        set_score(h, torch.ones(3, 3))
        lk = b1["lookups"][0]
        pick(lk.x, token), pick(lk.y, 1)
        set_table(lk, lookup_table({(L, L): LL, (R, R): RR, (R, NONE): RR}, PLAIN))
        h = b2["heads"][0]
        pick(h.q, token), pick(h.k, double), pick(h.v, double)
        S = -torch.ones(3, 3)
        S[:, LL] = S[:, RR] = 1
        set_score(h, S)
        lk = b2["lookups"][0]
        pick(lk.x, double), pick(lk.y, last)
        entries = {(LL, LL): BAD, (RR, RR): BAD, (RR, PLAIN): BAD, (RR, NONE): BAD, (PLAIN, LL): NOT_END}
        entries.update({(LL, y): NOT_END for y in (PLAIN, RR, NONE)})
        set_table(lk, lookup_table(entries, MAY_END))
        h = b3["heads"][0]
        pick(h.q, token), pick(h.k, verdict), pick(h.v, verdict)
        S = -torch.ones(3, 3)
        S[:, BAD] = 1
        set_score(h, S)
        lk = b3["lookups"][0]
        pick(lk.x, token), pick(lk.y, token)
        m.out_table.zero_()
        m.out_bias.fill_(-1.5)
        m.out_table[token, R] = 1
        m.out_table[verdict, MAY_END] = 1
        m.out_table[earlier, BAD] = -10
    m.eval()
    return m


class Decompile(unittest.TestCase):
    def test_hand_built_is_equivalent_and_readable(self):
        out = os.path.join(tmpdir(), "hand.safetensors")
        hard_export.write(hand_built_ab_plus(), out)
        self.assertEqual(brasp("equiv", AB_PLUS, out).strip(), "equivalent")
        prog = brasp("convert", out, "--to", "brasp")
        self.assertIn("rightmost [j<i", prog)
        self.assertLess(len(prog.splitlines()), 30, prog)

    def test_family_expresses_dyck1_depth2(self):
        """The shape the page trains Dyck-1 of depth 2 in holds it exactly:
        a failure to learn it is the optimizer's, not the family's."""
        out = os.path.join(tmpdir(), "dyck.safetensors")
        m = hand_built_dyck1_depth2()
        hard_export.write(m, out)
        self.assertEqual(brasp("equiv", DYCK, out).strip(), "equivalent")
        words = words_up_to(["l", "r"], 8)
        lang = brasp("run", DYCK, "--input-file", "-", stdin="\n".join(words) + "\n")
        got = m.accepts(words)
        want = [line == "accept" for line in lang.splitlines()]
        self.assertEqual(sum(want), 1 + 2 + 4 + 8, "Dyck-1 of depth 2 has 1, 2, 4, 8 words of lengths 2, 4, 6, 8")
        self.assertEqual(got, want)

    def test_verdict_passes_limits(self):
        out = os.path.join(tmpdir(), "hand.safetensors")
        hard_export.write(hand_built_ab_plus(), out)
        self.assertIs(verdict(brasp_bin(), AB_PLUS, out)["equivalent"], True)
        v = verdict(brasp_bin(), AB_PLUS, out, "decompile-classes=2")
        self.assertIsNone(v["equivalent"], v)
        self.assertIn("decompile-classes=2", v["text"])
        self.assertIn("brasp.train --limits NAME=N", v["text"])


def train_cmd(*args):
    p = subprocess.run([sys.executable, "-m", "brasp.train"] + [str(a) for a in args], capture_output=True, text=True,
                       env=python_env(BRASP=brasp_bin()), timeout=600)
    return p.returncode, p.stdout, p.stderr


class Command(unittest.TestCase):
    def test_run_writes_model_and_verdict(self):
        out = os.path.join(tmpdir(), "ab")
        code, stdout, stderr = train_cmd(AB_PLUS, "--attention", "hard", "--out", out, "--steps", "30",
                                         "--train-lengths", "1:12", "--train-count", "20", "--val-count", "10",
                                         "--test-count", "5", "--exhaustive", "200", "--progress", "none", "--threads", "1")
        self.assertEqual(code, 0, stderr)
        self.assertTrue(os.path.isfile(os.path.join(out, "hard.safetensors")))
        self.assertRegex(stdout, r"(equivalent to .*ab_plus.re at every length|the shortest word where the trained model is wrong is)")
        with open(os.path.join(out, "accuracy.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["attention"], "hard")
        self.assertIn(doc["verdict"]["equivalent"], (True, False))
        brasp("run", os.path.join(out, "hard.safetensors"), "abab")

    def test_never_hard(self):
        out = os.path.join(tmpdir(), "soft")
        # In process (the command's process is run above).
        code, stdout, stderr = run_main(train_cli.main, AB_PLUS, "--attention", "hard", "--out", out, "--steps", "10",
                                        "--tau-start", "1000", "--tau-end", "1000", "--train-lengths", "1:12",
                                        "--train-count", "20", "--val-count", "10", "--test-count", "5",
                                        "--exhaustive", "0", "--progress", "none", "--threads", "1", BRASP=brasp_bin())
        self.assertEqual(code, 0, stderr)
        self.assertIn("the attention never became hard", stdout + stderr)
        self.assertTrue(os.path.isfile(os.path.join(out, "hard.safetensors")))

    def run_doc(self, *args):
        """accuracy.json of a short in-process run on (ab)+ with args added."""
        out = os.path.join(tmpdir(), "run")
        code, stdout, stderr = run_main(train_cli.main, AB_PLUS, "--attention", "hard", "--out", out,
                                        "--train-lengths", "1:12", "--train-count", "20", "--val-count", "10",
                                        "--test-count", "5", "--exhaustive", "0", "--progress", "none", "--threads", "1",
                                        *args, BRASP=brasp_bin())
        self.assertEqual(code, 0, stderr)
        with open(os.path.join(out, "accuracy.json")) as f:
            return json.load(f)

    def test_candidates_screen_then_one_continues(self):
        # Three candidates train the first eighth (5 steps) each, then one
        # continues to step 40: 3×5 + 35 steps, unless one is proven first.
        doc = self.run_doc("--steps", "40", "--eval-every", "5", "--candidates", "3", "--restarts", "1",
                           "--patience", "100")
        if doc["verdict"]["equivalent"] is not True:
            self.assertEqual(doc["steps"], 50, doc["stopped"])

    def test_patience_ends_a_settled_restart(self):
        # Each restart ends at two validations in a row without a better
        # accuracy, long before its step 400.
        doc = self.run_doc("--steps", "400", "--eval-every", "5", "--candidates", "1", "--restarts", "2",
                           "--patience", "2", "--tau-start", "1000", "--tau-end", "1000")
        self.assertEqual(doc["restarts"], 2)
        self.assertLess(doc["steps"], 400, doc["stopped"])

    def test_polish_runs_when_no_restart_is_proven(self):
        # Attention that never becomes hard proves nothing, so each
        # restart's model is polished, within its budget of changes, and
        # proved again; training stops at the first one proven.
        doc = self.run_doc("--steps", "10", "--eval-every", "5", "--candidates", "1", "--restarts", "2",
                           "--tau-start", "1000", "--tau-end", "1000", "--polish", "300", "--polish-words", "50",
                           "--polish-all", "300")
        polished = doc["polish"]
        self.assertEqual([p["restart"] for p in polished], list(range(1, doc["restarts"] + 1)), doc["stopped"])
        for p in polished:
            self.assertTrue(0 < p["tried"] <= 300, p)
            self.assertLessEqual(p["right"], p["prefixes"])
            # 2^8 words of length 8 are within --polish-all 300, 2^9 are not.
            self.assertEqual(p["words"], "50 training words and every word of length 8 (256)")
        self.assertEqual([p["proven"] for p in polished], [False] * (len(polished) - 1) + [polished[-1]["proven"]])
        self.assertEqual(polished[-1]["proven"], doc["verdict"]["equivalent"] is True and "polished" in doc["stopped"])

    def test_bad_inputs(self):
        empty = os.path.join(tmpdir(), "none.dfa")
        with open(empty, "w") as f:
            f.write("alphabet a b\nstart q\nq a q\nq b q\n")
        for args, want in (
            ([empty], "the language has no accepted word of any length"),
            ([AB_PLUS, "--position", "sinusoidal"], "hard attention takes none, first and mod:M"),
            ([AB_PLUS, "--mask", "bidirectional"], "--mask bidirectional: with --attention hard, want one of"),
            ([AB_PLUS, "--mask", "causal", "--directions", "both"], "--mask causal has heads looking back only"),
            ([AB_PLUS, "--relax", "magic"], "--relax magic: want one of"),
            ([AB_PLUS, "--candidates", "0"], "--candidates 0: want at least 1"),
            ([AB_PLUS, "--polish", "-1"], "--polish -1 --polish-words 500 --polish-all 1024: want changes ≥ 0, words ≥ 1 and all ≥ 0"),
            ([AB_PLUS, "--polish-all", "-2"], "--polish-all -2: want changes ≥ 0, words ≥ 1 and all ≥ 0"),
            ([AB_PLUS, "--polish", "10", "--directions", "both"], "--polish searches on every prefix's verdict"),
            ([AB_PLUS, "--limits", "decompile-classes"], "--limits decompile-classes: want NAME=N joined by commas"),
            ([AB_PLUS, "--attention", "soft"], "--attention soft: want softmax or hard"),
        ):
            a = list(args)
            if "--attention" not in a:
                a += ["--attention", "hard"]
            code, stdout, stderr = run_main(train_cli.main, *(a + ["--out", os.path.join(tmpdir(), "bad"), "--steps", "1"]),
                                            BRASP=brasp_bin())
            self.assertEqual(code, 1, (args, stdout, stderr))
            self.assertIn(want, stderr, args)
            self.assertNotIn("Traceback", stderr)


if __name__ == "__main__":
    unittest.main()
