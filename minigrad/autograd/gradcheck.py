"""Finite-difference checks of gradients: ``gradcheck`` and ``gradgradcheck`` (PyTorch's API).

``gradcheck`` compares two Jacobians of ``func`` for every (output, input) pair:

- the *numerical* one, by central differences: perturb one input element by ``+-eps`` (in place,
  on the buffer, invisibly to autograd, as PyTorch does through ``.data``) and take
  ``(f(x + eps) - f(x - eps)) / (2 eps)`` -- one column per input element;
- the *analytical* one, by backward: ``autograd.grad`` with a one-hot upstream gradient per
  output element -- one row per output element. It is computed twice; the two must agree
  (backward must be deterministic, "reentrant").

They must agree within ``allclose(analytical, numerical, rtol, atol)``. Then backward with a zero
upstream gradient must give zero gradients of the inputs' shapes and dtypes.

``fast_mode=True`` is PyTorch's fast gradcheck: instead of whole Jacobians it compares one
number per (output, input) pair, ``v^T J u`` for random unit vectors ``u`` (input) and ``v``
(output) -- numerically by one central difference along ``u``, analytically by one backward
with upstream ``v`` -- within ``atol * sum(u) * sum(v)``. Two evaluations and one backward per
pair instead of one per element; a wrong Jacobian entry still shows unless ``u`` and ``v``
happen to hide it. On a mismatch the slow Jacobians are recomputed for the error message.

``gradgradcheck`` runs ``gradcheck`` on the function ``(inputs, v) -> grad(func(inputs), inputs,
v, create_graph=True)``: that checks the second derivatives, i.e. that every backward formula
is itself correctly differentiable.

Use float64 inputs: with float32, ``eps = 1e-6`` drowns in rounding (PyTorch warns, so do we).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from minigrad import _random
from minigrad._dtype import from_numpy_dtype
from minigrad._size import Size
from minigrad.autograd import engine
from minigrad.autograd.tensor_base import TensorBase

__all__ = ["GradcheckError", "gradcheck", "gradgradcheck"]


class GradcheckError(RuntimeError):
    """Error raised by :func:`gradcheck` and :func:`gradgradcheck`."""


FAILED_NONDET_MSG = """\n
NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""


def gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_batched_forward_grad: bool = False,
    check_forward_ad: bool = False,
    check_backward_ad: bool = True,
    fast_mode: bool = False,
    masked: bool | None = None,
) -> bool:
    """Check the gradients of ``func`` at ``inputs`` against central finite differences.

    Every floating-point tensor in ``inputs`` that requires grad is checked, against every
    output that requires grad.

    Args:
        func: takes the tensors (and other values) of ``inputs``; returns a tensor or a tuple.
        inputs: a tensor or a tuple of arguments for ``func``.
        eps: the perturbation of the finite differences.
        atol: the absolute tolerance of ``allclose(analytical, numerical)``.
        rtol: its relative tolerance.
        raise_exception: raise :class:`GradcheckError` on failure (else return False).
        nondet_tol: how far two backward runs on the same input may differ.
        check_undefined_grad: check that a zero upstream gradient gives zero input gradients.
        check_grad_dtypes: check that each gradient has its input's dtype.
        check_backward_ad: check backward-mode gradients (the only mode minigrad has).
        fast_mode: compare ``v^T J u`` for random ``u``, ``v`` instead of whole Jacobians.
        check_batched_grad: not supported (minigrad has no vmap); must be off.
        check_batched_forward_grad: not supported (no forward mode); must be off.
        check_forward_ad: not supported (no forward mode); must be off.
        masked: not supported (no sparse tensors); must be off.

    Returns:
        True if every check passed.

    Raises:
        GradcheckError: a check failed and ``raise_exception`` is set.
        ValueError: no input requires grad.

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([0.5, 2.0], dtype=minigrad.float64, requires_grad=True)
        >>> minigrad.autograd.gradcheck(minigrad.exp, (x,))
        True
    """
    for name, value in (
        ("check_batched_grad", check_batched_grad),
        ("check_batched_forward_grad", check_batched_forward_grad),
        ("check_forward_ad", check_forward_ad),
        ("masked", masked),
    ):
        if value:
            raise NotImplementedError(f"minigrad's gradcheck does not support {name}=True")
    try:
        return _gradcheck(
            func, inputs, eps, atol, rtol, nondet_tol, check_undefined_grad, check_grad_dtypes,
            check_backward_ad, fast_mode,
        )
    except GradcheckError:
        if raise_exception:
            raise
        return False


