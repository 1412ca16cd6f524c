"""Models over propositions (compiled from LTLf, multi-hot token embedding)
agree with `brasp run` on every trace up to a length and on random long
traces, for formulas with weak and strong next, past operators, U, R, W,
with every construction, both file formats and both attention algorithms;
the multi-hot tensor form, the exact reference pass and the softmax export
agree too."""

import itertools
import json
import os
import random
import unittest
from fractions import Fraction

import torch

import common
import brasp
from brasp import exact, traces

# (formula, propositions): weak next X, strong next X[!], WX, U, R, W, M and
# the past operators Y, Z, O, H, S.
FORMULAS = [
    "G(a -> X b)",
    "F(a & X[!] b)",
    "a U b",
    "a R b",
    "G(b -> Y a)",
    "F(b & O a) | H !a",
    "(a S b) W c",
    "G(a -> (b U c))",
    "a M (b | WX c)",
    "F(c & Z false) -> (a xor b)",
]


def write_formula(k, formula):
    src = os.path.join(common.tmpdir(), "props%02d.ltlf" % k)
    with open(src, "w") as f:
        f.write(formula + "\n")
    return src


def all_traces(props, max_len):
    """Every trace over props up to max_len steps, in brasp run's syntax."""
    steps = [[p for b, p in enumerate(props) if v >> b & 1] for v in range(1 << len(props))]
    out = []
    for n in range(1, max_len + 1):
        for t in itertools.product(range(len(steps)), repeat=n):
            out.append(traces.format_trace(props, [[props.index(p) for p in steps[v]] for v in t]))
    return out


def random_traces(props, count, lo, hi, seed):
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        t = [[p for p in range(len(props)) if rng.random() < 0.4] for _ in range(rng.randint(lo, hi))]
        out.append(traces.format_trace(props, t))
    return out


def test_traces(props, seed):
    """All traces up to 4 steps over 2 propositions (3 over 3), and random
    traces of 20..100 steps."""
    return all_traces(props, 4 if len(props) <= 2 else 3) + random_traces(props, 4, 20, 100, seed)


def verdicts(bools):
    return ["accept" if v else "reject" for v in bools]


class TestPropositionsAgree(unittest.TestCase):
    def test_formulas(self):
        checked = 0
        for k, formula in enumerate(FORMULAS):
            src = write_formula(k, formula)
            for c, flags in enumerate(common.CONSTRUCTIONS):
                # Two constructions per formula, in turn (each construction
                # with five formulas), alternating the file format.
                if (c - k) % 4 not in (0, 1):
                    continue
                ext = (".json", ".safetensors")[(k + c) % 2]
                out = common.convert(src, os.path.join(common.tmpdir(), "props%02d_%s%s" % (k, common.name(flags), ext)), *flags)
                m = brasp.load(out)
                what = "%s %s%s" % (formula, common.name(flags), ext)
                self.assertTrue(m.over_propositions, what)
                self.assertEqual(m.alphabet, [], what)
                ts = test_traces(m.propositions, seed=k)
                want = common.go_run(out, ts)
                self.assertIn("accept", want, what)
                self.assertIn("reject", want, what)
                for method in ("classes", "dense"):
                    m.set_method(method)
                    got = verdicts(m.accepts(ts))
                    for t, g, w in zip(ts, got, want):
                        self.assertEqual(g, w, "%s (%s) on %r: PyTorch %s, brasp run %s" % (what, method, t, g, w))
                # The batched tensor form: one padded batch of multi-hot rows
                # (every third short trace and a long one).
                batch = [(t, w) for t, w in zip(ts, want) if len(m.trace(t)) <= 3][::3] + [(ts[-1], want[-1])]
                hot, lengths = m.multi_hot([t for t, _ in batch])
                self.assertEqual(list(hot.shape), [len(batch), len(m.trace(ts[-1])), len(m.propositions)])
                self.assertEqual(verdicts(m.accepts((hot, lengths))), [w for _, w in batch], what)
                # The float64 pass is certified exact (InexactError otherwise),
                # padding rows included.
                with torch.no_grad():
                    scores = m(hot, lengths)
                self.assertEqual(verdicts((scores >= 0).tolist()), [w for _, w in batch], what)
                # The exact rational reference pass on the short traces.
                short = [(t, w) for t, w in zip(ts, want) if len(m.trace(t)) <= 3][::7]
                ex = exact.Pass(m.spec)
                self.assertEqual(verdicts(ex.accepts(m.trace(t)) for t, _ in short),
                                 [w for _, w in short], what)
                checked += 1
        self.assertEqual(checked, len(FORMULAS) * 2)

    def test_many_propositions(self):
        """Twelve propositions: each step is a multi-hot row, not one of 4096
        symbols; random traces agree with brasp run."""
        props = ["p%d" % i for i in range(12)]
        formula = "(G(p0 -> X p1) & G(p2 -> X p3)) | ((p4 U p5) & (p6 R p7)) | (F(p8 & Y p9) & G(p10 -> O p11))"
        src = write_formula(90, formula)
        out = common.convert(src, os.path.join(common.tmpdir(), "props_many.safetensors"), "--multihead")
        m = brasp.load(out)
        self.assertEqual(len(m.propositions), 12)
        self.assertEqual(sorted(m.propositions), sorted(props))
        ts = random_traces(m.propositions, 40, 1, 60, seed=12) + ["p0;p1", "p0;p2", "{}", "p9;p8", "p4;p4,p5"]
        want = common.go_run(out, ts)
        self.assertEqual(verdicts(m.accepts(ts)), want)
        self.assertIn("accept", want)
        self.assertIn("reject", want)


