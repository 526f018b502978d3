"""Every op-table row against PyTorch 2.13, side by side (float32 and float64).

For every row of ``opinfo.all_ops()`` and every sample, the same call runs in both libraries on
the same values (``build_args`` from tests/test_ops.py: same shapes, same transposed layouts):
- forward: values, dtype, shape, ``requires_grad``, ``grad_fn.name()``, whether the output is a
  view, and the versions of the output and inputs (in-place rows: one bump per write); also
  with the float arrays rounded to int64, and as bool (> 0) (both must succeed alike or raise
  alike);
- backward with a random upstream gradient: the gradient of every input (or the same error);
- the mutation matrix: for each tensor input and for the output, modify it in place through
  ``.detach()`` after forward, then backward: minigrad raises iff PyTorch raises, with the same
  message (``torch.`` -> ``minigrad.``);
- create_graph (rows with ``gradgrad``): first gradients, and the gradient of their sum;
- each row's ``bad_inputs``: same exception type and message; inputs unchanged (values and
  version).

One test per row (``test_row_against_pytorch[exp]``) runs every check above on all of the row's
samples, in every dtype it is checked in, and reports every failing one named by the test that
ran it before and its case: ``test_backward: exp-0d-float32: ...`` (``rows_in_one_test`` and
``check_tests`` in tests/row_cases.py).
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np
import pytest
from opinfo import OpInfo, Sample, all_ops
from opinfo.activations import OPS as ACTIVATION_OPS
from opinfo.activations import nn_functional
from opinfo.bitwise import OPS as BITWISE_OPS
from opinfo.elementwise import OPS as ELEMENTWISE_OPS
from opinfo.elementwise_extra import OPS as ELEMENTWISE_EXTRA_OPS
from row_cases import Item, RowCase, RowTests, check_tests, row_cases, rows_in_one_test
from test_ops import build_args, call, is_edge, iter_cases, row_rng

import minigrad

torch = pytest.importorskip("torch")

ALL_OPS = all_ops()
DTYPES = ("float32", "float64")
_TORCH_NAME = re.compile(r"\btorch\.(?=[A-Za-z_])")


def to_minigrad_names(text: str) -> str:
    """PyTorch's message with its Python-level ``torch.`` names as ``minigrad.``."""
    return _TORCH_NAME.sub("minigrad.", text)


def cases(
    rows: list[OpInfo] = ALL_OPS, dtypes: tuple[str, ...] = DTYPES, keep: Any = None,
    test: str = "",
) -> list[Any]:
    """``(row, sample, dtype)`` params with ids like ``exp-0d-float32`` (strict xfails where the
    row lists a known bug for ``test``). The tests here use ``row_cases`` (one test per row);
    this stays for other test files."""
    out = []
    for param in iter_cases(rows, keep, test):
        row, sample = param.values
        for dtype in dtypes:
            out.append(pytest.param(row, sample, dtype, id=f"{param.id}-{dtype}",
                                    marks=param.marks))
    return out


def tolerances(row: OpInfo, dtype: str) -> dict[str, float]:
    if dtype == "float64":
        return {"rtol": 1e-7, "atol": 1e-9}
    return {"rtol": row.rtol, "atol": row.atol}


def array_of(tensor: Any) -> np.ndarray:
    if getattr(tensor, "_is_zerotensor", lambda: False)():
        return np.zeros(tuple(tensor.shape), dtype=str(tensor.dtype).split(".")[-1])
    return np.array(tensor.detach().numpy(), copy=True)


def assert_same_values(mine: Any, theirs: Any, row: OpInfo, dtype: str, what: str) -> None:
    assert str(mine.dtype) == to_minigrad_names(str(theirs.dtype)), what
    assert tuple(mine.shape) == tuple(theirs.shape), what
    expected, actual = array_of(theirs), array_of(mine)
    if expected.dtype.kind == "f":
        np.testing.assert_allclose(actual, expected, equal_nan=True, err_msg=what,
                                   **tolerances(row, dtype))
    else:
        np.testing.assert_array_equal(actual, expected, err_msg=what)


def run(fn: Any) -> tuple[Any, BaseException | None]:
    """``(fn(), None)``, or ``(None, error)`` if it raised."""
    try:
        return fn(), None
    except Exception as error:  # noqa: BLE001 - compared with PyTorch's
        return None, error


def assert_same_outcome(mine: BaseException | None, theirs: BaseException | None,
                        same_message: bool = True) -> None:
    """minigrad raises iff PyTorch raises: the same type and (by default) message."""
    if theirs is None:
        assert mine is None, f"PyTorch does not raise; minigrad raised {mine!r}"
        return
    assert mine is not None, f"PyTorch raises {theirs!r}; minigrad does not"
    assert type(mine).__name__ == type(theirs).__name__, (mine, theirs)
    if same_message:
        assert str(mine) == to_minigrad_names(str(theirs))