def gradgradcheck(
    func: Callable[..., Any],
    inputs: Any,
    grad_outputs: Any = None,
    *,
    eps: float = 1e-6,
    atol: float = 1e-5,
    rtol: float = 1e-3,
    gen_non_contig_grad_outputs: bool = False,
    raise_exception: bool = True,
    nondet_tol: float = 0.0,
    check_undefined_grad: bool = True,
    check_grad_dtypes: bool = False,
    check_batched_grad: bool = False,
    check_fwd_over_rev: bool = False,
    check_rev_over_rev: bool = True,
    fast_mode: bool = False,
    masked: bool = False,
) -> bool:
    """Check the second derivatives of ``func``: ``gradcheck`` of its gradient.

    The gradient is ``autograd.grad(func(inputs), inputs, grad_outputs, create_graph=True)``,
    checked with respect to both ``inputs`` and ``grad_outputs``. Without ``grad_outputs``, random
    ones in ``[-1, 1)`` (of the outputs' shapes and dtypes, requiring grad) are drawn from
    minigrad's global generator (``minigrad.manual_seed`` makes them repeatable). The keyword
    arguments are :func:`gradcheck`'s (``fast_mode`` as there).

    Example:
        >>> import minigrad
        >>> x = minigrad.tensor([0.5, 2.0], dtype=minigrad.float64, requires_grad=True)
        >>> minigrad.autograd.gradgradcheck(minigrad.sigmoid, (x,))
        True
    """
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError(
            "Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True"
        )
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError(
            "Setting check_undefined_grad=True requires check_rev_over_rev to be True"
        )
    if check_fwd_over_rev or check_batched_grad or masked:
        raise NotImplementedError(
            "minigrad's gradgradcheck supports neither forward mode, batched gradients nor "
            "masked (sparse) tensors"
        )
    tupled_inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outputs = _differentiable_outputs(func(*tupled_inputs))
        rng = _random.generator()
        made = []
        for out in outputs:
            dtype = out._array.dtype if out._array.dtype.kind == "f" else np.dtype(np.float64)
            values = rng.uniform(-1.0, 1.0, size=out._array.shape).astype(dtype)
            if gen_non_contig_grad_outputs and values.ndim >= 1 and values.size > 1:
                # Every other element of a buffer twice as long: a non-contiguous layout.
                spread = np.empty((*values.shape[:-1], values.shape[-1] * 2), dtype=dtype)
                spread[..., ::2] = values
                values = spread[..., ::2]
            made.append(_new_tensor(values, requires_grad=True))
        tupled_grad_outputs = tuple(made)
    else:
        tupled_grad_outputs = _as_tuple(grad_outputs)
    num_outputs = len(tupled_grad_outputs)
    diff_input_indices = {
        i for i, x in enumerate(tupled_inputs) if isinstance(x, TensorBase) and x.requires_grad
    }

    def first_gradients(*args: Any) -> tuple[Any, ...]:
        input_args = args[:-num_outputs] if num_outputs else args
        outputs = _differentiable_outputs(func(*input_args))
        grads = args[-num_outputs:] if num_outputs else ()
        diff_inputs = tuple(x for i, x in enumerate(input_args) if i in diff_input_indices)
        result = engine.grad(outputs, diff_inputs, list(grads), create_graph=True,
                             allow_unused=True)
        return tuple(g for g in result if g is not None)

    return gradcheck(
        first_gradients,
        tupled_inputs + tupled_grad_outputs,
        eps=eps,
        atol=atol,
        rtol=rtol,
        raise_exception=raise_exception,
        nondet_tol=nondet_tol,
        check_undefined_grad=check_undefined_grad,
        check_grad_dtypes=check_grad_dtypes,
        fast_mode=fast_mode,
    )


# --- the checks ------------------------------------------------------------------------------


