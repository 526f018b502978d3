"""Random autograd programs run in minigrad and in PyTorch side by side (issue 8).

A program is a short list of Python statements over tensors ``t0, t1, ...`` written against
``torch``: leaves, ``detach``/``.data``/``detach_``, in-place ops (also through views and
aliases), views, ``no_grad``, ``backward``/``autograd.grad``, hooks, ``retain_grad`` and anomaly
mode. Each program runs twice, once with ``torch`` bound to PyTorch and once to minigrad; every
statement's outcome (raised or not, the exception's type and text, warnings) and, at the end,
every tensor's value, dtype, shape, ``requires_grad``, ``is_leaf``, ``_version``, ``grad_fn`` and
``.grad`` must agree. A divergence is shrunk to a minimal program and printed as runnable code.

- ``generator.py``  the programs (``generate(seed)``)
- ``runner.py``     one run of a program on one library, as comparable plain data
- ``compare.py``    the first difference between the two runs
- ``rounding.py``   whether differing values are only last bits the statements passed on
- ``shrink.py``     a divergence reduced to the fewest statements that still show it
- ``known.py``      divergences of known, not-yet-fixed classes, each with its issue
- ``__main__.py``   ``python -m tests_torch.random_programs --n N --seed S --jobs J``
"""

import sys
from pathlib import Path

_TESTS_DIR = Path(__file__).resolve().parents[2] / "tests"
if str(_TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(_TESTS_DIR))

# Before any module here imports torch: PyTorch's CPU kernels pinned, as in the test suites
# (on an AVX-512 CPU oneDNN's float32 gelu(inf) is nan otherwise).
import _torch_kernels  # noqa: E402, F401