def grad_name(tensor: Any) -> str | None:
    return None if tensor.grad_fn is None else tensor.grad_fn.name()


def upstream(output: Any, lib: Any) -> Any:
    """A random upstream gradient of the output's shape and dtype (the same in both libs)."""
    return lib.from_numpy(_upstream_values(tuple(output.shape), array_of(output).dtype).copy())


@functools.cache
def _upstream_values(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    # Made once per shape and dtype: a new generator per call was ~3 % of this file's time.
    return np.random.default_rng(1234).standard_normal(shape).astype(dtype)


def both(row: OpInfo, sample: Sample, dtype: str, requires_grad: bool = True) -> Any:
    """Arguments for both libraries: ``(mine, theirs)``, each ``(args, kwargs, positions)``."""
    return (build_args(minigrad, row, sample, dtype, requires_grad),
            build_args(torch, row, sample, dtype, requires_grad))


# --- forward ----------------------------------------------------------------------------------


def check_forward(row: OpInfo, sample: Sample, dtype: str) -> None:
    """Values, dtype, shape, requires_grad, node name, view-ness and versions as PyTorch's."""
    (m_args, m_kwargs, _), (t_args, t_kwargs, _) = both(row, sample, dtype)
    theirs, t_error = run(lambda: call(torch, row, t_args, t_kwargs))
    mine, m_error = run(lambda: call(minigrad, row, m_args, m_kwargs))
    assert_same_outcome(m_error, t_error)
    if t_error is not None:
        return
    assert_same_values(mine, theirs, row, dtype, "forward")
    assert mine.requires_grad == theirs.requires_grad
    assert grad_name(mine) == grad_name(theirs)
    # A view exactly where PyTorch's is, sharing its input's version; one version bump per
    # in-place write. (A fresh result's version is not compared: PyTorch's kernels write some
    # of theirs in place before returning them: isclose, one_hot, matmul of a vector.)
    assert mine._is_view() == theirs._is_view(), "is a view"
    if theirs._is_view() or row.inplace:
        assert mine._version == theirs._version, "version of the output"
    for index, (m, t) in enumerate(zip(m_args, t_args)):
        if isinstance(t, torch.Tensor):
            assert m._version == t._version, f"version of argument {index}"


def check_forward_under_no_grad(row: OpInfo, sample: Sample, dtype: str) -> None:
    """Under no_grad: the same outcome, nothing recorded, requires_grad as PyTorch's."""
    (m_args, m_kwargs, _), (t_args, t_kwargs, _) = both(row, sample, dtype)
    with torch.no_grad():
        theirs, t_error = run(lambda: call(torch, row, t_args, t_kwargs))
    with minigrad.no_grad():
        mine, m_error = run(lambda: call(minigrad, row, m_args, m_kwargs))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        assert mine.grad_fn is None and theirs.grad_fn is None
        # Nothing is recorded, but a view of a tensor that requires grad still requires grad.
        assert mine.requires_grad == theirs.requires_grad


def _has_float_array(sample: Sample) -> bool:
    return any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in sample.args)


# Bool inputs are checked for the elementwise and activation families so far (others: add them
# here).
BOOL_CHECKED_ROWS = [*ELEMENTWISE_OPS, *ELEMENTWISE_EXTRA_OPS, *BITWISE_OPS, *ACTIVATION_OPS]


def _float_array_sample(row: OpInfo, sample: Sample) -> bool:
    return _has_float_array(sample)


def check_forward_integer_inputs(row: OpInfo, sample: Sample, dtype: str) -> None:
    """Float arrays rounded to int64 (or as bool): the same outcome and values as PyTorch."""
    (m_args, m_kwargs, _), (t_args, t_kwargs, _) = both(row, sample, dtype)
    theirs, t_error = run(lambda: call(torch, row, t_args, t_kwargs))
    mine, m_error = run(lambda: call(minigrad, row, m_args, m_kwargs))
    assert_same_outcome(m_error, t_error)
    if t_error is None:
        assert_same_values(mine, theirs, row, "float32", "forward on integers")
        assert mine.requires_grad == theirs.requires_grad


# --- backward ---------------------------------------------------------------------------------


