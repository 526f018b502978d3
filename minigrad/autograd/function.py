"""Function: how an operation is declared — forward, backward and what it saves, in one class.

Every built-in op and every user-defined ``minigrad.autograd.Function`` is a subclass of
``Function``, with PyTorch's custom-Function API::

    class Exp(Op):
        '''y = exp(x);  dx = grad * y.  Saves its result: changing x later is legal, y is not.'''

        @staticmethod
        def forward(ctx, x):
            y = np.exp(x)
            ctx.save_for_backward(y)      # the result: its version is checked in backward
            return y

        @staticmethod
        def backward(ctx, grad):
            (y,) = ctx.saved_tensors
            return grad * y

``ctx`` *is* the graph node (``y.grad_fn``), as in PyTorch. ``save_for_backward`` recognizes each
value by identity: an input becomes a saved input, a returned value a saved output, anything else
a private value. Saving is conditional where PyTorch's is (``Mul`` keeps ``y`` only if ``x`` needs a
gradient), which is why it is a call in ``forward`` rather than a static list.

``Op`` is the array-level flavour used by minigrad's own ops: its forward and backward see numpy
arrays, which keeps the hot path fast. ``Function`` proper sees tensors, as users expect.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad._dtype import from_numpy_dtype
from minigrad.autograd import anomaly, debug_hooks, grad_mode
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.graph import Edge, Node, sequence_numbers, sum_to_shape
from minigrad.autograd.quiet import quiet_floats, restore, silence
from minigrad.autograd.saved import SavedTensor
from minigrad.autograd.variable import TensorBase


class BackwardNode(Node):
    """The ``grad_fn`` of a Function's outputs, which is also the ``ctx`` its methods receive."""

    _function: ClassVar[type[Function]]
    _name: ClassVar[str]
    _to_save: tuple[Any, ...] | None = None
    _unpacked: tuple[Any, ...] = ()
    _input_meta: tuple[tuple[tuple[int, ...], np.dtype] | None, ...] = ()  # per edge
    _slots: tuple[int, ...] = ()  # which forward arguments are graph inputs (have an edge)
    _num_args = 0  # how many gradients backward returns: one per forward argument
    _dirty: tuple[TensorBase, ...] = ()
    _non_differentiable: tuple[Any, ...] = ()
    _materialize_grads = True
    needs_input_grad: tuple[bool, ...] = ()

    def __init__(self) -> None:
        self._sequence_nr = next(sequence_numbers)

    def name(self) -> str:
        """The node's name, e.g. ``SigmoidBackward0`` (as in PyTorch)."""
        return self._name

    # --- the ctx API (PyTorch's names) -------------------------------------------------------

    def save_for_backward(self, *values: Any) -> None:
        """Keep ``values`` for backward; inputs and outputs among them are version-checked."""
        self._to_save = values

    @property
    def saved_tensors(self) -> tuple[Any, ...]:
        """The values given to ``save_for_backward``, checked against in-place writes."""
        if not self._unpacked and self._saved:
            self._unpacked = self._unpack_saved(as_tensors=self._function._tensor_level)
        return self._unpacked

    def mark_dirty(self, *tensors: TensorBase) -> None:
        """Declare that forward modified these input tensors in place."""
        self._dirty = tensors

    def mark_non_differentiable(self, *values: Any) -> None:
        """Declare outputs that have no gradient (indices, masks)."""
        self._non_differentiable = values

    def set_materialize_grads(self, value: bool) -> None:
        """Whether missing output gradients reach backward as zeros (default) or None."""
        self._materialize_grads = value

    # --- what the engine calls ---------------------------------------------------------------

    def _unpack_saved(self, as_tensors: bool) -> tuple[Any, ...]:
        if self._released:
            raise RuntimeError(errors.BACKWARD_TWICE)
        values = []
        for saved in self._saved:  # a plain loop: this runs once per node in every backward
            if saved is None:
                values.append(None)
            else:
                values.append(saved.unpack_tensor(self) if as_tensors else saved.unpack(self))
        return tuple(values)

    def _backward(self, grads: list[Any], as_tensors: bool = False) -> tuple[Any, ...]:
        # Every saved value is checked before backward runs, whether or not it is needed.
        self._unpacked = (
            self._unpack_saved(as_tensors or self._function._tensor_level)
            if (self._saved or self._released) else ()
        )
        try:
            result = self._function._call_backward(self, grads, as_tensors)
        finally:
            self._unpacked = ()
        return self._check_grads(result)

    def _check_grads(self, result: Any) -> tuple[Any, ...]:
        """Make backward's answer fit the inputs: one per input, input's shape and dtype.

        Backward returns one gradient per forward argument; only the arguments that are graph
        inputs (``_slots``) have an edge, so the others' entries must be None and are dropped.
        """
        if not isinstance(result, tuple):
            result = (result,)
        expected = self._num_args
        if len(result) != expected and (
            len(result) < expected or any(g is not None for g in result[expected:])
        ):
            raise RuntimeError(errors.wrong_grad_count(self.name(), expected, len(result)))
        checked = []
        for index, meta in zip(self._slots, self._input_meta):
            grad = result[index]
            if grad is None or meta is None:
                checked.append(None)
                continue
            shape, dtype = meta
            if grad.shape != shape:  # a tuple, or a Size (a tuple) for tensor gradients
                grad = self._reduce_to(grad, shape, index)
            if type(grad) is not np.ndarray or grad.dtype != dtype:
                grad = _as_dtype(grad, dtype)
            checked.append(grad)
        return tuple(checked)

    def _reduce_to(self, grad: Any, shape: tuple[int, ...], index: int) -> Any:
        try:
            reduced = sum_to_shape(grad, shape)
        except (ValueError, IndexError):
            reduced = None
        if reduced is None or tuple(reduced.shape) != shape:
            raise RuntimeError(errors.invalid_grad_shape(self.name(), index, grad.shape, shape))
        return reduced


