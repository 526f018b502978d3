"""Generic op tests driven by the op table (tests/opinfo): one row per op, no torch needed.

For every row and every sample of ``opinfo.all_ops()``:
- ``gradcheck`` in float64 (differentiable rows: whole Jacobians) and ``gradgradcheck`` (rows
  with ``gradgrad``) in fast mode, as PyTorch's own op tests run it (``v^T J u`` for random
  ``u``, ``v``: one finite difference per input instead of one per element; the second
  derivatives' graphs make the slow mode cost ~6x this file's other tests together).
  ``MINIGRAD_SLOW_GRADCHECK=1`` compares whole Jacobians there too (PyTorch's
  ``PYTORCH_TEST_WITH_SLOW_GRADCHECK``);
- a call on inputs that do not require grad records nothing (no ``grad_fn``);
- under ``no_grad`` nothing is recorded even if the inputs require grad.

Samples whose name starts with ``edge`` hold points where the op is not differentiable in the
ordinary sense (relu at 0, clamp at its bounds): finite differences are meaningless there, so
they are skipped by gradcheck (tests_torch checks PyTorch's convention at those points).

One test per row (``test_op_table_row[exp]``) runs all of these checks on all of the row's
samples and reports every failing one, named by its check as it was by its own test before:
``test_gradcheck: exp-0d: ...`` (``rows_in_one_test`` and ``check_tests`` in
tests/row_cases.py).

``build_args`` and ``call`` are shared with tests_torch/test_ops_torch.py, which runs the same
rows against PyTorch: keep their signatures stable. With ``MINIGRAD_TEST_REFERENCE=torch``
these tests run on PyTorch itself, which validates the table's samples.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from _backend import mg as minigrad  # minigrad, or torch with MINIGRAD_TEST_REFERENCE=torch
from opinfo import OpInfo, Sample, all_ops
from row_cases import (
    RowTests,
    check_tests,
    known_bug_reason,
    row_cases,
    row_rng,  # noqa: F401 - imported from here by other test files
    row_samples,
    rows_in_one_test,
)

ALL_OPS = all_ops()
SLOW_GRADGRADCHECK = os.environ.get("MINIGRAD_SLOW_GRADCHECK") == "1"


def sample_id(row: OpInfo, index: int, sample: Sample) -> str:
    return f"{row.name}-{sample.name or index}"


def iter_cases(
    rows: list[OpInfo] = ALL_OPS, keep: Callable[[OpInfo, Sample], bool] | None = None,
    test: str = "",
) -> Iterator[Any]:
    """``pytest.param(row, sample, id="exp-0d")`` for every sample of every row (that ``keep``
    accepts: cases a test does not apply to are not generated, rather than skipped). The cases
    a row lists in ``known_bugs`` for ``test`` are strict xfails on minigrad."""
    for row in rows:
        for index, sample in enumerate(row_samples(row)):
            if keep is None or keep(row, sample):
                yield pytest.param(row, sample, id=sample_id(row, index, sample),
                                   marks=known_bug_marks(row, sample, test))


def known_bug_marks(row: OpInfo, sample: Sample, test: str) -> tuple[Any, ...]:
    """A strict xfail if ``row.known_bugs`` names ``test`` (or ``test:sample``) and the library
    under test is minigrad (PyTorch itself passes: the reference run validates the case)."""
    reason = known_bug_reason(row, sample, test)
    if not reason:
        return ()
    return (pytest.mark.xfail(strict=True, reason=reason),)


def is_edge(sample: Sample) -> bool:
    """True for samples at non-differentiable points (left out of finite differences)."""
    return sample.name.startswith("edge") or getattr(sample, "gradcheck", True) is False


def has_grad_argument(row: OpInfo, sample: Sample) -> bool:
    """True if some float array argument of the sample will require grad."""
    return any(
        isinstance(value, np.ndarray)
        and value.dtype.kind == "f"
        and (row.grad_args is None or position in row.grad_args)
        for position, value in enumerate(sample.args)
    )


def finite_differences_apply(row: OpInfo, sample: Sample) -> bool:
    """gradcheck applies: a differentiable point, and an argument to differentiate."""
    return not is_edge(sample) and has_grad_argument(row, sample)


def convert_array(array: np.ndarray, dtype: str) -> np.ndarray:
    """A float array as ``dtype`` ("float32", "float64", "int64": rounded, "bool": > 0);
    others unchanged."""
    if array.dtype.kind != "f":
        return np.array(array, copy=True)
    if dtype == "bool":
        return array > 0
    if dtype == "int64":
        finite = np.clip(np.nan_to_num(array, nan=0.0), -1e6, 1e6)  # nan, inf: no int value
        return np.round(finite).astype(np.int64)
    return array.astype(dtype)


def to_tensor(lib: Any, array: np.ndarray, requires_grad: bool, transposed: bool) -> Any:
    """``array`` as a leaf tensor of ``lib`` on its own buffer.

    With ``transposed`` (and ndim >= 2) the tensor has the array's shape and values but a
    transposed memory layout (last two axes): a non-contiguous leaf, in both libraries alike.
    """
    if transposed and array.ndim >= 2:
        array = np.swapaxes(np.ascontiguousarray(np.swapaxes(array, -1, -2)), -1, -2)
    else:
        array = np.array(array, copy=True)
    tensor = lib.from_numpy(array)
    if requires_grad:
        tensor.requires_grad_(True)
    return tensor


def build_args(
    lib: Any, row: OpInfo, sample: Sample, dtype: str = "float64", requires_grad: bool = True
) -> tuple[list[Any], dict[str, Any], list[int]]:
    """The sample's arguments as ``lib`` tensors; and the positions of those requiring grad.

    Float arrays become ``dtype`` tensors, requiring grad (if ``requires_grad`` and the dtype is
    floating point) when their position is in ``row.grad_args`` (or always, if it is None).
    Array keyword arguments become tensors that do not require grad.
    """
    args: list[Any] = []
    grad_positions = []
    for position, value in enumerate(sample.args):
        if isinstance(value, np.ndarray):
            array = convert_array(value, dtype)
            wants = (
                requires_grad
                and array.dtype.kind == "f"
                and (row.grad_args is None or position in row.grad_args)
            )
            if wants:
                grad_positions.append(position)
            args.append(to_tensor(lib, array, wants, sample.transposed))
        else:
            args.append(value)
    kwargs = {
        key: to_tensor(lib, convert_array(value, dtype), False, sample.transposed)
        if isinstance(value, np.ndarray)
        else value
        for key, value in sample.kwargs.items()
    }
    return args, kwargs, grad_positions


def call(lib: Any, row: OpInfo, args: list[Any], kwargs: dict[str, Any]) -> Any:
    """Run the row's op; the output to differentiate (``output_index`` picks from a tuple)."""
    result = row.call(lib, *args, **kwargs)
    return result if row.output_index is None else result[row.output_index]


