#!/usr/bin/python3
"""Writes docs/tour.ipynb, the paper in one notebook, and executes it so
that it is stored with its outputs:

    /usr/bin/python3 docs/make_tour.py            # rewrites docs/tour.ipynb (about a minute)
    /usr/bin/python3 docs/make_tour.py --out X    # writes X instead (the test compares it with the stored one)

The cells are below; the notebook is executed by nbconvert's
ExecutePreprocessor (Debian: jupyter-nbconvert python3-ipykernel) in the
docs directory, with the package of this checkout and the brasp program
found as brasp.train finds it ($BRASP, $BRASP_BIN, the PATH, or built
from this checkout).  Seeds are fixed; cells tagged ``volatile`` print
what depends on the machine's floating point (a training run), which the
test compares by the kind of output only.
"""

import argparse
import os
import sys

import nbformat
from nbconvert.preprocessors import ExecutePreprocessor

DOCS = os.path.dirname(os.path.abspath(__file__))

CELLS = []


def md(text):
    CELLS.append(nbformat.v4.new_markdown_cell(text.strip()))


def code(text, volatile=False):
    cell = nbformat.v4.new_code_cell(text.strip())
    if volatile:
        cell.metadata["tags"] = ["volatile"]
    CELLS.append(cell)


md("""
# A tour of brasp: the paper in one notebook

*Masked Hard-Attention Transformers Recognize Exactly the Star-Free
Languages* (Yang, Chiang, Angluin, NeurIPS 2024) proves that B-RASP
programs, masked unique-hard-attention transformers, LTL with strict
since/until, counter-free automata and star-free languages are the same
thing. brasp turns each proof into a converter. This notebook walks the
paper's running example, Dyck-1 of depth 2, through all of them, from
Python: `brasp.cli` runs brasp's commands and returns Python values,
`brasp.load` runs compiled transformers in PyTorch, `brasp.plot` draws.

Regenerate it with `/usr/bin/python3 docs/make_tour.py` (it is executed in
CI, and a test checks that the stored outputs are those of the current
code).
""")

code("""
import os, pathlib, shutil, sys, tempfile, warnings
warnings.filterwarnings("ignore", message="IProgress not found")   # tqdm without ipywidgets

REPO = pathlib.Path.cwd().resolve().parent          # the notebook runs in docs/
sys.path.insert(0, str(REPO / "python"))            # this checkout's package
os.environ["PYTHONPATH"] = str(REPO / "python")     # ... for the teacher brasp learn starts

import torch
import brasp
from brasp import cli, plot

os.chdir(tempfile.mkdtemp(prefix="brasp-tour-"))    # files the tour writes go here
for name in ["dyck1_depth2.brasp", "dyck1_depth2.dfa", "parity.dfa"]:
    shutil.copy(REPO / "examples" / name, name)
_ = torch.manual_seed(0)
""")

md("""
## 1. Dyck-1 of depth 2 as a B-RASP program (§2, Figure 2)

The language L₁,₂ of balanced brackets `l`/`r` nested at most twice. Each
line of the program computes a Boolean vector over the positions; `Y` at
the last position is the verdict.
""")

code("""
print(open("dyck1_depth2.brasp").read())
""")

md("""
`brasp run --table` prints the paper's Figure 2: every vector on
`llrrllrlrr`. `cli.run` gives the same vectors as Python values, and
`plot.residual` draws them.
""")

code("""
print(cli.table("dyck1_depth2.brasp", "llrrllrlrr"))
""")

code("""
run = cli.run("dyck1_depth2.brasp", ["llrrllrlrr", "lrrl"])
print([(r["input"], r["accept"]) for r in run])
plot.residual(run[0])
""")

md("""
## 2. To LTL and back (Theorems 3.3 and 3.2)

Every B-RASP program is an LTL formula with strict since/until
(Theorem 3.3), and every such formula is a B-RASP program (Theorem 3.2).
`cli.equiv` decides equivalence exactly (through minimal DFAs) and, when
two inputs differ, returns a shortest word that tells them apart.
""")

code("""
cli.convert("dyck1_depth2.brasp", "ltl", out="dyck.ltl")
print(open("dyck.ltl").read())
cli.convert("dyck.ltl", "brasp", out="back.brasp")
print(cli.equiv("dyck1_depth2.brasp", "dyck.ltl"))
print(cli.equiv("dyck.ltl", "back.brasp"))
""")

code("""
# Not equivalent: a shortest word on which they differ, and who accepts it.
e = cli.equiv("dyck1_depth2.brasp", "parity.dfa")
print(e.equivalent, e.word, "accepted by", e.accepted_by)
""")

