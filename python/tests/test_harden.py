"""Tests of brasp.harden: its passes against the trained Encoder and an
independent reference, the exported model against brasp run (every word up
to a length and random long words, both tie-breaks, every exportable
shape), and every bad input of the command (a message, exit status 1, no
traceback)."""

import json
import os
import struct
import subprocess
import sys
import tempfile
import unittest

import torch

from common import EXAMPLES, INSTALLED, PYTHON, brasp_bin, go_run, python_env, run_main, test_words

from brasp.harden import HardEncoder, export, params, passes
from brasp.harden import cli as harden_cli
from brasp.train import Config, Encoder, save_model

AB_PLUS = os.path.join(EXAMPLES, "ab_plus.re")


def random_model(seed, **shape):
    """An Encoder over {a, b} whose every parameter is random (biases and
    layer-norm gains and biases included, so each term of the export
    matters)."""
    torch.manual_seed(seed)
    cfg = dict(layers=2, heads=2, width=8, ff=12, mask="causal", position="none", norm="post", n_positions=0)
    cfg.update(shape)
    m = Encoder(Config(alphabet=["a", "b"], **cfg))
    with torch.no_grad():
        for name, p in m.named_parameters():
            if name.endswith("norm1.weight") or name.endswith("norm2.weight") or name.endswith("final_norm.weight"):
                p.copy_(1 + 0.3 * torch.randn_like(p))
            else:
                p.copy_(torch.randn_like(p) * (0.8 if p.dim() > 1 else 0.5))
    m.eval()
    return m


def two_sided(seed, shape, words):
    """The first random model from seed on whose hardening accepts some of
    the words and rejects others (a constant model would test little)."""
    for s in range(seed, seed + 50):
        m = random_model(s, **shape)
        P = params.read(m)
        t, n = m.encode(words)
        v = passes.hard(P, t, n) > 0
        if 0 < int(v.sum()) < len(words):
            return m, P, t, n
    raise AssertionError("no random model of shape %s from seed %d on is two-sided" % (shape, seed))


def tied_model():
    """A random model whose first layer's keys are zero: every score of
    that layer is 0, an exact tie between different vectors."""
    m = random_model(3)
    with torch.no_grad():
        att = m.encoder.layers[0].self_attn
        d = m.config.width
        att.in_proj_weight[d:2 * d] = 0
        att.in_proj_bias[d:2 * d] = 0
    return m


def save(model, directory):
    save_model(model, directory, {"trained": {"language": AB_PLUS, "train_lengths": [1, 6], "seed": 1}})
    return directory


def reference_hard(P, word, tiebreak):
    """The hardened model on one word, position by position and head by
    head, with no classes and no batching (float64): the definition."""
    c = P.config
    off = 1 if P.bos else 0
    toks = ([P.embed.shape[0] - 1] if off else []) + [c.alphabet.index(a) + 1 for a in word]
    n = len(toks)
    xs = []
    for i, t in enumerate(toks):
        pos = i + 1 - off
        x = P.embed[t].clone()
        for m, table in P.mods:
            x = x + table[pos % m]
        if P.first is not None and pos == 1:
            x = x + P.first
        if "sinusoidal" in c.position:
            from brasp.train.model import sinusoid
            x = x + sinusoid(torch.tensor([pos]), c.width)[0].double()
        if P.learned is not None:
            x = x + P.learned[pos]
        xs.append(x)

    def allowed(i, j):
        if c.mask == "causal":
            return j <= i
        if c.mask == "strict":
            return j < i or (i == 0 and j == 0)
        return True

    for layer in P.layers:
        ys = [passes.layer_norm(layer.norm1, x) if P.pre else x for x in xs]
        # Each position's key per head, computed once (as it would be for
        # every query).
        keys = [[hd.wk @ y + hd.bk for y in ys] for hd in layer.heads]
        new = []
        for i in range(n):
            out = xs[i] + layer.bo
            for hd, ks in zip(layer.heads, keys):
                q = hd.wq @ ys[i] + hd.bq
                best, bj = None, None
                for j in range(n):
                    if not allowed(i, j):
                        continue
                    s = float(q @ ks[j])
                    if best is None or s > best or (s == best and tiebreak == "rightmost"):
                        best, bj = s, j
                out = out + hd.wo @ (hd.wv @ ys[bj] + hd.bv)
            if P.pre:
                out = out + passes.ffn(layer, passes.layer_norm(layer.norm2, out))
            else:
                out = passes.layer_norm(layer.norm1, out)
                out = passes.layer_norm(layer.norm2, out + passes.ffn(layer, out))
            new.append(out)
        xs = new
    fin = [passes.layer_norm(P.final_norm, x) if P.final_norm is not None else x for x in xs]
    v = fin[-1] if c.readout == "last" else sum(fin[off:]) / len(word)
    return float(v @ P.head_w + P.head_b)