def _as_dtype(grad: Any, dtype: np.dtype) -> Any:
    """``grad`` (an array, or a tensor under create_graph) as ``dtype``."""
    if isinstance(grad, TensorBase):
        return grad if grad._array.dtype == dtype else grad.to(from_numpy_dtype(dtype))
    return grad if grad.dtype == dtype else grad.astype(dtype)


class _NeverNeeded(tuple):
    """``needs_input_grad`` when nothing is recorded: False at every index."""

    def __getitem__(self, index: Any) -> bool:  # type: ignore[override]
        return False


class _NoGradContext:
    """The ctx forward gets when nothing is recorded: saving and notes are dropped."""

    needs_input_grad = _NeverNeeded()

    def save_for_backward(self, *values: Any) -> None:
        """Nothing will run backward: keep nothing."""

    def mark_dirty(self, *tensors: Any) -> None:
        """Nothing is recorded: nothing to rebase."""

    def mark_non_differentiable(self, *values: Any) -> None:
        """Nothing is recorded: nothing to mark."""

    def set_materialize_grads(self, value: bool) -> None:
        """Nothing is recorded: no gradients to materialize."""

    def __setattr__(self, name: str, value: Any) -> None:
        # Notes forward leaves for backward (shapes, axes) are not needed: drop them.
        pass


NO_GRAD_CTX = _NoGradContext()