class TestTraces(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        src = write_formula(91, "G(a -> X b) & F c")
        cls.path = common.convert(src, os.path.join(common.tmpdir(), "props_forms.json"))
        cls.m = brasp.load(cls.path)

    def test_forms(self):
        """A trace as brasp run's string (with or without braces, spaces,
        quotes) and as a sequence of sets of names give the same steps."""
        m = self.m
        want = m.trace("a,b;;c")
        self.assertEqual(want, [[0, 1], [], [2]])
        for t in ("{a,b};{};{c}", " b , a ; {} ;c", '"a",b;;"c"', [{"a", "b"}, set(), {"c"}],
                  [("b", "a"), [], frozenset(["c"])], ["a,b", "", "{c}"]):
            self.assertEqual(m.trace(t), want, repr(t))
        self.assertEqual(m.trace("{}"), [[]])
        self.assertEqual(m.accepts(["a,b;;c", [{"a", "b"}, set(), {"c"}]]), [False, False])
        self.assertEqual(m.accepts(["a;b,c", [{"a"}, {"b", "c"}]]), [True, True])
        self.assertEqual(traces.format_trace(m.propositions, want), "a,b;;c")

    def test_errors(self):
        m = self.m
        for t, msg in (("", "empty trace"), ([], "empty trace"), ("a;d", "step 2: 'd' is not a proposition"),
                       ("a,;b", "step 1: empty proposition name")):
            with self.assertRaises(ValueError) as cm:
                m.accepts([t])
            self.assertIn(msg, str(cm.exception))
        hot, lengths = m.multi_hot(["a;b"])
        with self.assertRaisesRegex(ValueError, "0 or 1"):
            m(hot * 2, lengths)
        with self.assertRaisesRegex(ValueError, r"multi-hot rows \[B, n, 3\]"):
            m(hot[..., :2], lengths)
        with self.assertRaisesRegex(ValueError, "not traces"):
            common.convert(os.path.join(common.EXAMPLES, "stair3.brasp"), os.path.join(common.tmpdir(), "letters.json"))
            brasp.load(os.path.join(common.tmpdir(), "letters.json")).trace("a;b")

    def test_padding_and_devices_of_batches(self):
        """Padded positions do not change verdicts: a batch of traces of
        different lengths gives each trace's verdict alone; float32 agrees."""
        m = self.m
        ts = all_traces(m.propositions, 2) + random_traces(m.propositions, 5, 10, 40, seed=3)
        alone = [m.accepts([t])[0] for t in ts]
        hot, lengths = m.multi_hot(ts)
        self.assertEqual(m.accepts((hot, lengths)), alone)
        m32 = brasp.load(self.path, dtype=torch.float32)
        self.assertEqual(m32.accepts(ts), alone)
        self.assertEqual(m32.multi_hot(ts)[0].dtype, torch.float32)

    def test_cache_against_go_trace(self):
        """run_with_cache on traces equals brasp run --trace's exact
        activations coordinate by coordinate (embedding, every layer's mid
        and post residual) and every head's attended positions; the exact
        reference pass gives the same final stream and pattern."""
        for flags in ((), ("--multihead",), ("--layernorm",)):
            path = common.convert(write_formula(92, "(a S b) W c"),
                                  os.path.join(common.tmpdir(), "props_cache_%s.json" % common.name(flags)), *flags)
            m = brasp.load(path)
            ts = ["a;b;c", "b;a;a;{};c", "c", "a,b,c;a;b"] + random_traces(m.propositions, 3, 10, 30, seed=9)
            for t, tr in zip(ts, common.go_trace(path, ts)):
                what = "%s on %r" % (common.name(flags), t)
                self.assertEqual(tr["input"], ["{%s}" % ",".join(m.propositions[p] for p in s) for s in m.trace(t)], what)
                _, cache = m.run_with_cache([t])
                common.assert_exact(self, cache["hook_embed"][0], tr["trace"]["embed"], what + " embed")
                self.assertEqual(len(tr["trace"]["layers"]), len(m.blocks), what)
                for l, lt in enumerate(tr["trace"]["layers"]):
                    for h, att in enumerate(lt["attended"]):
                        self.assertEqual(cache["blocks.%d.heads.%d.hook_attended" % (l, h)][0].tolist(), att,
                                         "%s layer %d head %d" % (what, l, h))
                    common.assert_exact(self, cache["blocks.%d.hook_resid_mid" % l][0], lt["mid"], "%s layer %d mid" % (what, l))
                    common.assert_exact(self, cache["blocks.%d.hook_resid_post" % l][0], lt["post"], "%s layer %d post" % (what, l))
                self.assertEqual(tr["accept"], m.accepts([t])[0], what)
                if len(m.trace(t)) <= 5:
                    xs, pattern = exact.trace(m.spec, m.trace(t))
                    self.assertEqual(pattern, [lt["attended"] for lt in tr["trace"]["layers"]], what)
                    self.assertEqual([[Fraction(v) for v in x] for x in xs],
                                     [[Fraction(v) for v in row] for row in tr["trace"]["layers"][-1]["post"]], what)
            self.assertIn("P_a", m.labels)
            hot, lengths = m.multi_hot(["a;b"])
            _, cache = m.run_with_cache((hot, lengths), names=["hook_embed"])
            emb = cache.labelled("hook_embed")
            self.assertEqual(emb["P_a"][0].tolist(), [1.0, 0.0])
            self.assertEqual(emb["P_b"][0].tolist(), [0.0, 1.0])

    def test_inexact_falls_back(self):
        """An output scaled by 1/3 cannot be certified in float64: accepts
        falls back to the exact pass on the traces and agrees with Go."""
        with open(self.path) as f:
            jm = json.load(f)
        third = lambda v: str(Fraction(str(v)) / 3)  # noqa: E731
        jm["output"]["weight"] = [third(v) for v in jm["output"]["weight"]]
        jm["output"]["bias"] = third(jm["output"]["bias"])
        path = os.path.join(common.tmpdir(), "props_third.json")
        with open(path, "w") as f:
            json.dump(jm, f)
        m = brasp.load(path)
        with self.assertRaises(brasp.InexactError):
            m(*m.multi_hot(["a;b"]))
        ts = all_traces(m.propositions, 2)
        self.assertEqual(verdicts(m.accepts(ts)), common.go_run(path, ts))

    def test_format_errors(self):
        with open(self.path) as f:
            jm = json.load(f)
        for change, msg in ((lambda j: j.pop("embedding_bias"), "embedding_bias: missing"),
                            (lambda j: j.__setitem__("alphabet", ["x"]), "no alphabet"),
                            (lambda j: j.__setitem__("propositions", ["a", "a", "c"]), "duplicate proposition"),
                            (lambda j: j["embedding"].pop("b"), "no vector for proposition 'b'"),
                            (lambda j: j["embedding"].__setitem__("z", j["embedding"]["a"]), "'z' is not in the propositions"),
                            (lambda j: j.__setitem__("embedding_bias", [0]), "embedding_bias: want a list")):
            bad = json.loads(json.dumps(jm))
            change(bad)
            with self.assertRaises(brasp.FormatError) as cm:
                brasp.spec.from_json(json.dumps(bad))
            self.assertIn(msg, str(cm.exception))
        letters = json.loads(json.dumps(jm))
        del letters["propositions"]
        letters["alphabet"] = ["x"]
        letters["embedding"] = {"x": jm["embedding"]["a"]}
        with self.assertRaisesRegex(brasp.FormatError, "only a model over propositions"):
            brasp.spec.from_json(json.dumps(letters))


class TestPropositionsSoftmax(unittest.TestCase):
    def test_agrees_up_to_n(self):
        """Softmax exports of models over propositions agree with the hard
        model (brasp run) on every trace up to the certified length (all
        short ones, random ones up to N), in float64 and in float32 up to its
        estimate."""
        N = 10
        for k, formula in enumerate(FORMULAS[:8]):
            src = write_formula(k, formula)
            flags = ("--multihead",) if k % 2 else ()
            out = os.path.join(common.tmpdir(), "props_softmax%02d.json" % k)
            common.brasp("convert", src, "--to", "transformer", *flags, "--softmax", "--max-length", N, "-o", out)
            hard = common.convert(src, os.path.join(common.tmpdir(), "props_hard%02d.json" % k), *flags)
            m64 = brasp.load(out)
            self.assertIsInstance(m64, brasp.softmax.SoftmaxModel)
            self.assertTrue(m64.over_propositions)
            c = m64.certificate
            self.assertLess(c["output_error"], c["output_margin"])
            # R_0 holds the 2^k multi-hot step embeddings.
            self.assertGreaterEqual(c["layers"][0]["vectors"], 1 << len(m64.propositions))
            ts = all_traces(m64.propositions, 3) + random_traces(m64.propositions, 60, 1, N, seed=k)
            want = common.go_run(hard, ts)
            self.assertEqual(verdicts(m64.accepts(ts)), want, formula)
            self.assertEqual(verdicts(m64.hard().accepts(ts)), want, formula)
            n32 = m64.float32_safe_length()
            m32 = brasp.load(out, dtype=torch.float32)
            short = [t for t in ts if len(m32.trace(t)) <= n32]
            self.assertEqual(verdicts(m32.accepts(short)), [w for t, w in zip(ts, want) if len(m32.trace(t)) <= n32],
                             "%s float32 up to %d" % (formula, n32))


if __name__ == "__main__":
    unittest.main()