def _forward_and_backward(lib: Any, row: OpInfo, sample: Sample, dtype: str, mutate: Any = None):
    """Forward, optionally an in-place write, backward: ``(grads, error)``.

    ``mutate`` is None, an argument position, or ``"output"``.
    """
    args, kwargs, positions = build_args(lib, row, sample, dtype)
    output = call(lib, row, args, kwargs)
    if output.grad_fn is None:
        return None, None
    if mutate is not None:
        target = output if mutate == "output" else args[mutate]
        # Some outputs cannot be written at all (an expanded view: internal overlap).
        _, error = run(lambda: modify_in_place(target))
        if error is not None:
            return None, error
    grad = upstream(output, lib)

    def backward() -> list[Any]:
        output.backward(grad)
        return [args[p].grad for p in positions]

    return run(backward)


def modify_in_place(tensor: Any) -> None:
    """Bump ``tensor``'s version through ``.detach()`` (values kept where possible)."""
    detached = tensor.detach()
    if str(detached.dtype).endswith("bool"):
        detached.copy_(detached.clone())
    else:
        detached.mul_(1)


def check_backward(row: OpInfo, sample: Sample, dtype: str) -> None:
    """Backward with a random upstream gradient: every input's gradient (or error) as PyTorch's."""
    theirs, t_error = _forward_and_backward(torch, row, sample, dtype)
    mine, m_error = _forward_and_backward(minigrad, row, sample, dtype)
    assert_same_outcome(m_error, t_error)
    if theirs is None or mine is None:
        assert theirs is None and mine is None
        return
    for index, (m, t) in enumerate(zip(mine, theirs)):
        assert (m is None) == (t is None), f"gradient {index}"
        if t is not None:
            assert_same_values(m, t, row, dtype, f"gradient of argument {index}")


def _mutation_targets(sample: Sample) -> list[Any]:
    return [i for i, a in enumerate(sample.args) if isinstance(a, np.ndarray)] + ["output"]


def check_mutation_matrix(row: OpInfo, sample: Sample, dtype: str) -> None:
    """Each input and the output modified in place before backward: raises iff PyTorch does."""
    for target in _mutation_targets(sample):
        _, t_error = _forward_and_backward(torch, row, sample, dtype, mutate=target)
        _, m_error = _forward_and_backward(minigrad, row, sample, dtype, mutate=target)
        try:
            assert_same_outcome(m_error, t_error)
        except AssertionError as failure:
            raise AssertionError(f"modifying {target!r} in place: {failure}") from None


# --- create_graph -----------------------------------------------------------------------------


def _first_and_second(lib: Any, row: OpInfo, sample: Sample, dtype: str) -> Any:
    args, kwargs, positions = build_args(lib, row, sample, dtype)
    inputs = [args[p] for p in positions]
    output = call(lib, row, args, kwargs)
    if output.grad_fn is None:
        return None
    first = lib.autograd.grad(output, inputs, upstream(output, lib), create_graph=True,
                              allow_unused=True)
    total = None
    for g in first:
        if g is not None and g.requires_grad:
            total = g.sum() if total is None else total + g.sum()
    if total is None:
        second = [None] * len(inputs)
    else:
        second = lib.autograd.grad(total, inputs, allow_unused=True)
    # A missing second gradient (no graph) means zeros: compare values, not graph shapes.
    second = [lib.zeros_like(x) if s is None else s for x, s in zip(inputs, second)]
    return first, second


def _second_derivatives_apply(row: OpInfo, sample: Sample) -> bool:
    # Something to differentiate, away from kinks (second derivatives there are convention).
    has_float = any(isinstance(a, np.ndarray) and a.dtype.kind == "f" for a in sample.args)
    return has_float and not is_edge(sample)


def check_second_derivatives(row: OpInfo, sample: Sample, dtype: str) -> None:
    """First gradients with create_graph, and the gradient of their sum, as PyTorch's."""
    theirs, t_error = run(lambda: _first_and_second(torch, row, sample, dtype))
    mine, m_error = run(lambda: _first_and_second(minigrad, row, sample, dtype))
    assert_same_outcome(m_error, t_error)
    if theirs is None:
        assert mine is None
        return
    for order, (m_grads, t_grads) in enumerate(zip(mine, theirs), start=1):
        for index, (m, t) in enumerate(zip(m_grads, t_grads)):
            assert (m is None) == (t is None), f"order {order}, input {index}"
            if t is not None:
                assert_same_values(m, t, row, dtype, f"order {order}, input {index}")


# --- bad inputs -------------------------------------------------------------------------------


