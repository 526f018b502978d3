"""minigrad.load never runs code and refuses every malformed file with a LoadError.

These tests are about minigrad's own file format (an .npz archive with a JSON structure), which
PyTorch does not share, so they import minigrad directly: under MINIGRAD_TEST_REFERENCE=torch
they still test minigrad.
"""

import io
import json
import pickle
import zipfile

import numpy as np
import pytest

import minigrad
from minigrad import nn
from minigrad.serialization import LoadError

MARKER = "minigrad_test_marker"


class Exploit:
    """Unpickling this would call os.system; minigrad.load must never get there."""

    def __reduce__(self):
        import os

        return (os.system, (f"touch {MARKER}",))


def archive(structure=None, **arrays):
    """An .npz file (bytes) with the given arrays and, unless None, a JSON structure entry."""
    entries = dict(arrays)
    if structure is not None:
        text = structure if isinstance(structure, str) else json.dumps(structure)
        entries["__minigrad__"] = np.frombuffer(text.encode(), np.uint8)
    buffer = io.BytesIO()
    np.savez(buffer, **entries)
    return buffer.getvalue()


def minigrad_file(root, **arrays):
    return archive({"format": "minigrad.save", "version": 1, "root": root}, **arrays)


def tensor_node(index=0, requires_grad=False, parameter=False):
    return {"type": "tensor", "index": index, "requires_grad": requires_grad,
            "parameter": parameter}


def load_bytes(data, tmp_path):
    path = tmp_path / "file.pt"
    path.write_bytes(data)
    return minigrad.load(path)


def refused(data, tmp_path, match):
    with pytest.raises(LoadError, match=match):
        load_bytes(data, tmp_path)


@pytest.fixture(autouse=True)
def in_tmp_dir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # an exploit that ran would leave MARKER here


def test_a_valid_file_loads(tmp_path):
    data = minigrad_file({"type": "list", "items": [tensor_node(), {"type": "int", "value": 3}]},
                         t0=np.ones(2, np.float32))
    tensor, number = load_bytes(data, tmp_path)
    assert tensor.tolist() == [1.0, 1.0] and number == 3


def test_a_pickle_is_refused_without_running_it(tmp_path):
    refused(pickle.dumps(Exploit()), tmp_path, "it is a Python pickle")
    assert not (tmp_path / MARKER).exists()


def test_a_pytorch_checkpoint_is_refused(tmp_path):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zf:  # the layout of torch.save's zip files
        zf.writestr("archive/data.pkl", pickle.dumps(Exploit()))
        zf.writestr("archive/version", "3\n")
    refused(buffer.getvalue(), tmp_path, r"it is a PyTorch checkpoint \(torch.save\)")
    assert not (tmp_path / MARKER).exists()


def test_object_arrays_are_refused_without_unpickling(tmp_path):
    objects = np.array([Exploit()], dtype=object)
    refused(minigrad_file(tensor_node(), t0=objects), tmp_path,
            "entry 't0' is a pickled object array")
    buffer = io.BytesIO()
    np.save(buffer, objects, allow_pickle=True)
    refused(buffer.getvalue(), tmp_path, r"a single numpy array \(.npy\)")
    assert not (tmp_path / MARKER).exists()


@pytest.mark.parametrize(
    "data, match",
    [
        (b"", "it is empty"),
        (b"not a checkpoint at all", "it is not a zip archive"),
        (archive(None, weights=np.ones(2)), "no '__minigrad__' entry"),
        (archive("{not json"), "the structure is not valid JSON"),
        (archive({"format": "other", "version": 1, "root": None}), "does not name the"),
        (archive({"format": "minigrad.save", "version": 99, "root": None}),
         "format version 99; this minigrad reads versions 1 and 2"),
        (archive({"format": "minigrad.save", "version": 1}), "no root object"),
        (archive("[" * 100000 + "]" * 100000), "not valid JSON"),
    ],
)
def test_foreign_and_broken_files(data, match, tmp_path):
    refused(data, tmp_path, match)