SHAPES = [
    dict(),
    dict(position="first+mod:2"),
    dict(mask="bidirectional"),
    dict(mask="strict", norm="pre"),
    dict(mask="strict", norm="post", position="mod:3"),
    dict(mask="causal", norm="pre", position="sinusoidal"),
    dict(mask="bidirectional", norm="pre", position="learned", n_positions=40, readout="mean"),
]


class Passes(unittest.TestCase):
    def test_soft_is_the_trained_model(self):
        """The soft pass written out from the parameters gives the Encoder's
        own logits on every shape."""
        words = test_words(["a", "b"], budget=62, long=6)
        words = [w for w in words if len(w) <= 40]
        for k, shape in enumerate(SHAPES):
            m = random_model(k, **shape)
            P = params.read(m)
            t, n = m.encode(words)
            with torch.no_grad():
                want = m(t, n).double()
            got, conc = passes.soft(P, t, n)
            self.assertLess(float((got - want).abs().max()), 1e-4, shape)
            c = conc[~torch.isnan(conc)]
            self.assertTrue(bool(((c > 0) & (c <= 1 + 1e-12)).all()), shape)
            self.assertEqual(int((~torch.isnan(conc[0, 0])).sum()), int(n.sum()), shape)

    def test_hard_is_the_definition(self):
        """The class pass equals the position-by-position definition on every
        shape and both tie-breaks, with no near tie."""
        for k, shape in enumerate(SHAPES):
            m = random_model(10 + k, **shape)
            P = params.read(m)
            words = test_words(["a", "b"], budget=126, long=4, seed=k)
            words = [w for w in words if len(w) <= 40]
            t, n = m.encode(words)
            for tb in ("rightmost", "leftmost"):
                st = passes.HardStats()
                got = passes.hard(P, t, n, tb, st)
                self.assertEqual(st.near_ties, 0, (shape, tb))
                for w, g in zip(words, got.tolist()):
                    want = reference_hard(P, w, tb)
                    self.assertAlmostEqual(g, want, delta=1e-7 * max(1, abs(want)), msg=(shape, tb, w))

    def test_tiebreak_matters(self):
        """Heads that attend to equal vectors receive equal values, so the
        tie-break matters only where different vectors score exactly the
        same: with the first layer's keys zero every position ties, and
        rightmost (the position itself, under causal masks) and leftmost
        (the first letter) differ, each as the definition says."""
        m = tied_model()
        P = params.read(m)
        words = test_words(["a", "b"], budget=62, long=2)
        t, n = m.encode(words)
        right, left = passes.hard(P, t, n, "rightmost"), passes.hard(P, t, n, "leftmost")
        self.assertGreater(float((right - left).abs().max()), 0.1)
        for tb, got in (("rightmost", right), ("leftmost", left)):
            for w, g in zip(words, got.tolist()):
                self.assertAlmostEqual(g, reference_hard(P, w, tb), delta=1e-7, msg=(tb, w))

    def test_hard_encoder_module(self):
        m = random_model(4)
        h = HardEncoder(m)
        self.assertEqual(set(h.state_dict()), {"encoder." + k for k in m.state_dict()})
        t, n = m.encode(["ab", "abab"])
        self.assertEqual(h.accepts(["ab", "abab"]), (h(t, n) > 0).tolist())
        with self.assertRaises(ValueError):
            HardEncoder(m, "middle")