def _gradcheck(
    func: Callable[..., Any],
    inputs: Any,
    eps: float,
    atol: float,
    rtol: float,
    nondet_tol: float,
    check_undefined_grad: bool,
    check_grad_dtypes: bool,
    check_backward_ad: bool,
    fast_mode: bool,
) -> bool:
    tupled_inputs = _as_tuple(inputs)
    _check_inputs(tupled_inputs)
    func_out = _as_tuple(func(*tupled_inputs))
    outputs = _differentiable_outputs(func_out)
    diff_indices = [index for index, x in enumerate(tupled_inputs) if _requires_grad(x)]
    diff_inputs = [tupled_inputs[index] for index in diff_indices]
    # Fast mode probes each input along one random direction u, slow mode along every axis.
    if fast_mode:
        random = _random.Generator()  # (a fresh one: the user's random state is not touched)
        directions = [[(None, _unit_vector(x._array, random))] for x in diff_inputs]
    else:
        directions = [_axes(x._array) for x in diff_inputs]

    # numerical[k][i]: derivatives of float output i along input k's directions, one row each.
    numerical = [
        _numerical_jacobian(func, tupled_inputs, index, func_out, eps, probes)
        for index, probes in zip(diff_indices, directions)
    ]
    if not outputs:
        for per_input in numerical:
            for jacobian in per_input:
                if _not_zero(jacobian, nondet_tol if fast_mode else 0.0):
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return True
    if not check_backward_ad:
        return True

    float_outputs = [o for o in func_out if _is_float(o)]
    for i, output in enumerate(outputs):
        position = next(p for p, o in enumerate(float_outputs) if o is output)
        if fast_mode:
            v = _unit_vector(output._array, random)
            upstreams = [v]
            v = v.reshape(-1)
        else:
            upstreams = [direction for _, direction in _axes(output._array)]
        analytical = _analytical_jacobian(
            diff_inputs, output, upstreams, nondet_tol, check_grad_dtypes
        )
        for k, a in enumerate(analytical):
            n = numerical[k][position]
            if fast_mode:  # reduce both to v^T J u
                u = directions[k][0][1].reshape(-1)
                a, n = a[:, 0] @ u, n[0] @ v
                tolerance = atol * float(u.sum()) * float(v.sum())
            else:
                tolerance = atol
            dtype = np.promote_types(a.dtype, n.dtype)
            if not _allclose(a.astype(dtype), n.astype(dtype), rtol, tolerance):
                # (PyTorch prints fast mode's numbers as Python floats, slow mode's as tensors)
                show = float if fast_mode else _show
                message = (
                    f"Jacobian mismatch for output {i:d} with respect to input {k:d},\n"
                    f"numerical:{show(n)}\nanalytical:{show(a)}\n"
                )
                if fast_mode:
                    message += _slow_mode_report(
                        func, tupled_inputs, diff_indices[k], diff_inputs[k], func_out, output,
                        position, eps, atol, rtol,
                    )
                raise GradcheckError(message)

    _check_backward_mul_by_grad_output(outputs, diff_inputs)
    if check_undefined_grad:
        _check_undefined_grad(func, tupled_inputs, diff_inputs)
    return True


def _axes(array: np.ndarray) -> list[tuple[Any, np.ndarray]]:
    """Slow mode's directions: one one-hot array per element, labelled by its index."""
    directions = []
    for position in itertools.product(*(range(n) for n in array.shape)):
        direction = np.zeros(array.shape, dtype=array.dtype)
        direction[position] = 1
        directions.append((position, direction))
    return directions


def _unit_vector(array: np.ndarray, random: _random.Generator) -> np.ndarray:
    """Fast mode's direction: uniform [0, 1) entries, scaled to norm 1 (PyTorch's choice)."""
    vector = random.numpy.random(array.size).astype(array.dtype)
    norm = np.linalg.norm(vector)
    return (vector / norm if norm else vector).reshape(array.shape)


def _not_zero(jacobian: np.ndarray, tolerance: float) -> bool:
    return bool(jacobian.size) and float(np.max(np.abs(jacobian))) > tolerance


_SLOW_OK = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _slow_mode_report(
    func: Callable[..., Any], inputs: tuple[Any, ...], index: int, x: TensorBase,
    func_out: tuple[Any, ...], output: TensorBase, position: int, eps: float, atol: float,
    rtol: float,
) -> str:
    """PyTorch's addendum to a fast-mode mismatch: the whole Jacobians, as slow mode sees them."""
    numerical = _numerical_jacobian(func, inputs, index, func_out, eps, _axes(x._array))
    numerical = numerical[position]
    upstreams = [direction for _, direction in _axes(output._array)]
    (analytical,) = _jacobian_rows([x], output, upstreams)[0]
    max_diff = float(np.max(np.abs(numerical - analytical))) if numerical.size else 0.0
    report = (
        "\nThe above quantities relating the numerical and analytical jacobians are computed \n"
        "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background "
        "\nabout fast mode. Below, we recompute numerical and analytical jacobians in slow "
        f"mode:\n\nNumerical:\n {_show(numerical)}\nAnalytical:\n{_show(analytical)}\n\n"
        f"The max per-element difference (slow mode) is: {max_diff}.\n"
    )
    if _allclose(analytical, numerical, rtol, atol):
        report += _SLOW_OK
    return report


