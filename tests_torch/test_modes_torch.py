"""inference_mode and the legacy API side by side with PyTorch 2.13.

- Every op-table row, with one input made in inference mode: forward (raises iff PyTorch
  raises: an op that *saves* that input refuses it), then backward, and the gradients.
- Scripted programs (inference mode, Variable, legacy constructors): the same observations,
  step by step, in both libraries.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from opinfo import OpInfo, Sample, all_ops
from row_cases import RowCase, check_each, row_cases
from test_ops import build_args, call
from test_ops_torch import array_of, assert_same_outcome, run, to_minigrad_names, upstream

import minigrad

torch = pytest.importorskip("torch")


def _has_tensor_argument(row: OpInfo, sample: Sample) -> bool:
    return row.differentiable and any(isinstance(a, np.ndarray) for a in sample.args)


def _with_inference_input(lib: Any, row: OpInfo, sample: Sample, position: int) -> Any:
    """Forward with argument ``position`` made in inference mode, then backward."""
    args, kwargs, positions = build_args(lib, row, sample, "float32")
    array = np.array(args[position].detach().numpy())  # a copy with the same memory layout
    with lib.inference_mode():
        args[position] = lib.from_numpy(array)
    output, error = run(lambda: call(lib, row, args, kwargs))
    if error is not None or not output.requires_grad:
        return error, None, output
    grad = upstream(output, lib)
    wanted = [p for p in positions if p != position]
    grads, error = run(lambda: lib.autograd.grad(output, [args[p] for p in wanted], grad,
                                                 allow_unused=True))
    return error, grads, output


# Known differences, each with the reason: bugs the op table found (see the rows' known_bugs).
# Keyed by ``<row>-<sample>-arg<position>``.
KNOWN: dict[str, str] = {}


def _positions(row: OpInfo, sample: Sample) -> list[tuple[str, Any]]:
    """One check per tensor argument: ``("arg<position>", (sample, position))``."""
    return [(f"arg{position}", (sample, position))
            for position, value in enumerate(sample.args) if isinstance(value, np.ndarray)]


def _known(row: OpInfo, label: str) -> str:
    return KNOWN.get(f"{row.name}-{label}", "")


# One test per row, running every (sample, tensor argument) of it (tests/row_cases.py).
CASES = row_cases(all_ops(), _has_tensor_argument, expand=_positions, known=_known)


@parametrize_in_one("case", CASES, per_test=80)
def test_an_input_made_in_inference_mode(case: RowCase) -> None:
    check_each(case, lambda value: check_an_input_made_in_inference_mode(case.row, *value))


def check_an_input_made_in_inference_mode(row: OpInfo, sample: Sample, position: int) -> None:
    """Argument ``position`` made in inference mode: forward and backward as PyTorch's."""
    t_error, t_grads, t_out = _with_inference_input(torch, row, sample, position)
    m_error, m_grads, m_out = _with_inference_input(minigrad, row, sample, position)
    assert_same_outcome(m_error, t_error)
    if t_error is not None:
        return
    assert m_out.requires_grad == t_out.requires_grad
    np.testing.assert_allclose(array_of(m_out), array_of(t_out), rtol=row.rtol, atol=row.atol,
                               equal_nan=True)
    if t_grads is not None:
        for m, t in zip(m_grads, t_grads):
            assert (m is None) == (t is None)
            if t is not None:
                np.testing.assert_allclose(array_of(m), array_of(t), rtol=row.rtol,
                                           atol=row.atol)


# --- scripted programs -------------------------------------------------------------------


def observe(value: Any) -> Any:
    """What to compare of a result: values and flags of tensors, else the value itself."""
    if isinstance(value, tuple):
        return tuple(observe(v) for v in value)
    if isinstance(value, str):
        return to_minigrad_names(value)
    if hasattr(value, "is_inference"):
        values = np.round(value.detach().numpy().astype(np.float64), 5).tolist()
        return ("tensor", values, str(value.dtype).split(".")[1],
                value.requires_grad, value.is_inference(),
                None if value.grad_fn is None else value.grad_fn.name())
    return value


def trace(lib: Any, program: Any) -> list[Any]:
    """Run ``program(lib, step)``; each ``step(fn)`` records fn's outcome and returns it."""
    seen: list[Any] = []

    def step(fn: Any) -> Any:
        value, error = run(fn)
        if error is None:
            seen.append(observe(value))
        else:
            seen.append((type(error).__name__, to_minigrad_names(str(error))))
        return value

    program(lib, step)
    return seen


def inference_program(lib: Any, step: Any) -> None:
    x = lib.ones(3, requires_grad=True)
    with lib.inference_mode():
        y = step(lambda: x * 2)
        z = step(lambda: lib.arange(3.0))
        step(lambda: x[0])
        step(lambda: z.add_(1))
        step(lambda: x.detach().add_(1))
        step(lambda: y._version)
        d = step(lambda: y.detach())
    step(lambda: (lib.is_grad_enabled(), lib.is_inference_mode_enabled()))
    for use in ("mul", "add", "sigmoid_add", "matmul", "exp"):
        step(lambda use=use: {
            "mul": lambda: x * y, "add": lambda: x + y, "sigmoid_add": lambda: x.sigmoid() + y,
            "matmul": lambda: x @ y, "exp": lambda: (x.exp() * z).sum(),
        }[use]())
    step(lambda: z.mul_(2))
    step(lambda: z)
    step(lambda: z.requires_grad_())
    step(lambda: d.add_(1))
    step(lambda: y.detach().add_(1))
    step(lambda: y.detach()._version)
    step(lambda: y.data._version)
    step(lambda: y)
    step(lambda: (x + y).sum().backward())
    step(lambda: x.grad)


def legacy_program(lib: Any, step: Any) -> None:
    variable = lib.autograd.Variable
    t = lib.tensor([1.0, 2.0])
    v = step(lambda: variable(t, requires_grad=True))
    step(lambda: (v * v).sum().backward())
    step(lambda: v.grad)
    step(lambda: variable(t * 2))
    step(lambda: variable([1.0]))
    step(lambda: lib.FloatTensor([1, 2]))
    step(lambda: lib.LongTensor([1.5, -2.5]))
    step(lambda: lib.DoubleTensor(lib.tensor([1.0], dtype=lib.float64)))
    step(lambda: lib.FloatTensor(2, 3).shape == (2, 3))
    step(lambda: lib.Tensor([[1, 2]]))
    step(lambda: lib.Tensor(lib.tensor([1, 2])))
    step(lambda: lib.Tensor(2.5))
    step(lambda: isinstance(lib.ones(1), lib.FloatTensor))
    step(lambda: isinstance(lib.ones(1), lib.IntTensor))
    step(lambda: lib.ones(2).type())
    step(lambda: lib.ones(2).type(lib.IntTensor))
    step(lambda: lib.ones(2, requires_grad=True).type(lib.float64))
    step(lambda: lib.tensor([3]).new_ones(2))
    step(lambda: lib.tensor([3.0]).new_tensor([1, 2]))
    with lib.no_grad():
        step(lambda: lib.ones(2, requires_grad=True).numpy().tolist())
    step(lambda: lib.ones(2, requires_grad=True).numpy())
    step(lambda: lib.ones(2, requires_grad=True).numpy(force=True).tolist())


@pytest.mark.parametrize("program", [inference_program, legacy_program])
def test_programs(program: Any) -> None:
    assert trace(minigrad, program) == trace(torch, program)