class Function:
    """Base class of differentiable operations; subclass it for custom ops (PyTorch's API).

    Subclasses define ``forward(ctx, *args)`` and ``backward(ctx, *grads)`` as static methods and
    are called through ``apply``; or, as PyTorch's current notes do, ``forward(*args)`` without
    ctx plus ``setup_context(ctx, inputs, output)``. The outputs' ``grad_fn`` is named
    ``<ClassName>Backward`` (type ``minigrad.autograd.function.<ClassName>Backward``).

    Example:
        >>> import minigrad
        >>> class Square(minigrad.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, grad):
        ...         (x,) = ctx.saved_tensors
        ...         return 2 * x * grad
        >>> x = minigrad.tensor([3.0], requires_grad=True)
        >>> Square.apply(x).sum().backward()
        >>> x.grad
        tensor([6.])
    """

    _Node: ClassVar[type[BackwardNode]]
    _tensor_level: ClassVar[bool] = True  # forward/backward see tensors (False: numpy arrays)
    _node_suffix: ClassVar[str] = "Backward"
    _node_namespace: ClassVar[dict[str, Any]] = {
        # A custom Function's node is a Python class in PyTorch, shown with its module:
        # <torch.autograd.function.ExpBackward object at 0x...>.
        "__module__": __name__,
        "__repr__": object.__repr__,
    }
    _new_style: ClassVar[bool] = False  # forward without ctx, plus setup_context

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or cls.__name__ + cls._node_suffix
        # PyTorch's C++ nodes are named "torch::autograd::CopyBackwards" but their Python type
        # (what repr shows: grad_fn=<CopyBackwards>) is the last part.
        type_name = name.rpartition("::")[2]
        namespace = {"_function": cls, "_name": name, "__doc__": cls.__doc__}
        cls._Node = type(type_name, (BackwardNode,), {**cls._node_namespace, **namespace})
        cls._new_style = cls.setup_context is not Function.setup_context

    @staticmethod
    def forward(ctx: Any, *args: Any) -> Any:
        """Compute the outputs from the inputs (override).

        Either ``forward(ctx, *args)``, or, with ``setup_context`` overridden, ``forward(*args)``
        (the style of PyTorch's current "Extending PyTorch" notes).
        """
        raise NotImplementedError("You must implement the forward function for custom Function.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        """Save for backward what ``forward(*inputs)`` needs (override with a ctx-less forward).

        Runs right after forward, like it with grad mode off; ``output`` is what forward
        returned. ``ctx.save_for_backward``, ``mark_dirty``, ``mark_non_differentiable`` and
        attributes set on ``ctx`` work as in a ``forward(ctx, ...)``.

        Example:
            >>> import minigrad
            >>> class Exp(minigrad.autograd.Function):
            ...     @staticmethod
            ...     def forward(x):
            ...         return x.exp()
            ...     @staticmethod
            ...     def setup_context(ctx, inputs, output):
            ...         ctx.save_for_backward(output)
            ...     @staticmethod
            ...     def backward(ctx, grad):
            ...         (result,) = ctx.saved_tensors
            ...         return grad * result
            >>> x = minigrad.tensor([0.0, 1.0], requires_grad=True)
            >>> Exp.apply(x).sum().backward()
            >>> x.grad
            tensor([1.0000, 2.7183])
        """
        raise NotImplementedError("setup_context is not implemented.")

    @classmethod
    def _forward(cls, ctx: Any, *args: Any) -> Any:
        """Forward as ``apply`` runs it: with ctx, or (new style) then ``setup_context``."""
        if not cls._new_style:
            return cls.forward(ctx, *args)
        output = cls.forward(*args)
        cls.setup_context(ctx, args, output)
        return output

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        """Compute one gradient per forward input from the outputs' gradients (override)."""
        raise NotImplementedError("You must implement the backward function for custom Function.")

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run forward on ``args`` and, if anything needs a gradient, record a node.

        A new-style Function (``setup_context`` overridden) also takes keyword arguments:
        they are bound to forward's parameters, with their defaults, as PyTorch does.
        """
        if cls._new_style:
            bound = inspect.signature(cls.forward).bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        elif kwargs:
            raise TypeError(f"{cls.__name__}.apply() takes no keyword arguments")
        needs = tuple(isinstance(a, TensorBase) and a.requires_grad for a in args)
        recording = grad_mode.is_grad_enabled() and any(needs)
        node = cls._Node()
        node.needs_input_grad = needs if recording else (False,) * len(args)
        with grad_mode.no_grad(), quiet_floats():
            raw = cls._forward(node, *args)
        single = not isinstance(raw, tuple)
        values = (raw,) if single else raw
        for tensor in node._dirty:
            # Checked after forward, as PyTorch does (the write has happened by then).
            if recording and tensor._grad_fn is None and tensor._requires_grad:
                raise RuntimeError(errors.LEAF_USED_INPLACE)
            tensor._counter.bump()  # marking dirty counts as a write, as in PyTorch
        outputs = tuple(_as_output(value, args, node._dirty) for value in values)
        if recording:
            node._slots = tuple(i for i, a in enumerate(args) if isinstance(a, TensorBase))
            node._num_args = len(args)
            # Before rebasing: the edges point at the inputs' old history.
            _connect(node, args, needs, node._slots)
            tensors = [o for o in outputs if isinstance(o, TensorBase)]
            _mark_outputs(node, tensors)
            _pack_saved(node, args, args, tensors, tensors)
        return outputs[0] if single else outputs

    @classmethod
    def _call_backward(cls, node: BackwardNode, grads: list[Any], as_tensors: bool) -> Any:
        # Users' backward sees tensors and runs with grad mode off unless create_graph is set.
        tensors = [None if g is None else _grad_as_tensor(g) for g in grads]
        with grad_mode.set_grad_enabled(as_tensors):
            result = cls.backward(node, *tensors)
        if not isinstance(result, tuple):
            result = (result,)
        return tuple(_grad_result(r, as_tensors) for r in result)


class Op(Function):
    """A built-in op: forward and backward compute on numpy arrays (the fast path).

    ``forward(ctx, *arrays_and_scalars)`` returns an array (or a tuple of them);
    ``backward(ctx, grad)`` returns one gradient per input (None where none is needed). A
    gradient may keep the broadcast shape: the node sums it down to the input's shape.
    """

    _tensor_level = False
    _node_suffix = "Backward0"
    _node_namespace: ClassVar[dict[str, Any]] = {}  # C++ nodes in PyTorch: <MulBackward0 ...>
    num_inputs: ClassVar[int] = 1  # leading forward arguments that are tensor inputs
    # Whether writing this op's result in place refuses a tensor whose elements share memory
    # (an expanded one). PyTorch's scalar fills skip the check: ``expanded.zero_()`` works.
    checks_internal_overlap: ClassVar[bool] = True
    _slots: tuple[int, ...] = (0,)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._Node._slots = tuple(range(cls.num_inputs))
        cls._Node._num_args = cls.num_inputs

    @classmethod
    def apply(cls, *args: Any) -> Any:
        """Compute ``forward`` on the arrays behind ``args``; record a node if needed.

        The first ``num_inputs`` arguments are the op's tensor inputs (a Python number there is
        a constant input, as PyTorch wraps it in a tensor); the rest are options (dims, ...).
        """
        # This is the hot path of every op: kept flat, with no work beyond what is needed.
        arrays = []
        needs = []
        enabled = grad_mode._state.enabled
        for arg in args:
            if isinstance(arg, TensorBase):
                if arg._base is not None and enabled:  # nothing to record: no history needed
                    arg._sync_view()
                    needs.append(arg.requires_grad)  # a view also requires grad if its base does
                else:
                    needs.append(arg._requires_grad or arg._grad_fn is not None)
                arrays.append(arg._array)
            else:
                arrays.append(arg)
                needs.append(False)
        token = silence()  # inf and nan are values, not warnings (autograd/quiet.py)
        try:
            if not (enabled and True in needs):
                return _wrap_untracked(cls.forward(NO_GRAD_CTX, *arrays))
            node = object.__new__(cls._Node)
            node._sequence_nr = next(sequence_numbers)
            node.needs_input_grad = tuple(needs)
            raw = cls.forward(node, *arrays)
        finally:
            restore(token)
        _connect(node, args, needs, node._slots)
        make = TensorBase.output_class._make
        if type(raw) is tuple:
            outputs = [make(np.asarray(r), node, i) for i, r in enumerate(raw)]
            _mark_outputs(node, outputs, raw)
            _pack_saved(node, arrays, args, raw, outputs)
            return tuple(outputs)
        output = make(raw if type(raw) is np.ndarray else np.asarray(raw), node)
        if node._to_save is not None:
            _pack_saved(node, arrays, args, (raw,), (output,))
        return output

    @classmethod
    def _call_backward(cls, node: BackwardNode, grads: list[Any], as_tensors: bool) -> Any:
        return cls.backward(node, *grads)


# --- recording helpers (shared by Function.apply, Op.apply and the in-place path) ------------




def _connect(
    node: BackwardNode, args: Sequence[Any], needs: Sequence[bool], slots: Sequence[int]
) -> None:
    """Point the node at the gradient edges of its inputs; remember their shapes and dtypes."""
    edges: list[Edge] = []
    meta: list[tuple[tuple[int, ...], np.dtype] | None] = []
    for index in slots:
        if needs[index]:
            arg = args[index]
            producer = arg._grad_fn
            if producer is None:  # a leaf: its accumulator, made once and kept by the leaf
                leaf_meta = arg._meta
                producer = leaf_meta.accumulator if leaf_meta is not None else None
                edges.append((producer, 0) if producer is not None else arg._gradient_edge())
            else:
                edges.append((producer, arg._output_nr))
            array = arg._array
            meta.append((array.shape, array.dtype))
        else:
            edges.append(_NO_EDGE)
            meta.append(None)
    node.next_functions = tuple(edges)
    node._input_meta = tuple(meta)
    if anomaly._state.enabled:
        node._forward_stack = anomaly.capture_forward_stack()


_NO_EDGE: Edge = (None, 0)


def _pack_saved(
    node: BackwardNode,
    seen_inputs: Sequence[Any],
    input_tensors: Sequence[Any],
    seen_outputs: Sequence[Any],
    output_tensors: Sequence[TensorBase],
) -> None:
    """Turn what forward passed to ``save_for_backward`` into SavedTensors, by identity.

    A value that *is* one of the outputs is saved as that output; one that *is* an input
    tensor's buffer, as that input; anything else (a scalar, a private array) as a plain value.
    """
    to_save = node._to_save
    if to_save is None:
        return
    node._to_save = None
    packed: list[SavedTensor | None] = []
    for value in to_save:
        if value is None:
            packed.append(None)
            continue
        for seen, tensor in zip(seen_inputs, input_tensors):
            if value is seen and isinstance(tensor, TensorBase):
                packed.append(SavedTensor(tensor))
                break
        else:
            for output_nr, seen in enumerate(seen_outputs):
                if value is seen:
                    packed.append(SavedTensor(output_tensors[output_nr], output_nr, True))
                    break
            else:
                packed.append(SavedTensor.of_value(value))
    node._saved = tuple(packed)
    if switches.saves:  # debugging hook: track where, guard buffers (autograd/debug_hooks.py)
        debug_hooks.on_save(node)


def _mark_outputs(
    node: BackwardNode, outputs: list[TensorBase], seen: Sequence[Any] | None = None
) -> None:
    """Give each output its place in the graph; non-differentiable ones stay leaves."""
    seen = outputs if seen is None else seen
    marked = node._non_differentiable
    node._num_outputs = len(outputs)
    # Kept so the engine can hand zeros to backward for outputs that received no gradient.
    node._output_meta = tuple((t._array.shape, t._array.dtype) for t in outputs)
    for output_nr, (tensor, value) in enumerate(zip(outputs, seen)):
        differentiable = tensor._array.dtype.kind == "f" and not any(value is m for m in marked)
        tensor._grad_fn = node if differentiable else None
        tensor._output_nr = output_nr


def _wrap_untracked(raw: Any) -> Any:
    make = TensorBase.output_class._make
    if isinstance(raw, tuple):
        return tuple(make(np.asarray(r)) for r in raw)
    return make(np.asarray(raw))


def _as_output(value: Any, args: Sequence[Any], dirty: Sequence[Any]) -> Any:
    """What a custom forward returned, as ``apply`` hands it out."""
    if not isinstance(value, TensorBase):
        return value  # non-tensor outputs pass through, as in PyTorch
    if any(value is d for d in dirty):
        return value  # modified in place: the same tensor, rebased onto this node
    if any(value is a for a in args):
        # An input returned unchanged: the output is a view of it (same buffer and counter).
        from minigrad.autograd.views import alias_of

        return alias_of(value)
    return value


def _grad_as_tensor(grad: Any) -> TensorBase:
    return grad if isinstance(grad, TensorBase) else TensorBase.output_class._make(grad)


def _grad_result(value: Any, as_tensors: bool) -> Any:
    if value is None:
        return value
    if not isinstance(value, TensorBase):  # a custom backward must return tensors, as in PyTorch
        raise RuntimeError(
            f"expected Variable or None (got {errors.python_type_name(value)})"
        )
    return value if as_tensors else value._array


def once_differentiable(backward: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a custom backward as not differentiable itself (PyTorch's decorator).

    Its gradients carry no history even under ``create_graph=True``.
    """

    @functools.wraps(backward)
    def wrapper(ctx: Any, *grads: Any) -> Any:
        with grad_mode.no_grad():
            result = backward(ctx, *grads)
        if isinstance(result, tuple):
            return tuple(r.detach() if isinstance(r, TensorBase) else r for r in result)
        return result.detach() if isinstance(result, TensorBase) else result

    return wrapper
