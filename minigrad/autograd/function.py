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

``Function.apply`` is the one recording routine (``autograd/record.py``): needs, forward, node
and edges, outputs, saved values — the same steps for ops, custom Functions, views and in-place
writes. This module holds the declarations and what backward calls on a node.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from minigrad import _signatures, errors
from minigrad._dtype import from_numpy_dtype
from minigrad._layout import elementwise_result
from minigrad.autograd import grad_mode, grad_versions, saved, saved_attributes
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.graph import (
    EDGE_NRS,
    EDGES_IN_SLOTS,
    INPUT_SLOTS,
    NEEDS_FROM_EDGES,
    NOT_IMPLEMENTED,
    NOT_IMPLEMENTED_EDGES,
    RARE_ATTRIBUTES,
    SAVED_FIELDS,
    SAVED_OUTPUT_COUNTER,
    SAVED_PAIR,
    SAVED_SLOT,
    AccumulateGrad,
    Node,
    direct_call,
    direct_calls,
    extend,
    node_slots,
    sum_to_shape,
)
from minigrad.autograd.read_only import ReadOnly
from minigrad.autograd.record import NO_GRAD_CTX as NO_GRAD_CTX  # re-exported for the ops
from minigrad.autograd.record import options_recorder, record, recorder
from minigrad.autograd.tensor_base import TensorBase

if TYPE_CHECKING:
    from minigrad.autograd.engine import Run


# The slots of every Function's node besides ``Node``'s (``graph.node_slots``): PyTorch's ctx
# attribute, and the saved values while backward runs (``saved_tensors`` reads them there).
NODE_SLOTS = ("needs_input_grad", "_unpacked")


