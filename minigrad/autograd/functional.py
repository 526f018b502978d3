"""``minigrad.autograd.functional``: Jacobians, Hessians and their products with vectors.

Everything here is built on ``autograd.grad``, as in PyTorch:

- ``vjp(f, x, v)``:  ``v^T J``, one backward pass.
- ``jvp(f, x, v)``:  ``J v`` by the *double-backward trick*: ``g(u) = u^T J`` is linear in a
  dummy ``u``, so differentiating ``g`` with respect to ``u`` in the direction ``v`` gives
  ``J v`` — forward-mode AD from two reverse passes.
- ``jacobian``: one vjp per output element (a row of the Jacobian each).
- ``hessian``: the Jacobian of the gradient (``create_graph=True`` inside).
- ``vhp`` / ``hvp``: ``v^T H`` by differentiating the gradient once more; ``H v`` by the
  double-backward trick on top of that.

The functions take a tensor or a tuple of tensors as ``inputs`` and return results shaped like
PyTorch's (a tensor for a tensor, tuples for tuples). ``strict=True`` raises where an output does
not depend on an input (instead of returning zeros); ``create_graph=True`` returns results that
can be differentiated again. Errors and their texts are PyTorch's.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from minigrad.autograd import engine, grad_mode
from minigrad.autograd.tensor_base import TensorBase

__all__ = ["hessian", "hvp", "jacobian", "jvp", "vhp", "vjp"]


# --- helpers: tuples in and out, and preparing the inputs ----------------------------------


def _as_tuple(value: Any, arg_name: str, fn_name: str) -> tuple[bool, tuple[Any, ...]]:
    """``(was it a tuple, value as a tuple)``; every element must be a tensor."""
    is_tuple = isinstance(value, tuple)
    values = value if is_tuple else (value,)
    for index, element in enumerate(values):
        if not isinstance(element, TensorBase):
            which = f"the value at index {index}" if is_tuple else f"the given {arg_name}"
            raise TypeError(
                f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of "
                f"Tensors but {which} has type {type(element)}."
            )
    return is_tuple, values


def _unpack(result: Any, was_tuple: bool | tuple[bool, bool]) -> Any:
    """Undo ``_as_tuple``: a tuple for a tuple, the single element otherwise.

    Jacobians have two levels (outputs, then inputs): ``was_tuple`` is a pair for them.
    """
    if isinstance(was_tuple, tuple):
        outer, inner = was_tuple
        if not inner:
            result = tuple(row[0] for row in result)
        return result if outer else result[0]
    return result if was_tuple else result[0]


def _prepare(inputs: tuple[Any, ...], create_graph: bool, need_graph: bool) -> tuple[Any, ...]:
    """New tensor objects for the inputs, requiring grad if ``need_graph``.

    Always new objects, so that the inputs given here can be told apart from the same tensors
    captured by the user's function. With ``create_graph``, an input that requires grad stays
    connected to its history (a view of itself), so results can be differentiated with respect
    to it.
    """
    prepared = []
    for value in inputs:
        if create_graph and value.requires_grad:
            prepared.append(value.view_as(value))
        else:
            prepared.append(value.detach().requires_grad_(need_graph))
    return tuple(prepared)


def _finish(values: Any, create_graph: bool) -> Any:
    """Results without history unless ``create_graph`` (tuples of tuples too)."""
    if values and isinstance(values[0], TensorBase):
        return values if create_graph else tuple(v.detach() for v in values)
    return tuple(_finish(v, create_graph) for v in values)


def _check_v(v: tuple[Any, ...], others: tuple[Any, ...], others_are_tuple: bool) -> None:
    """``v`` must have one tensor per ``others``, each of the same size."""
    if len(v) != len(others):
        if others_are_tuple:
            raise RuntimeError(
                f"v is a tuple of invalid length: should be {len(others)} but got {len(v)}."
            )
        raise RuntimeError("The given v should contain a single Tensor.")
    for index, (vector, other) in enumerate(zip(v, others)):
        if vector.size() != other.size():
            prefix = f"Entry {index} in " if others_are_tuple else ""
            raise RuntimeError(
                f"{prefix}v has invalid size: should be {other.size()} but got {vector.size()}."
            )


_INDEPENDENT = {
    "outputs": lambda i: (
        f"Output {i} of the user-provided function does not require gradients. The outputs "
        "must be computed in a differentiable manner from the input when running in strict "
        "mode."
    ),
    "grad_inputs": lambda i: (
        f"The gradient with respect to input {i} is independent of the inputs of the "
        "user-provided function. This is not allowed in strict mode."
    ),
    "jacobian": lambda i: (
        "While computing the hessian, found that the jacobian of the user-provided function "
        f"with respect to input {i} is independent of the input. This is not allowed in strict "
        "mode. You should ensure that your function is twice differentiable and that the "
        "jacobian depends on the inputs (this would be violated by a linear function for "
        "example)."
    ),
    "hessian": lambda i: (
        f"The hessian of the user-provided function with respect to input {i} is independent "
        "of the input. This is not allowed in strict mode. You should ensure that your "
        "function is thrice differentiable and that the hessian depends on the inputs."
    ),
}


def _check_requires_grad(values: tuple[Any, ...], kind: str, strict: bool) -> None:
    """In strict mode, every value must exist and require grad (else PyTorch's error)."""
    if not strict:
        return
    for index, value in enumerate(values):
        if value is None:
            raise RuntimeError(
                f"The output of the user-provided function is independent of input {index}. "
                "This is not allowed in strict mode."
            )
        if not value.requires_grad:
            raise RuntimeError(_INDEPENDENT[kind](index))


def _grad(
    outputs: tuple[Any, ...],
    inputs: tuple[Any, ...],
    grad_outputs: tuple[Any, ...] | None = None,
    create_graph: bool = False,
    retain_graph: bool | None = None,
) -> tuple[Any, ...]:
    """``autograd.grad`` that skips outputs without history (None for every input if none)."""
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    kept = [(o, g) for o, g in zip(outputs, grad_outputs) if o is not None and o.requires_grad]
    if not kept:
        return (None,) * len(inputs)
    return engine.grad(
        [o for o, _ in kept], inputs, [g for _, g in kept], retain_graph=retain_graph,
        create_graph=create_graph, allow_unused=True,
    )


_MISSING = {
    "back": lambda i: (
        f"The output of the user-provided function is independent of input {i}. This is not "
        "allowed in strict mode."
    ),
    "back_trick": lambda i: (
        f"The gradient with respect to the input is independent of entry {i} in the "
        "grad_outputs when using the double backward trick to compute forward mode gradients. "
        "This is not allowed in strict mode."
    ),
    "double_back": lambda i: (
        f"The jacobian of the user-provided function is independent of input {i}. This is "
        "not allowed in strict mode."
    ),
    "double_back_trick": lambda i: (
        f"The hessian of the user-provided function is independent of entry {i} in the "
        "grad_jacobian. This is not allowed in strict mode as it prevents from using the "
        "double backward trick to replace forward mode AD."
    ),
}


def _zeros_for_missing(
    grads: tuple[Any, ...], refs: tuple[Any, ...], strict: bool, create_graph: bool, stage: str
) -> tuple[Any, ...]:
    """Zeros where a gradient is None (PyTorch's errors instead in strict mode)."""
    filled = []
    for index, (grad, ref) in enumerate(zip(grads, refs)):
        if grad is None:
            if strict:
                raise RuntimeError(_MISSING[stage](index))
            grad = ref.new_zeros(ref.shape)
        elif strict and create_graph and not grad.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(
                f"The {what} of the user-provided function is independent of input {index}. "
                "This is not allowed in strict mode when create_graph=True."
            )
        filled.append(grad)
    return tuple(filled)


def _results(
    outputs: tuple[Any, ...], outputs_are_tuple: bool, product: tuple[Any, ...],
    product_is_tuple: bool, create_graph: bool,
) -> tuple[Any, Any]:
    """``(outputs, product)`` as the user gets them.

    In PyTorch's structure (a tensor for a tensor), with history only if ``create_graph``.
    """
    return (
        _unpack(_finish(outputs, create_graph), outputs_are_tuple),
        _unpack(_finish(product, create_graph), product_is_tuple),
    )


def _grad_mode_for_results(create_graph: bool) -> grad_mode.set_grad_enabled:
    # The last backward pass records only if the results must be differentiable.
    return grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled())


