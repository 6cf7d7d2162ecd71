#!/usr/bin/env python3
"""Writes the .npy / .pt fixtures of libs/arrays and their manifest of expected values.

How to run (from the repository root; needs NumPy and PyTorch in the same interpreter):

    apt-get install -y python3-torch python3-numpy    # Debian's packages, once
    /usr/bin/python3 scripts/make-array-fixtures.py

Output: libs/arrays/test/fixtures/*.npy|*.pt and manifest.json. Everything is deterministic
(fixed values or a seeded RNG; zip timestamps fixed), so re-running gives identical bytes.

manifest.json holds
  "arrays":   [{file, format, dtype, shape, values}]  values = flat C-order list; non-finite
              values are the strings "NaN", "Infinity", "-Infinity" (JSON has no literal for them)
  "rejected": [{file, error_type, message}]            message = a substring the error must contain

A few .pt files are assembled here rather than by torch.save, because the torch available
(1.13 on Debian) cannot write them: a big-endian archive with a `byteorder` record and a
`_rebuild_tensor_v3` uint16 tensor, both as torch >= 2.1 writes them; the malicious pickle.
"""

import io
import json
import math
import os
import pickle
import pickletools
import struct
import sys
import zipfile

import numpy as np

try:
    import torch
except ImportError:
    sys.exit("PyTorch is missing: apt-get install -y python3-torch python3-numpy, then run with /usr/bin/python3")

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "libs", "arrays", "test", "fixtures")
rng = np.random.default_rng(20240611)
arrays = []
rejected = []


def flat_values(a):
    """Exact values in C order, as JSON-safe numbers (ints stay ints, floats are the stored value)."""
    out = []
    for v in np.ascontiguousarray(a).reshape(-1).tolist():
        if isinstance(v, bool):
            out.append(1 if v else 0)
        elif isinstance(v, float) and not math.isfinite(v):
            out.append("NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity"))
        else:
            out.append(v)
    return out


def short_dtype(a):
    return a.dtype.kind + str(a.dtype.itemsize)


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- .npy

def sample(dtype, shape):
    """Seeded values that reach each dtype's extremes."""
    dt = np.dtype(dtype)
    n = int(np.prod(shape))
    if dt.kind == "b":
        v = rng.integers(0, 2, n).astype(bool)
    elif dt.kind in "iu":
        info = np.iinfo(dt)
        v = rng.integers(info.min, info.max, n, dtype=dt.newbyteorder("="), endpoint=True)
        v[:2] = [info.min, info.max]
    else:
        v = rng.standard_normal(n) * 100
        v[:3] = [0.0, -0.0, 1.5]
        if dt.itemsize == 2:
            v[3] = 65504.0  # largest half
            v[4] = 2.0 ** -24  # smallest subnormal half
    return v.astype(dt.newbyteorder("=")).reshape(shape)


def npy(name, a, version=None, fortran=False):
    a = np.asfortranarray(a) if fortran else np.ascontiguousarray(a)
    buf = io.BytesIO()
    np.lib.format.write_array(buf, a, version=version, allow_pickle=False)
    write(name, buf.getvalue())
    arrays.append({"file": name, "format": "npy", "dtype": short_dtype(a), "shape": list(a.shape), "values": flat_values(a)})


def raw_npy(name, header, body, dtype, shape, values):
    """A hand-written v1 header, for spellings NumPy itself never writes ('?', '=', 3L)."""
    prefix_len = 10
    pad = (64 - (prefix_len + len(header) + 1) % 64) % 64
    h = (header + " " * pad + "\n").encode("latin1")
    write(name, b"\x93NUMPY\x01\x00" + struct.pack("<H", len(h)) + h + body)
    arrays.append({"file": name, "format": "npy", "dtype": dtype, "shape": shape, "values": values})


