"""brasp.teacher: the membership server brasp learn --command talks to."""

import io
import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
import unittest

import torch

from common import EXAMPLES, convert, go_run, python_env, run_main, tmpdir

from brasp import teacher


def serve(server, text):
    out = io.StringIO()
    server.serve(stdin=BytesIn(text), stdout=out)
    return out.getvalue().splitlines()


class BytesIn:
    def __init__(self, text):
        self.b = io.BytesIO(text if isinstance(text, bytes) else text.encode())

    def read(self, n):
        return self.b.read(n)


def words_up_to(alphabet, n):
    return ["".join(t) for k in range(1, n + 1) for t in itertools.product(alphabet, repeat=k)]


def server_cmd(*args):
    return [sys.executable, "-m", "brasp.teacher"] + list(args), python_env()


class TestServer(unittest.TestCase):
    def parity(self, words):
        return [w.count("a") % 2 == 0 for w in words]

    def test_plain_answers_in_order_in_few_passes(self):
        s = teacher.Server(lambda ws: self.parity(["".join(w) for w in ws]), ["a", "b"], batch_size=1000)
        words = words_up_to("ab", 8)
        got = serve(s, "".join(w + "\n" for w in words))
        self.assertEqual(got, ["accept" if p else "reject" for p in self.parity(words)])
        self.assertEqual(s.stats.words, len(words))
        self.assertLessEqual(s.stats.passes, 1)  # every line arrived before the server looked

    def test_batch_size_bounds_a_pass(self):
        s = teacher.Server(lambda ws: [True] * len(ws), ["a"], batch_size=7)
        serve(s, "a\n" * 30)
        self.assertEqual(s.stats.largest, 7)
        self.assertEqual(s.stats.passes, 5)

    def test_prefixes_without_a_prefix_model(self):
        s = teacher.Server(lambda ws: self.parity(["".join(w) for w in ws]), ["a", "b"], prefixes=True)
        got = serve(s, "abba\nbab\n")
        self.assertEqual(got, ["0001", "100"])

    def test_prefix_model_answers_in_one_pass(self):
        calls = []

        def pf(ws):
            calls.append(len(ws))
            return [[w[:i + 1].count("a") % 2 == 0 for i in range(len(w))] for w in ws]

        s = teacher.Server(None, ["a", "b"], prefixes=True, prefix_fn=pf)
        self.assertEqual(serve(s, "abba\nbab\n"), ["0001", "100"])
        self.assertEqual(calls, [2])

    def test_separated_symbols(self):
        s = teacher.Server(lambda ws: [w == ["x1", "y"] for w in ws], ["x1", "y"])
        self.assertEqual(serve(s, "x1 y\ny x1\n"), ["accept", "reject"])

    def test_symbol_outside_the_alphabet(self):
        s = teacher.Server(lambda ws: [True] * len(ws), ["a", "b"])
        with self.assertRaisesRegex(teacher.TeacherError, r"line 2: 'c' is not in the alphabet a b"):
            serve(s, "ab\nac\n")

    def test_bad_lines_after_the_good_ones(self):
        # Every line goes one way: one that is not UTF-8, or longer than
        # the bound (ended or not), is named after the lines before it
        # are answered.
        for data, max_line, pattern in [
                (b"ab\n\xff\xfeb\nab\n", 100, r"^line 2: not UTF-8 \(byte 0xff at offset 0\)$"),
                (b"ab\na\xc3(\n", 100, r"^line 2: not UTF-8 \(byte 0xc3 at offset 1\)$"),
                (b"ab\n" + b"a" * 50 + b"\n", 10, r"^line 2: longer than 10 bytes$"),
                (b"ab\n" + b"a" * 50, 10, r"^line 2: longer than 10 bytes$")]:
            s = teacher.Server(lambda ws: [True] * len(ws), ["a", "b"])
            out = io.StringIO()
            with self.assertRaisesRegex(teacher.TeacherError, pattern):
                s.serve(stdin=BytesIn(data), stdout=out, max_line=max_line)
            self.assertEqual(out.getvalue(), "accept\n", data[:12])

    def test_a_line_without_end_is_read_in_pieces(self):
        s = teacher.Server(lambda ws: [len(w) == 3 for w in ws], ["a", "b"])
        self.assertEqual(serve(s, "ab\r\nabb"), ["reject", "accept"])

    def test_wrong_number_of_verdicts(self):
        s = teacher.Server(lambda ws: [True], ["a"])
        with self.assertRaisesRegex(teacher.TeacherError, "1 verdicts for 2 words"):
            serve(s, "a\naa\n")

    def test_serve_membership_wraps_a_model(self):
        torch.manual_seed(0)
        from brasp.train import Config, Encoder
        m = Encoder(Config(alphabet=["a", "b"], layers=1, heads=1, width=8, ff=8)).eval()
        words = words_up_to("ab", 5)
        out = io.StringIO()
        st = teacher.serve_membership(m, ["a", "b"], prefixes=True, stdin=BytesIn("".join(w + "\n" for w in words)), stdout=out)
        want = m.accepts(words)
        got = out.getvalue().splitlines()
        self.assertEqual([g[-1] == "1" for g in got], want)
        self.assertEqual(st.passes, 1)