def _single_element_v_missing(what: str) -> RuntimeError:
    return RuntimeError(
        f"The vector v can only be None if the {what} a single Tensor with a single element."
    )


def _inputs_and_v(
    fn_name: str, inputs: Any, v: Any, create_graph: bool
) -> tuple[bool, tuple[Any, ...], Any]:
    """The inputs prepared, and ``v`` checked against them (``jvp``, ``vhp``, ``hvp``)."""
    inputs_are_tuple, inputs = _prepared_inputs(inputs, fn_name, create_graph)
    v = _checked_v(fn_name, v, inputs, inputs_are_tuple, create_graph,
                   "input to the user-provided function is")
    return inputs_are_tuple, inputs, v


def _prepared_inputs(inputs: Any, fn_name: str, create_graph: bool) -> tuple[bool, Any]:
    """Whether ``inputs`` was a tuple, and the inputs as a tuple ready to differentiate."""
    inputs_are_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
    return inputs_are_tuple, _prepare(inputs, create_graph, need_graph=True)


def _outputs(
    func: Callable[..., Any], inputs: tuple[Any, ...], fn_name: str, strict: bool
) -> tuple[bool, tuple[Any, ...]]:
    """Whether ``func(*inputs)`` returned a tuple, and its outputs as one (``strict``: checked)."""
    outputs_are_tuple, outputs = _as_tuple(
        func(*inputs), "outputs of the user-provided function", fn_name
    )
    _check_requires_grad(outputs, "outputs", strict)
    return outputs_are_tuple, outputs