def _check_inputs(tupled_inputs: tuple[Any, ...]) -> None:
    any_requires_grad = False
    for index, x in enumerate(tupled_inputs):
        if isinstance(x, TensorBase) and x.requires_grad:
            if x._array.dtype != np.float64:
                warnings.warn(
                    f"Input #{index} requires gradient and "
                    "is not a double precision floating point or complex. "
                    "This check will likely fail if all the inputs are "
                    "not of double precision floating point or complex. ",
                    stacklevel=4,
                )
            array = x._array
            if not all(
                stride > 0 or size <= 1 for stride, size in zip(array.strides, array.shape)
            ):
                raise RuntimeError(
                    f"The {index}th input has a dimension with stride 0. gradcheck only "
                    "supports inputs that are non-overlapping to be able to "
                    "compute the numerical gradients correctly. You should call "
                    ".contiguous on the input before passing it to gradcheck."
                )
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError(
            "gradcheck expects at least one input tensor to require gradient, "
            "but none of them have requires_grad=True."
        )


def _numerical_jacobian(
    func: Callable[..., Any],
    inputs: tuple[Any, ...],
    index: int,
    func_out: tuple[Any, ...],
    eps: float,
    directions: Sequence[tuple[Any, np.ndarray]],
) -> list[np.ndarray]:
    """Per float output, its central differences along each direction: (directions, numel).

    The input's buffer is written directly: autograd does not see it (no version bump), which
    is what PyTorch does through ``.data``. The buffer is restored afterwards.
    """
    buffer = inputs[index]._array
    original = buffer.copy()
    float_outputs = [o for o in func_out if _is_float(o)]
    jacobians = [
        np.zeros((len(directions), o._array.size), dtype=o._array.dtype) for o in float_outputs
    ]
    for row, (label, direction) in enumerate(directions):
        step = eps * direction
        buffer[...] = original - step
        before = _evaluate(func, inputs)
        buffer[...] = original + step
        after = _evaluate(func, inputs)
        buffer[...] = original
        for jacobian, a, b in zip(jacobians, before, after):
            _check_same_dtype_and_shape(a, b, eps, label)
            jacobian[row] = ((b - a) / (2 * eps)).reshape(-1)
    return jacobians


def _evaluate(func: Callable[..., Any], inputs: tuple[Any, ...]) -> list[np.ndarray]:
    return [np.array(o._array, copy=True) for o in _as_tuple(func(*inputs)) if _is_float(o)]


def _check_same_dtype_and_shape(a: np.ndarray, b: np.ndarray, eps: float, idx: Any) -> None:
    on_index = f"on index {idx} " if idx is not None else ""  # (fast mode has no index)
    if a.shape != b.shape:
        raise AssertionError(
            f"Expected `func` to return outputs with the same shape when inputs are perturbed "
            f"{on_index}by {eps}, but got: shapes {Size(a.shape)} and {Size(b.shape)}."
        )
    if a.dtype != b.dtype:
        raise AssertionError(
            f"Expected `func` to return outputs with the same dtype when inputs are perturbed "
            f"{on_index}by {eps}, but got: dtypes {from_numpy_dtype(a.dtype)} and "
            f"{from_numpy_dtype(b.dtype)}."
        )


def _analytical_jacobian(
    diff_inputs: Sequence[TensorBase], output: TensorBase, upstreams: Sequence[np.ndarray],
    nondet_tol: float, check_grad_dtypes: bool,
) -> list[np.ndarray]:
    """Per input, the gradients for each upstream gradient as columns: (input numel, upstreams).

    With one-hot upstreams that is the transposed Jacobian, row by row. Computed twice: backward
    must give the same answer again (within ``nondet_tol``).
    """
    first, sizes_ok, types_ok = _jacobian_rows(diff_inputs, output, upstreams)
    second, _, _ = _jacobian_rows(diff_inputs, output, upstreams)
    if not types_ok and check_grad_dtypes:
        raise GradcheckError("Gradient has dtype mismatch")
    if not sizes_ok:
        raise GradcheckError("Analytical gradient has incorrect size")
    for j1, j2 in zip(first, second):
        if j1.size and np.max(np.abs(j1 - j2)) > nondet_tol:
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with "
                "same input and grad_output multiple times gives different values, "
                "although analytical gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}." + FAILED_NONDET_MSG
            )
    return first


