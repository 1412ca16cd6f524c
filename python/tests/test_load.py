"""brasp.load and brasp.read on damaged model files: a FormatError that
says what is wrong (as the Go loader says it), never another exception."""

import json
import os
import struct
import unittest

import common
import brasp


def safetensors_parts(path):
    with open(path, "rb") as f:
        data = f.read()
    (hlen,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8:8 + hlen]), data[8 + hlen:]


def write_safetensors(path, header, body):
    h = json.dumps(header).encode()
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(h)) + h + body)


class TestLoadErrors(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.model = common.convert(os.path.join(common.EXAMPLES, "ab_plus.brasp"), os.path.join(common.tmpdir(), "load_ab.safetensors"))

    def check(self, name, data, pattern):
        path = os.path.join(common.tmpdir(), name)
        with open(path, "wb") as f:
            f.write(data)
        with self.assertRaisesRegex(brasp.FormatError, pattern):
            brasp.load(path)

    def test_dtype_named(self):
        # The header says F16 while the data is F64: the sizes disagree, and
        # the message names the dtype and both sizes.
        header, body = safetensors_parts(self.model)
        header["embedding"]["dtype"] = "F16"
        path = os.path.join(common.tmpdir(), "load_f16.safetensors")
        write_safetensors(path, header, body)
        with self.assertRaisesRegex(brasp.FormatError, r"tensor embedding spans \d+ bytes, want \d+ for shape \[\d+, \d+\] of F16"):
            brasp.load(path)
        header["embedding"]["dtype"] = "I8"
        write_safetensors(path, header, body)
        with self.assertRaisesRegex(brasp.FormatError, r"tensor embedding has dtype 'I8'; brasp reads F64, F32, F16 and BF16"):
            brasp.load(path)
        header["embedding"]["dtype"] = "F64"
        header["embedding"]["data_offsets"] = [0, 1 << 40]
        write_safetensors(path, header, body)
        with self.assertRaisesRegex(brasp.FormatError, r"data_offsets \[0, 1099511627776\] outside the \d+-byte data section"):
            brasp.load(path)
        header["embedding"] = "x"
        write_safetensors(path, header, body)
        with self.assertRaisesRegex(brasp.FormatError, r"tensor embedding: want an object"):
            brasp.load(path)

    def test_deep_json(self):
        deep = 200000
        self.check("load_deep.json", b'{"format":' + b"[" * deep + b"]" * deep + b"}", r"^model JSON: nested too deeply$")
        header = b'{"a":' + b"[" * deep + b"]" * deep + b"}"
        self.check("load_deep.safetensors", struct.pack("<Q", len(header)) + header, r"^safetensors: header JSON: nested too deeply$")
        header, body = safetensors_parts(self.model)
        header["__metadata__"]["alphabet"] = "[" * deep + "]" * deep
        path = os.path.join(common.tmpdir(), "load_deep_meta.safetensors")
        write_safetensors(path, header, body)
        with self.assertRaisesRegex(brasp.FormatError, r"__metadata__.alphabet: nested too deeply"):
            brasp.load(path)
        self.check("load_list.safetensors", struct.pack("<Q", 2) + b"[]", r"header JSON: want an object")


if __name__ == "__main__":
    unittest.main()