class BackwardNode(Node):  # (CTX_INTERNALS and _init_ctx after it)
    """The ``grad_fn`` of a Function's outputs, which is also the ``ctx`` its methods receive.

    Each Function gets its own subclass, whose slots are the ones its kind of node uses
    (``Function._node_slots``) and the options its op declares in ``fields`` (``alpha``,
    ``dim``, ``keepdim`` ...): a built-in op's node makes no ``__dict__``.
    """

    # (declared by each Function's node class, with the others it uses: ``needs_input_grad``,
    # and ``_unpacked``, the saved values while backward runs, where its formula reads them)
    __slots__ = ()

    _function: ClassVar[type[Function]]
    _name: ClassVar[str]
    _slots: tuple[int, ...] = ()  # which forward arguments are graph inputs (have an edge)
    _fields: ClassVar[tuple[str, ...]] = ()  # the option slots (``fields`` without a default)
    _num_args = 0  # how many gradients backward returns: one per forward argument
    _dirty: tuple[TensorBase, ...] = ()
    _non_differentiable: tuple[Any, ...] = ()
    _materialize_grads = True
    _keeps_nones = True  # saved values that are all None outlive backward (Node._release_saved)
    _freed = False  # (a custom Function's ctx: backward freed its saved values, even none)
    # PyTorch's names of the saved values, per save_for_backward position (None: not declared
    # and not yet inferred; see autograd/saved_attributes.py)
    _names_of_saved: ClassVar[tuple[str | None, ...] | None] = ()

    def name(self) -> str:
        """The node's name, e.g. ``SigmoidBackward0`` (as in PyTorch)."""
        return self._name

    # --- what the op saved, under PyTorch's names (autograd/saved_attributes.py) -------------
    # (An op that declares no names gets them from its first node inspected or run by
    # backward: until then its node class has ``_look_up_saved_name`` as ``__getattr__``.)

    def __dir__(self) -> list[str]:
        _name_saved_values(self)  # (then the ``_saved_*`` names are there to list)
        return Node.__dir__(self)

    # --- the ctx API (PyTorch's names) -------------------------------------------------------

    def save_for_backward(self, *values: Any) -> None:
        """Keep ``values`` for backward; inputs and outputs among them are version-checked."""
        self._saved = values  # packed by the recording routine once forward returns

    @property  # (a plain property: built-in formulas read it; a custom ctx's is ReadOnly)
    def saved_tensors(self) -> tuple[Any, ...]:
        """The values given to ``save_for_backward``, checked against in-place writes."""
        try:
            values = self._unpacked  # set while backward runs
        except AttributeError:  # never set: the slot is empty
            values = ()
        if values or not self._saved:
            return values
        # Not (or no longer) set: another thread's backward through this shared node may have
        # reset it while this one runs. Unpacking again is cheap and gives the same values.
        return saved.unpack(self, self._function._tensor_level)

    def mark_dirty(self, *tensors: TensorBase) -> None:
        """Declare that forward modified these input tensors in place."""
        extend(self)  # (a built-in op's node has no ``__dict__``)
        self._dirty = tensors

    def mark_non_differentiable(self, *values: Any) -> None:
        """Declare outputs that have no gradient (indices, masks)."""
        extend(self)
        self._non_differentiable = values

    def set_materialize_grads(self, value: bool) -> None:
        """Whether missing output gradients reach backward as zeros (default) or None."""
        if not isinstance(value, bool):
            raise TypeError(errors.SET_MATERIALIZE_GRADS_NOT_BOOL)
        extend(self)
        self._materialize_grads = value

    # --- what the engine calls ---------------------------------------------------------------

    def _backward(
        self,
        grads: list[Any],
        as_tensors: bool = False,
        release: bool = False,
        run: Run | None = None,
    ) -> tuple[Any, ...]:
        """The gradients for the node's edges; ``release``: then free the saved values.

        ``release`` is the engine's common path without ``retain_graph``: the values go once
        the gradients are complete, as ``_release_saved`` after the call would free them, with
        one call less per node. (A formula that raises keeps them, as PyTorch's does.)
        ``run``: the engine's run, which the built-in ops' runners deliver the gradients to
        (``backward_runner``); this general method returns them, and the engine delivers.
        """
        # A built-in op's node (a custom Function's has ``_backward_custom`` in its place: see
        # ``Function._node_namespace``), so the engine's call needs no test of the kind.
        # Every saved value is checked before backward runs, whether or not it is needed.
        values = self._saved
        if values or values is None:
            function = self._function
            if function.saved_as_arguments:  # ``backward(ctx, grad, *saved)``: see ``Op``
                result = function.backward(self, grads[0], *saved.unpack(self, as_tensors))
            else:
                self._unpacked = saved.unpack(self, as_tensors)
                try:
                    result = function.backward(self, *grads)  # arrays in and out
                finally:
                    self._unpacked = ()  # the values are not kept beyond the call
        else:  # nothing saved: ``saved_tensors`` reads an empty slot as ()
            result = self._function.backward(self, *grads)
        return self._finish(result, grads, as_tensors, bool(release and values))

    def _finish(
        self, result: Any, grads: list[Any], as_tensors: bool, release: bool
    ) -> tuple[Any, ...]:
        """After the formula (every built-in node's ``_backward`` ends here): the gradients.

        Each is fitted to its input's shape and dtype; the saved values are freed if
        ``release`` (the engine's common path, when the node saved any).
        """
        if type(result) is not tuple:
            result = (result,)
        # A built-in op returns one gradient per input, to be fitted to the input's shape and
        # dtype (``_input_meta``). None there: every input has the output's shape and dtype,
        # which the incoming gradient has too; a formula's constant may still have promoted
        # the dtype (a float64 scalar), which costs one comparison per gradient to catch.
        meta = self._input_meta
        if meta is not None:
            result = self._fit_grads(result, meta)
        elif as_tensors:
            incoming = grads[0]
            array = incoming._array if isinstance(incoming, TensorBase) else incoming
            result = self._fit_grads(result, self._like(array.shape, array.dtype))
        else:
            dtype = grads[0].dtype
            for grad in result:
                if grad is not None and grad.dtype is not dtype and grad.dtype != dtype:
                    result = self._fit_grads(result, self._like(grads[0].shape, dtype))
                    break
        if release:
            values = self._saved  # (the compact pair holds no None: autograd/saved.py)
            if switches.guarded or len(values) != SAVED_PAIR and None in values[1::SAVED_FIELDS]:
                self._release_saved()  # Nones to remember, or the guard to lift
            else:  # the common case of ``_release_saved``, without the call
                self._saved = None
                # (the saved inputs' tensors, if its class keeps any: stores, not a loop of
                # ``setattr``, on this path of every broadcasting or three-input node)
                kept = self._kept_inputs
                if len(kept) == 2:
                    self._input0 = self._input1 = None
                elif kept:
                    self._input0 = None
        return result

    def _backward_custom(
        self,
        grads: list[Any],
        as_tensors: bool = False,
        release: bool = False,
        run: Run | None = None,
    ) -> tuple[Any, ...]:
        """A custom Function's backward: on tensors, and its answer checked before use.

        Its gradients are returned, whatever ``run``: the engine delivers them.
        """
        # (freed: None, and its ``saved_tensors`` raise when read; PyTorch's second backward
        # runs if it does not read them)
        values = self._saved
        self._unpacked = saved.unpack(self, True) if values else ()
        try:
            result = self._function._call_backward(self, grads, as_tensors)
        finally:
            self._unpacked = ()
        result = self._check_grads(result)  # a user's backward may return anything
        if release:
            self._release_saved()
        return result

    def _custom_release_saved(self) -> None:
        """A custom Function's ``_release_saved``: its ctx's ``saved_tensors`` then raise.

        As PyTorch's ``has_freed_buffers``: whatever was saved (nothing, Nones), reading
        ``ctx.saved_tensors`` after a backward that freed the graph is "backward through the
        graph a second time"; a second backward that does not read them runs.
        """
        self._freed = True
        BackwardNode._release_saved(self)

    def _custom_saved_tensors(self) -> tuple[Any, ...]:
        """``ctx.saved_tensors`` of a custom Function: raises once backward freed them."""
        if self._freed:
            raise RuntimeError(errors.BACKWARD_TWICE)
        return BackwardNode.saved_tensors.fget(self)

    def _like(self, shape: tuple[int, ...], dtype: np.dtype) -> tuple[Any, ...]:
        # Only the inputs with an edge have the output's shape and dtype (a fill's 0-d value
        # that needs no gradient may not): the others get no gradient.
        meta = (tuple(shape), dtype)
        return tuple(None if next_node is None else meta for next_node in self._next_nodes)

    def _fit_grads(self, result: tuple[Any, ...], metas: tuple[Any, ...]) -> tuple[Any, ...]:
        """Sum broadcast gradients down to their input's shape; cast to its dtype.

        In a direct call of a broadcasting op's node (``graph.direct_calls``) a broadcast
        input's gradient keeps the output's shape: PyTorch's formulas leave the sum to the
        engine's ``validate_outputs``, which a backward pass runs and ``grad_fn(grad)`` not.
        """
        summed = not (direct_calls and direct_call.active and _unsummed(self._function))
        fitted = []
        for index, meta in zip(self._slots, metas):
            grad = result[index]
            if grad is None or meta is None:
                fitted.append(None)
                continue
            shape, dtype = meta
            if grad.shape != shape and summed:  # (a tuple, or a Size for tensor gradients)
                grad = self._reduce_to(grad, shape, index)
            if type(grad) is not np.ndarray or grad.dtype is not dtype and grad.dtype != dtype:
                grad = _as_dtype(grad, dtype)
            fitted.append(grad)
        return tuple(fitted)

    def _check_grads(self, result: Any) -> tuple[Any, ...]:
        """Make a custom backward's answer fit the inputs: one per input, input's shape, dtype.

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
        if len(self._slots) != expected:  # some arguments were not tensors: None for them
            for index in range(expected):
                if result[index] is not None and index not in self._slots:
                    raise RuntimeError(errors.grad_for_non_tensor(self.name(), index + 1))
        return self._fit_grads(result, self._input_meta)

    def _reduce_to(self, grad: Any, shape: tuple[int, ...], index: int) -> Any:
        try:
            reduced = sum_to_shape(grad, shape)
        except (ValueError, IndexError):
            reduced = None
        if reduced is None or tuple(reduced.shape) != shape:
            raise RuntimeError(errors.invalid_grad_shape(self.name(), index, grad.shape, shape))
        return reduced


def _unsummed(function: type[Function]) -> bool:
    """Whether ``function``'s node called directly leaves broadcast gradients unsummed."""
    unsummed = function.unsummed_when_called
    return function.broadcasts if unsummed is None else unsummed