def _checked_v(
    fn_name: str, v: Any, others: tuple[Any, ...], others_are_tuple: bool, create_graph: bool,
    what: str,
) -> Any:
    """``v`` prepared and checked against ``others`` (inputs or outputs, whose shapes it has).

    It may be None only for a single one-element tensor; ``what`` names that one in the error.
    """
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _prepare(v, create_graph, need_graph=False)
        _check_v(v, others, others_are_tuple)
    elif len(others) != 1 or others[0].numel() != 1:
        raise _single_element_v_missing(what)
    return v


# --- vjp and jvp ------------------------------------------------------------------------


def vjp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), v^T J)``: the vector-Jacobian product at ``inputs``.

    ``v`` has the outputs' shapes (it may be omitted for a single one-element output); the
    product has the inputs' shapes.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.functional import vjp
        >>> x = minigrad.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> vjp(lambda x: (x * x).sum(dim=1), x, minigrad.ones(2))
        (tensor([ 5., 25.]), tensor([[2., 4.],
                [6., 8.]]))
    """
    with grad_mode.enable_grad():
        inputs_are_tuple, inputs = _prepared_inputs(inputs, "vjp", create_graph)
        outputs_are_tuple, outputs = _outputs(func, inputs, "vjp", strict)
        v = _checked_v("vjp", v, outputs, outputs_are_tuple, create_graph,
                       "user-provided function returns")
    with _grad_mode_for_results(create_graph):
        grads = _grad(outputs, inputs, v, create_graph=create_graph)
        product = _zeros_for_missing(grads, inputs, strict, create_graph, "back")
    return _results(outputs, outputs_are_tuple, product, inputs_are_tuple, create_graph)


def jvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), J v)``: the Jacobian-vector product, by the double-backward trick.

    ``v`` has the inputs' shapes (it may be omitted for a single one-element input); the
    product has the outputs' shapes.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.functional import jvp
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> jvp(lambda x: x ** 3, x, minigrad.tensor([1.0, 0.5]))
        (tensor([1., 8.]), tensor([3., 6.]))
    """
    with grad_mode.enable_grad():
        inputs_are_tuple, inputs, v = _inputs_and_v("jvp", inputs, v, create_graph)
        outputs_are_tuple, outputs = _outputs(func, inputs, "jvp", strict)
        # u^T J for a dummy u: linear in u, so its value does not matter (zeros: no inf/nan).
        dummies = tuple(o.new_zeros(o.shape).requires_grad_(True) for o in outputs)
        grad_inputs = _grad(outputs, inputs, dummies, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict)
    with grad_mode.enable_grad() if create_graph else contextlib.nullcontext():
        grads = _grad(grad_inputs, dummies, v, create_graph=create_graph)
        product = _zeros_for_missing(grads, outputs, strict, create_graph, "back_trick")
    return _results(outputs, outputs_are_tuple, product, outputs_are_tuple, create_graph)