EXPORTABLE = [
    dict(),
    dict(position="first+mod:2"),
    dict(position="mod:3", heads=1, layers=3),
    dict(mask="bidirectional"),
]


class Export(unittest.TestCase):
    def test_brasp_run_agrees(self):
        """brasp run of the exported model gives the hard pass's verdict on
        every word up to length 7 and on random words up to length 150,
        for every exportable shape and both tie-breaks; no decision of the
        hard pass is within rounding of a tie, so a disagreement would be a
        bug of the export."""
        tmp = tempfile.mkdtemp(prefix="brasp-harden-")
        for k, shape in enumerate(EXPORTABLE):
            words = test_words(["a", "b"], budget=126, long=8, seed=k)
            m, P, t, n = two_sided(20 + 100 * k, shape, words)
            for tb in ("rightmost", "leftmost"):
                st = passes.HardStats()
                want = ["accept" if x > 0 else "reject" for x in passes.hard(P, t, n, tb, st).tolist()]
                self.assertEqual(st.near_ties, 0)
                self.assertGreater(st.min_logit, 1e-6)
                path = os.path.join(tmp, "m%d-%s.json" % (k, tb))
                export.write(P, path, tb)
                got = go_run(path, words)
                bad = [w for w, g, x in zip(words, got, want) if g != x]
                self.assertEqual(bad, [], (shape, tb, "%d of %d words disagree" % (len(bad), len(words))))

    def test_exact_ties(self):
        """Exact ties between different vectors are broken in brasp run as in
        the hard pass, for both tie-breaks."""
        tmp = tempfile.mkdtemp(prefix="brasp-harden-")
        m = tied_model()
        P = params.read(m)
        words = test_words(["a", "b"], budget=126, long=6)
        t, n = m.encode(words)
        for tb in ("rightmost", "leftmost"):
            want = ["accept" if x > 0 else "reject" for x in passes.hard(P, t, n, tb).tolist()]
            path = os.path.join(tmp, "tied-%s.json" % tb)
            export.write(P, path, tb)
            self.assertEqual(go_run(path, words), want, tb)

    def test_refusals(self):
        cases = [
            (dict(position="sinusoidal"), "--position sinusoidal"),
            (dict(position="learned", n_positions=20), "--position learned"),
            (dict(mask="strict"), "--mask strict"),
            (dict(norm="pre"), "--norm pre"),
            (dict(readout="mean"), "--readout mean"),
        ]
        for shape, text in cases:
            m = random_model(0, **shape)
            with self.assertRaises(export.ExportError) as e:
                export.to_json_doc(params.read(m))
            self.assertIn(text, str(e.exception))
            self.assertEqual(len(export.refusals(m.config)), 1, shape)
        self.assertEqual(export.refusals(random_model(0).config), [])

    def test_zero_gain_refused(self):
        m = random_model(5)
        with torch.no_grad():
            m.encoder.layers[0].norm2.weight[3] = 0
        with self.assertRaises(export.ExportError) as e:
            export.to_json_doc(params.read(m))
        self.assertIn("γ_3 = 0", str(e.exception))


def harden_cmd(*args):
    p = subprocess.run([sys.executable, "-m", "brasp.harden"] + [str(a) for a in args], capture_output=True, text=True,
                       env=python_env(BRASP_BIN=brasp_bin()), cwd=PYTHON if not INSTALLED else None, timeout=900)
    return p.returncode, p.stdout, p.stderr


