"""Tests of brasp.train: a real training run on (ab)+ that must reach 100%
on its training lengths, save a model that loads back and write its
accuracy JSON and PNG; the model's masks, positions and batch interface;
the safetensors reader and writer; and every bad input the command names.

Run by TestTrain (python/train_test.go), which builds the brasp program and
sets BRASP_BIN; under another Go test that sets BRASP_BIN without
BRASP_TRAIN_TEST (the general suite), the module skips, so the training
run is not done twice."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PYTHON = os.path.dirname(HERE)
REPO = os.path.dirname(PYTHON)
INSTALLED = os.environ.get("BRASP_INSTALLED", "") == "1"  # test the pip-installed package (CI)
if not INSTALLED and PYTHON not in sys.path:
    sys.path.insert(0, PYTHON)

import torch  # noqa: E402

from brasp.train import (Config, Encoder, TrainError, find_brasp, load_model, read_safetensors,  # noqa: E402
                         write_safetensors)
from brasp.train.cli import main  # noqa: E402
from brasp.train.report import plain_plot  # noqa: E402
from common import run_main  # noqa: E402

torch.set_num_threads(1)

if os.environ.get("BRASP_BIN") and not os.environ.get("BRASP_TRAIN_TEST"):
    raise unittest.SkipTest("run by TestTrain (python/train_test.go)")

AB_PLUS = os.path.join(REPO, "examples", "ab_plus.re")


def train_cmd(*args, env=None):
    """Runs python3 -m brasp.train ARGS; returns (exit code, stdout, stderr)."""
    e = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    if not INSTALLED:
        e["PYTHONPATH"] = PYTHON
    e.update(env or {})
    p = subprocess.run([sys.executable, "-m", "brasp.train"] + [str(a) for a in args],
                       capture_output=True, text=True, env=e, cwd=HERE if INSTALLED else PYTHON, timeout=600)
    return p.returncode, p.stdout, p.stderr


class TrainABPlus(unittest.TestCase):
    """One run of the command on (ab)+, shared by the tests of this class."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="brasp-train-")
        cls.out = os.path.join(cls.tmp, "ab")
        cls.code, cls.stdout, cls.stderr = train_cmd(
            AB_PLUS, "--steps", 800, "--train-lengths", "1:16", "--test-lengths", "1:48", "--train-count", 100,
            "--test-count", 20, "--eval-every", 50, "--out", cls.out, "--threads", 1, "--device", "cpu",
            "--progress", "plain")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_run(self):
        self.assertEqual(self.code, 0, self.stderr)
        self.assertIn("accuracy 100.0% on lengths 1–16 (training)", self.stdout)
        self.assertIn("no accepted word of length 1, 3, 5", self.stderr)
        self.assertIn("validation accuracy", self.stderr)  # the plain progress line

    def test_accuracy_json(self):
        with open(os.path.join(self.out, "accuracy.json")) as f:
            doc = json.load(f)
        rows = {r["length"]: r for r in doc["per_length"]}
        self.assertEqual(sorted(rows), list(range(1, 49)))
        for n in range(1, 17):
            self.assertEqual(rows[n]["accuracy"], 1.0, rows[n])
        for n, r in rows.items():
            self.assertEqual(r["words"], 20)
            # Balanced exact samples: odd lengths have no word of (ab)+.
            self.assertEqual(r["accepted"], 0 if n % 2 else 10, r)
            self.assertEqual(r["accuracy"], r["correct"] / r["words"])
        self.assertEqual(doc["train_lengths"], [1, 16])
        # Every word up to length 13 (2 + 4 + ... + 2^13 = 16382 ≤ 20000).
        ex = doc["exhaustive"]
        self.assertEqual((ex["up_to"], ex["words"]), (13, 16382))
        self.assertEqual(ex["accuracy"], 1 - ex["wrong"] / 16382)
        self.assertEqual(ex["first_error"] is None, ex["wrong"] == 0)
        self.assertIn("all 16382 words up to length 13:", self.stdout)
        self.assertEqual(doc["lacking"]["accepted"], list(range(1, 49, 2)))

    def test_png(self):
        with open(os.path.join(self.out, "accuracy.png"), "rb") as f:
            head = f.read(24)
        self.assertEqual(head[:8], b"\x89PNG\r\n\x1a\n")
        self.assertGreater(int.from_bytes(head[16:20], "big"), 100)

    def test_load_back(self):
        m = load_model(self.out)
        self.assertIsInstance(m, torch.nn.Module)
        self.assertFalse(m.training)
        self.assertEqual(m.alphabet, ["a", "b"])
        # The evaluation words again (brasp sample with the run's test seed):
        # the loaded model scores exactly as the trained one did.
        with open(os.path.join(self.out, "accuracy.json")) as f:
            doc = json.load(f)
        out = subprocess.run([find_brasp(), "sample", AB_PLUS, "--lengths", "1:48", "--count", "20", "--balanced",
                              "--seed", str(1 + 2_000_003)], capture_output=True, text=True, check=True).stdout
        pairs = [line.split("\t") for line in out.splitlines()]
        words = [w for w, _ in pairs]
        got = m.accepts(words)
        correct = {}
        for (w, label), g in zip(pairs, got):
            correct[len(w)] = correct.get(len(w), 0) + (g == (label == "accept"))
        self.assertEqual(correct, {r["length"]: r["correct"] for r in doc["per_length"]})
        # And every word up to length 13, against brasp's verdicts.
        out = subprocess.run([find_brasp(), "sample", AB_PLUS, "--all", "--lengths", "1:13"],
                             capture_output=True, text=True, check=True).stdout
        pairs = [line.split("\t") for line in out.splitlines()]
        wrong = [w for (w, label), g in zip(pairs, m.accepts([w for w, _ in pairs])) if g != (label == "accept")]
        self.assertEqual(len(wrong), doc["exhaustive"]["wrong"])
        self.assertEqual(wrong[0] if wrong else None, (doc["exhaustive"]["first_error"] or {}).get("word"))
        for path in (os.path.join(self.out, "model.safetensors"), os.path.join(self.out, "model.json")):
            self.assertEqual(load_model(path).accepts(words[:50]), m.accepts(words[:50]))
        tokens, lengths = m.encode(["abab", "ab", "b"])
        self.assertEqual(tokens.tolist(), [[1, 2, 1, 2], [1, 2, 0, 0], [2, 0, 0, 0]])
        with torch.no_grad():
            logits = m(tokens, lengths)
            prefixes = m.prefix_logits(tokens, lengths)
        self.assertEqual(logits.shape, (3,))
        self.assertEqual(prefixes.shape, (3, 4))
        # A causal model's prefix logits are the logits of the prefixes.
        torch.testing.assert_close(prefixes[0], m(*m.encode(["a", "ab", "aba", "abab"])))
        torch.testing.assert_close(prefixes[torch.arange(3), lengths - 1], logits)

    def test_resume_corrupt_checkpoint(self):
        out = os.path.join(self.tmp, "corrupt")
        os.makedirs(out)
        with open(os.path.join(out, "checkpoint.pt"), "wb") as f:
            f.write(b"PK\x03\x04 not a checkpoint")
        # In process: a process would import PyTorch again for one refusal.
        code, _, err = run_main(main, AB_PLUS, "--steps", 1, "--train-lengths", "1:4", "--out", out, "--resume", "--device", "cpu")
        self.assertEqual(code, 1)
        self.assertIn("corrupt checkpoint", err)
        self.assertNotIn("Traceback", err)

    def test_corrupt_model(self):
        out = os.path.join(self.tmp, "broken")
        os.makedirs(out)
        with open(os.path.join(self.out, "model.safetensors"), "rb") as f:
            data = f.read()
        with open(os.path.join(self.out, "model.json")) as f:
            cfg = f.read()
        with open(os.path.join(out, "model.json"), "w") as f:
            f.write(cfg)
        for bad, want in ((data[:len(data) // 2], "do not hold shape"), (data[:5], "shorter than the 8-byte"),
                          (b"\xff" * 8 + data[8:], "header length"), (data[:8] + b"x" + data[9:], "header:")):
            with open(os.path.join(out, "model.safetensors"), "wb") as f:
                f.write(bad)
            with self.assertRaises(TrainError) as cm:
                load_model(out)
            self.assertIn(want, str(cm.exception))
        with open(os.path.join(out, "model.safetensors"), "wb") as f:
            f.write(data)
        with open(os.path.join(out, "model.json"), "w") as f:
            f.write(cfg.replace('"width": 32', '"width": 16'))
        with self.assertRaisesRegex(TrainError, "has shape"):
            load_model(out)
        with open(os.path.join(out, "model.json"), "w") as f:
            f.write(cfg.replace('"width": 32', '"width": 1000000000'))
        with self.assertRaisesRegex(TrainError, "the configuration needs at least"):
            load_model(out)
        with open(os.path.join(out, "model.json"), "w") as f:
            f.write(cfg.replace('"layers": 2', '"layers": "x"'))
        with self.assertRaisesRegex(TrainError, "bad configuration"):
            load_model(out)
        with open(os.path.join(out, "model.json"), "w") as f:
            f.write("{")
        with self.assertRaisesRegex(TrainError, "not a brasp.train model configuration"):
            load_model(out)
        with self.assertRaisesRegex(TrainError, "nowhere: no such file or directory"):
            load_model(os.path.join(self.tmp, "nowhere"))


class Resume(unittest.TestCase):
    def test_resume(self):
        tmp = tempfile.mkdtemp(prefix="brasp-train-")
        self.addCleanup(shutil.rmtree, tmp, True)
        out = os.path.join(tmp, "resume")
        # No exhaustive evaluation (TrainABPlus checks it): the runs are about
        # the checkpoint.
        small = [AB_PLUS, "--train-lengths", "1:4", "--test-lengths", "1:4", "--train-count", 8, "--val-count", 4,
                 "--test-count", 4, "--eval-every", 2, "--exhaustive", 0, "--out", out, "--device", "cpu",
                 "--progress", "plain"]
        first, second = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(first):
            self.assertEqual(main([str(a) for a in small + ["--steps", 4]]), 0)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(second):
            self.assertEqual(main([str(a) for a in small + ["--steps", 6, "--resume"]]), 0)
        self.assertIn("step 2/4:", first.getvalue())
        # The resumed run starts at step 4: its first validation is at 6.
        self.assertNotIn("step 2/6:", second.getvalue())
        self.assertNotIn("step 4/6:", second.getvalue())
        self.assertIn("step 6/6:", second.getvalue())
        with open(os.path.join(out, "accuracy.json")) as f:
            self.assertEqual(json.load(f)["steps"], 6)
        # Another configuration cannot resume this checkpoint.
        err = io.StringIO()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
            self.assertEqual(main([str(a) for a in small + ["--steps", 8, "--resume", "--width", 16]]), 1)
        self.assertIn("written for another model configuration", err.getvalue())


class BadInput(unittest.TestCase):
    """Each bad input gives one clear line and exit status 1, no traceback."""

    def check(self, want, *args, env=None):
        # In-process (importing torch again per case would cost seconds).
        saved = dict(os.environ)
        os.environ.update(env or {})
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = main([str(a) for a in args])
        finally:
            os.environ.clear()
            os.environ.update(saved)
        self.assertEqual(code, 1, (out.getvalue(), err.getvalue()))
        self.assertIn(want, err.getvalue())
        self.assertEqual(err.getvalue().count("\n"), 1, err.getvalue())

    def test_lengths(self):
        with tempfile.TemporaryDirectory() as d:
            self.check("lengths start at 1", AB_PLUS, "--train-lengths", "0:4", "--out", d)
            self.check("the shortest length, 5, is longer than the longest, 3", AB_PLUS, "--test-lengths", "5:3", "--out", d)
            self.check("want MIN:MAX", AB_PLUS, "--train-lengths", "x", "--out", d)
            self.check("longer than 100000", AB_PLUS, "--train-lengths", "1:100001", "--out", d)
            self.check("test lengths reach 160, longer than the learned positions", AB_PLUS, "--position", "learned",
                       "--n-positions", 50, "--out", d)

    def test_no_word_of_a_side(self):
        # (ab)+ has no accepted word of odd length: nothing to learn on 3:3.
        with tempfile.TemporaryDirectory() as d:
            self.check("no accepted word of any length 3–3: nothing to learn", AB_PLUS, "--train-lengths", "3:3", "--out", d)

    def test_missing_binary(self):
        with tempfile.TemporaryDirectory() as d:
            self.check("$BRASP=/nonexistent/brasp: no such executable", AB_PLUS, "--out", d, env={"BRASP": "/nonexistent/brasp"})
            self.check("--brasp=/nonexistent/brasp: no such executable", AB_PLUS, "--out", d, "--brasp", "/nonexistent/brasp")

    def test_missing_file(self):
        with tempfile.TemporaryDirectory() as d:
            self.check("nowhere.re: no such file", os.path.join(d, "nowhere.re"), "--out", d)
            bad = os.path.join(d, "bad.re")
            with open(bad, "w") as f:
                f.write("alphabet a b\n(ab\n")
            self.check("bad.re:", bad, "--out", d)

    @unittest.skipIf(torch.cuda.is_available(), "a CUDA device is present")
    def test_no_cuda(self):
        with tempfile.TemporaryDirectory() as d:
            self.check("--device cuda: PyTorch sees no CUDA device here", AB_PLUS, "--device", "cuda", "--out", d)

    def test_bad_numbers(self):
        # Every number is checked before any work; NaN fails every
        # comparison, so it is named.
        with tempfile.TemporaryDirectory() as d:
            self.check("--lr nan: want a finite number", AB_PLUS, "--lr", "nan", "--out", d)
            self.check("--lr 0.0: want a number > 0", AB_PLUS, "--lr", 0, "--out", d)
            self.check("--weight-decay inf: want a finite number", AB_PLUS, "--weight-decay", "inf", "--out", d)
            self.check("--clip -1.0: want at least 0", AB_PLUS, "--clip", -1, "--out", d)
            self.check("--stop-at 2.0: want 0 ≤ x ≤ 1", AB_PLUS, "--stop-at", 2, "--out", d)
            self.check("--patience 0: want at least 1", AB_PLUS, "--patience", 0, "--out", d)
            self.check("--dropout nan: want 0 ≤ p < 1", AB_PLUS, "--dropout", "nan", "--out", d)

    def test_bad_out(self):
        # Checked before any word is sampled.
        with tempfile.TemporaryDirectory() as d:
            self.check("--out /proc/x: No such file or directory", AB_PLUS, "--out", "/proc/x")
            plain = os.path.join(d, "file")
            open(plain, "w").close()
            self.check("--out %s: File exists" % plain, AB_PLUS, "--out", plain)
            self.check("--out %s: Not a directory" % os.path.join(plain, "x"), AB_PLUS, "--out", os.path.join(plain, "x"))

    def test_bad_config(self):
        with tempfile.TemporaryDirectory() as d:
            self.check("--width 30 is not a multiple of --heads 4", AB_PLUS, "--width", 30, "--heads", 4, "--out", d)
            self.check("'cos' is not a position kind", AB_PLUS, "--position", "cos", "--out", d)
            self.check("--mask future: want one of", AB_PLUS, "--mask", "future", "--out", d)


class Model(unittest.TestCase):
    """The encoder's masks, positions and batch interface, untrained."""

    def make(self, seed=3, **kw):
        torch.manual_seed(seed)
        return Encoder(Config(alphabet=["a", "b"], **kw)).eval()

    def test_deterministic(self):
        a, b = self.make(), self.make()
        for (k, v), (k2, v2) in zip(a.state_dict().items(), b.state_dict().items()):
            self.assertEqual(k, k2)
            self.assertTrue(torch.equal(v, v2), k)

    def test_padding_and_masks(self):
        words = ["abba", "ab", "babab", "a"]
        for mask in ("causal", "strict", "bidirectional"):
            for position in ("none", "sinusoidal", "learned", "mod:2", "first", "first+mod:3+sinusoidal"):
                for readout in ("last", "mean"):
                    m = self.make(mask=mask, position=position, readout=readout, n_positions=8)
                    with torch.no_grad():
                        batch = m(*m.encode(words))
                        alone = torch.cat([m(*m.encode([w])) for w in words])
                    torch.testing.assert_close(batch, alone, msg="%s %s %s" % (mask, position, readout))
                    if mask == "bidirectional":
                        with self.assertRaises(ValueError):
                            m.prefix_logits(*m.encode(words))
                        continue
                    with torch.no_grad():
                        p = m.prefix_logits(*m.encode(["abab", "abba"]))
                    # Masked: a position never sees the letters after it.
                    torch.testing.assert_close(p[0, :2], p[1, :2])
                    self.assertFalse(torch.allclose(p[0, 2:], p[1, 2:]), (mask, position, readout))

    def test_mask_tensors(self):
        # True marks a forbidden (query i, key j); strict masks have the BOS
        # slot at index 0, which attends to itself and to nothing else.
        tokens, lengths = torch.tensor([[1, 2, 1]]), torch.tensor([3])
        want = {"causal": [[j > i for j in range(3)] for i in range(3)],
                "strict": [[not (j < i or i == j == 0) for j in range(4)] for i in range(4)]}
        for mask, rows in want.items():
            _, got, pad, off = self.make(mask=mask)._inputs(tokens, lengths)
            self.assertEqual(got.tolist(), rows, mask)
            self.assertIsNone(pad)
            self.assertEqual(off, 1 if mask == "strict" else 0)
        _, got, pad, _ = self.make(mask="bidirectional")._inputs(torch.tensor([[1, 2, 1], [2, 0, 0]]), torch.tensor([3, 1]))
        self.assertIsNone(got)
        self.assertEqual(pad.tolist(), [[False, False, False], [False, True, True]])

    def test_strict_first_letter(self):
        # Under strict masks the first letter attends only to the BOS slot:
        # its vector is the same whatever follows, and a one-letter word is
        # well defined (no NaN).
        m = self.make(mask="strict", position="none")
        with torch.no_grad():
            p = m.prefix_logits(*m.encode(["a", "ab", "abb"]))
        self.assertTrue(torch.isfinite(p).all())
        self.assertEqual(len(set(round(float(x), 6) for x in p[:, 0])), 1)

    def test_positions(self):
        m = self.make(position="learned", n_positions=4)
        with self.assertRaisesRegex(ValueError, "longer than this model's 4 learned positions"):
            m(*m.encode(["ababa"]))
        # Without position information nor masks, a word's verdict depends
        # only on its letters' multiset.
        # only on its last letter and its letters' multiset; positions tell
        # the others apart.
        for position, same in (("none", True), ("mod:2", False), ("first", False), ("sinusoidal", False)):
            m = self.make(mask="bidirectional", position=position)
            with torch.no_grad():
                self.assertEqual(torch.allclose(m(*m.encode(["aba"])), m(*m.encode(["baa"]))), same, position)
        with self.assertRaisesRegex(ValueError, "mod:M wants a period"):
            self.make(position="mod:1")
        with self.assertRaisesRegex(ValueError, "none cannot be combined"):
            self.make(position="none+first")

    def test_encode_errors(self):
        m = self.make()
        with self.assertRaisesRegex(ValueError, "not in the alphabet"):
            m.encode(["abc"])
        with self.assertRaisesRegex(ValueError, "empty word"):
            m.encode([""])


class Safetensors(unittest.TestCase):
    def test_roundtrip(self):
        t = {"w": torch.randn(3, 4), "b": torch.arange(5, dtype=torch.int64), "d": torch.randn(2, dtype=torch.float64),
             "e": torch.zeros(0, 3)}
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.safetensors")
            write_safetensors(p, t, {"k": "v"})
            got, meta = read_safetensors(p)
            self.assertEqual(meta, {"k": "v"})
            self.assertEqual(sorted(got), sorted(t))
            for k in t:
                self.assertEqual(got[k].dtype, t[k].dtype)
                self.assertTrue(torch.equal(got[k], t[k]), k)
            with open(p, "rb") as f:
                data = f.read()
            n = int.from_bytes(data[:8], "little")
            self.assertEqual((8 + n) % 8, 0)
            head = json.loads(data[8:8 + n])
            # Overlapping tensors are refused.
            head["b"]["data_offsets"] = head["w"]["data_offsets"][:1] + [head["w"]["data_offsets"][0] + 40]
            text = json.dumps(head).encode()
            with open(p, "wb") as f:
                f.write(len(text).to_bytes(8, "little") + text + data[8 + n:])
            with self.assertRaisesRegex(TrainError, "overlap"):
                read_safetensors(p)

    def test_random_damage(self):
        # Truncations, byte changes and header edits: each read either
        # succeeds or raises TrainError, never another exception.
        import random
        rng = random.Random(7)
        t = {"w": torch.randn(3, 4), "b": torch.arange(5, dtype=torch.int64)}
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.safetensors")
            write_safetensors(p, t, {"k": "v"})
            with open(p, "rb") as f:
                good = f.read()
            n = int.from_bytes(good[:8], "little")
            header = good[8:8 + n].decode()
            edits = ['"F32"', '"I64"', '[3,4]', '[0,48]', '"shape"', '{', '}', '[-1]', '1e400', '"x"', '[99999999999999999999]', 'null', '[]']
            cases = []
            for e in edits:  # each edit in place of w's shape, then random damage
                h = header.replace("[3,4]", e, 1).encode()
                cases.append(len(h).to_bytes(8, "little") + h + good[8 + n:])
            for bad in cases:
                with open(p, "wb") as f:
                    f.write(bad)
                try:
                    read_safetensors(p)
                except TrainError:
                    pass
            for _ in range(300):
                kind = rng.randrange(3)
                if kind == 0:
                    bad = good[:rng.randrange(len(good))]
                elif kind == 1:
                    b = bytearray(good)
                    b[rng.randrange(len(b))] = rng.randrange(256)
                    bad = bytes(b)
                else:
                    i, j = sorted(rng.randrange(len(header) + 1) for _ in range(2))
                    h = (header[:i] + rng.choice(edits) + header[j:]).encode()
                    bad = len(h).to_bytes(8, "little") + h + good[8 + n:]
                with open(p, "wb") as f:
                    f.write(bad)
                try:
                    read_safetensors(p)
                except TrainError:
                    pass

    def test_plain_plot(self):
        rows = [{"length": n, "accuracy": 1.0 if n < 10 else 0.5} for n in range(1, 30)]
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, "x.png")
            plain_plot(p, rows, (1, 9))
            with open(p, "rb") as f:
                data = f.read()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        self.assertEqual(int.from_bytes(data[16:20], "big"), 640)


if __name__ == "__main__":
    unittest.main()