# --- jacobian and hessian --------------------------------------------------------------


def jacobian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    strategy: str = "reverse-mode",
) -> Any:
    """The Jacobian of ``func`` at ``inputs``: ``J[i][j]`` has output i's shape then input j's.

    A single tensor for one input and one output; a tuple if either is a tuple; a tuple of
    tuples if both are. Computed in reverse mode, one backward pass per output element.
    ``vectorize=True`` is accepted and gives the same result (minigrad has no ``vmap``: the rows
    are still computed one by one); forward mode (``strategy="forward-mode"``) is out of scope.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.functional import jacobian
        >>> jacobian(lambda x: x ** 2, minigrad.tensor([1.0, 2.0]))
        tensor([[2., 0.],
                [0., 4.]])
    """
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError(
            'Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
            'function has more outputs than inputs, "forward-mode" tends to be more performant. '
            'Otherwise, prefer to use "reverse-mode".'
        )
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError(
                "minigrad.autograd.functional.jacobian: `create_graph=True` and "
                '`strategy="forward-mode"` are not supported together (yet). Please either '
                'set `create_graph=False` or `strategy="reverse-mode"`.'
            )
        raise NotImplementedError(
            'minigrad has reverse-mode autograd only: `strategy="forward-mode"` (forward-mode AD '
            'with vmap) is out of scope. Use `strategy="reverse-mode"`.'
        )
    with grad_mode.enable_grad():
        inputs_are_tuple, inputs = _prepared_inputs(inputs, "jacobian", create_graph)
        outputs_are_tuple, outputs = _outputs(func, inputs, "jacobian", strict)
        if vectorize and strict:
            raise RuntimeError(
                "minigrad.autograd.functional.jacobian: `strict=True` and `vectorized=True` are "
                "not supported together. Please either set `strict=False` or `vectorize=False`."
            )
        rows = tuple(
            _jacobian_of_output(i, output, inputs, create_graph, strict)
            for i, output in enumerate(outputs)
        )
    return _unpack(_finish(rows, create_graph), (outputs_are_tuple, inputs_are_tuple))


def _jacobian_of_output(
    index: int, output: Any, inputs: tuple[Any, ...], create_graph: bool, strict: bool
) -> tuple[Any, ...]:
    """One Jacobian per input for one output: a vjp with each basis vector of the output."""
    # The ops build on minigrad.autograd, whose __init__ imports this module: import when used.
    from minigrad.ops.shape import stack

    columns: list[list[Any]] = [[] for _ in inputs]
    flat = output.reshape(-1)
    for j in range(output.numel()):
        grads = _grad((flat[j],), inputs, retain_graph=True, create_graph=create_graph)
        for k, (column, grad, input) in enumerate(zip(columns, grads, inputs)):
            if grad is not None:
                if strict and create_graph and not grad.requires_grad:
                    raise RuntimeError(
                        "The jacobian of the user-provided function is independent of input "
                        f"{index}. This is not allowed in strict mode when create_graph=True."
                    )
                column.append(grad)
            else:
                if strict:
                    raise RuntimeError(
                        f"Output {index} of the user-provided function is independent of "
                        f"input {k}. This is not allowed in strict mode."
                    )
                column.append(input.new_zeros(input.shape))
    return tuple(
        stack(column, dim=0).view(tuple(output.shape) + tuple(input.shape))
        for column, input in zip(columns, inputs)
    )


