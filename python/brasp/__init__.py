"""brasp transformers in PyTorch.

``brasp.load(path)`` reads a model written by brasp (``brasp convert
p.brasp --to transformer -o m.json`` or ``-o m.safetensors``; the formats are
documented in the Go package ``transformer``) into a :class:`torch.nn.Module`
that runs masked unique-hard attention exactly as brasp defines it: the five
masks (none, future j<i, past j>i, future-or-self, past-or-self), leftmost
and rightmost tie-breaks, the zero vector when the mask leaves no position,
post layer norms, position terms (rational sinusoids, first, last, mid, mod)
and acceptor or transducer outputs::

    import brasp
    m = brasp.load("dyck.safetensors")
    m.accepts(["llrr", "lrr"])             # [True, False]
    t = brasp.load("recall.json")
    t.transduce(["a3b2b1a2c1a1c3"])        # [['a', '?', 'b', ...]]
    scores, cache = m.run_with_cache(["llrr"])
    cache["blocks.0.heads.0.hook_attended"]   # attended positions, −1 for none
    cache.labelled("blocks.2.hook_resid_post")["Y"]

Models over propositions (``brasp convert f.ltlf --to transformer``) read
traces of proposition sets through a multi-hot token embedding: each step
is the vector h ∈ {0,1}^k of its true propositions, embedded as
``embedding_bias + h @ embedding`` (one row per proposition plus a bias
row, as in the Go package's JSON and safetensors formats).  They take
traces wherever letter models take words, written as ``brasp run`` writes
them or as sequences of sets of names (:mod:`brasp.traces`), and a batched
tensor form of multi-hot rows [B, n, k] in ``forward``, ``accepts`` and
``run_with_cache``::

    m = brasp.load("spec.safetensors")     # from G(a -> X b)
    m.propositions                         # ['a', 'b']
    m.accepts(["a;b", "a;a", [{"a", "b"}, set()]])   # [True, False, False]
    hot, lengths = m.multi_hot(["a;b", "a,b;;b"])    # shape [2, 3, 2]; [2, 3]
    m.accepts((hot, lengths))
    m(hot, lengths)                        # output scores

The multi-hot rows must hold 0 or 1; the embedding is certified exact like
every other linear operation, and softmax exports of such models (certified
over all 2^k steps) load and run traces the same way.

A word is a string of one-character symbols (symbols separated by spaces
when some symbol is longer) or a list of symbols.  Words of one length run
as one batch; ``accepts``/``transduce`` group words by length, and
``forward(tokens, lengths)`` also takes padded batches.  Every layer, head,
FFN and norm is a submodule, and every intermediate value passes through a
named :class:`HookPoint`, so ``register_forward_hook`` works as usual and
``run_with_cache`` records every residual stream (labelled with brasp's
coordinate names: ``m.labels``) and each head's attended positions.  The
module moves to any device with ``.to(device)``.

Two attention algorithms give the same result: ``dense`` (every query
against every key, O(n²·d) per head, the definition) and ``classes``
(brasp's fast pass batched: positions grouped by activation vector, of which
there are finitely many (Lemma 4.3); per key vector only the occurrence its
mask and tie-break make best can win, found with cumulative max/min; O(n·K)
for K distinct vectors).  ``set_method`` picks one; ``auto`` uses classes
when K is small against n.  K counts the distinct vectors of the whole
batch, and the classes pass holds a [B, n, K] table: over propositions a
batch of random traces can bring K towards 2^k distinct steps, where
``auto`` picks dense (forcing classes there costs B·n·K memory).

When no hook is registered and every head is hard, ``forward`` (and so
``accepts``, ``transduce``) runs the class-tracked pass instead
(:mod:`brasp.classpass`): it never forms the [B, n, d] activations, only
each position's class [B, n] and the table of distinct vectors [K, d]; a
layer's new classes are the distinct tuples (class, attended class of each
head), its arithmetic and exactness checks run once per class, so checks
cost O(K·d) per layer and memory is linear in the batch.  With a hook, the
pass goes module by module (same result) so hooks see every activation.
A causal model (every head masked to earlier positions, no length-dependent
position term: ``m.causal``) gives every prefix's verdict in the one pass:
``prefix_scores``, ``prefix_accepts``.

Exactness.  Hard attention compares scores, so a pass that rounds may attend
elsewhere.  The module computes in float64 (by default) and certifies every
linear operation before it runs (``brasp.exactness``): each operand is an
integer multiple of a power of two read off its float bits (its quantum),
and when the sum of the absolute values of the terms is below 2^52 quanta
of the product, every product and every partial sum — in any summation
order, so BLAS and GPU reductions included — is a multiple of that quantum
below 2^53 of them, hence a float64: nothing rounds, and the float64 scores
are the exact rational scores the Go side computes (it checks every
operation with FMA/TwoSum and falls back to exact rationals).  For compiled
models this always holds: parameters are small dyadic numbers (0, ±½, ±1,
small integers), activations are 0/1 truth values, and sums have at most
width terms, so float64 is exact below widths of about 2^50.  Layer norm
divides by σ: it is computed exactly per distinct row in rationals (σ as
brasp defines it) and its outputs must be floats.  Sinusoid position values
follow brasp's definition (exact at multiples of 1/12, otherwise the float32
rounding of the float64 sine).  When a check fails the pass raises
:class:`InexactError`; ``accepts`` and ``transduce`` then rerun the words in
the exact rational reference pass (:mod:`brasp.exact`).  ``set_checks(False)``
turns the checks off (for timing, or for float32 experiments).

Softmax exports (``brasp convert --to transformer --softmax --max-length
N``) load as :class:`brasp.softmax.SoftmaxModel`: standard softmax attention
with a position bias and a sink, certified to agree with the hard model on
words of length ≤ N; they run in float64 or float32 (``dtype=``), and
``float32_safe_length()`` estimates where float32 stops being safe.
"""

from .exactness import InexactError
from .hooks import Cache, HookPoint
from .loading import load
from .model import Model
from .spec import FormatError, Spec, read
from . import traces

__all__ = ["load", "Model", "Cache", "HookPoint", "InexactError", "FormatError", "Spec", "read", "traces"]