class TestCommand(unittest.TestCase):
    """python3 -m brasp.teacher on model files, through pipes as brasp learn
    runs it: as a process (run_server), or as the command's main in this
    process reading a pipe (run_main_on_pipe), which spares a process its
    seconds of importing PyTorch."""

    def run_server(self, args, text):
        cmd, env = server_cmd(*args)
        return subprocess.run(cmd, input=text, capture_output=True, text=True, env=env, cwd=tmpdir(), timeout=300)

    def run_main_on_pipe(self, args, text):
        """teacher.main(args) with text written to a pipe that is its
        standard input, as the process's would be (the server reads the
        pipe's file descriptor): a CompletedProcess of its exit code and
        what it printed."""
        r, w = os.pipe()

        def feed():
            try:
                with os.fdopen(w, "wb") as f:
                    f.write(text.encode())
            except BrokenPipeError:  # the server stopped reading at a bad line
                pass

        feeder = threading.Thread(target=feed)
        feeder.start()
        saved = sys.stdin
        sys.stdin = io.TextIOWrapper(os.fdopen(r, "rb"))
        try:
            code, out, err = run_main(teacher.main, *args)
        finally:
            sys.stdin.close()
            sys.stdin = saved
            feeder.join()
        return subprocess.CompletedProcess(args, code, out, err)

    def test_compiled_model_agrees_with_brasp_run(self):
        model = convert(os.path.join(EXAMPLES, "dyck1_depth2.brasp"), os.path.join(tmpdir(), "teacher_dyck.json"))
        words = words_up_to("lr", 8)
        stats = os.path.join(tmpdir(), "teacher_stats.json")
        p = self.run_server(["--model", model, "--stats", stats, "--device", "cpu"], "".join(w + "\n" for w in words))
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.splitlines(), go_run(model, words))
        st = json.load(open(stats))
        self.assertEqual(st["words"], len(words))
        self.assertIn("forward passes", p.stderr)

    def test_compiled_causal_model_prefixes(self):
        model = convert(os.path.join(EXAMPLES, "dyck1_depth2.re"), os.path.join(tmpdir(), "teacher_dyck_re.json"))
        words = words_up_to("lr", 7)
        p = self.run_server(["--model", model, "--prefixes"], "".join(w + "\n" for w in words))
        self.assertEqual(p.returncode, 0, p.stderr)
        verdict = dict(zip(words, go_run(model, words)))
        lines = p.stdout.splitlines()
        self.assertEqual(len(lines), len(words))
        for w, line in zip(words, lines):
            self.assertEqual(line, "".join("1" if verdict[w[:i]] == "accept" else "0" for i in range(1, len(w) + 1)), w)
        self.assertIn("forward passes", p.stderr)

    def test_trained_model_plain_and_prefixes(self):
        torch.manual_seed(3)
        from brasp.train import Config, Encoder, save_model
        m = Encoder(Config(alphabet=["a", "b"], layers=1, heads=2, width=8, ff=16, mask="causal")).eval()
        d = tempfile.mkdtemp(dir=tmpdir())
        save_model(m, d)
        words = words_up_to("ab", 6)
        text = "".join(w + "\n" for w in words)
        plain = self.run_main_on_pipe(["--model", d], text)
        self.assertEqual(plain.returncode, 0, plain.stderr)
        want = ["accept" if v else "reject" for v in m.accepts(words)]
        self.assertEqual(plain.stdout.splitlines(), want)
        pre = self.run_main_on_pipe(["--model", os.path.join(d, "model.safetensors"), "--prefixes"], text)
        self.assertEqual(pre.returncode, 0, pre.stderr)
        lines = pre.stdout.splitlines()
        self.assertEqual(len(lines), len(words))
        verdict = dict(zip(words, want))
        for w, line in zip(words, lines):
            self.assertEqual(len(line), len(w))
            for i, c in enumerate(line):  # each prefix's answer is that word's own answer
                self.assertEqual(c == "1", verdict[w[:i + 1]] == "accept", (w, i))

    def test_word_past_learned_positions(self):
        # A model with learned positions reads no word past its last one:
        # such a word is named with the bound brasp learn should keep, after
        # the words before it are answered, never a traceback.
        torch.manual_seed(5)
        from brasp.train import Config, Encoder, save_model
        m = Encoder(Config(alphabet=["a", "b"], layers=1, heads=1, width=8, ff=8, mask="causal",
                           position="learned", n_positions=4)).eval()
        d = tempfile.mkdtemp(dir=tmpdir())
        save_model(m, d)
        for args in ([], ["--prefixes"]):
            p = self.run_main_on_pipe(["--model", d] + args, "abab\nababa\nab\n")
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertEqual(len(p.stdout.splitlines()), 1, p.stdout)
            self.assertIn("brasp.teacher: line 2: a word of 5 letters is longer than the model reads "
                          "(its 4 learned positions); learn within it: brasp learn --max-length 4", p.stderr)
            self.assertNotIn("Traceback", p.stderr)

    def test_bad_input(self):
        model = convert(os.path.join(EXAMPLES, "dyck1_depth2.brasp"), os.path.join(tmpdir(), "teacher_dyck2.json"))
        p = self.run_main_on_pipe(["--model", model], "lr\nlx\n")
        self.assertEqual(p.returncode, 2)
        self.assertIn("line 2: 'x' is not in the alphabet", p.stderr)
        p = subprocess.run(server_cmd("--model", model)[0], input=b"lr\n\xffr\n", capture_output=True,
                           env=python_env(), cwd=tmpdir(), timeout=300)
        self.assertEqual((p.returncode, p.stdout), (2, b"accept\n"), p.stderr)
        self.assertIn(b"brasp.teacher: line 2: not UTF-8 (byte 0xff at offset 0)", p.stderr)
        self.assertNotIn(b"Traceback", p.stderr)
        # Settings refused before the first word is read: the command's main
        # in this process (a process each would import PyTorch again).
        code, out, err = run_main(teacher.main, "--model", model, "--stats", os.path.join(tmpdir(), "nodir", "s.json"))
        self.assertEqual((code, out), (2, ""), err)
        self.assertIn("--stats", err)
        code, _, err = run_main(teacher.main, "--model", model, "--alphabet", "a b")
        self.assertEqual(code, 2)
        self.assertIn("differs from the model's alphabet", err)
        code, _, err = run_main(teacher.main, "--model", os.path.join(tmpdir(), "missing.json"))
        self.assertEqual(code, 2)
        self.assertIn("missing.json", err)
        if not torch.cuda.is_available():
            code, _, err = run_main(teacher.main, "--model", model, "--device", "cuda")
            self.assertEqual(code, 2)
            self.assertIn("no CUDA", err)


if __name__ == "__main__":
    unittest.main()