@pytest.mark.parametrize(
    "root, arrays, match",
    [
        ({"type": "callable", "module": "os", "name": "system"}, {}, "unknown node"),
        ("just a string", {}, "unknown node"),
        (tensor_node(index=5), {"t0": np.ones(1)}, "refers to array 't5'"),
        (tensor_node(index="0"), {"t0": np.ones(1)}, "malformed tensor node"),
        (tensor_node(), {"t0": np.ones(1, np.complex64)}, "unsupported dtype complex64"),
        (tensor_node(), {"t0": np.zeros(1, dtype=[("a", "i4")])}, "unsupported dtype"),
        (tensor_node(requires_grad=True), {"t0": np.ones(1, np.int64)}, "cannot require grad"),
        (tensor_node(), {"t0": np.ones(1), "t1": np.ones(1)}, r"entries \['t1'\] belong to no"),
        ({"type": "bool", "value": 1}, {}, "a bool node holds 1"),
        ({"type": "float", "value": "1e"}, {}, "a float node holds '1e'"),
        ({"type": "list", "items": "abc"}, {}, "has no list 'items'"),
        ({"type": "dict", "items": [[{"type": "list", "items": []}, {"type": "none"}]]}, {},
         "key is not hashable"),
        ({"type": "dict", "items": [["k"]]}, {}, r"not a \[key, value\] pair"),
        ({"type": "dict", "items": [], "metadata": {"type": "none"}}, {}, "cannot carry metadata"),
    ],
)
def test_tampered_structures(root, arrays, match, tmp_path):
    refused(minigrad_file(root, **arrays), tmp_path, match)


def test_deep_nesting_is_refused_cleanly(tmp_path):
    depth = 5000
    root = '{"type": "list", "items": [' * depth + '{"type": "none"}' + "]}" * depth
    text = '{"format": "minigrad.save", "version": 1, "root": ' + root + "}"
    refused(archive(text), tmp_path, "nested too deeply|not valid JSON")


def test_truncated_and_corrupted_archives(tmp_path):
    path = tmp_path / "good.pt"
    minigrad.save({"w": minigrad.arange(1000.0)}, path)
    data = path.read_bytes()
    refused(data[: len(data) // 2], tmp_path, "not a readable zip archive")
    offset = data.index(b"\x93NUMPY", data.index(b"t0.npy")) + 200
    flipped = data[:offset] + bytes([data[offset] ^ 0xFF]) + data[offset + 1:]
    refused(flipped, tmp_path, "entry 't0' is corrupt")


def test_a_failed_load_changes_nothing_in_the_model(tmp_path):
    model = nn.Linear(2, 2)
    before = [p.tolist() for p in model.parameters()]
    state = {"weight": tensor_node(0), "bias": tensor_node(5)}
    data = minigrad_file({"type": "dict", "items": [[{"type": "str", "value": k}, v]
                                                     for k, v in state.items()]},
                         t0=np.zeros((2, 2), np.float32))
    with pytest.raises(LoadError):
        model.load_state_dict(load_bytes(data, tmp_path))
    assert [p.tolist() for p in model.parameters()] == before


def test_save_refuses_unsupported_objects_before_writing(tmp_path):
    path = tmp_path / "model.pt"
    path.write_bytes(b"previous checkpoint")
    with pytest.raises(TypeError, match="cannot store an object of type"):
        minigrad.save({"model": nn.Linear(1, 1)}, path)
    assert path.read_bytes() == b"previous checkpoint"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.pt"]


def test_save_writes_exactly_the_path_given(tmp_path):
    minigrad.save(minigrad.ones(1), tmp_path / "weights.pt")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["weights.pt"]
    with zipfile.ZipFile(tmp_path / "weights.pt") as zf:
        assert sorted(zf.namelist()) == ["__minigrad__.npy", "t0.npy"]


def test_aliases_are_stored_once_and_restored_as_aliases(tmp_path):
    weight = nn.Parameter(minigrad.ones(3))
    state = {"a": weight.detach(), "b": weight.detach(), "other": minigrad.ones(3)}
    minigrad.save(state, tmp_path / "tied.pt")
    with zipfile.ZipFile(tmp_path / "tied.pt") as zf:
        assert len(zf.namelist()) == 3  # structure + two arrays, not three
    back = minigrad.load(tmp_path / "tied.pt")
    back["a"].add_(1)
    assert back["b"].tolist() == [2.0, 2.0, 2.0] and back["b"]._version == 1
    assert back["other"].tolist() == [1.0, 1.0, 1.0]


def storage_tensor_node(storage=0, offset=0, size=(2,), stride=(1,), number=0):
    """A format-2 tensor node: a geometry on a saved storage."""
    return {"type": "tensor", "id": number, "storage": storage, "offset": offset,
            "size": list(size), "stride": list(stride), "requires_grad": False,
            "parameter": False}


@pytest.mark.parametrize(
    ("node", "match"),
    [
        (storage_tensor_node(size=(3,)), "reaches past the end of its storage"),
        (storage_tensor_node(offset=-1), "invalid storage offset"),
        (storage_tensor_node(stride=(-1,)), "overflowed"),
        (storage_tensor_node(storage=7), "array 't7'"),
        ({**storage_tensor_node(), "size": "2"}, "malformed tensor node"),
        ({"type": "storage", "storage": 3}, "array 't3'"),
    ],
)
def test_tampered_storage_geometries(node, match, tmp_path):
    data = archive({"format": "minigrad.save", "version": 2, "root": node},
                   t0=np.zeros(2, np.float32))
    refused(data, tmp_path, match)
