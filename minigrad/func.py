"""``minigrad.func``: PyTorch's function transforms that reverse mode can give.

``grad``, ``grad_and_value``, ``vjp``, ``jacrev``, ``jvp``, ``jacfwd``, ``linearize`` and
``hessian`` turn a function of tensors into a function computing its derivatives, and
``functional_call`` runs a module with other parameters (``stack_module_state`` stacks several
models' parameters and buffers into new leaves): together they let one write
``grad(lambda p: loss(functional_call(model, p, x)))``. They are built on ``autograd.grad``:
each call marks the differentiated inputs (fresh leaves, or aliases of inputs that already take
part in a graph, so transforms nest and compose with ordinary autograd) and differentiates the
function's output with respect to them. Inputs may be tensors or nested tuples, lists and dicts
of tensors (PyTorch's pytrees).

minigrad has no forward-mode AD: ``jvp``, ``jacfwd`` and ``linearize`` compute ``J v`` by the
double-backward trick (``_Linearization``: the gradient of ``(J^T u) . v`` with respect to a
dummy ``u``), the same values as PyTorch's forward mode for two backward passes; ``hessian``
is PyTorch's ``jacfwd(jacrev(f))``. Left out: ``vmap`` and ``functionalize``
(``minigrad.func.vmap`` raises ``OutOfScopeError``).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Sequence
from typing import Any

from minigrad import _out_of_scope, _random
from minigrad.autograd import engine
from minigrad.autograd.grad_mode import enable_grad, is_grad_enabled
from minigrad.autograd.graph import AccumulateGrad
from minigrad.autograd.tensor_base import TensorBase
from minigrad.nn.modules.module import Module
from minigrad.nn.utils.stateless import _functional_call

__all__ = [
    "functional_call", "grad", "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "linearize",
    "stack_module_state", "vjp",
]


def __getattr__(name: str) -> Any:
    """PyTorch's forward-mode and batching transforms raise ``OutOfScopeError``."""
    raise _out_of_scope.missing(__name__, name, _out_of_scope.FUNC)


# ------------------------------------------------------------------------------------------
# pytrees: nested tuples, lists and dicts with tensors (or anything) at the leaves
# ------------------------------------------------------------------------------------------


def _flatten(tree: Any) -> tuple[list[Any], Any]:
    """The leaves in order and a spec to rebuild the same structure from new leaves."""
    if isinstance(tree, (tuple, list)):
        leaves: list[Any] = []
        specs = []
        for item in tree:
            item_leaves, spec = _flatten(item)
            leaves += item_leaves
            specs.append((len(item_leaves), spec))
        return leaves, (type(tree), specs)
    if isinstance(tree, dict):
        leaves, spec = _flatten(list(tree.values()))
        return leaves, (dict, (list(tree), spec))
    return [tree], None


def _unflatten(leaves: Sequence[Any], spec: Any) -> Any:
    if spec is None:
        return leaves[0]
    kind, inner = spec
    if kind is dict:
        keys, list_spec = inner
        return dict(zip(keys, _unflatten(leaves, list_spec), strict=True))
    items, start = [], 0
    for count, item_spec in inner:
        items.append(_unflatten(leaves[start : start + count], item_spec))
        start += count
    return kind(items) if kind in (tuple, list) else kind(*items)


def _structure(tree: Any) -> str:
    """A pytree's shape as PyTorch prints it in errors: ``*`` for a leaf."""
    if isinstance(tree, (tuple, list)):
        inner = ", ".join(_structure(item) for item in tree)
        return (
            f"({inner}{',' if len(tree) == 1 else ''})"
            if isinstance(tree, tuple)
            else (f"[{inner}]")
        )
    if isinstance(tree, dict):
        return "{" + ", ".join(f"{key!r}: {_structure(v)}" for key, v in tree.items()) + "}"
    return "*"


# ------------------------------------------------------------------------------------------
# the shared machinery: which arguments, marked how
# ------------------------------------------------------------------------------------------


def _check_argnums(argnums: Any, count: int) -> tuple[int, ...]:
    """The argnums as a tuple of non-negative positions, with PyTorch's errors."""
    if isinstance(argnums, bool) or not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    positions = (argnums,) if isinstance(argnums, int) else argnums
    if not positions:
        raise RuntimeError("argnums must be non-empty")
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int):
            raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
        if not -count <= position < count:
            raise RuntimeError(f"Got argnum={position}, but only {count} positional inputs")
    normalized = tuple(position % count for position in positions)
    if len(set(normalized)) != len(normalized):
        raise RuntimeError(f"argnums elements must be unique, got {normalized}")
    return normalized


