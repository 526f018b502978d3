"""``float(t)`` of a tensor that requires grad warns, once per process, as PyTorch's.

PyTorch's ``Tensor.__float__`` (and so ``complex()``, ``math`` functions and numpy scalars of
a tensor) warns "Converting a tensor with requires_grad=True to a scalar may lead to unexpected
behavior." when grad mode is on; ``int()``, ``item()``, ``tolist()`` and ``bool()`` do not. A
fresh interpreter per library runs the same conversions and prints what warned.
"""

import re
import subprocess
import sys

import pytest

torch = pytest.importorskip("torch")

PROGRAM = """
import math, warnings
import {lib} as lib

a = lib.ones(1, requires_grad=True)
calls = {{
    "float": lambda: float(a), "float again": lambda: float(a * 2), "int": lambda: int(a),
    "item": lambda: a.item(), "tolist": lambda: a.tolist(), "bool": lambda: bool(a),
    "detached": lambda: float(a.detach()), "no grad needed": lambda: float(lib.ones(1)),
}}
for name, call in calls.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    print(name, [str(w.message) for w in caught], [w.filename == "<string>" for w in caught])
lib.set_warn_always(True)
for name, call in {{
    "complex": lambda: complex(a), "math.exp": lambda: math.exp(a),
    "float under no_grad": lambda: lib.no_grad()(lambda: float(a))(),
    "float in inference mode": lambda: lib.inference_mode()(lambda: float(a))(),
    "float always": lambda: float(a.sum()),
}}.items():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    print(name, len(caught))
"""


def _run(lib):
    done = subprocess.run([sys.executable, "-c", PROGRAM.format(lib=lib)], capture_output=True,
                          text=True, check=True)
    # (PyTorch's C++ warnings end with where they were raised: minigrad's do not)
    return re.sub(r" \(Triggered internally at [^)]*\)", "", done.stdout).replace("torch",
                                                                                 "minigrad")


def test_float_of_a_tensor_requiring_grad_warns_once_as_pytorch():
    assert _run("minigrad") == _run("torch")
