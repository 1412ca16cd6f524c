"""brasp.cli against the brasp program: each function gives the verdicts
the CLI prints on the examples, and bad input raises BraspError with
brasp's own file:line:col message."""

import os
import subprocess
import unittest

import common  # noqa: F401  (puts the package on the path, finds the binary)
from common import EXAMPLES, tmpdir

from brasp import cli


def ex(name):
    return os.path.join(EXAMPLES, name)


def brasp(*args):
    """The CLI's own output and exit status."""
    p = subprocess.run([cli.binary()] + list(args), capture_output=True, text=True)
    return p.stdout, p.returncode


class TestVerdicts(unittest.TestCase):
    def test_equiv(self):
        pairs = [("dyck1_depth2.brasp", "dyck1_depth2.dfa"), ("dyck1_depth2.brasp", "dyck1_depth2.re"),
                 ("stair3.brasp", "stair3.ltl"), ("stair3.brasp", "stair4.brasp"), ("phi1.ltl", "phi2.ltl"),
                 ("ab_plus.brasp", "ab_plus.re"), ("dyck1_depth2.brasp", "dyck1_depth2.brasp")]
        for a, b in pairs:
            out, status = brasp("equiv", ex(a), ex(b))
            e = cli.equiv(ex(a), ex(b))
            self.assertEqual(e.equivalent, status == 0, (a, b))
            self.assertEqual(str(e).replace("'", '"'), out.strip(), (a, b))
            if not e.equivalent:
                # The counterexample separates them when run.
                acc = {x: cli.run(ex(x), [e.text])[0]["accept"] for x in (a, b)}
                self.assertNotEqual(acc[a], acc[b], (a, b, e))
                self.assertTrue(acc[os.path.basename(e.accepted_by)], e)

    def test_equiv_bounded(self):
        e = cli.equiv(ex("stair3.brasp"), ex("stair4.brasp"), up_to=3)
        self.assertFalse(e.equivalent)
        self.assertEqual((e.up_to, e.word), (3, ("a", "a", "a")))

    def test_classify(self):
        for name in ["dyck1_depth2.brasp", "parity.dfa", "aa_star.re", "stair3.ltl", "ab_plus.re", "a3.dfa"]:
            out, status = brasp("classify", ex(name))
            self.assertEqual(status, 0)
            lines = dict(line.split(": ", 1) for line in out.splitlines() if not line.startswith(" "))
            c = cli.classify(ex(name))
            yes = {True: "yes", False: "no"}
            self.assertEqual(yes[c.star_free], lines["star-free"], name)
            self.assertEqual(yes[c.stutter_invariant], lines["stutter-invariant"], name)
            self.assertEqual(yes[c.ac0], lines["ac0"], name)
            self.assertEqual(str(c.dfa_states), lines["dfa-states"], name)
            if c.star_free_witness:
                self.assertIn(c.star_free_witness.description, out)
                w = c.star_free_witness
                got = [r["accept"] for r in cli.run(ex(name), [w.at_zero, w.at_one])]
                self.assertEqual(got, [w.accepted_at_zero, not w.accepted_at_zero], name)
            if c.stutter_witness:
                self.assertIn(c.stutter_witness.description, out)
                w = c.stutter_witness
                self.assertEqual([r["accept"] for r in cli.run(ex(name), [w.accepted, w.rejected])], [True, False])
            self.assertEqual(c.star_free, c.star_free_witness is None)

    def test_count_and_sample(self):
        counts = cli.count(ex("dyck1_depth2.brasp"), "1:12")
        out, _ = brasp("count", ex("dyck1_depth2.brasp"), "--lengths", "1:12", "--json")
        self.assertEqual(len(counts), len(out.splitlines()))
        self.assertEqual([(k.length, k.accepted) for k in counts][:4], [(1, 0), (2, 1), (3, 0), (4, 2)])
        words = cli.sample(ex("dyck1_depth2.brasp"), "1:6", all=True)
        self.assertEqual(len(words), sum(2 ** n for n in range(1, 7)))
        self.assertEqual(sum(x.accepted for x in words), sum(k.accepted for k in counts[:6]))
        verdicts = cli.run(ex("dyck1_depth2.brasp"), [x.text for x in words])
        self.assertEqual([r["accept"] for r in verdicts], [x.accepted for x in words])
        s = cli.sample(ex("dyck1_depth2.brasp"), "8:10", count=6, balanced=True, seed=7)
        self.assertEqual(s, list(cli.iter_sample(ex("dyck1_depth2.brasp"), "8:10", count=6, balanced=True, seed=7)))
        # Half of each even length; length 9 has no accepted word.
        self.assertEqual(sum(x.accepted for x in s), 6)

    def test_convert_and_learn(self):
        d = tmpdir()
        ltl = cli.convert(ex("dyck1_depth2.brasp"), "ltl")
        self.assertIn("since", ltl)
        path = cli.convert(ex("dyck1_depth2.brasp"), "transformer", out=os.path.join(d, "m.json"), multihead=True)
        self.assertTrue(cli.equiv(path, ex("dyck1_depth2.dfa")).equivalent)
        learned = cli.learn(ex("dyck1_depth2.brasp"), out=os.path.join(d, "l.dfa"))
        self.assertEqual(learned.states, 5)
        self.assertIn("equivalent to the target", learned.verdict)
        self.assertTrue(cli.equiv(os.path.join(d, "l.dfa"), ex("dyck1_depth2.brasp")).equivalent)
        prog = cli.learn(ex("stair3.ltl"), to="brasp", out=os.path.join(d, "l.brasp"))
        self.assertTrue(cli.equiv(prog.output, ex("stair3.ltl")).equivalent)

    def test_depth(self):
        d = cli.depth(ex("dyck1_depth2.brasp"))
        out, _ = brasp("depth", ex("dyck1_depth2.brasp"), "--json")
        self.assertEqual((d.lower, d.upper), (3, 3))
        self.assertIn('"lower": %d' % d.lower, out)
        w = d.witness
        verdicts = [r["accept"] for r in cli.run(ex("dyck1_depth2.brasp"), [w["in"], w["out"]])]
        self.assertEqual(verdicts, [True, False])