md("""
## 3. Compile to a transformer (Theorem 4.1) and run it in PyTorch

`brasp convert --to transformer` compiles the program into a masked
unique-hard-attention transformer; `brasp.load` reads it as a
`torch.nn.Module` that computes exactly (float64, every operation
certified exact). `run_with_cache` records every hook point, TransformerLens
style.
""")

code("""
cli.convert("dyck1_depth2.brasp", "transformer", out="dyck.safetensors")
m = brasp.load("dyck.safetensors")
print(len(m.blocks), "layers,", sum(len(b.heads) for b in m.blocks), "heads, width", m.width)
print(m.accepts(["llrrllrlrr", "lrrl", "llrr", "lllrrr"]))
""")

md("""
Which position each position attends, in every layer with a head: hard
attention is one cell per row (an empty row: the mask left no position,
and the head returns its default). The strict future masks (`j<i`,
rightmost) find the previous symbol; the past masks (`j>i`, leftmost) the
next one.
""")

code("""
plot.attention(m, "llrrllrlrr")
""")

md("""
The last layer's residual stream, labelled with brasp's coordinate names
(`operations=True` keeps the program's own vectors): the compiled model
holds Figure 2's table.
""")

code("""
scores, cache = m.run_with_cache(["llrrllrlrr"])
print("score", scores.tolist(), "accept", bool(scores[0] >= 0))
print(cache.labelled("blocks.%d.hook_resid_post" % (len(m.blocks) - 1))["Y"].tolist())
plot.residual(cache, word="llrrllrlrr", operations=True)
""")

md("""
The certified softmax export (`--softmax --max-length N`) runs standard
softmax attention, proven to agree with the hard model on every word up to
length N; its heads' weights concentrate where the hard heads attend.
""")

code("""
cli.convert("dyck1_depth2.brasp", "transformer", out="dyck_softmax.json", softmax=True, max_length=12)
s = brasp.load("dyck_softmax.json")
print(s.accepts(["llrrllrlrr", "lrrl"]), "certified up to length", s.max_length)
plot.attention(s, "llrrllrlrr")
""")

md("""
## 4. Decompile (Theorem 4.2)

Any such transformer is a B-RASP program: the decompiler reads the
model's weights back into one, and `equiv` proves it equivalent to the
original program.
""")

code("""
print(cli.convert("dyck.safetensors", "brasp"))
cli.convert("dyck.safetensors", "brasp", out="decompiled.brasp")
print(cli.equiv("decompiled.brasp", "dyck1_depth2.brasp"))
""")

md("""
## 5. The minimal DFA and the classification (§5)

`cli.classify` answers star-free (the languages of these transformers),
stutter-invariant (non-strict masks, §5.2) and AC⁰ (position embeddings,
§5.3), each "no" with a witness that a program can run.
""")

code("""
c = cli.classify("dyck1_depth2.brasp")
print("star-free:", c.star_free, "| stutter-invariant:", c.stutter_invariant, "| AC0:", c.ac0, "|", c.dfa_states, "states")
print("witness:", c.stutter_witness.description)
print(m.accepts([c.stutter_witness.accepted, c.stutter_witness.rejected]))
for t in c.transformers:
    print(" ", t["name"] + ":", t["recognises"])
plot.automaton(c, title="minimal DFA of Dyck-1 of depth 2")
""")

md("""
A language that counts is not star-free: parity of `b`s, with the word
that counts modulo 2.
""")

code("""
p = cli.classify("parity.dfa")
print("star-free:", p.star_free, "| AC0:", p.ac0)
print("witness:", p.star_free_witness.description)
""")

md("""
Star-free languages are those of counter-free automata, which the
Krohn–Rhodes theorem decomposes into a cascade of identity–reset
automata (Appendix B.4: each level becomes one layer of rightmost
future-masked attention).
""")

code("""
plot.automaton(cli.cascade("dyck1_depth2.dfa"))
""")

md("""
## 6. Depth bounds with certificates (Theorem 5.6, Appendix C)

`cli.depth` brackets the attention depth the language needs: the upper
bound with a program of that depth, the lower bound with two words that
no program of smaller depth tells apart (an Ehrenfeucht–Fraïssé game
certificate), though the language does.
""")

code("""
d = cli.depth("dyck1_depth2.brasp")
print("depth between", d.lower, "and", d.upper)
print("certificate: depth", d.witness["depth"], "cannot tell", d.witness["in"], "from", d.witness["out"])
print(m.accepts([d.witness["in"], d.witness["out"]]))
print(d.program_source)
""")

md("""
## 7. Exact data, a trained softmax transformer, and learning it back

`cli.count` counts the words of each length exactly and `cli.sample`
draws labelled words uniformly (balanced: half accepted).
`brasp.train` trains a small standard PyTorch encoder on such samples;
its accuracy drops past the training lengths.
""")

