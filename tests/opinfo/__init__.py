"""The op table: one row per op drives every generic op test (like PyTorch's OpInfo).

A row says how to call the op (the same callable works for minigrad and for torch, which is
passed in as ``lib``) and how to make sample inputs. From the table alone:

- ``tests/test_ops.py`` checks gradients against float64 finite differences (``gradcheck``) and
  second derivatives (``gradgradcheck``, fast mode as in PyTorch's op tests), with no torch
  needed;
- ``tests_torch/test_ops_torch.py`` checks forward values, dtypes, gradients, the mutation matrix
  (mutate an input / the output after forward: backward raises iff PyTorch raises) and bad-input
  errors against PyTorch.

Rows live in one module per op family (``elementwise.py``, ``activations.py``, ``views.py``,
``inplace.py``, ...), each exporting ``OPS: list[OpInfo]``; ``ALL_OPS`` gathers them. A new op
is one row; ``tests/test_op_consistency.py`` checks that every public op has one.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Sample:
    """One call of an op: positional arguments and keyword arguments.

    ``args`` holds numpy arrays (they become tensors of the library under test, requiring grad
    if they are floating point and their position is in ``OpInfo.grad_args`` — or every float
    array if that is None) and plain Python values (passed as they are). ``transposed`` makes
    each array argument of ndim >= 2 a transposed, non-contiguous view, in both libraries.
    """

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    transposed: bool = False


@dataclass(frozen=True)
class BadInput:
    """A call that must raise: the same exception type as PyTorch (and the same message,
    with ``torch`` -> ``minigrad``, unless ``same_message`` is False)."""

    args: tuple[Any, ...]
    kwargs: dict[str, Any] = field(default_factory=dict)
    name: str = ""
    same_message: bool = True


@dataclass(frozen=True)
class OpInfo:
    """How to call an op and test it.

    Attributes:
        name: the test id, e.g. ``"exp"`` or ``"sum_dim"``.
        call: ``call(lib, *args, **kwargs)``, e.g. ``lambda lib, x: lib.exp(x)`` or
            ``lambda lib, x, dim: x.sum(dim)``; ``lib`` is ``minigrad`` or ``torch``.
        samples: ``samples(rng) -> list[Sample]`` (float64 arrays for gradcheck; the torch
            tests also run them as float32). Include 0-d, broadcasting and transposed samples
            and edge values where the op has them; keep arrays small (<= 5 per dim).
        grad_args: positions of the arguments that require grad (None: every float array).
        differentiable: False for ops without a gradient (comparisons, argmax, ...).
        gradgrad: False if second derivatives are not supported/meaningful (say why in a comment).
        output_index: for ops returning a tuple (``max(dim)``), which output to differentiate.
        bad_inputs: calls that must raise exactly as in PyTorch.
        atol, rtol: tolerances for comparing float32 forward values and gradients with PyTorch.
        inplace: the call writes in place into a clone of its first argument (or a view of
            one) and returns what it wrote: the tests compare its version with PyTorch's.
        known_bugs: ``{test: reason}`` for minigrad bugs this row finds and that are not fixed
            yet: those cases are strict xfails (a fix makes them fail until the entry goes).
            ``test`` is a check's name, as a failure names it (``test_backward: exp-0d-float32``:
            the test function that ran it before the checks of a row became one test), e.g.
            ``"test_backward"``, optionally with ``":<sample name>"``.
        op: the public op the row tests, if the row's name is not that op's name: ``"sum"``,
            ``"add_"`` (an in-place method), ``"F.gelu"`` (``nn.functional``), ``"linalg.inv"``.
            A bare name is the function ``minigrad.<name>`` and/or the method
            ``Tensor.<name>``. tests/test_op_consistency.py checks that every public op has a
            row.
    """

    name: str
    call: Callable[..., Any]
    samples: Callable[[np.random.Generator], Sequence[Sample]]
    grad_args: tuple[int, ...] | None = None
    differentiable: bool = True
    gradgrad: bool = True
    output_index: int | None = None
    bad_inputs: Sequence[BadInput] = ()
    atol: float = 1e-5
    rtol: float = 1e-4
    inplace: bool = False
    known_bugs: dict[str, str] = field(default_factory=dict)
    op: str = ""


def first(
    samples: Callable[[np.random.Generator], Sequence[Sample]], count: int
) -> Callable[[np.random.Generator], Sequence[Sample]]:
    """The first ``count`` samples (for rows that only check another spelling or grad pattern)."""
    return lambda rng: list(samples(rng))[:count]


def quietly(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call`` with UserWarnings silenced: for ops whose first use warns (PyTorch's deprecation
    warnings, given once per process, which the generic tests would otherwise see as errors)."""

    def wrapped(*args: Any, **kwargs: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return call(*args, **kwargs)

    return wrapped


def all_ops() -> list[OpInfo]:
    """Every row of every op-family module."""
    import importlib
    import pkgutil

    rows: list[OpInfo] = []
    for module in pkgutil.iter_modules(__path__):
        rows.extend(importlib.import_module(f"{__name__}.{module.name}").OPS)
    return rows