class TestBadInput(unittest.TestCase):
    def setUp(self):
        self.dir = tmpdir()
        self.bad = os.path.join(self.dir, "bad.brasp")
        with open(self.bad, "w") as f:
            f.write("Q_a(i)\nY(i) := Q_b(i) &\n")

    def test_brasp_message(self):
        calls = [lambda: cli.classify(self.bad), lambda: cli.equiv(self.bad, ex("dyck1_depth2.dfa")),
                 lambda: cli.count(self.bad), lambda: cli.sample(self.bad), lambda: list(cli.iter_sample(self.bad)),
                 lambda: cli.convert(self.bad, "ltl"), lambda: cli.learn(self.bad), lambda: cli.depth(self.bad),
                 lambda: cli.run(self.bad, ["ab"])]
        for call in calls:
            with self.assertRaises(cli.BraspError) as cm:
                call()
            msg = str(cm.exception)
            self.assertRegex(msg, r"^%s:2:\d+: " % self.bad)
            self.assertNotIn("Traceback", msg)
            self.assertNotIn("CalledProcessError", msg)

    def test_limits_and_flags(self):
        with self.assertRaises(cli.BraspError) as cm:
            cli.sample(ex("dyck1_depth2.brasp"), "1:40", all=True)
        self.assertIn("--limit all-words=", str(cm.exception))
        with self.assertRaises(cli.BraspError) as cm:
            cli.convert(ex("dyck1_depth2.brasp"), "nonsense")
        self.assertIn("nonsense", str(cm.exception))
        with self.assertRaises(cli.BraspError):
            cli.equiv(ex("dyck1_depth2.brasp"), os.path.join(self.dir, "missing.dfa"))


if __name__ == "__main__":
    unittest.main()