def float64_function(row: OpInfo, sample: Sample) -> tuple[Any, tuple[Any, ...]]:
    """``(func, inputs)`` for gradcheck: func takes the tensors requiring grad."""
    args, kwargs, positions = build_args(minigrad, row, sample, "float64")
    assert positions, "cases without an argument to differentiate are not generated"

    def func(*tensors: Any) -> Any:
        full = list(args)
        for position, tensor in zip(positions, tensors):
            full[position] = tensor
        return call(minigrad, row, full, kwargs)

    return func, tuple(args[p] for p in positions)


DIFFERENTIABLE = [row for row in ALL_OPS if row.differentiable]


# The checks of one sample, run by test_op_table_row at the end of this file.


def check_gradcheck(row: OpInfo, sample: Sample) -> None:
    func, inputs = float64_function(row, sample)
    assert minigrad.autograd.gradcheck(func, inputs)


def check_gradgradcheck(row: OpInfo, sample: Sample) -> None:
    func, inputs = float64_function(row, sample)
    minigrad.manual_seed(0)
    assert minigrad.autograd.gradgradcheck(func, inputs, fast_mode=not SLOW_GRADGRADCHECK)


def _outputs(result: Any) -> tuple[Any, ...]:
    return result if isinstance(result, tuple) else (result,)