def _jacobian_rows(
    diff_inputs: Sequence[TensorBase], output: TensorBase, upstreams: Sequence[np.ndarray]
) -> tuple[list[np.ndarray], bool, bool]:
    jacobians = [np.zeros((x._array.size, len(upstreams)), dtype=x._array.dtype)
                 for x in diff_inputs]
    sizes_ok = types_ok = True
    for j, upstream in enumerate(upstreams):
        grads = engine.grad(output, list(diff_inputs), _new_tensor(upstream.copy()),
                            retain_graph=True, allow_unused=True)
        for k, (x, g) in enumerate(zip(diff_inputs, grads)):
            if g is None:
                continue
            if g._array.shape != x._array.shape:
                sizes_ok = False
                continue
            if g._array.dtype != x._array.dtype:
                types_ok = False
            jacobians[k][:, j] = g._array.reshape(-1)
    return jacobians, sizes_ok, types_ok


def _check_backward_mul_by_grad_output(
    outputs: Sequence[TensorBase], diff_inputs: Sequence[TensorBase]
) -> None:
    if not diff_inputs:
        raise GradcheckError("no Tensors requiring grad found in input")
    zeros = [_new_tensor(np.zeros_like(o._array)) for o in outputs]
    grads = engine.grad(list(outputs), list(diff_inputs), zeros, allow_unused=True)
    for g, x in zip(grads, diff_inputs):
        if g is None:
            continue
        if not np.all(g._array == 0):
            raise GradcheckError("backward not multiplied by grad_output")
        if g._array.dtype != x._array.dtype:
            raise GradcheckError("grad is incorrect type")
        if g._array.shape != x._array.shape:
            raise GradcheckError("grad is incorrect size")


def _check_undefined_grad(
    func: Callable[..., Any], inputs: tuple[Any, ...], diff_inputs: Sequence[TensorBase]
) -> None:
    """Backward must cope with a missing upstream gradient, treated as zeros.

    minigrad has no "undefined" gradient tensors: an output that receives no gradient gets
    zeros (``set_materialize_grads``), so this runs backward (on a fresh forward) with zero
    upstream gradients.
    """
    outputs = _differentiable_outputs(func(*inputs))
    zeros = [_new_tensor(np.zeros_like(o._array)) for o in outputs]
    try:
        grads = engine.grad(list(outputs), list(diff_inputs), zeros, allow_unused=True)
    except RuntimeError as error:
        raise GradcheckError(
            "Expected backward function to handle undefined output grads. "
            'Please look at "Notes about undefined output gradients" in '
            '"tools/autograd/derivatives.yaml"'
        ) from error
    for g in grads:
        if g is not None and not np.all(g._array == 0):
            raise GradcheckError(
                "Expected all input grads to be undefined or zero when all output grads are "
                'undefined or zero. Please look at "Notes about undefined output gradients" in '
                '"tools/autograd/derivatives.yaml"'
            )


# --- small helpers ---------------------------------------------------------------------------


def _as_tuple(x: Any) -> tuple[Any, ...]:
    if isinstance(x, tuple):
        return x
    if isinstance(x, list):
        return tuple(x)
    return (x,)


def _requires_grad(x: Any) -> bool:
    return isinstance(x, TensorBase) and x.requires_grad


def _is_float(x: Any) -> bool:
    return isinstance(x, TensorBase) and x._array.dtype.kind == "f"


def _differentiable_outputs(x: Any) -> tuple[TensorBase, ...]:
    return tuple(o for o in _as_tuple(x) if o.requires_grad)


def _allclose(a: np.ndarray, b: np.ndarray, rtol: float, atol: float) -> bool:
    return bool(np.all(np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=False)))


def _new_tensor(array: np.ndarray, requires_grad: bool = False) -> TensorBase:
    return TensorBase.output_class._make(array, requires_grad=requires_grad)


def _show(jacobian: np.ndarray) -> str:
    return str(_new_tensor(jacobian))
