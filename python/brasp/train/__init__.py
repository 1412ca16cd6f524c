"""Training softmax transformers on any language brasp reads.

``python3 -m brasp.train FILE [options]`` trains a standard PyTorch
transformer encoder to tell the words of FILE's language (any kind brasp
reads: .brasp, .ltl, .re, .dfa, a model...) from the others, and measures
where it succeeds::

    python3 -m brasp.train ../examples/ab_plus.re --train-lengths 1:16 --steps 800 --out ab
    # brasp.train: ../examples/ab_plus.re: 800 steps in 81.8 s; accuracy 100.0% on lengths 1–16
    #   (training); 88.0% on 17–64 (longer), first error at length 20; all 16382 words up to
    #   length 13: 99.61%, first wrong 'abaababb' (rejected by the language); saved to ab/model.safetensors

Data.  Every word and label comes from the brasp program (found at
``--brasp``, $BRASP, $BRASP_BIN, ``brasp`` on the PATH, or built with ``go
build`` from the checkout this package sits in): ``brasp sample FILE
--balanced`` draws, for each length, words uniformly among the accepted and
among the rejected ones (counted exactly on the minimal DFA), so labels are
exact and each length is balanced as far as the language allows (a length
with no accepted word, like the odd lengths of (ab)+, is said once as a
warning; a language with no accepted, or no rejected, word of any training
length is an error).  Training lengths (``--train-lengths``, default 1:40)
and test lengths (``--test-lengths``, default 1 to 4× the longest training
length) are separate; validation and test words are fresh samples (other
seeds).

Model (:class:`Encoder`, shape in :class:`Config`).  Token embedding plus
position information, ``nn.TransformerEncoder`` layers, a final layer norm
(pre-norm) and a linear head giving one logit.  Masks: ``causal`` (j ≤ i),
``strict`` (j < i, the paper's strict future masking) and ``bidirectional``.
Under strict masks the first letter has no earlier position, so the model
puts a BOS slot at position 0 (its own token, never a letter): every letter
may attend to it, and it attends only to itself; softmax attention there
plays the role of hard attention's default value when the mask leaves no
position.  Positions: ``none``, ``sinusoidal``, ``learned`` (up to
``n_positions``), and the paper's finite-image kinds ``mod:M`` (a learned
vector per residue of i mod M, what rational sinusoids of period M can
tell) and ``first`` (a learned vector at position 1), combined with ``+``.
Letters are numbered 1..n as in the paper.  The verdict is read at the last
letter (``readout="last"``, the paper's) or from the mean over the letters
(``"mean"``).  Runs are deterministic under ``--seed`` on one device; CPU
or CUDA (``--device auto`` picks CUDA when PyTorch sees one; ``--device
cuda`` where there is none is an error).

Training.  AdamW (linear warm-up, gradient clipping) on batches from a
``torch.utils.data.DataLoader``; every ``--eval-every`` steps the model is
scored on the validation words, OUT/checkpoint.pt is written (``--resume``
continues from it), and training stops at ``--stop-at`` validation accuracy,
after ``--patience`` validations without a better score, or at ``--steps``.
The best validated weights are kept.  A progress bar shows the steps (tqdm
on a terminal when installed, else a plain line per validation).

Outputs in OUT (``--out``, default ``train-STEM``): ``model.safetensors``
(the weights; written with the safetensors package when installed, else by
:mod:`brasp.train.storage`) and ``model.json`` (format ``brasp-train/1``,
the :class:`Config` and what it was trained on); ``accuracy.json`` (the run,
per length: words, correct, accuracy, accepted; and ``exhaustive``: the
accuracy on every word up to the longest length whose words number at most
``--exhaustive`` in all, with the first word the model gets wrong — balanced
samples rarely show the few words a model gets wrong, all words do); ``accuracy.png``
(accuracy against length, the training lengths shaded; drawn by matplotlib
when installed, else a plain plot without text); and a summary line.

Using a trained model::

    from brasp.train import load_model
    m = load_model("ab")                  # the OUT directory, its model.safetensors or model.json
    m.accepts(["abab", "aba"])            # [True, False]
    tokens, lengths = m.encode(["abab", "ab"])   # LongTensor [B, N], LongTensor [B]
    m(tokens, lengths)                    # FloatTensor [B]: accept logits, > 0 accepts
    m.prefix_logits(tokens, lengths)      # FloatTensor [B, N]: [b, i] is the logit of word b's prefix of i+1 letters

The batch interface: ``tokens`` is a LongTensor [B, N] of token ids,
symbol ``m.alphabet[k]`` being id k+1 and 0 padding the words shorter than
N (ids past ``len(m.alphabet)`` are not letters); ``lengths`` is a
LongTensor [B] of word lengths ≥ 1.  ``m(tokens, lengths)`` returns one
accept logit per word.  ``m.prefix_logits`` (masked models, causal or
strict: each position sees only its prefix) returns one logit per position,
the verdict on each prefix, so a batch of words also answers all their
prefixes; a bidirectional model raises ValueError.  A word longer than a
learned-position model's ``n_positions`` raises ValueError.  Tensors must be
on the model's device (``load_model(path, device=...)``); call under
``torch.no_grad()``.  Errors of input (missing or corrupt model files, bad
lengths, no brasp, no CUDA) are :class:`TrainError` with a message saying
what is wrong.
"""

from .binary import TrainError, find_brasp
from .data import Language, WordDataset, parse_lengths
from .loop import Options, train
from .model import Config, Encoder
from .storage import load_model, read_safetensors, save_model, write_safetensors

__all__ = ["train", "Options", "load_model", "save_model", "Encoder", "Config", "Language", "WordDataset",
           "TrainError", "find_brasp", "parse_lengths", "read_safetensors", "write_safetensors"]