def make_npy():
    dtypes = ["f2", "f4", "f8", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "b1"]
    for code in dtypes:
        orders = ["<", ">"] if np.dtype(code).itemsize > 1 else ["|"]
        for order in orders:
            tag = {"<": "le", ">": "be", "|": "na"}[order]
            npy(f"npy-{code}-{tag}-2d.npy", sample(order + code, (3, 4)).astype(order + code))

    npy("npy-f8-le-fortran-2d.npy", sample("<f8", (3, 5)), fortran=True)
    npy("npy-i4-be-fortran-3d.npy", sample(">i4", (2, 3, 4)).astype(">i4"), fortran=True)
    npy("npy-f2-le-fortran-3d.npy", sample("<f2", (2, 2, 3)), fortran=True)
    npy("npy-b1-fortran-2d.npy", sample("b1", (4, 3)), fortran=True)
    npy("npy-f4-be-fortran-2d-v2.npy", sample(">f4", (3, 2)).astype(">f4"), version=(2, 0), fortran=True)

    npy("npy-f8-v2-2d.npy", sample("<f8", (2, 6)), version=(2, 0))
    npy("npy-i2-v3-2d.npy", sample("<i2", (4, 2)), version=(3, 0))
    npy("npy-u8-be-v3-1d.npy", sample(">u8", (5,)).astype(">u8"), version=(3, 0))

    npy("npy-f8-0d.npy", np.array(2.718281828459045))
    npy("npy-i8-0d.npy", np.array(-(2**62) - 1, dtype="<i8"))
    npy("npy-f4-1d.npy", sample("<f4", (7,)))
    npy("npy-f8-3d.npy", sample("<f8", (2, 3, 4)))
    npy("npy-u1-4d.npy", sample("u1", (2, 1, 3, 2)))
    npy("npy-f8-nonfinite.npy", np.array([1.0, 2.0, np.nan, np.inf, -np.inf]))

    bools = [True, False, True, True, False, False]
    raw_npy("npy-bool-question-mark.npy", "{'descr': '?', 'fortran_order': False, 'shape': (2, 3), }",
            bytes(bools), "b1", [2, 3], [int(b) for b in bools])
    ints = np.arange(-3, 3, dtype="<i4")
    raw_npy("npy-i4-native-order-py2-longs.npy", "{'descr': '=i4', 'fortran_order': False, 'shape': (2L, 3L), }",
            ints.tobytes(), "i4", [2, 3], ints.tolist())
    raw_npy("npy-f8-double-quoted-keys.npy", '{"shape": (3,), "fortran_order": False, "descr": "<f8"}',
            np.array([0.5, -1.25, 3.0]).tobytes(), "f8", [3], [0.5, -1.25, 3.0])

    # Rejected: object dtype (allow_pickle), empty array, structured dtype, complex.
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.array([1, "two", None], dtype=object), allow_pickle=True)
    write("bad-npy-object-dtype.npy", buf.getvalue())
    rejected.append({"file": "bad-npy-object-dtype.npy", "error_type": "value_error.npy", "message": "object dtype"})

    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.zeros((0,)))
    write("bad-npy-empty.npy", buf.getvalue())
    rejected.append({"file": "bad-npy-empty.npy", "error_type": "value_error.empty",
                     "message": "expected a non-empty array; got shape [0]"})

    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.zeros(2, dtype=[("x", "<f4"), ("y", "<i2")]))
    write("bad-npy-structured.npy", buf.getvalue())
    rejected.append({"file": "bad-npy-structured.npy", "error_type": "value_error.npy", "message": "structured dtype"})

    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.array([1 + 2j, 3 - 4j]))
    write("bad-npy-complex.npy", buf.getvalue())
    rejected.append({"file": "bad-npy-complex.npy", "error_type": "value_error.npy", "message": "'<c16'"})

    full = io.BytesIO()
    np.lib.format.write_array(full, np.arange(10.0))
    write("bad-npy-truncated.npy", full.getvalue()[:-3])
    rejected.append({"file": "bad-npy-truncated.npy", "error_type": "value_error.npy", "message": "truncated .npy file"})


# ---------------------------------------------------------------- .pt

TORCH_DTYPE_CODES = {
    torch.float32: "f4", torch.float64: "f8", torch.float16: "f2", torch.int64: "i8", torch.int32: "i4",
    torch.int16: "i2", torch.int8: "i1", torch.uint8: "u1", torch.bool: "b1", torch.bfloat16: "f4",
}


def torch_bytes(obj, **kwargs):
    buf = io.BytesIO()
    torch.save(obj, buf, **kwargs)
    return buf.getvalue()


def pt(name, t, values_of=None):
    write(name, torch_bytes(t))
    shown = (values_of if values_of is not None else t).detach()
    values = shown.float().numpy() if t.dtype == torch.bfloat16 else shown.numpy()
    arrays.append({"file": name, "format": "pt", "dtype": TORCH_DTYPE_CODES[t.dtype], "shape": list(t.shape),
                   "values": flat_values(values)})


def legacy_bytes(t):
    """The pre-1.6 torch.save stream; its storage keys are memory addresses, pinned here for reproducibility."""
    data = torch_bytes(t, _use_new_zipfile_serialization=False)
    f = io.BytesIO(data)
    for _ in range(3):  # magic number, protocol version, system info
        pickle.load(f)
    for _ in pickletools.genops(f):  # skip the tensor's pickle without rebuilding it
        pass
    for key in pickle.load(f):
        data = data.replace(key.encode(), b"1" * len(key))
    return data