def _mark(value: Any) -> Any:
    """The tensor the transform differentiates with respect to, standing for ``value``.

    A tensor outside any graph becomes a fresh leaf requiring grad; one that is part of a graph
    (an enclosing transform or ordinary autograd) gets an alias whose gradient flows back to it.
    """
    if not isinstance(value, TensorBase):
        raise ValueError(f"Thing passed to transform API must be Tensor, got {type(value)}")
    if value.requires_grad:
        return value.view_as(value)
    return value.detach().requires_grad_()


def _marked_args(args: tuple[Any, ...], positions: tuple[int, ...]) -> tuple[list[Any], list[Any]]:
    """The arguments with the differentiated ones marked, and the marked leaves in order."""
    new_args = list(args)
    leaves: list[Any] = []
    for position in positions:
        flat, spec = _flatten(args[position])
        marked = [_mark(value) for value in flat]
        leaves += marked
        new_args[position] = _unflatten(marked, spec)
    return new_args, leaves


def _split_aux(output: Any, has_aux: bool, call: str) -> tuple[Any, Any]:
    """``(output, aux)`` of a function called with ``has_aux`` (aux None without it).

    ``call`` names the transform's call in PyTorch's error for an output that is no pair.
    """
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(
            f"{call}: output of function f should be a tuple: (output, aux) if has_aux is True"
        )
    return output


