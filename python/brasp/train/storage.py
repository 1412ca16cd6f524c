"""Saving and loading trained models: the weights as safetensors (with the
``safetensors`` package when installed, else this module's own reader and
writer of the format: an 8-byte little-endian header length, a JSON header
naming each tensor's dtype, shape and byte range, then the raw little-endian
data), and the configuration as a small JSON file beside them."""

import dataclasses
import json
import math
import os
import struct

import numpy as np
import torch

from .binary import TrainError
from .model import Config, Encoder

FORMAT = "brasp-train/1"
WEIGHTS = "model.safetensors"
CONFIG = "model.json"

_DTYPES = {"F32": np.float32, "F64": np.float64, "I64": np.int64}
_NAMES = {np.dtype(v): k for k, v in _DTYPES.items()}
# A header longer than this is not one brasp.train wrote.
_MAX_HEADER = 1 << 24


def write_safetensors(path, tensors, metadata=None):
    """Writes {name: tensor} (float32, float64 or int64) to path, with the
    safetensors package when it is installed."""
    metadata = {str(k): str(v) for k, v in (metadata or {}).items()} or None
    tmp = path + ".tmp"
    try:
        from safetensors.torch import save_file
    except ImportError:
        save_file = None
    if save_file is not None:
        save_file({k: v.detach().cpu().contiguous() for k, v in tensors.items()}, tmp, metadata=metadata)
        os.replace(tmp, path)
        return
    arrays = {k: np.ascontiguousarray(v.detach().cpu().numpy()) for k, v in tensors.items()}
    header, offset = {}, 0
    for k in sorted(arrays):
        a = arrays[k]
        if a.dtype not in _NAMES:
            raise TypeError("%s: dtype %s has no safetensors name here" % (k, a.dtype))
        header[k] = {"dtype": _NAMES[a.dtype], "shape": list(a.shape), "data_offsets": [offset, offset + a.nbytes]}
        offset += a.nbytes
    if metadata:
        header["__metadata__"] = metadata
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the data starts 8-byte aligned
    with open(tmp, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        for k in sorted(arrays):
            f.write(arrays[k].astype(arrays[k].dtype.newbyteorder("<"), copy=False).tobytes())
    os.replace(tmp, path)


def read_safetensors(path):
    """Reads a safetensors file into ({name: tensor}, metadata), checking
    every offset and shape; raises TrainError saying what is wrong."""
    def bad(msg):
        return TrainError("%s: not a valid safetensors file: %s" % (path, msg))
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise TrainError("%s: %s" % (path, e.strerror or e))
    if len(data) < 8:
        raise bad("%d bytes, shorter than the 8-byte header length" % len(data))
    (n,) = struct.unpack("<Q", data[:8])
    if n > min(len(data) - 8, _MAX_HEADER):
        raise bad("header length %d exceeds the file (%d bytes)" % (n, len(data)))
    try:
        header = json.loads(data[8:8 + n].decode())
    except (UnicodeDecodeError, ValueError) as e:
        raise bad("header: %s" % e)
    if not isinstance(header, dict):
        raise bad("header is not a JSON object")
    meta = header.pop("__metadata__", {}) or {}
    body = memoryview(data)[8 + n:]
    tensors, spans = {}, []
    for k, h in header.items():
        try:
            dtype = np.dtype(_DTYPES[h["dtype"]])
            shape = [int(s) for s in h["shape"]]
            lo, hi = (int(x) for x in h["data_offsets"])
        except (KeyError, TypeError, ValueError):
            raise bad("tensor %r: want dtype F32/F64/I64, shape and data_offsets" % k)
        size = math.prod(shape) * dtype.itemsize
        if min(shape, default=0) < 0 or not 0 <= lo <= hi <= len(body) or hi - lo != size:
            raise bad("tensor %r: bytes %d..%d do not hold shape %s of %s within the %d data bytes"
                      % (k, lo, hi, shape, h["dtype"], len(body)))
        spans.append((lo, hi, k))
        a = np.frombuffer(body[lo:hi], dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)
        tensors[k] = torch.from_numpy(a.copy())
    spans.sort()
    for (_, hi, k), (lo, _, k2) in zip(spans, spans[1:]):
        if lo < hi:
            raise bad("tensors %r and %r overlap" % (k, k2))
    return tensors, meta


def save_model(model, directory, extra=None):
    """Writes directory/model.safetensors (the weights, float32) and
    directory/model.json (the format, the configuration, and ``extra``:
    what it was trained on).  Returns the weights' path."""
    os.makedirs(directory, exist_ok=True)
    cfg = dataclasses.asdict(model.config)
    doc = {"format": FORMAT, "config": cfg}
    doc.update(extra or {})
    weights = os.path.join(directory, WEIGHTS)
    state = {k: v.float() for k, v in model.state_dict().items()}
    write_safetensors(weights, state, {"format": FORMAT, "config": json.dumps(cfg)})
    with open(os.path.join(directory, CONFIG), "w") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")
    return weights


def model_paths(path):
    """(weights, config) for a model directory, its model.safetensors or its
    model.json."""
    if not os.path.exists(path):
        raise TrainError("%s: no such file or directory" % path)
    if os.path.isdir(path):
        d = path
    elif path.endswith(".safetensors") or path.endswith(".json"):
        d = os.path.dirname(path) or "."
    else:
        raise TrainError("%s: want a directory written by brasp.train, its %s or its %s" % (path, WEIGHTS, CONFIG))
    weights, config = os.path.join(d, WEIGHTS), os.path.join(d, CONFIG)
    if path.endswith(".safetensors"):
        weights = path
        config = path[:-len(".safetensors")] + ".json"
    elif path.endswith(".json"):
        config = path
        weights = path[:-len(".json")] + ".safetensors"
    for p in (weights, config):
        if not os.path.isfile(p):
            raise TrainError("%s: no such file (a model saved by brasp.train is %s plus %s)" % (p, WEIGHTS, CONFIG))
    return weights, config


def read_config(path):
    """The model.json of a saved model: its format and Config."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        raise TrainError("%s: not a brasp.train model configuration: %s" % (path, e))
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise TrainError("%s: not a brasp.train model configuration (want \"format\": %r)" % (path, FORMAT))
    fields = {f.name for f in dataclasses.fields(Config)}
    cfg = doc.get("config")
    if not isinstance(cfg, dict) or set(cfg) - fields or "alphabet" not in cfg:
        raise TrainError("%s: \"config\" must be an object with the fields %s" % (path, ", ".join(sorted(fields))))
    try:
        config = Config(**cfg)
        config.check()
    except (TypeError, ValueError) as e:
        raise TrainError("%s: bad configuration: %s" % (path, e))
    return doc, config


def load_model(path, device=None):
    """Loads a model saved by brasp.train (its directory, model.safetensors
    or model.json) as an Encoder in eval mode, on ``device`` (default CPU).
    A missing, truncated or mismatched file raises TrainError."""
    weights, cfg_path = model_paths(path)
    doc, config = read_config(cfg_path)
    tensors, _ = read_safetensors(weights)
    # The weights the configuration implies, at least; a configuration that
    # asks for more than the file holds is refused before anything is
    # allocated for it.
    d = config.width
    least = config.layers * (4 * d * d + 2 * d * config.ff) + (len(config.alphabet) + 2) * d
    held = sum(t.numel() for t in tensors.values())
    if least > held:
        raise TrainError("%s: does not match %s: the configuration needs at least %d weights, the file holds %d"
                         % (weights, cfg_path, least, held))
    try:
        model = Encoder(config)
    except (TypeError, ValueError) as e:
        raise TrainError("%s: bad configuration: %s" % (cfg_path, e))
    want = model.state_dict()
    missing, extra = sorted(set(want) - set(tensors)), sorted(set(tensors) - set(want))
    if missing or extra:
        raise TrainError("%s: does not match %s: missing tensors %s, unexpected %s" % (weights, cfg_path, missing[:5], extra[:5]))
    for k, v in want.items():
        if tuple(tensors[k].shape) != tuple(v.shape):
            raise TrainError("%s: tensor %s has shape %s, the configuration wants %s" % (weights, k, list(tensors[k].shape), list(v.shape)))
        if not torch.isfinite(tensors[k].float()).all():
            raise TrainError("%s: tensor %s holds NaN or infinite values" % (weights, k))
    model.load_state_dict({k: t.to(want[k].dtype) for k, t in tensors.items()})
    model.eval()
    model.trained = {k: v for k, v in doc.items() if k not in ("format", "config")}
    return model.to(device or "cpu")
