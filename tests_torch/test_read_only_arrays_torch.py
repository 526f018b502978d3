"""Tensors made from a read-only numpy array: PyTorch's UserWarning, where and how often.

PyTorch warns "The given NumPy array is not writable, ..." once per process (TORCH_WARN_ONCE;
every time under ``set_warn_always(True)``) when it shares such an array's memory:
``from_numpy``, ``as_tensor`` (even to convert it), ``asarray`` (unless it copies to another
dtype or is told to copy a non-0-d array) and the legacy ``Tensor(array)``; ``tensor`` copies
without a word. Each form runs twice in a fresh process (forked from one that imported the
library), in both libraries: the same warnings (category, text, and the file and line they point
at), the same count.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

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

# A zygote per library: a process that imports numpy and the library once and then, for each
# form, forks a child that runs it. Each child starts as a fresh process would (nothing has
# warned yet in the zygote) without paying the imports again (PyTorch's: ~5 s of CPU here).
_ZYGOTE = """
import json, os, sys, warnings
import numpy as np
import {lib} as L
def ro(dtype=np.float64):
    array = np.arange(4, dtype=dtype)
    array.flags.writeable = False
    return array
for request in sys.stdin:
    form, always = json.loads(request)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if always:
                L.set_warn_always(True)
            program = compile("for _ in range(2):\\n    " + form, "<form>", "exec")
            exec(program, {{"L": L, "np": np, "ro": ro}})
        found = [(w.category.__name__, str(w.message).split(" (Triggered internally")[0],
                  w.filename, w.lineno) for w in caught]
        os.write(write, json.dumps(found).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        print(pipe.read(), flush=True)
    os.waitpid(child, 0)
"""


class _Zygote:
    """A library's zygote process: ``run(form, always)`` gives the warnings of one form."""

    def __init__(self, lib: str) -> None:
        self.process = subprocess.Popen([sys.executable, "-c", _ZYGOTE.format(lib=lib)],
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def run(self, form: str, always: bool) -> list[list[object]]:
        """The warnings of ``form`` run twice in a child that nothing has warned in before."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps([form, always]) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        """End the zygote."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.process.stdout.close()


@pytest.fixture(scope="module")
def zygotes() -> Iterator[dict[str, _Zygote]]:
    """One zygote for minigrad and one for PyTorch, for the whole module."""
    made = {lib: _Zygote(lib) for lib in ("minigrad", "torch")}
    yield made
    for zygote in made.values():
        zygote.close()


@pytest.mark.parametrize("always", [False, True], ids=["once", "always"])
@pytest.mark.parametrize("name", list(_FORMS))
def test_read_only_array_warning(name: str, always: bool, zygotes: dict[str, _Zygote]) -> None:
    """The same warnings as PyTorch's, as often, pointing at the same line."""
    form = _FORMS[name]
    assert zygotes["minigrad"].run(form, always) == zygotes["torch"].run(form, always)