def hessian(
    func: Callable[..., Any],
    inputs: Any,
    create_graph: bool = False,
    strict: bool = False,
    vectorize: bool = False,
    outer_jacobian_strategy: str = "reverse-mode",
) -> Any:
    """The Hessian of a scalar function: the Jacobian of its gradient.

    A single tensor (input's shape twice) for one input; ``H[i][j]`` for a tuple of inputs.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.functional import hessian
        >>> hessian(lambda x: (x ** 3).sum(), minigrad.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    inputs_are_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def scalar_function(*args: Any) -> Any:
        output = func(*args)
        output_is_tuple, outputs = _as_tuple(
            output, "outputs of the user-provided function", "hessian"
        )
        _check_requires_grad(outputs, "outputs", strict)
        if output_is_tuple or not isinstance(output, TensorBase):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if output.numel() != 1:
            raise RuntimeError(
                "The Tensor returned by the function given to hessian should contain a single "
                "element"
            )
        return output.squeeze()

    def gradient(*args: Any) -> Any:
        jac = jacobian(scalar_function, args, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        return jac

    result = jacobian(
        gradient, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
        strategy=outer_jacobian_strategy,
    )
    return _unpack(result, (inputs_are_tuple, inputs_are_tuple))


# --- vhp and hvp -----------------------------------------------------------------------


def _scalar_output(func: Callable[..., Any], inputs: tuple[Any, ...], fn_name: str,
                   strict: bool) -> tuple[bool, tuple[Any, ...]]:
    outputs_are_tuple, outputs = _outputs(func, inputs, fn_name, strict)
    if outputs_are_tuple or not isinstance(outputs[0], TensorBase):
        raise RuntimeError(f"The function given to {fn_name} should return a single Tensor")
    if outputs[0].numel() != 1:
        raise RuntimeError(
            f"The Tensor returned by the function given to {fn_name} should contain a single "
            "element"
        )
    return outputs_are_tuple, outputs


def vhp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), v^T H)``: a vector-Hessian product of a scalar function.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.functional import vhp
        >>> vhp(lambda x: (x ** 3).sum(), minigrad.tensor([1.0, 2.0]), minigrad.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with grad_mode.enable_grad():
        inputs_are_tuple, inputs, v = _inputs_and_v("vhp", inputs, v, create_graph)
        outputs_are_tuple, outputs = _scalar_output(func, inputs, "vhp", strict)
        jac = _grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
    with _grad_mode_for_results(create_graph):
        grads = _grad(jac, inputs, v, create_graph=create_graph)
        product = _zeros_for_missing(grads, inputs, strict, create_graph, "double_back")
    return _results(outputs, outputs_are_tuple, product, inputs_are_tuple, create_graph)


def hvp(
    func: Callable[..., Any],
    inputs: Any,
    v: Any = None,
    create_graph: bool = False,
    strict: bool = False,
) -> tuple[Any, Any]:
    """``(func(inputs), H v)``: a Hessian-vector product.

    By the double-backward trick on the gradient: slower than ``vhp``, which gives the same
    result for twice continuously differentiable functions.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.functional import hvp
        >>> hvp(lambda x: (x ** 3).sum(), minigrad.tensor([1.0, 2.0]), minigrad.ones(2))
        (tensor(9.), tensor([ 6., 12.]))
    """
    with grad_mode.enable_grad():
        inputs_are_tuple, inputs, v = _inputs_and_v("hvp", inputs, v, create_graph)
        outputs_are_tuple, outputs = _scalar_output(func, inputs, "hvp", strict)
        jac = _grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict)
        dummies = tuple(x.new_zeros(x.shape).requires_grad_(True) for x in inputs)
        double_back = _grad(jac, inputs, dummies, create_graph=True)
        _check_requires_grad(jac, "hessian", strict)
    with _grad_mode_for_results(create_graph):
        grads = _grad(double_back, dummies, v, create_graph=create_graph)
        product = _zeros_for_missing(grads, inputs, strict, create_graph, "double_back_trick")
    return _results(outputs, outputs_are_tuple, product, inputs_are_tuple, create_graph)