class Command(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="brasp-harden-cmd-")
        cls.good = save(random_model(7), os.path.join(cls.tmp, "good"))

    def test_fidelity_and_export(self):
        out = os.path.join(self.tmp, "hard.json")
        doc = os.path.join(self.tmp, "fidelity.json")
        rc, so, se = harden_cmd(self.good, "-o", out, "--exhaustive", "126", "--lengths", "7:12", "--count", "4", "--per-length",
                                "--check", "60", "--json", doc)
        self.assertEqual(rc, 0, se)
        self.assertIn("hard=soft", so)
        self.assertRegex(so, r"brasp\.harden: +12 +4 +[0-9.]+%")  # --per-length: length 12, its 4 samples
        # The 30 shortest words and every one of the 24 longer ones.
        self.assertIn("agrees with the hard pass on all 54 words checked (lengths 1–12)", so)
        with open(doc) as f:
            d = json.load(f)
        self.assertEqual(d["exhaustive_up_to"], 6)
        self.assertEqual(sum(r["words"] for r in d["per_length"]), 126 + 6 * 4)
        self.assertEqual((d["export"]["checked_words"], d["export"]["brasp_run_disagreements"]), (54, 0))
        # The summary's agreement is the softmax and hard verdicts compared.
        m = random_model(7)
        words = [w for w in test_words(["a", "b"], budget=126, long=0)]
        t, n = m.encode(words)
        with torch.no_grad():
            soft = (m(t, n) > 0)
        hard = passes.hard(params.read(m), t, n) > 0
        s = d["summary"][0]
        self.assertEqual(s["lengths"], [1, 6])
        self.assertAlmostEqual(s["agree"], float((soft == hard).double().mean()))
        self.assertEqual(go_run(out, ["abab"]), ["accept" if hard[words.index("abab")] else "reject"])

    def assertRefused(self, args, *texts):
        # In process: the command's one run above is harden_cmd's.
        rc, so, se = run_main(harden_cli.main, *args, BRASP_BIN=brasp_bin())
        self.assertEqual(rc, 1, (args, so, se))
        self.assertTrue(se.startswith("brasp.harden: "), se)
        self.assertNotIn("Traceback", se)
        for t in texts:
            self.assertIn(t, se)

    def test_bad_input(self):
        sinus = save(random_model(0, position="sinusoidal"), os.path.join(self.tmp, "sinus"))
        self.assertRefused([sinus, "-o", os.path.join(self.tmp, "s.json")], "--position sinusoidal", "finite image")
        both = save(random_model(0, mask="strict", norm="pre"), os.path.join(self.tmp, "strictpre"))
        self.assertRefused([both, "-o", os.path.join(self.tmp, "p.json")], "--mask strict", "--norm pre")
        self.assertRefused([self.good, "-o", os.path.join(self.tmp, "h.safetensors")], "written as JSON")
        self.assertRefused([os.path.join(self.tmp, "missing")], "no such file or directory")
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        self.assertRefused([empty], "model.json")
        self.assertRefused([self.good, "--language", os.path.join(self.tmp, "nope.re")], "no such file")
        self.assertRefused([self.good, "--language", os.path.join(EXAMPLES, "stair2.brasp")], "alphabet")
        # An unknown dtype in the weights.
        bad = os.path.join(self.tmp, "dtype")
        save(random_model(1), bad)
        path = os.path.join(bad, "model.safetensors")
        with open(path, "rb") as f:
            data = f.read()
        (k,) = struct.unpack("<Q", data[:8])
        header = data[8:8 + k].replace(b'"F32"', b'"F16"', 1)
        with open(path, "wb") as f:
            f.write(data[:8] + header + data[8 + k:])
        self.assertRefused([bad], "want dtype F32/F64/I64")
        # A model.json of another format.
        other = os.path.join(self.tmp, "other")
        save(random_model(1), other)
        with open(os.path.join(other, "model.json"), "w") as f:
            json.dump({"format": "something-else"}, f)
        self.assertRefused([other], "not a brasp.train model configuration")


if __name__ == "__main__":
    unittest.main()
