"""Tensors made from a read-only numpy array: PyTorch's UserWarning, where and how often.

PyTorch warns "The given NumPy array is not writable, ..." once per process (TORCH_WARN_ONCE;
every time under ``set_warn_always(True)``) when it shares such an array's memory:
``from_numpy``, ``as_tensor`` (even to convert it), ``asarray`` (unless it copies to another
dtype or is told to copy a non-0-d array) and the legacy ``Tensor(array)``; ``tensor`` copies
without a word. Each form runs in a fresh process, twice, in both libraries: the same
warnings (category, text, and the line they point at), the same count.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

_FORMS = {
    "from_numpy": "L.from_numpy(ro())",
    "as_tensor": "L.as_tensor(ro())",
    "as_tensor(float32)": "L.as_tensor(ro(), dtype=L.float32)",
    "as_tensor(view)": "L.as_tensor(ro()[::2])",
    "as_tensor(int64)": "L.as_tensor(ro(np.int64))",
    "tensor": "L.tensor(ro())",
    "tensor(float32)": "L.tensor(ro(), dtype=L.float32)",
    "asarray": "L.asarray(ro())",
    "asarray(copy=True)": "L.asarray(ro(), copy=True)",
    "asarray(copy=False)": "L.asarray(ro(), copy=False)",
    "asarray(float32)": "L.asarray(ro(), dtype=L.float32)",
    "asarray(0-d, copy=True)": "L.asarray(ro()[:1].reshape(()), copy=True)",
    "asarray(numpy scalar)": "L.asarray(np.float64(2.0))",
    "Tensor": "L.Tensor(ro())",
    "DoubleTensor": "L.DoubleTensor(ro())",
    "writable": "L.from_numpy(np.arange(3.0))",
}

_PROGRAM = """
import json, sys, warnings
import numpy as np
import {lib} as L
def ro(dtype=np.float64):
    array = np.arange(4, dtype=dtype)
    array.flags.writeable = False
    return array
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    {always}
    for _ in range(2):
        {form}  # the line
print(json.dumps([(w.category.__name__, str(w.message).split(" (Triggered internally")[0],
                   w.lineno) for w in caught]))
"""


def _warnings(lib: str, form: str, always: bool) -> list[list[object]]:
    """The warnings of ``form`` run twice in a fresh process of ``lib``."""
    program = _PROGRAM.format(lib=lib, form=form,
                              always="L.set_warn_always(True)" if always else "pass")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("always", [False, True], ids=["once", "always"])
@pytest.mark.parametrize("name", list(_FORMS))
def test_read_only_array_warning(name: str, always: bool) -> None:
    """The same warnings as PyTorch's, as often, pointing at the same line."""
    form = _FORMS[name]
    assert _warnings("minigrad", form, always) == _warnings("torch", form, always)