def _name_saved_values(node: BackwardNode) -> bool:
    """Name the saved values of ``node``'s op by the generic rule, if not yet; True once named.

    ``saved_attributes.infer_names`` does it from the node's values (once per op, while they
    are there). The op's node class then drops ``_look_up_saved_name``: on a class with a
    ``__getattr__``, every attribute read takes CPython's slow path (a hook per read, and no
    specialised lookups), which in backward is most of the bookkeeping's reads.
    """
    node_class = node._function._Node  # (the class a node of other options derives from)
    saved_attributes.infer_names(node)
    if node_class._names_of_saved is None:
        return False
    # (suppressed: another thread may have named them and dropped it at the same time)
    with contextlib.suppress(AttributeError):
        del node_class.__getattr__  # type: ignore[attr-defined]
    return True


def _look_up_saved_name(node: BackwardNode, name: str) -> Any:
    """``__getattr__`` of the node classes of ops whose saved values are not named yet.

    Only reached when normal lookup fails: a ``_saved_*`` name may exist once the op's values
    are named (from this node), so it names them and looks again.
    """
    if saved_attributes.is_saved_name(name) and _name_saved_values(node):
        return getattr(node, name)
    raise AttributeError(f"'{type(node).__name__}' object has no attribute '{name}'")


def _defaulted_options(
    forward: Callable[..., Any], fields: tuple[str, ...]
) -> tuple[tuple[int, str, Any], ...]:
    """The ``fields`` that are parameters of ``forward`` with a default: (position, name, default).

    The position counts apply's arguments (forward's without ``ctx``).
    """
    parameters = _signatures.parameters(forward)[1:]
    return tuple(
        (position, parameter.name, parameter.default)
        for position, parameter in enumerate(parameters)
        if parameter.name in fields
        and parameter.default is not inspect.Parameter.empty
        and parameter.kind is not inspect.Parameter.KEYWORD_ONLY  # (apply passes positions)
    )


def _as_dtype(grad: Any, dtype: np.dtype) -> Any:
    """``grad`` (an array, or a tensor under create_graph) as ``dtype``."""
    if isinstance(grad, TensorBase):
        return grad if grad._array.dtype == dtype else grad.to(from_numpy_dtype(dtype))
    return grad if grad.dtype == dtype else grad.astype(dtype)


def _declared_saving_nothing(node: BackwardNode, *values: Any) -> None:
    """``save_for_backward`` of an op declaring ``saves = ()``: a declaration may not lie.

    Its node has no slot for saved values (``Op._node_slots``). (A forward that writes
    ``ctx._saved`` itself meets Python's read-only attribute error instead.)
    """
    if values:
        raise TypeError(f"{node._function.__name__} declares saves = () but its forward saved "
                        f"{len(values)} value(s): declare what it saves")


def _not_callable(node: BackwardNode, *grads: Any, **kwargs: Any) -> Any:
    """A custom Function's node called: PyTorch's ``TypeError`` (its Python node is no callable)."""
    raise TypeError(f"'{type(node).__name__}' object is not callable")


# What a custom Function's node keeps of its own (besides ``Function._node_slots``): in slots,
# so that its ``__dict__``, which takes the user's notes, shows only those, as PyTorch's ctx
# does (``vars(ctx)`` is ``{}``, ``ctx.__dict__ = {}`` loses nothing of minigrad's).
CTX_INTERNALS = ("_slots", "_num_args", "_freed", *RARE_ATTRIBUTES)
# ... starting from the values they have as class-level defaults on any other node
_CTX_DEFAULTS = tuple((name, getattr(BackwardNode, name)) for name in CTX_INTERNALS)