def check_bad_input(row: OpInfo, bad: Any) -> None:
    """Both libraries refuse ``bad`` alike, leaving its tensors' values and versions alone."""
    sample = Sample(bad.args, bad.kwargs)
    outcomes = []
    for lib in (torch, minigrad):
        args, kwargs, _ = build_args(lib, row, sample, "float32")
        tensors = [a for a in [*args, *kwargs.values()] if isinstance(a, lib.Tensor)]
        before = [(array_of(t), t._version) for t in tensors]
        _, error = run(lambda: call(lib, row, args, kwargs))  # noqa: B023 - called at once
        for tensor, (values, version) in zip(tensors, before):
            np.testing.assert_array_equal(array_of(tensor), values)
            assert tensor._version == version
        outcomes.append(error)
    t_error, m_error = outcomes
    assert t_error is not None, "PyTorch accepts this input: not a bad input"
    assert_same_outcome(m_error, t_error, bad.same_message)


def test_every_row_has_samples() -> None:
    for row in ALL_OPS:
        assert list(row.samples(row_rng(row.name))), row.name


def test_row_names_are_unique() -> None:
    names = [row.name for row in ALL_OPS]
    assert len(names) == len(set(names))


def test_hardsigmoid_second_derivative_raises() -> None:
    # PyTorch has no derivative for hardsigmoid_backward: its first gradient is recorded by a
    # NotImplemented node, and differentiating it raises.
    outcomes = []
    for lib in (torch, minigrad):
        x = lib.tensor([0.3, -4.0], requires_grad=True)
        y = nn_functional(lib, "hardsigmoid")(x)
        (g,) = lib.autograd.grad(y.sum(), x, create_graph=True)
        assert g.requires_grad
        outcomes.append((type(g.grad_fn).__name__, grad_name(g)))
        _, error = run(lambda: g.sum().backward())  # noqa: B023 - called at once
        outcomes.append(error)
    t_names, t_error, m_names, m_error = outcomes
    assert m_names == t_names
    assert_same_outcome(m_error, t_error)


# --- one test per row --------------------------------------------------------------------------


def _integer_cases() -> list[Any]:
    """int64 for every row, and bool too for the rows checked with bool inputs."""
    with_bool = {row.name for row in BOOL_CHECKED_ROWS}
    return [
        *row_cases([row for row in ALL_OPS if row.name in with_bool], _float_array_sample,
                   "test_forward_integer_inputs", ("int64", "bool"), one_test_for_dtypes=True),
        *row_cases([row for row in ALL_OPS if row.name not in with_bool], _float_array_sample,
                   "test_forward_integer_inputs", ("int64",), one_test_for_dtypes=True),
    ]


def _bad_cases() -> list[Any]:
    """The rows' bad inputs (labelled by name, or index)."""
    out = []
    for row in ALL_OPS:
        items = tuple(Item(bad.name or str(index), bad) for index, bad in enumerate(row.bad_inputs))
        if items:
            out.append(pytest.param(RowCase(row, items), id=row.name))
    return out


ROW_TESTS = rows_in_one_test({
    "test_forward": row_cases(ALL_OPS, test="test_forward", dtypes=DTYPES,
                              one_test_for_dtypes=True),
    "test_forward_under_no_grad": row_cases(ALL_OPS, test="test_forward_under_no_grad",
                                            dtypes=("float32",), one_test_for_dtypes=True),
    "test_forward_integer_inputs": _integer_cases(),
    "test_backward": row_cases(ALL_OPS, test="test_backward", dtypes=DTYPES,
                               one_test_for_dtypes=True),
    "test_mutation_matrix": row_cases(ALL_OPS, test="test_mutation_matrix", dtypes=DTYPES,
                                      one_test_for_dtypes=True),
    "test_second_derivatives": row_cases(
        [r for r in ALL_OPS if r.differentiable and r.gradgrad], _second_derivatives_apply,
        "test_second_derivatives", DTYPES, one_test_for_dtypes=True),
    "test_bad_inputs": _bad_cases(),
})


@pytest.mark.parametrize("case", ROW_TESTS)
def test_row_against_pytorch(case: RowTests) -> None:
    """Every check of this file on one row (a test per row and check cost more CPU in pytest and
    xdist than most of these checks)."""
    row = case.row
    check_tests(case, {
        "test_forward": lambda value: check_forward(row, *value),
        "test_forward_under_no_grad": lambda value: check_forward_under_no_grad(row, *value),
        "test_forward_integer_inputs": lambda value: check_forward_integer_inputs(row, *value),
        "test_backward": lambda value: check_backward(row, *value),
        "test_mutation_matrix": lambda value: check_mutation_matrix(row, *value),
        "test_second_derivatives": lambda value: check_second_derivatives(row, *value),
        "test_bad_inputs": lambda bad: check_bad_input(row, bad),
    })