def check_nothing_recorded_without_requires_grad(row: OpInfo, sample: Sample) -> None:
    args, kwargs, _ = build_args(minigrad, row, sample, "float64", requires_grad=False)
    for output in _outputs(row.call(minigrad, *args, **kwargs)):
        assert output.grad_fn is None
        assert not output.requires_grad


def check_nothing_recorded_under_no_grad(row: OpInfo, sample: Sample) -> None:
    args, kwargs, _ = build_args(minigrad, row, sample, "float64")
    with minigrad.no_grad():
        result = row.call(minigrad, *args, **kwargs)
    for output in _outputs(result):
        assert output.grad_fn is None
        # A view of a tensor that requires grad still requires grad (PyTorch): not
        # recorded, but a leaf whose base does; so does an input returned as it is
        # (``contiguous()``).
        if getattr(output, "_base", None) is None and all(output is not a for a in args):
            assert not output.requires_grad


def test_second_derivative_through_an_inplace_op_that_saved_its_input() -> None:
    x = minigrad.tensor([0.5, 1.0], dtype=minigrad.float64, requires_grad=True)
    y = x.clone().sin_()
    (g,) = minigrad.autograd.grad(y.sum(), x, create_graph=True)
    (h,) = minigrad.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.detach().numpy(), -np.sin([0.5, 1.0]))


def _first_with_grad_argument(row: OpInfo, sample: Sample) -> bool:
    """Whether ``sample`` is the row's first sample with an argument that requires grad."""
    first = next((s for s in row_samples(row) if has_grad_argument(row, s)), None)
    return sample is first


def check_a_built_in_op_keeps_its_options_in_declared_slots(row: OpInfo, sample: Sample) -> None:
    """Every option forward keeps on ctx is declared in the op's ``fields`` (the node's slots):
    a built-in op's node has no per-node __dict__ at all (issue 7: cheap nodes; and, as
    PyTorch's, it takes no new attribute)."""
    args, kwargs, _ = build_args(minigrad, row, sample, "float64")
    stack = [output.grad_fn for output in _outputs(row.call(minigrad, *args, **kwargs))]
    seen = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(child for child, _ in node.next_functions)
        if getattr(node, "_function", None) is not None and not node._function._tensor_level:
            assert not hasattr(node, "__dict__"), node.name()


# --- one test per row --------------------------------------------------------------------------

ROW_TESTS = rows_in_one_test({
    "test_gradcheck": row_cases(DIFFERENTIABLE, finite_differences_apply, "test_gradcheck"),
    "test_gradgradcheck": row_cases([row for row in DIFFERENTIABLE if row.gradgrad],
                                    finite_differences_apply, "test_gradgradcheck"),
    "test_nothing_recorded_without_requires_grad": row_cases(
        ALL_OPS, test="test_nothing_recorded_without_requires_grad"),
    "test_nothing_recorded_under_no_grad": row_cases(
        ALL_OPS, test="test_nothing_recorded_under_no_grad"),
    "test_a_built_in_op_keeps_its_options_in_declared_slots": row_cases(
        ALL_OPS, _first_with_grad_argument,
        "test_a_built_in_op_keeps_its_options_in_declared_slots"),
})


@pytest.mark.parametrize("case", ROW_TESTS)
def test_op_table_row(case: RowTests) -> None:
    """Every check above, on every sample of one row it applies to (a test per row and check
    cost more CPU in pytest than most of these checks)."""
    row = case.row
    check_tests(case, {
        "test_gradcheck": lambda sample: check_gradcheck(row, sample),
        "test_gradgradcheck": lambda sample: check_gradgradcheck(row, sample),
        "test_nothing_recorded_without_requires_grad":
            lambda sample: check_nothing_recorded_without_requires_grad(row, sample),
        "test_nothing_recorded_under_no_grad":
            lambda sample: check_nothing_recorded_under_no_grad(row, sample),
        "test_a_built_in_op_keeps_its_options_in_declared_slots":
            lambda sample: check_a_built_in_op_keeps_its_options_in_declared_slots(row, sample),
    })