def _init_ctx(node: BackwardNode) -> None:
    """A custom Function's new node (its ctx): its internal slots at their defaults."""
    for name, value in _CTX_DEFAULTS:
        setattr(node, name, value)


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
        # Its backward sees tensors and its answer is checked (built-in ops': arrays, trusted).
        "_backward": BackwardNode._backward_custom,
        "_release_saved": BackwardNode._custom_release_saved,
        "saved_tensors": ReadOnly(BackwardNode._custom_saved_tensors,
                                  BackwardNode.saved_tensors.__doc__, "saved_tensors"),
        # (its attributes belong to PyTorch's ``_FunctionBase``: their refusals name it)
        "_read_only_owner": "minigrad._C._FunctionBase",
        "_computes_needed_edges_only": False,
        # ... and, unlike PyTorch's C++ nodes, not callable (``grad_fn(grad)`` raises)
        "__call__": _not_callable,
    }
    # A new-style Function (forward without ctx, plus setup_context): forward's signature, read
    # once, to bind apply's arguments. None for forward(ctx, ...).
    _forward_signature: ClassVar[inspect.Signature | None] = None
    # The options forward keeps on ``ctx`` for backward (``ctx.dim = dim``): the node's slots.
    # A custom Function may also set undeclared ones, as in PyTorch; they go to a __dict__.
    # A built-in op's field that is a parameter of forward with a default (add's ``alpha``) is
    # the option as given, noted by recording: forward does not set it (see ``_OptionsNode``).
    fields: ClassVar[tuple[str, ...]] = ()
    # Whether numpy's broadcasting errors in forward become PyTorch's message.
    broadcasts: ClassVar[bool] = False
    # Whether the node called directly (``grad_fn(grad)``) leaves a broadcast input's
    # gradient in the output's shape: PyTorch's formula does, and its engine sums it only in
    # a backward pass (``validate_outputs``). None: as ``broadcasts``. False where this
    # formula needs the sum for PyTorch's values (copysign's ``zeros_like(other)``).
    unsummed_when_called: ClassVar[bool | None] = None
    # How a new result of two or more dimensions is laid out in memory, as PyTorch lays it
    # out: one of ``minigrad/_layout.py``'s rules, ``rule(result, inputs' arrays)`` (None:
    # numpy's layout stands). An op that ``broadcasts`` follows ``elementwise_result`` unless
    # it declares another.
    result_layout: ClassVar[Callable[[np.ndarray, Any], np.ndarray] | None] = None
    # Whether forward's result on array inputs of one dtype is an array of that dtype, always
    # (numpy's ufunc loop ``(T, T) -> T``: add, mul): the binary recorder then takes the
    # input's dtype for the result's without reading it (autograd/record.py).
    keeps_dtype: ClassVar[bool] = False
    # Whether backward gives an input of the result's shape a gradient of that shape (the
    # recorder then keeps no input shapes: nothing to sum). False where a gradient may be
    # larger, to be summed down like a broadcast one: ``x[index] = values`` with values of
    # x's shape that ``index`` broadcasts (their gradient has the indexed shape).
    gradients_fit_inputs: ClassVar[bool] = True
    # PyTorch's names for what forward saves, one per save_for_backward position, shown as
    # ``grad_fn._saved_<name>`` (None: the generic rule, autograd/saved_attributes.py); and
    # the options PyTorch shows the same way: names of ``fields``, or {PyTorch's name: field}.
    saves: ClassVar[str | tuple[str | None, ...] | saved_attributes.TensorList | None] = None
    saved_options: ClassVar[tuple[str, ...] | dict[str, Any]] = ()
    # The order in which backward checks the saved inputs (argument positions), when it is not
    # the order they were saved in: PyTorch's generated nodes go by the arguments' names
    # (``other`` before ``self``), so with both stale the error names ``other``. Outputs last.
    unpack_order: ClassVar[tuple[int, ...] | None] = None
    # How many arguments a call must have to take recording's fast branch (-1: never): built-in
    # ops of one or two inputs called without options, which ``_record`` records (the op's
    # recording function, made from its declarations by autograd/record.py's ``recorder``).
    _fast_inputs: ClassVar[int] = -1
    _record: ClassVar[Callable[..., Any] | None] = None
    # Options that are tensors (an index, a target: ``_general`` records those): no recording
    # function for calls with options, which would only hand every call on.
    tensor_options: ClassVar[bool] = False
    # Its recording function for one input called with options (record.py's
    # ``options_recorder``), or None: ``record`` hands it such calls.
    _record_options: ClassVar[Callable[..., Any] | None] = None
    # The options among ``fields`` that forward takes with a default, as (position among
    # apply's arguments, name, default); and the node class whose slots keep them when a call
    # gives another value (the node class itself if there are none).
    _option_defaults: ClassVar[tuple[tuple[int, str, Any], ...]] = ()
    _OptionsNode: ClassVar[type[BackwardNode]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("node_name") or cls.__name__ + cls._node_suffix
        # PyTorch's C++ nodes are named "torch::autograd::CopyBackwards" but their Python type
        # (what repr shows: grad_fn=<CopyBackwards>) is the last part.
        type_name = name.rpartition("::")[2]
        fields = tuple(dict.fromkeys(
            field for klass in reversed(cls.__mro__) for field in klass.__dict__.get("fields", ())
        ))
        # An option forward takes with a default (add's ``alpha=1``) is recorded as given
        # (``record.new_node``): at its default it is a class attribute of the node class, which
        # a node then never writes; other values go into the slots of a subclass of the same
        # name, ``_OptionsNode``.
        options = () if cls._tensor_level else _defaulted_options(cls.forward, fields)
        defaults = {name: default for _, name, default in options}
        # (A custom Function's node is its ctx, which takes any attribute, as PyTorch's:
        # a ``__dict__``; a built-in op's node takes none, as PyTorch's C++ nodes.)
        own_fields = tuple(field for field in fields if field not in defaults)
        namespace = {
            "__slots__": cls._node_slots() + own_fields
            + ((*CTX_INTERNALS, "__dict__") if cls._tensor_level else ()),
            "_function": cls, "_name": name, "__doc__": cls.__doc__, "_fields": own_fields,
            **cls._kept_in_node(), **defaults,
        }
        if cls._tensor_level:
            namespace["__init__"] = _init_ctx
        if name == NOT_IMPLEMENTED:
            namespace["next_functions"] = NOT_IMPLEMENTED_EDGES
        cls._Node = type(type_name, (BackwardNode,), {**cls._node_namespace, **namespace})
        cls._option_defaults = options
        cls._OptionsNode = cls._Node if not options else type(type_name, (cls._Node,), {
            "__slots__": tuple(defaults), "__module__": cls._Node.__module__,
            "__doc__": cls.__doc__,
        })
        if cls._tensor_level:  # a custom Function's node shows ``_raw_saved_tensors`` instead
            saved_attributes.install_for_custom_function(cls._Node)
        else:
            saved_attributes.install(cls._Node, cls)
        if cls._Node._names_of_saved is None:  # named by the generic rule, from a node
            cls._Node.__getattr__ = _look_up_saved_name
        if cls.setup_context is not Function.setup_context:
            cls._forward_signature = inspect.signature(cls.forward)

    @classmethod
    def _node_slots(cls) -> tuple[str, ...]:
        """The slots of this Function's node besides its fields (a custom Function's: all)."""
        return (*node_slots(None, len(INPUT_SLOTS), True), *NODE_SLOTS)

    @classmethod
    def _kept_in_node(cls) -> dict[str, Any]:
        """What the node class says of the saved values it keeps in slots (``Node``'s)."""
        slots = cls._node_slots()
        kept = {
            "_kept_inputs": tuple(name for name in INPUT_SLOTS if name in slots),
            "_keeps_output_counter": SAVED_OUTPUT_COUNTER in slots,
            "_keeps_saved": SAVED_SLOT in slots,
        }
        if SAVED_SLOT not in slots:  # (an op declaring ``saves = ()``: its node cannot save)
            kept["save_for_backward"] = _declared_saving_nothing
        return kept

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
        if cls._forward_signature is None:
            return cls.forward(ctx, *args)
        output = cls.forward(*args)
        cls.setup_context(ctx, args, output)
        return output

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        """Run forward on ``args`` and, if anything needs a gradient, record a node.

        The recording itself is the one routine every op, view and in-place write shares
        (``autograd/record.py``). A new-style Function (``setup_context`` overridden) also
        takes keyword arguments: they are bound to forward's parameters, with their defaults,
        as PyTorch does.
        """
        if cls._forward_signature is not None:
            bound = cls._forward_signature.bind(*args, **kwargs)
            bound.apply_defaults()
            args = bound.args
        elif kwargs:
            raise TypeError(f"{cls.__name__}.apply() takes no keyword arguments")
        return record(cls, *args)

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        """Compute one gradient per forward input from the outputs' gradients (override)."""
        raise NotImplementedError("You must implement the backward function for custom Function.")

    @classmethod
    def _call_backward(cls, node: BackwardNode, grads: list[Any], as_tensors: bool) -> Any:
        # Users' backward sees tensors and runs with grad mode off unless create_graph is set.
        tensors = [None if g is None else _grad_as_tensor(g) for g in grads]
        with grad_mode.set_grad_enabled(as_tensors):
            result = cls.backward(node, *tensors)
        if not isinstance(result, tuple):
            result = (result,)
        if not as_tensors:
            result = tuple(_unless_held(result, i) for i in range(len(result)))
        return tuple(_grad_result(r, as_tensors) for r in result)


class Op(Function):
    """A built-in op: forward and backward compute on numpy arrays (the fast path).

    ``forward(ctx, *arrays_and_scalars)`` returns an array (or a tuple of them);
    ``backward(ctx, grad)`` returns one gradient per input (None where none is needed). A
    gradient may keep the broadcast shape: the node sums it down to the input's shape. The
    options forward keeps for backward are declared in ``fields``.
    """

    _tensor_level = False
    _node_suffix = "Backward0"
    _node_namespace: ClassVar[dict[str, Any]] = {}  # C++ nodes in PyTorch: <MulBackward0 ...>
    num_inputs: ClassVar[int] = 1  # leading forward arguments that are tensor inputs
    # Whether writing this op's result in place refuses a tensor whose elements share memory
    # (an expanded one). PyTorch's scalar fills skip the check: ``expanded.zero_()`` works.
    checks_internal_overlap: ClassVar[bool] = True
    # Whether it refuses an input that partly overlaps the written tensor (autograd/overlap.py):
    # PyTorch's elementwise kernels do; fills, index and scatter ops do not.
    checks_input_overlap: ClassVar[bool] = True
    # Whether ``backward`` takes the saved values as parameters after the incoming gradient,
    # ``backward(ctx, grad, *saved)``, instead of reading ``ctx.saved_tensors``: the runner
    # hands over the values it has just checked (no slot set and reset around the call, no
    # property read). For ops of one output that always save the same number of values.
    saved_as_arguments: ClassVar[bool] = False
    # Whether the op saves its two inputs as the bilinear ops do (mul, mm ...): each only if
    # the *other* needs a gradient (``record.save_for_the_other``). Declared rather than
    # saved by forward: recording saves them, and its fast branch writes the entries out.
    saves_for_the_other: ClassVar[bool] = False
    # The array function that is forward's whole work on a call with the inputs alone (no
    # options given: each keeps forward's default, which the node class holds; nothing saved
    # but by declaration): a two-input op's recording function calls it in forward's place,
    # without forward's Python frame.
    forward_kernel: ClassVar[Callable[..., Any] | None] = None
    # Forward's work on a call with the inputs alone when nothing is recorded (its notes
    # dropped): the op's recording function (one input or two) calls it in forward's place on
    # the no-grad path, in numpy's quiet context. For ops whose forward notes what no
    # declaration says (a reduction notes its input's shape, mm its operands' layouts):
    # recorded, they run forward. Defaults to ``forward_kernel``.
    no_grad_kernel: ClassVar[Callable[..., Any] | None] = None
    # A one-input op whose ``forward_kernel`` picks its array work by dtype in Python (sigmoid:
    # float16 through float32): per numpy dtype class, what does that dtype's work in one call
    # (SciPy's ``expit`` for float32 and float64). The Tensor method's recording function
    # (``record.unary_method``), which tests the input's dtype anyway, calls it in the
    # kernel's place, without the kernel's Python frame; the dict's values may be replaced
    # later (a ufunc imported at first use replaces the stub that imports it).
    dtype_kernels: ClassVar[dict[type, Callable[..., Any]] | None] = None

    # Built-in ops take positional arguments only: ``apply`` is the recording routine itself.
    apply = classmethod(record)

    @classmethod
    def _node_slots(cls) -> tuple[str, ...]:
        """Only the slots its node uses, from what the op declares (``graph.node_slots``).

        Its edges in slots for one or two inputs; the slots of saved inputs and of the saved
        result's counter only if the op may save them, as its ``saves`` tells: ``()`` nothing;
        only ``result`` names: no input; only ``self`` and ``other`` (PyTorch's names of the
        inputs of its unary and binary ops): no result; ``saves_for_the_other``: its two
        inputs. ``_unpacked`` only if its formula reads ``ctx.saved_tensors``. A value saved
        anyway is kept in its entry (``saved.pack``): the choice changes the cost, never the
        values.
        """
        saves = cls.saves
        if saves == ():
            inputs, result = 0, False
        elif cls.saves_for_the_other:
            inputs, result = 2, False
        else:
            named = type(saves) is tuple and None not in saves
            only_results = named and all(name.startswith("result") for name in saves)
            inputs = 0 if only_results else 2 if cls.num_inputs > 1 or cls.tensor_options else 1
            result = not named or not set(saves) <= {"self", "other"}
        edges = cls.num_inputs if cls.num_inputs in EDGES_IN_SLOTS else None
        unpacked = ("_unpacked",) if saves != () and not cls.saved_as_arguments else ()
        # (with edges in slots, ``needs_input_grad`` is read from them: graph.NEEDS_FROM_EDGES)
        needs = () if edges is not None else ("needs_input_grad",)
        return (*node_slots(edges, inputs, result, saves != ()), *needs, *unpacked)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._Node._slots = tuple(range(cls.num_inputs))
        cls._Node._num_args = cls.num_inputs
        if cls.num_inputs in EDGES_IN_SLOTS:  # no tuple kept per node (graph.py)
            cls._Node._next_nodes = EDGES_IN_SLOTS[cls.num_inputs]
            cls._Node.needs_input_grad = NEEDS_FROM_EDGES[cls.num_inputs]  # (nor this one)
            cls._Node._next_nrs = EDGE_NRS  # (nor output numbers that are all 0)
        if cls.broadcasts and cls.result_layout is None:
            cls.result_layout = staticmethod(elementwise_result)
        # Made once per class, after its body: forward and the node class are final by now.
        # (The options recorder first: a two-input op's recording function hands it numbers.)
        cls._record_options = options_recorder(cls)
        cls._record = recorder(cls)
        cls._Node._backward = backward_runner(cls)
        cls._Node._builtin = True  # (a custom Function's node runs the user's backward)
        # (its slots hold no user object; a ``__dict__`` could: autograd/collector.py)
        cls._Node._hideable = not cls._Node._open
        cls._fast_inputs = -1 if cls._record is None else cls.num_inputs

    @classmethod
    def _call_backward(cls, node: BackwardNode, grads: list[Any], as_tensors: bool) -> Any:
        return cls.backward(node, *grads)


def backward_runner(function: type[Op]) -> Callable[..., tuple[Any, ...] | None]:
    """``BackwardNode._backward`` for the nodes of the built-in op ``function``, made once.

    The same steps, in one call per node: the check of the saved values for the layout the
    op's packer writes (``saved.fast_packer``: its result alone, its input alone, or its two
    inputs each saved or None) is written out here, so the common case runs the formula with
    no ``saved.unpack`` call; anything else, any mismatch, ``as_tensors`` (create_graph) and
    the guard take ``saved.unpack`` itself, which raises PyTorch's errors in PyTorch's order.
    The formula is the op's own ``backward``, read once: if the op declares
    ``saved_as_arguments`` it gets the checked values as parameters, ``backward(ctx, grad,
    *saved)``; otherwise they wait in the node's ``_unpacked`` slot for ``ctx.saved_tensors``.
    Then ``_finish``'s work, inline in the common case (gradients already of the inputs' shape,
    arrays, edges in slots): the dtype check and the release of the saved values, whose layout
    is known here. Last, on the engine's common path (``run`` given), the delivery of each
    gradient along its edge (``engine.Run.deliver``), so that the engine loop makes one call
    per node, not a call and a loop over a tuple of edges; the general path gets the
    gradients back.
    """
    formula = function.backward
    by_argument = function.saved_as_arguments
    packer = saved.fast_packer(
        function.num_inputs, function.saves, len(function._Node._kept_inputs))
    result_layout = packer is saved.pack_result
    input_layout = packer is saved.pack_input
    inputs_layout = packer is saved.pack_inputs
    fields = saved.FIELDS
    pair = saved.PAIR
    accumulator = AccumulateGrad
    output_counter = saved.OUTPUT_COUNTER
    counter_in_node = saved.COUNTER_IN_NODE
    on_tensor = saved.ON_TENSOR
    unpack = saved.unpack
    # Whether the op's saved values still await their names (``_name_saved_values``).
    unnamed = function._Node._names_of_saved is None
    # How its node keeps its edges: in the slots ``_next0`` (and ``_next1``), or a tuple.
    edges_in_slots = function.num_inputs in EDGES_IN_SLOTS
    two_edges = function.num_inputs == 2
    # Which slots its node has for the saved inputs (none, ``_input0``, or both), and whether
    # one for the values while the formula runs (``Op._node_slots``): else ``saved_tensors``
    # unpacks them again, for an op that saves what it declared it would not.
    kept_inputs = len(function._Node._kept_inputs)
    keeps_unpacked = "_unpacked" in function._Node.__slots__
    # Whether its node has the slot ``_saved`` (an op declaring ``saves = ()`` has none: its
    # class's ``()``, which CPython 3.11 reads through the generic lookup, is not read here)
    keeps_saved = function._Node._keeps_saved

    def _backward(
        self: BackwardNode,
        grads: list[Any],
        as_tensors: bool = False,
        release: bool = False,
        run: Run | None = None,
    ) -> tuple[Any, ...] | None:
        nonlocal unnamed
        values = self._saved if keeps_saved else ()  # (no slot: the class's (), read slowly)
        if values or values is None:  # (None: freed, and ``unpack`` says so)
            unpacked: tuple[Any, ...] | None = None
            if values is None or as_tensors or switches.guarded:
                pass
            elif result_layout:  # (output, OUTPUT_COUNTER, version, 0, False, None)
                # (a counter not made yet: never written, and saved at version 0)
                if (len(values) == fields and values[1] is output_counter
                        and ((counter := self._output_counter) is None
                             or counter.version == values[2])):
                    unpacked = (values[0],)
            elif (inputs_layout and len(values) == 2 * fields) or (
                input_layout and len(values) == fields
            ):
                # per position: (array, ON_TENSOR, version, "_input<n>", had_history, n), the
                # input kept in the node's slot, or an entry of Nones (not saved)
                if values[1] is on_tensor and values[3] == "_input0":
                    tensor = self._input0
                    counter = tensor._counter  # None: never written, version 0
                    if counter is None:
                        version = 0
                    elif counter is counter_in_node:  # a result its node saved: the node's
                        counter = tensor._grad_fn._output_counter
                        version = 0 if counter is None else counter.version
                    else:
                        version = counter.version
                    clean = version == values[2] and (
                        tensor._grad_fn is not None or not values[4]
                    ) and tensor._array is values[0]  # (``x.data = ...`` since: unpack's)
                else:
                    clean = values[0] is None and values[1] is None
                if clean and len(values) == fields:
                    unpacked = (values[0],)
                elif clean:
                    if values[7] is on_tensor and values[9] == "_input1":
                        tensor = self._input1
                        counter = tensor._counter
                        if counter is None:
                            version = 0
                        elif counter is counter_in_node:
                            counter = tensor._grad_fn._output_counter
                            version = 0 if counter is None else counter.version
                        else:
                            version = counter.version
                        clean = version == values[8] and (
                            tensor._grad_fn is not None or not values[10]
                        ) and tensor._array is values[6]
                    else:
                        clean = values[6] is None and values[7] is None
                    if clean:
                        unpacked = (values[0], values[6])
            elif inputs_layout and len(values) == pair:  # (after the six-field forms)
                # The compact pair (autograd/saved.py): both inputs in the node's slots, saved
                # at version 0, each with history if its edge is not a leaf's accumulator.
                tensor = self._input0
                counter = tensor._counter  # None: never written, version 0
                if counter is counter_in_node:  # a result its node saved: the node's
                    counter = tensor._grad_fn._output_counter
                if ((counter is None or counter.version == 0) and tensor._array is values[0]
                        and (tensor._grad_fn is not None or type(self._next0) is accumulator)):
                    tensor = self._input1
                    counter = tensor._counter
                    if counter is counter_in_node:
                        counter = tensor._grad_fn._output_counter
                    if ((counter is None or counter.version == 0)
                            and tensor._array is values[1] and (
                                tensor._grad_fn is not None
                                or type(self._next1) is accumulator)):
                        unpacked = values  # (the pair itself: the two arrays, checked)
            if by_argument:  # (``unpack`` raises before the formula runs, as below)
                checked = unpack(self, as_tensors) if unpacked is None else unpacked
                # Spelled out for one and two values: CPython runs a call with a fixed
                # argument count without the argument tuple a ``*`` call builds.
                if len(checked) == 1:
                    result = formula(self, grads[0], checked[0])
                elif len(checked) == 2:
                    result = formula(self, grads[0], checked[0], checked[1])
                else:
                    result = formula(self, grads[0], *checked)
            elif keeps_unpacked:
                self._unpacked = unpack(self, as_tensors) if unpacked is None else unpacked
                try:  # arrays in and out
                    result = formula(self, grads[0]) if len(grads) == 1 else formula(self, *grads)
                finally:
                    self._unpacked = ()  # the values are not kept beyond the call
            else:
                if unpacked is None:
                    unpack(self, as_tensors)  # (checked first, as above)
                result = formula(self, *grads)
            if unnamed:  # the op's first node with saved values through here names them
                unnamed = not _name_saved_values(self)
        else:  # nothing saved: ``saved_tensors`` reads an empty slot as ()
            unpacked = None
            # (One gradient, the common case, in a call with a fixed argument count: CPython
            # runs it without building the argument tuple a ``*`` call needs.)
            result = formula(self, grads[0]) if len(grads) == 1 else formula(self, *grads)
        if as_tensors or not edges_in_slots or self._input_meta is not None:
            result = self._finish(result, grads, as_tensors, bool(release and values))
        else:
            # ``_finish``'s common case, inline: inputs shaped like the output, arrays, edges
            # in slots. A gradient on an edge with the incoming one's dtype object needs no
            # fitting; any other (an equal dtype object included) goes through ``_finish``.
            # The incoming gradient itself, passed on (add's), is not read: it cannot differ.
            if type(result) is not tuple:
                result = (result,)
            incoming = grads[0]
            grad = result[0]
            other = result[1] if two_edges else None
            if not ((grad is incoming or grad is None)
                    and (other is incoming or other is None)):
                dtype = incoming.dtype
                if (grad is not None and grad.dtype is not dtype) or (
                    other is not None and other.dtype is not dtype
                ):
                    result = self._finish(result, grads, False, False)
            if release and values:
                # Checked by the layout test above (no guard, each counter a string, or an
                # entry of Nones at 1 or 7): without Nones, ``_release_saved``'s common case.
                # (the compact pair, checked, is ``unpacked`` itself and holds no None)
                if unpacked is not None and (unpacked is values or values[1] is not None
                                             and values[-5] is not None):
                    self._saved = None
                    if kept_inputs == 2:  # (the saved inputs' tensors, if any)
                        self._input0 = self._input1 = None
                    elif kept_inputs:
                        self._input0 = None
                else:
                    self._release_saved()  # Nones to remember, the guard, or other layouts
        if run is None:  # (the engine's general path delivers them itself)
            return result
        # The engine's common path: the gradients go along the node's edges from here, read
        # from its slots (no tuple of them made), one ``deliver`` per edge.
        if edges_in_slots:
            next_node = self._next0
            if next_node is not None:
                run.deliver(next_node, result[0], self, 0)
            if two_edges:
                next_node = self._next1
                if next_node is not None:
                    run.deliver(next_node, result[1], self, 1)
        else:
            run.deliver_all(self, result)
        return None

    _backward.__doc__ = BackwardNode._backward.__doc__
    # A code object of its own per op class: CPython specialises each attribute read to the
    # one node class it then sees (a shared one sees them all, and reads every slot the slow
    # way), as if the function were written out per class.
    _backward.__code__ = _backward.__code__.replace()
    return _backward


def _grad_as_tensor(grad: Any) -> TensorBase:
    if isinstance(grad, TensorBase):
        return grad
    # As a hook sees it: the caller's own seed, or the view a formula made (sum's expand).
    from minigrad.autograd.engine import _as_tensor  # (the engine builds on this module)

    return _as_tensor(grad)


_refcount = sys.getrefcount
_FRESH: list[tuple[int, int]] = []  # (measured once, on first use: ``_fresh_counts``)


def _fresh_counts() -> tuple[int, int]:
    """``_unless_held``'s reading of a tensor that only a backward's result refers to."""
    result = (TensorBase.output_class._make(np.zeros(1)),)
    value = result[0]
    return _refcount(value), _refcount(value._array)


def _unless_held(result: tuple[Any, ...], index: int) -> Any:
    """A custom backward's ``result[index]``, as a view if something else holds it too.

    PyTorch adds a second gradient into the first in place only if nothing else refers to the
    first (its tensor and its storage): a tensor the Function keeps (on the class, on ctx,
    saved) is summed out of place, so the sum starts at version 0. The engine sums a view out
    of place (``grad_versions.add_into``): a held tensor goes on as a view of its array,
    which a leaf's accumulator does not steal either (``grad_versions.held``).
    """
    value = result[index]
    if not isinstance(value, TensorBase):
        return value
    if not _FRESH:
        _FRESH.append(_fresh_counts())
    tensor_refs, array_refs = _FRESH[0]
    if _refcount(value) > tensor_refs or _refcount(value._array) > array_refs:
        return TensorBase.output_class._make(grad_versions.held(value._array))
    return value


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