def _depends_on_outside(value: Any, inner: set[int]) -> bool:
    """Whether ``value``'s history reaches a leaf other than the transform's own (``inner``).

    Such a result belongs to an enclosing graph (an outer transform, or a parameter the
    function closes over) and keeps its history, as PyTorch's transforms do; any other result
    is handed back detached.
    """
    if not isinstance(value, TensorBase) or not value.requires_grad:
        return False
    if value.grad_fn is None:
        return id(value) not in inner
    seen: set[int] = set()
    stack = [value.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            if id(node.variable) not in inner:
                return True
            continue
        stack.extend(next_node for next_node, _ in node.next_functions)
    return False


def _gradients(
    outputs: list[Any], inputs: list[Any], grad_outputs: list[Any] | None, create_graph: bool
) -> list[Any]:
    """``autograd.grad`` with unused inputs given zero gradients (as PyTorch's transforms)."""
    pairs = [
        (out, grad_outputs[i] if grad_outputs is not None else None)
        for i, out in enumerate(outputs)
        if out.requires_grad
    ]
    if not pairs:
        return [value.detach().new_zeros(value.shape) for value in inputs]
    grads = engine.grad(
        [out for out, _ in pairs],
        inputs,
        None if grad_outputs is None else [g for _, g in pairs],
        retain_graph=True,
        create_graph=create_graph,
        allow_unused=True,
    )
    return [
        value.detach().new_zeros(value.shape) if g is None else g
        for g, value in zip(grads, inputs, strict=True)
    ]


def _unwrap(tree: Any, inner: list[Any]) -> Any:
    """Results handed back: detached unless they depend on something outside the transform."""
    inner_ids = {id(leaf) for leaf in inner}
    leaves, spec = _flatten(tree)
    return _unflatten(
        [
            leaf
            if _depends_on_outside(leaf, inner_ids)
            else leaf.detach()
            if isinstance(leaf, TensorBase)
            else leaf
            for leaf in leaves
        ],
        spec,
    )


# ------------------------------------------------------------------------------------------
# the transforms
# ------------------------------------------------------------------------------------------


def grad_and_value(
    func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """Like ``grad``, but the function returns ``(gradient, value)``.

    With ``has_aux=True`` it returns ``(gradient, (value, aux))``.

    Example:
        >>> import minigrad
        >>> from minigrad.func import grad_and_value
        >>> grad_and_value(lambda x: (x ** 2).sum())(minigrad.tensor([1.0, 2.0]))
        (tensor([2., 4.]), tensor(5.))
    """

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        positions = _check_argnums(argnums, len(args))
        keep_graph = is_grad_enabled()
        with enable_grad():
            new_args, leaves = _marked_args(args, positions)
            output = func(*new_args, **kwargs)
            output, aux = _split_aux(output, has_aux, "grad_and_value(f)(*args)")
            if not isinstance(output, TensorBase):
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a Tensor, got "
                    f"{type(output)}"
                )
            if output.dim() != 0:
                raise RuntimeError(
                    "grad_and_value(f)(*args): Expected f(*args) to return a scalar Tensor, got "
                    f"tensor with {output.dim()} dims. Maybe you wanted to use the vjp or jacrev "
                    "APIs instead?"
                )
            flat = _gradients([output], leaves, None, create_graph=keep_graph)
        grads, start = [], 0
        for position in positions:
            count = len(_flatten(args[position])[0])
            grads.append(
                _unwrap(
                    _unflatten(flat[start : start + count], _flatten(args[position])[1]), leaves
                )
            )
            start += count
        gradient = grads[0] if isinstance(argnums, int) else tuple(grads)
        value = _unwrap(output, leaves)
        if has_aux:
            return gradient, (value, _unwrap(aux, leaves))
        return gradient, value

    return wrapper


def grad(
    func: Callable[..., Any], argnums: int | tuple[int, ...] = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """The gradient of a function returning a scalar tensor, as a function of the same inputs.

    ``argnums`` picks the differentiated positional arguments (a tuple gives a tuple of
    gradients; each may be a tuple, list or dict of tensors); with ``has_aux=True`` the function
    returns ``(output, aux)`` and the transform ``(gradient, aux)``. An input the output does
    not depend on gets zeros. Transforms nest: ``grad(grad(f))`` is the second derivative.

    Example:
        >>> import minigrad
        >>> from minigrad.func import grad
        >>> x = minigrad.tensor(2.0)
        >>> grad(minigrad.sin)(x), grad(grad(minigrad.sin))(x)
        (tensor(-0.4161), tensor(-0.9093))
    """
    computer = grad_and_value(func, argnums, has_aux)

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        gradient, value = computer(*args, **kwargs)
        if has_aux:
            return gradient, value[1]
        return gradient

    return wrapper


def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """``func(*primals)`` and a function mapping cotangents to vector-Jacobian products.

    Returns ``(output, vjp_fn)`` (and ``aux`` third with ``has_aux=True``); ``vjp_fn(v)``
    takes cotangents of the output's structure and returns a tuple with one gradient per
    primal.

    Example:
        >>> import minigrad
        >>> from minigrad.func import vjp
        >>> out, vjp_fn = vjp(lambda x: x ** 2, minigrad.tensor([1.0, 3.0]))
        >>> vjp_fn(minigrad.ones(2))
        (tensor([2., 6.]),)
    """
    keep_graph = is_grad_enabled()
    with enable_grad():
        new_args, leaves = _marked_args(primals, tuple(range(len(primals))))
        output = func(*new_args)
        output, aux = _split_aux(output, has_aux, "vjp(f, *primals)")
    flat_out, out_spec = _flatten(output)
    for leaf in flat_out:
        if not isinstance(leaf, TensorBase):
            raise RuntimeError(
                "vjp(f, *primals): expected f(*primals) to return only tensors, got "
                f"unsupported type {type(leaf)}"
            )

    def vjp_fn(cotangents: Any) -> tuple[Any, ...]:
        flat_cot, cot_spec = _flatten(cotangents)
        if _structure(cotangents) != _structure(output) or len(flat_cot) != len(flat_out):
            raise RuntimeError(
                "Expected pytree structure of cotangents to be the same as pytree structure "
                f"of outputs to the function. cotangents: {_structure(cotangents)}, primal "
                f"output: {_structure(output)}"
            )
        create_graph = keep_graph
        with enable_grad():
            flat = _gradients(flat_out, leaves, flat_cot, create_graph=create_graph)
        grads, start = [], 0
        for primal in primals:
            leaves_of, spec = _flatten(primal)
            grads.append(_unwrap(_unflatten(flat[start : start + len(leaves_of)], spec), leaves))
            start += len(leaves_of)
        return tuple(grads)

    result = (_unwrap(output, leaves), vjp_fn)
    if has_aux:
        return (*result, _unwrap(aux, leaves))
    return result


def jacrev(
    func: Callable[..., Any],
    argnums: int | tuple[int, ...] = 0,
    *,
    has_aux: bool = False,
    chunk_size: int | None = None,
    _preallocate_and_copy: bool = False,
) -> Callable[..., Any]:
    """The Jacobian of ``func`` with respect to the ``argnums`` inputs, by reverse mode.

    For an output of shape ``O`` and an input of shape ``I`` the Jacobian has shape ``O + I``;
    a tuple of outputs gives a tuple, a tuple ``argnums`` a tuple per output. One backward pass
    per output element (``chunk_size`` is accepted and has no effect).

    Example:
        >>> import minigrad
        >>> from minigrad.func import jacrev
        >>> jacrev(lambda x: x ** 2)(minigrad.tensor([1.0, 3.0]))
        tensor([[2., 0.],
                [0., 6.]])
    """
    if chunk_size is not None and not (isinstance(chunk_size, int) and chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        positions = _check_argnums(argnums, len(args))
        keep_graph = is_grad_enabled()
        with enable_grad():
            new_args, leaves = _marked_args(args, positions)
            output = func(*new_args, **kwargs)
            output, aux = _split_aux(output, has_aux, "jacrev(f, ...)(*args)")
            flat_out, out_spec = _flatten(output)
            for leaf in flat_out:
                if not isinstance(leaf, TensorBase):
                    raise RuntimeError(
                        "jacrev(f, ...)(*args): expected f(*args) to return only tensors, got "
                        f"unsupported type {type(leaf)}"
                    )
            per_output = [_jacobian_of(out, leaves, keep_graph) for out in flat_out]
        results = [_per_argnum(jacobians, args, positions, argnums) for jacobians in per_output]
        jacobian = _unwrap(_unflatten(results, out_spec), leaves)
        if has_aux:
            return jacobian, _unwrap(aux, leaves)
        return jacobian

    return wrapper


def _per_argnum(
    flat: list[Any], args: tuple[Any, ...], positions: tuple[int, ...], argnums: Any
) -> Any:
    """One value per marked leaf, regrouped as the ``argnums`` arguments' pytrees.

    A tuple of them for a tuple ``argnums``, the one pytree for an int.
    """
    per_position, start = [], 0
    for position in positions:
        arg_leaves, spec = _flatten(args[position])
        per_position.append(_unflatten(flat[start : start + len(arg_leaves)], spec))
        start += len(arg_leaves)
    return per_position[0] if isinstance(argnums, int) else tuple(per_position)


def _jacobian_of(output: Any, leaves: list[Any], create_graph: bool) -> list[Any]:
    """The Jacobian of ``output`` w.r.t. each leaf, shaped ``output.shape + leaf.shape``."""
    import minigrad

    rows = []
    flat_output = output.reshape(-1)
    for i in range(flat_output.numel()):
        if output.requires_grad:
            rows.append(_gradients([flat_output[i]], leaves, None, create_graph))
        else:
            rows.append([leaf.detach().new_zeros(leaf.shape) for leaf in leaves])
    jacobians = []
    for j, leaf in enumerate(leaves):
        if rows:
            stacked = minigrad.stack([row[j] for row in rows])
        else:
            stacked = leaf.detach().new_zeros((0, *leaf.shape))
        jacobians.append(stacked.reshape(*output.shape, *leaf.shape))
    return jacobians


# ------------------------------------------------------------------------------------------
# forward mode by the double-backward trick: jvp, jacfwd, linearize
# ------------------------------------------------------------------------------------------

_JVP = "jvp(f, primals, tangents)"  # (PyTorch's jacfwd reports its errors as jvp's too)


def _treespec(tree: Any, indent: int = 0) -> str:
    """A pytree's structure as PyTorch's ``TreeSpec`` prints it in errors (``*``: a leaf)."""
    if not isinstance(tree, (tuple, list, dict)):
        return "*"
    if isinstance(tree, dict):
        kind, context, children = "dict", repr(list(tree)), list(tree.values())
    elif isinstance(tree, tuple) and hasattr(tree, "_fields"):
        kind, context, children = "namedtuple", repr(type(tree)), list(tree)
    else:
        kind, context, children = type(tree).__name__, "None", list(tree)
    inner = f",\n{' ' * (indent + 2)}".join(_treespec(child, indent + 2) for child in children)
    return f"TreeSpec({kind}, {context}, [{inner}])"


def _check_dual(primal: Any, tangent: Any) -> None:
    """PyTorch's ``make_dual`` checks of one primal and its tangent."""
    for role, value in (("primal", primal), ("tangent", tangent)):
        if not value.dtype.is_floating_point:
            raise ValueError(
                f"Expected {role} to be floating point or complex, but got: {value.dtype}"
            )
    if primal.shape != tangent.shape:
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the "
            f"original Tensor, this is not supported. Tensor is of size {list(primal.shape)} "
            f"while the given forward gradient is of size {list(tangent.shape)}."
        )


class _Linearization:
    """``func`` run once with its differentiated inputs marked, ready for products ``J v``.

    minigrad has no forward mode; the double-backward trick gives ``J v`` from reverse mode.
    For dummy cotangents ``u`` (ones that require grad) one backward pass records
    ``g = J^T u`` with ``create_graph``; ``g`` is linear in ``u``, so the gradient of
    ``g . v`` with respect to ``u`` is ``J v``: one more backward pass per tangent ``v``
    (``push``), the graph kept for the next one. The outputs that no marked input reaches
    have no dummy in ``g``: their product is None (PyTorch's undefined tangent).
    """

    def __init__(
        self, func: Callable[..., Any], args: tuple[Any, ...], positions: tuple[int, ...],
        has_aux: bool,
    ) -> None:
        with enable_grad():
            new_args, self.leaves = _marked_args(args, positions)
            output = func(*new_args)
            if has_aux:
                if not (isinstance(output, tuple) and len(output) == 2):
                    raise RuntimeError(
                        f"{_JVP}: output of function f should be a tuple: (output, aux) if "
                        "has_aux is True"
                    )
                output, aux = output
                for leaf in _flatten(aux)[0]:
                    if not isinstance(leaf, TensorBase):
                        raise RuntimeError(f"Expected tensors, got unsupported type {type(leaf)}")
                self.aux = aux
            self.output = output
            self.flat_out, self.out_spec = _flatten(output)
            if not self.flat_out or self.flat_out == [None]:
                raise RuntimeError(
                    f"{_JVP}: Expected f to be a function that has non-empty output (got "
                    f"output = {self.flat_out})"
                )
            for leaf in self.flat_out:
                if not isinstance(leaf, TensorBase):
                    raise RuntimeError(
                        f"{_JVP}: expected f(*primals) to return only tensors, got unsupported "
                        f"type {type(leaf)}"
                    )
            tracked = [out for out in self.flat_out if out.requires_grad]
            # Ones, not zeros: some backward formulas, linear in grad, are written in a way
            # that is not differentiable at grad = 0 (logcumsumexp's splits grad by sign and
            # takes log|grad|: its derivative there is nan, in PyTorch's reverse mode too).
            self.dummies = {
                id(out): out.detach().new_ones(out.shape).requires_grad_() for out in tracked
            }
            transposed = engine.grad(
                tracked, self.leaves, [self.dummies[id(out)] for out in tracked],
                retain_graph=True, create_graph=True, allow_unused=True,
            ) if tracked else [None] * len(self.leaves)  # fmt: skip
        # g's entries that depend on a dummy, and which leaf (tangent) each pairs with
        self.pairs = [
            (g, index) for index, g in enumerate(transposed) if g is not None and g.requires_grad
        ]
        self.inner = self.leaves + list(self.dummies.values())

    def push(self, flat_tangents: Sequence[Any], create_graph: bool) -> list[Any]:
        """``J v`` for the tangents ``v`` (one per marked leaf), one per output.

        None where the output does not depend on the marked inputs.
        """
        wanted = [self.dummies.get(id(out)) for out in self.flat_out]
        sources = [dummy for dummy in wanted if dummy is not None]
        products: dict[int, Any] = {}
        if self.pairs and sources:
            with enable_grad():
                grads = engine.grad(
                    [g for g, _ in self.pairs], sources,
                    [flat_tangents[index].to(g.dtype) for g, index in self.pairs],
                    retain_graph=True, create_graph=create_graph, allow_unused=True,
                )  # fmt: skip
            products = {id(dummy): g for dummy, g in zip(sources, grads, strict=True)}
        return [None if dummy is None else products.get(id(dummy)) for dummy in wanted]

    def tangents_out(self, products: list[Any], strict: bool) -> list[Any]:
        """The products with zeros for the undefined ones (strict: PyTorch's error)."""
        results = []
        for out, product in zip(self.flat_out, products, strict=True):
            if product is None:
                if strict:
                    raise RuntimeError(
                        "jvp(f, primals, tangents, strict=True): The output of f is independent "
                        "of the inputs. This is not allowed with strict=True."
                    )
                product = out.detach().new_zeros(out.shape)
            results.append(product)
        return results


def jvp(
    func: Callable[..., Any],
    primals: Any,
    tangents: Any,
    *,
    strict: bool = False,
    has_aux: bool = False,
) -> Any:
    """``func(*primals)`` and the Jacobian-vector product ``J tangents``: ``(output, jvp_out)``.

    ``primals`` is a tuple of the arguments (tensors or pytrees of them), ``tangents`` one of
    the same structure and shapes; ``jvp_out`` has the output's structure. With
    ``has_aux=True`` the function returns ``(output, aux)`` and ``aux`` comes third;
    ``strict=True`` refuses an output that does not depend on the primals (else its product
    is zeros). PyTorch computes it in forward mode; minigrad by the double-backward trick
    (two backward passes, same values), so it nests with ``grad``, ``vjp`` and ``jacrev``.

    Example:
        >>> import minigrad
        >>> from minigrad.func import jvp
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> jvp(lambda x: x ** 3, (x,), (minigrad.tensor([1.0, 0.5]),))
        (tensor([1., 8.]), tensor([3., 6.]))
    """
    if not isinstance(primals, tuple):
        raise RuntimeError(
            f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call "
            "f(*primals)."
        )
    flat_primals, flat_tangents = _checked_tangents(primals, tangents)
    keep_graph = is_grad_enabled()
    lin = _Linearization(func, primals, tuple(range(len(primals))), has_aux)
    products = lin.tangents_out(lin.push(flat_tangents, keep_graph), strict)
    result = (
        _unwrap(lin.output, lin.inner),
        _unwrap(_unflatten(products, lin.out_spec), lin.inner),
    )
    if has_aux:
        return (*result, _unwrap(lin.aux, lin.inner))
    return result


def _checked_tangents(primals: tuple[Any, ...], tangents: Any) -> tuple[list[Any], list[Any]]:
    """The flat primals and tangents, with PyTorch's checks of their structures and values."""
    primals_spec, tangents_spec = _treespec(primals), _treespec(tangents)
    if primals_spec != tangents_spec:
        raise RuntimeError(
            f"{_JVP}: Expected primals and tangents to have the same python structure. For "
            "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals "
            f"with structure {primals_spec} and tangents with structure {tangents_spec}"
        )
    flat_primals, flat_tangents = _flatten(primals)[0], _flatten(tangents)[0]
    for name, flat in (("primals", flat_primals), ("tangents", flat_tangents)):
        if not flat:
            raise RuntimeError(f"{_JVP}: Expected {name} to contain at least one Tensor.")
        for value in flat:
            if not isinstance(value, TensorBase):
                raise RuntimeError(
                    f"{_JVP}: Expected {name} to only contain Tensors, got {type(value)}"
                )
    for primal, tangent in zip(flat_primals, flat_tangents, strict=True):
        _check_dual(primal, tangent)
    return flat_primals, flat_tangents


_RANDOMNESS = ("error", "different", "same")


def jacfwd(
    func: Callable[..., Any],
    argnums: int | tuple[int, ...] = 0,
    has_aux: bool = False,
    *,
    randomness: str = "error",
) -> Callable[..., Any]:
    """The Jacobian of ``func`` with respect to the ``argnums`` inputs, column by column.

    The same layout as ``jacrev`` (output shape then input shape; tuples for several outputs
    or a tuple ``argnums``). PyTorch pushes the standard basis through forward mode under
    ``vmap``; minigrad pushes each basis vector through ``jvp``'s double-backward trick (one
    backward pass per input element). ``randomness="error"`` refuses random operations in
    ``func``, as PyTorch's; "different" and "same" let them run once (all columns see the same
    draw: PyTorch's "different" draws per column).

    Example:
        >>> import minigrad
        >>> from minigrad.func import jacfwd
        >>> jacfwd(lambda x: x ** 2)(minigrad.tensor([1.0, 3.0]))
        tensor([[2., 0.],
                [0., 6.]])
    """

    @functools.wraps(func)
    def wrapper(*args: Any) -> Any:
        """The Jacobian of ``func`` at ``args``, one column per tangent."""
        import minigrad

        positions = _check_argnums(argnums, len(args))
        if randomness not in _RANDOMNESS:
            raise RuntimeError(
                "Only allowed values for randomness are 'error', 'different', or 'same'. "
                f"Got {randomness}"
            )
        flat_primals = _flatten(tuple(args[position] for position in positions))[0]
        numels = [primal.numel() for primal in flat_primals]  # (a number: its AttributeError)
        for primal in flat_primals:
            _check_dual(primal, primal)
        keep_graph = is_grad_enabled()
        with _random.refusing_randomness() if randomness == "error" else contextlib.nullcontext():
            lin = _Linearization(func, args, positions, has_aux)
        columns: list[list[Any]] = []  # per basis vector, the products of every output
        for j, numel in enumerate(numels):
            for i in range(numel):
                basis = [value.detach().new_zeros(value.shape) for value in flat_primals]
                basis[j].view(-1)[i] = 1
                columns.append(lin.tangents_out(lin.push(basis, keep_graph), False))
        results = []
        for k, out in enumerate(lin.flat_out):
            if columns:  # (output shape, every input element)
                matrix = minigrad.stack([column[k] for column in columns], dim=-1)
            else:
                matrix = out.detach().new_zeros((*out.shape, 0))
            per_leaf, start = [], 0
            for j, primal in enumerate(flat_primals):
                block = matrix[..., start : start + numels[j]]
                per_leaf.append(block.reshape((*out.shape, *primal.shape)))
                start += numels[j]
            results.append(_per_argnum(per_leaf, args, positions, argnums))
        jacobian = _unwrap(_unflatten(results, lin.out_spec), lin.inner)
        if has_aux:
            return jacobian, _unwrap(lin.aux, lin.inner)
        return jacobian

    return wrapper


def linearize(func: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """``func(*primals)`` and ``jvp_fn``, which maps tangents to ``J tangents`` at ``primals``.

    ``jvp_fn(*tangents)`` takes tangents of the primals' structure, shapes and dtypes and
    returns products of the output's structure; ``func`` runs once and its graph is kept
    for every call (PyTorch traces it with ``make_fx``; minigrad keeps ``jvp``'s
    double-backward graph).

    Example:
        >>> import minigrad
        >>> from minigrad.func import linearize
        >>> output, jvp_fn = linearize(lambda x: x ** 2, minigrad.tensor([1.0, 3.0]))
        >>> jvp_fn(minigrad.ones(2))
        tensor([2., 6.])
    """
    flat_primals = _flatten(primals)[0]
    for primal in flat_primals:
        if not isinstance(primal, TensorBase):  # (PyTorch's first use of a primal)
            raise AttributeError(f"'{type(primal).__name__}' object has no attribute 'new_empty'")
        _check_dual(primal, primal)
    primals_spec = _treespec(primals)
    lin = _Linearization(func, primals, tuple(range(len(primals))), False)

    def jvp_fn(*tangents: Any) -> Any:
        """``J tangents`` at the primals ``linearize`` was given."""
        tangents_spec = _treespec(tangents)
        if tangents_spec != primals_spec:
            raise RuntimeError(
                f"Expected the tangents {tangents_spec} to have the same argspec as the "
                f"primals {primals_spec}"
            )
        flat_tangents = _flatten(tangents)[0]
        for index, (primal, tangent) in enumerate(zip(flat_primals, flat_tangents, strict=True)):
            for what, mine, theirs in (("shape", tangent.shape, primal.shape),
                                       ("dtype", tangent.dtype, primal.dtype)):
                if mine != theirs:
                    raise RuntimeError(
                        f"tangent:{index} with {what} {mine} in flattened pytree doesn't "
                        f"match the {what} {theirs} of the corresponding primal."
                    )
        products = lin.tangents_out(lin.push(flat_tangents, is_grad_enabled()), False)
        return _unwrap(_unflatten(products, lin.out_spec), lin.inner)

    return _unwrap(lin.output, lin.inner), jvp_fn


def hessian(func: Callable[..., Any], argnums: int | tuple[int, ...] = 0) -> Callable[..., Any]:
    """The Hessian of a function returning a scalar: ``jacfwd(jacrev(func))``, as PyTorch's.

    Example:
        >>> import minigrad
        >>> from minigrad.func import hessian
        >>> hessian(lambda x: (x ** 3).sum())(minigrad.tensor([1.0, 2.0]))
        tensor([[ 6.,  0.],
                [ 0., 12.]])
    """
    return jacfwd(jacrev(func, argnums), argnums)


def functional_call(
    module: Module,
    parameter_and_buffer_dicts: dict[str, Any] | Sequence[dict[str, Any]],
    args: Any = None,
    kwargs: dict[str, Any] | None = None,
    *,
    tie_weights: bool = True,
    strict: bool = False,
) -> Any:
    """Call ``module(*args, **kwargs)`` with the given tensors in place of its own.

    ``parameter_and_buffer_dicts`` maps dotted names (``"0.weight"``) to tensors (or is a
    sequence of such dicts, whose keys must not repeat); names not given keep the module's
    own tensors. The module is restored afterwards. ``strict=True`` requires every parameter
    and buffer to be given; ``tie_weights=True`` replaces all the names of a shared weight.

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> from minigrad.func import functional_call, grad
        >>> model = nn.Linear(2, 1)
        >>> params = {"weight": minigrad.ones(1, 2), "bias": minigrad.zeros(1)}
        >>> x = minigrad.tensor([1.0, 2.0])
        >>> grad(lambda p: functional_call(model, p, (x,)).sum())(params)["weight"]
        tensor([[1., 2.]])
    """
    if isinstance(parameter_and_buffer_dicts, dict):
        tensors = parameter_and_buffer_dicts
    elif isinstance(parameter_and_buffer_dicts, Sequence):
        if not all(isinstance(d, dict) for d in parameter_and_buffer_dicts):
            raise ValueError(
                "Expected all elements of parameter_and_buffer_dicts to be dictionaries"
            )
        counts: dict[str, int] = {}
        for d in parameter_and_buffer_dicts:
            for key in d:
                counts[key] = counts.get(key, 0) + 1
        repeated = [key for key, n in counts.items() if n > 1]
        if repeated:
            raise ValueError(
                f"{repeated} appeared in multiple dictionaries; behavior of functional call is "
                "ambiguous"
            )
        tensors = {k: v for d in parameter_and_buffer_dicts for k, v in d.items()}
    else:
        raise ValueError(
            "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but "
            f"got {type(parameter_and_buffer_dicts)}"
        )
    return _functional_call(module, tensors, args, kwargs, tie_weights=tie_weights, strict=strict)


def stack_module_state(models: Sequence[Module]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Each parameter and buffer of ``models`` stacked along a new first dimension, as new leaves.

    Returns ``(params, buffers)``, dicts by the first model's names (``"0.weight"``). The
    models must be of one class and one training mode; a stacked parameter requires grad if
    every model's does (then it is a fresh leaf, detached from the models), and not if none
    does. (For ``functional_call`` per model; PyTorch's use, under ``vmap``, is out of scope.)

    Example:
        >>> import minigrad
        >>> from minigrad import nn
        >>> from minigrad.func import stack_module_state
        >>> params, buffers = stack_module_state([nn.Linear(3, 2) for _ in range(4)])
        >>> params["weight"].shape, params["weight"].is_leaf, buffers
        (minigrad.Size([4, 2, 3]), True, {})
    """
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError(
            "stack_module_state: Expected all models to have the same training/eval mode."
        )
    if not all(type(m) is type(models[0]) for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(model.named_parameters()) for model in models]
    params = {
        name: _stacked_leaf([named[name] for named in all_params], name) for name in all_params[0]
    }
    all_buffers = [dict(model.named_buffers()) for model in models]
    buffers = {
        name: _stacked_leaf([named[name] for named in all_buffers], name)
        for name in all_buffers[0]
    }
    return params, buffers


def _stacked_leaf(tensors: list[Any], name: str) -> Any:
    """``stack(tensors)``: a new leaf requiring grad if every tensor does (PyTorch's rule)."""
    import minigrad

    needs = [tensor.requires_grad for tensor in tensors]
    if any(needs) and not all(needs):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    result = minigrad.stack(tensors)
    if all(needs):
        result = result.detach().requires_grad_()
    return result
