"""brasp.load: a model file by its format, brasp's own (.json or
.safetensors, read by brasp.spec) or a softmax export (brasp-softmax/1,
brasp.softmax)."""

import torch

from .model import Model
from .spec import read


def load(path, device=None, dtype=None):
    """Reads a brasp model file (.json or .safetensors) into a Model, or a
    softmax export (format brasp-softmax/1) into a brasp.softmax.SoftmaxModel."""
    with open(path, "rb") as f:
        head = f.read(4096)
    if b'"brasp-softmax/1"' in head:
        from . import softmax
        return softmax.load(path, device=device, dtype=dtype or torch.float64)
    m = Model(read(path), dtype=dtype or torch.float64)
    if device is not None:
        m = m.to(device)
    return m