def fixed_zip(name, entries, compression=zipfile.ZIP_STORED):
    """A torch-style archive with fixed timestamps, so the bytes are reproducible."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for entry, data in entries:
            info = zipfile.ZipInfo(entry, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = compression
            z.writestr(info, data)
    write(name, buf.getvalue())


def archive_entries(data):
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return [(i.filename, z.read(i.filename)) for i in z.infolist()]


def p_str(s):
    b = s.encode()
    return b"X" + struct.pack("<I", len(b)) + b


def p_int(n):
    return b"J" + struct.pack("<i", n)


def p_tuple(items):
    return b"(" + b"".join(items) + b"t"


def make_pt():
    g = torch.Generator().manual_seed(7)
    pt("pt-float32-2d.pt", torch.randn(3, 4, generator=g))
    pt("pt-float64-1d.pt", torch.randn(10, generator=g, dtype=torch.float64))
    half = torch.randn(4, 5, generator=g).half()
    half[0, 0] = 65504.0
    half[0, 1] = 2.0 ** -24
    pt("pt-float16-2d.pt", half)
    pt("pt-bfloat16-1d.pt", torch.randn(6, generator=g).bfloat16())
    pt("pt-int64-1d.pt", torch.tensor([0, -1, 2**53, -(2**63), 2**63 - 1, 123456789012], dtype=torch.int64))
    pt("pt-int32-2d.pt", torch.randint(-2**31, 2**31 - 1, (2, 3), generator=g, dtype=torch.int32))
    pt("pt-int16-1d.pt", torch.tensor([-32768, 32767, 0, -5, 12], dtype=torch.int16))
    pt("pt-int8-2d.pt", torch.tensor([[-128, 127, 0], [1, -1, 64]], dtype=torch.int8))
    pt("pt-uint8-1d.pt", torch.tensor([0, 255, 17, 128], dtype=torch.uint8))
    pt("pt-bool-2d.pt", torch.tensor([[True, False], [False, True], [True, True]]))
    pt("pt-float32-0d.pt", torch.tensor(3.5))

    base = torch.arange(15, dtype=torch.float32).reshape(3, 5)
    pt("pt-transposed.pt", base.T)  # stride (1, 5), not contiguous
    big = torch.arange(24, dtype=torch.float64).reshape(6, 4)
    pt("pt-storage-offset.pt", big[2:])  # storage_offset 8 into a 24-element storage
    pt("pt-strided-slice.pt", big[1::2, 1:4:2])  # offset 5, stride (8, 2)
    pt("pt-permuted-3d.pt", torch.arange(24, dtype=torch.int32).reshape(2, 3, 4).permute(2, 0, 1))
    pt("pt-expanded.pt", torch.arange(3, dtype=torch.float32).expand(4, 3))  # stride (0, 1)
    pt("pt-requires-grad.pt", torch.ones(2, 2, requires_grad=True))
    pt("pt-parameter.pt", torch.nn.Parameter(torch.arange(4, dtype=torch.float32)))

    deflated = torch.linspace(-1, 1, 16).reshape(4, 4)
    fixed_zip("pt-deflated.pt", archive_entries(torch_bytes(deflated)), zipfile.ZIP_DEFLATED)
    arrays.append({"file": "pt-deflated.pt", "format": "pt", "dtype": "f4", "shape": [4, 4],
                   "values": flat_values(deflated.numpy())})

    # torch >= 2.1 on a big-endian machine: a `byteorder` record saying "big", storage bytes big endian.
    be = torch.arange(6, dtype=torch.float32).reshape(2, 3) / 4
    entries = archive_entries(torch_bytes(be))
    entries = [(n, be.numpy().astype(">f4").tobytes() if n == "archive/data/0" else d) for n, d in entries]
    entries.insert(1, ("archive/byteorder", b"big"))
    fixed_zip("pt-big-endian.pt", entries)
    arrays.append({"file": "pt-big-endian.pt", "format": "pt", "dtype": "f4", "shape": [2, 3],
                   "values": flat_values(be.numpy())})

    # torch >= 2.3 saves uint16/32/64 through _rebuild_tensor_v3 with an UntypedStorage and a dtype global.
    u16 = np.array([[0, 65535, 7], [300, 1, 40000]], dtype="<u2")
    pkl = (b"\x80\x02" + b"ctorch._utils\n_rebuild_tensor_v3\n" + b"("
           + p_tuple([p_str("storage"), b"ctorch.storage\nUntypedStorage\n", p_str("0"), p_str("cpu"), p_int(u16.nbytes)])
           + b"Q" + p_int(0) + p_tuple([p_int(2), p_int(3)]) + p_tuple([p_int(3), p_int(1)])
           + b"\x89" + b"ccollections\nOrderedDict\n)R" + b"ctorch\nuint16\n" + b"tR.")
    fixed_zip("pt-uint16-v3.pt", [("archive/data.pkl", pkl), ("archive/byteorder", b"little"),
                                  ("archive/data/0", u16.tobytes()), ("archive/version", b"3\n")])
    arrays.append({"file": "pt-uint16-v3.pt", "format": "pt", "dtype": "u2", "shape": [2, 3], "values": flat_values(u16)})

    # Rejected.
    two = torch.arange(3.0)
    write("bad-pt-dict.pt", torch_bytes({"a": two, "b": two * 2}))
    rejected.append({"file": "bad-pt-dict.pt", "error_type": "value_error.pt",
                     "message": "expected a file holding one tensor; got a dict"})
    write("bad-pt-list.pt", torch_bytes([two, two * 2]))
    rejected.append({"file": "bad-pt-list.pt", "error_type": "value_error.pt",
                     "message": "expected a file holding one tensor; got a list"})
    torch.manual_seed(0)
    write("bad-pt-state-dict.pt", torch_bytes(torch.nn.Linear(2, 1).state_dict()))
    rejected.append({"file": "bad-pt-state-dict.pt", "error_type": "value_error.pt",
                     "message": "expected a file holding one tensor; got a dict"})
    write("bad-pt-numpy-array.pt", torch_bytes(np.arange(3.0)))
    rejected.append({"file": "bad-pt-numpy-array.pt", "error_type": "value_error.pt", "message": "is not allowed"})
    write("bad-pt-complex.pt", torch_bytes(torch.tensor([1 + 2j, 3 - 1j])))
    rejected.append({"file": "bad-pt-complex.pt", "error_type": "value_error.pt", "message": "ComplexFloatStorage"})
    write("bad-pt-empty.pt", torch_bytes(torch.zeros(2, 0)))
    rejected.append({"file": "bad-pt-empty.pt", "error_type": "value_error.empty",
                     "message": "expected a non-empty array; got shape [2, 0]"})
    write("bad-pt-legacy-format.pt", legacy_bytes(two))
    rejected.append({"file": "bad-pt-legacy-format.pt", "error_type": "value_error.pt", "message": "legacy torch.save format"})

    class Exploit:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    # What pickle.dumps records for os.system on Linux is posix.system; also hand-write the os.system spelling.
    fixed_zip("bad-pt-posix-system.pt", [("archive/data.pkl", pickle.dumps(Exploit(), protocol=2)),
                                         ("archive/data/0", b"\0" * 4), ("archive/version", b"3\n")])
    rejected.append({"file": "bad-pt-posix-system.pt", "error_type": "value_error.pt",
                     "message": f"global {os.system.__module__}.system is not allowed"})
    evil = b"\x80\x02cos\nsystem\n" + p_str("echo pwned") + b"\x85R."
    fixed_zip("bad-pt-os-system.pt", [("archive/data.pkl", evil), ("archive/version", b"3\n")])
    rejected.append({"file": "bad-pt-os-system.pt", "error_type": "value_error.pt",
                     "message": "pickled object other than one tensor: global os.system is not allowed"})

    whole = torch_bytes(torch.arange(8.0))
    write("bad-pt-truncated-zip.pt", whole[: len(whole) // 2])
    rejected.append({"file": "bad-pt-truncated-zip.pt", "error_type": "value_error.pt", "message": "truncated"})
    entries = [(n, d[: len(d) // 2] if n.endswith("data.pkl") else d) for n, d in archive_entries(whole)]
    fixed_zip("bad-pt-truncated-pickle.pt", entries)
    rejected.append({"file": "bad-pt-truncated-pickle.pt", "error_type": "value_error.pt", "message": "ends early"})

def main():
    os.makedirs(OUT, exist_ok=True)
    for f in os.listdir(OUT):
        if f.endswith((".npy", ".pt", ".json")):
            os.remove(os.path.join(OUT, f))
    make_npy()
    make_pt()
    manifest = {"generator": "scripts/make-array-fixtures.py", "numpy": np.__version__, "torch": torch.__version__,
                "arrays": arrays, "rejected": rejected}
    with open(os.path.join(OUT, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=1)
        f.write("\n")
    print(f"wrote {len(arrays)} arrays and {len(rejected)} rejected files to {os.path.normpath(OUT)}")


if __name__ == "__main__":
    main()