code("""
print([(k.length, k.accepted, k.total) for k in cli.count("dyck1_depth2.brasp", "1:8")])
for x in cli.sample("dyck1_depth2.brasp", "6:6", count=4, balanced=True, seed=3):
    print(x.text, x.accepted)
""")

code("""
import brasp.train
doc = brasp.train.train(brasp.train.Options(
    file="dyck1_depth2.brasp", out="trained", train_lengths="1:12", test_lengths="1:24",
    steps=300, eval_every=50, width=16, ff=32, layers=2, heads=2, train_count=100, val_count=20,
    test_count=20, exhaustive=2000, progress="none", device="cpu", threads=1, seed=1), log=lambda line: None)
rows = doc["per_length"]
print("accuracy on lengths 1-12: %.2f, on 13-24: %.2f" % (
    sum(r["accuracy"] for r in rows if r["length"] <= 12) / 12,
    sum(r["accuracy"] for r in rows if r["length"] > 12) / 12))
print("first word it gets wrong:", doc["exhaustive"]["first_error"]["word"])
plot.accuracy("trained")
""", volatile=True)

code("""
t = brasp.train.load_model("trained")
plot.attention(t, "llrrllrlrr")
""", volatile=True)

md("""
`brasp learn` extracts the minimal DFA of what the trained model
recognises, asking it questions through `brasp.teacher` (a membership
server: one forward pass per batch of words, every prefix at once for a
causal model). Up to length 16 the learned automaton is the model's
language; `equiv` compares it with the target and finds where the model
is wrong.
""")

code("""
learned = cli.learn(command=[sys.executable, "-m", "brasp.teacher", "--model", "trained", "--prefixes"],
                    alphabet="l r", prefixes=True, max_length=16, out="learned.dfa")
print("learned", learned.states, "states from", learned.stats["membership_queries"], "words")
e = cli.equiv("learned.dfa", "dyck1_depth2.brasp")
print("equivalent to the target:", e.equivalent, "| shortest difference:", e.text, "accepted by", e.accepted_by)
print("the trained model on it:", t.accepts([e.text]), "| the target:", m.accepts([e.text]))
""", volatile=True)

md("""
The exact target learned the same way is the five-state DFA above:
""")

code("""
exact = cli.learn("dyck1_depth2.brasp", out="exact.dfa")
print(exact.verdict)
print(cli.equiv("exact.dfa", "dyck1_depth2.dfa"))
""")

md("""
## 8. A trained hard-attention transformer, decompiled and checked

`brasp.train --attention hard` trains the paper's own model (unique-hard
attention over categorical variables, through an annealed relaxation) and
writes it as `hard.safetensors` in brasp's model format. The decompiler
(Theorem 4.2) turns it into a B-RASP program, and `equiv` proves it right
at every length or gives the shortest word where it is wrong. Here it is
trained on (ab)⁺, with the command's defaults for `--attention hard`.
""")

code("""
shutil.copy(REPO / "examples" / "ab_plus.re", "ab_plus.re")
import subprocess
trained = subprocess.run([sys.executable, "-m", "brasp.train", "ab_plus.re", "--attention", "hard", "--out", "hard",
                      "--device", "cpu", "--threads", "1", "--progress", "none", "--seed", "3"],
                     capture_output=True, text=True, check=True)
print(trained.stdout.strip().splitlines()[-1])   # the command's own verdict, by brasp equiv
print(cli.convert("hard/hard.safetensors", "brasp"))
e = cli.equiv("hard/hard.safetensors", "ab_plus.re")
print(e)
h = brasp.load("hard/hard.safetensors")
if not e.equivalent:
    print("the trained model on %s: %s" % (e.text, h.accepts([e.text])))
plot.attention(h, "abababab")
""", volatile=True)


def build(out, timeout=600):
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")  # the kernel's debugger warning
    nb = nbformat.v4.new_notebook()
    nb.cells = list(CELLS)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    ExecutePreprocessor(timeout=timeout, kernel_name="python3").preprocess(nb, {"metadata": {"path": DOCS}})
    for cell in nb.cells:
        # Execution counts and timestamps vary between runs.
        cell.metadata.pop("execution", None)
    nbformat.write(nb, out)


def main():
    ap = argparse.ArgumentParser(description="write and execute docs/tour.ipynb")
    ap.add_argument("--out", default=os.path.join(DOCS, "tour.ipynb"))
    args = ap.parse_args()
    try:
        build(args.out)
    except Exception as e:  # a failing cell: nbconvert's message names the cell and the error
        print("make_tour: %s" % e, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
