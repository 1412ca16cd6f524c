"""brasp.plot: the pictures hold the model's values (attended positions,
softmax weights, residual coordinates), automata are drawn with every
state and transition, and missing tools are named."""

import json
import os
import shutil
import unittest

import torch

import common
from common import EXAMPLES, convert, tmpdir

import brasp
from brasp import plot

try:
    import matplotlib  # noqa: F401
    HAVE_MPL = True
except ImportError:
    HAVE_MPL = False


def images(fig):
    """The matrices drawn in a figure, panel by panel."""
    return [ax.get_images()[0].get_array().tolist() for ax in fig.axes if ax.get_images()]


@unittest.skipUnless(HAVE_MPL, "matplotlib is not installed (python3-matplotlib)")
class TestPictures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dyck = os.path.join(EXAMPLES, "dyck1_depth2.brasp")
        cls.model = brasp.load(convert(cls.dyck, os.path.join(tmpdir(), "dyck.json")))

    def test_hard_attention_is_one_cell_per_row(self):
        word = "llrrllrlrr"
        _, cache = self.model.run_with_cache([word])
        heads = [(l, h) for l, b in enumerate(self.model.blocks) for h in range(len(b.heads))]
        drawn = images(plot.attention(self.model, word))
        self.assertEqual(len(drawn), len(heads))
        for (l, h), m in zip(heads, drawn):
            att = cache["blocks.%d.heads.%d.hook_attended" % (l, h)][0].tolist()
            for i, row in enumerate(m):
                want = [1.0 if j == att[i] else 0.0 for j in range(len(word))]
                self.assertEqual(row, want, (l, h, i))

    def test_softmax_weights(self):
        path = os.path.join(tmpdir(), "dyck_softmax.json")
        common.brasp("convert", self.dyck, "--to", "transformer", "--softmax", "--max-length", "8", "-o", path)
        s = brasp.load(path)
        drawn = images(plot.attention(s, "llrrlr"))
        for m in drawn:
            for row in m:
                self.assertLessEqual(sum(row), 1 + 1e-9)  # the sink takes the rest
        # The weights concentrate where the hard model attends.
        _, cache = self.model.run_with_cache(["llrrlr"])
        first = [(l, h) for l, b in enumerate(self.model.blocks) for h in range(len(b.heads))][0]
        att = cache["blocks.%d.heads.%d.hook_attended" % first][0].tolist()
        for i, j in enumerate(att):
            if j >= 0:
                self.assertGreater(drawn[0][i][j], 0.5)

    def test_encoder_attention_replays_the_layers(self):
        from brasp.train import Config, Encoder
        torch.manual_seed(0)
        for mask in ("causal", "strict", "bidirectional"):
            enc = Encoder(Config(alphabet=["a", "b"], layers=2, heads=2, width=8, ff=16, mask=mask)).eval()
            drawn = images(plot.attention(enc, "abba"))
            self.assertEqual(len(drawn), 4)
            off = 1 if mask == "strict" else 0
            for m in drawn:
                self.assertEqual(len(m), 4)
                self.assertEqual(len(m[0]), 4 + off)
                for i, row in enumerate(m):
                    self.assertAlmostEqual(sum(row), 1.0, places=5)
                    if mask != "bidirectional":
                        self.assertTrue(all(w == 0 for w in row[i + off + 1:]), (mask, i, row))

    def test_residual_is_figure_2(self):
        word = "llrrllrlrr"
        _, cache = self.model.run_with_cache([word])
        fig = plot.residual(cache, word=word, operations=True)
        labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        self.assertEqual(labels, [lab for lab in self.model.labels if "." not in lab])
        got = images(fig)[0]
        post = cache.labelled("blocks.%d.hook_resid_post" % (len(self.model.blocks) - 1))
        for lab, row in zip(labels, got):
            self.assertEqual(row, post[lab][0].tolist(), lab)
        # The program's own vectors (brasp run --json) draw the same table.
        from brasp import cli
        run = cli.run(self.dyck, [word])[0]
        prog = images(plot.residual(run))[0]
        self.assertEqual(prog, [run["vectors"][k] for k in run["vectors"]])
        for lab in run["vectors"]:
            self.assertEqual(run["vectors"][lab], post[lab][0].tolist(), lab)

    def test_accuracy(self):
        doc = {"language": "x", "train_lengths": [1, 4],
               "per_length": [{"length": n, "accuracy": 1.0 / n} for n in range(1, 9)]}
        path = os.path.join(tmpdir(), "run")
        os.makedirs(path, exist_ok=True)
        with open(os.path.join(path, "accuracy.json"), "w") as f:
            json.dump(doc, f)
        fig = plot.accuracy({"a": doc, "b": path})
        lines = [ln for ln in fig.axes[0].get_lines() if len(ln.get_xdata()) > 2]
        self.assertEqual(len(lines), 2)
        for ln in lines:
            self.assertEqual(list(ln.get_ydata()), [1.0 / n for n in range(1, 9)])


class TestAutomata(unittest.TestCase):
    def test_dfa_edges(self):
        with open(os.path.join(EXAMPLES, "dyck1_depth2.dfa")) as f:
            text = f.read()
        dot = plot.automaton(text).dot
        trans = [line.split() for line in text.splitlines()
                 if len(line.split()) == 3 and not line.startswith(("#", "alphabet", "accept"))]
        self.assertGreater(len(trans), 3)
        for p, a, q in trans:
            self.assertRegex(dot, r'"%s" -> "%s" \[label="[^"]*\b%s\b' % (p, q, a))
        self.assertIn("doublecircle", dot)

    def test_symbolic_and_cascade(self):
        sym = "propositions a b\nstart 0\naccept 1\n0 1 a & !b\n1 1 true\n0 0 !a | b\n"
        dot = plot.automaton(sym).dot
        self.assertIn('"0" -> "1" [label="a & !b"]', dot)
        from brasp import cli
        cascade = cli.cascade(os.path.join(EXAMPLES, "dyck1_depth2.dfa"))
        dot = plot.automaton(cascade).dot
        for level in ("level 1", "level 2", "level 3"):
            self.assertIn(level, dot)
        self.assertEqual(dot.count("reset_"), 2 * cascade.count("reset to"))

    def test_bad_input(self):
        with self.assertRaises(plot.PlotError):
            plot.automaton("not an automaton\n")
        with self.assertRaises(plot.PlotError):
            plot.automaton("propositions a\nstart 0\naccept 0\nnode 0 a s1 s0\n")

    @unittest.skipUnless(shutil.which("dot"), "graphviz is not installed")
    def test_svg(self):
        g = plot.automaton(os.path.join(EXAMPLES, "parity.dfa"))
        self.assertIn("<svg", g._repr_svg_())
        self.assertTrue(g.png().startswith(b"\x89PNG"))

    def test_missing_dot_is_named(self):
        g = plot.automaton(os.path.join(EXAMPLES, "parity.dfa"))
        path = os.environ.get("PATH", "")
        os.environ["PATH"] = ""
        try:
            with self.assertRaises(plot.PlotError) as cm:
                g.svg()
        finally:
            os.environ["PATH"] = path
        self.assertIn("graphviz", str(cm.exception))


if __name__ == "__main__":
    unittest.main()
