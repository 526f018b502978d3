"""Views: tensors that share their base's buffer *and* version counter.

A view remembers its base (always a non-view: views of views point to the root) and the chain
of view steps that produces it from the base's buffer. With that chain autograd can

- replay the view on a gradient (CopySlices, in ``inplace.py``), and
- regenerate the view's ``grad_fn`` from its base's history after an in-place write
  (``AsStridedBackward0`` in PyTorch's naming), lazily, when the view is next used.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from minigrad import errors
from minigrad.autograd import grad_mode, grad_versions, guard, inference
from minigrad.autograd import tensor_base as _tensor_base
from minigrad.autograd.collector import hide as _hide
from minigrad.autograd.debug_switches import modes_on as _modes_on
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.function import Op
from minigrad.autograd.graph import COUNTER_IN_NODE, Node, new_sequence_nr, sequence_numbers
from minigrad.autograd.record import (
    _SHARED,
    NEEDS,
    NO_GRAD_CTX,
    _connect,
    new_node,
    record,
    untracked,
)
from minigrad.autograd.tensor_base import TensorBase, set_array
from minigrad.ops.strides import element_strides, strided

_new = object.__new__
_ndarray = np.ndarray
_grad_state = grad_mode._state  # (this thread's grad mode: a thread-local object)

# One step: (view op's number in ``VIEW_OPS``, its options, which output for multi-output
# ops or None). The op goes by its number, not its class: a class is an object the garbage
# collector always tracks, so a step holding one (and the steps tuple holding the step) would
# stay tracked as long as the view lives; of ints and tuples of ints, a collection untracks
# all three levels, and a long graph of views is not walked again at every full collection.
ViewStep = tuple[int, tuple[Any, ...], "int | None"]

# Every view op class, in the order defined: ``ViewOp.view_op_number`` indexes it.
VIEW_OPS: list[type[ViewOp]] = []


def replay(steps: tuple[ViewStep, ...], array: Any) -> Any:
    """Apply the view steps to ``array`` (the base's buffer, or a gradient of its shape)."""
    for number, options, index in steps:
        array = VIEW_OPS[number].forward(NO_GRAD_CTX, array, *options)
        if index is not None:
            array = array[index]
    return array


class ViewInfo:
    """What a view knows about itself: its steps from the base, and when its history was made.

    PyTorch's "creation meta" is a class attribute: none for a plain view (this class), which
    most views are, so making one writes two slots. At most one is set, by a subclass
    (``view_info`` picks it): a view made under ``no_grad`` (``created_in_no_grad``; in
    inference mode ``created_in_inference`` says so too), or an output of a multi-output view
    op (``split``, ``chunk``, ``unbind``: ``multi_output_name``), or an output of a custom
    Function (``created_in_custom_function``). Such a view (``forbids_rebase``) may not be
    written in place while gradients are recorded, and its history may not be regenerated
    after its base changed (see ``view_rebase_error``). Only ``synced_version`` changes after
    creation.
    """

    __slots__ = ("steps", "synced_version")

    created_in_no_grad: ClassVar[bool] = False
    created_in_inference: ClassVar[bool] = False  # (True only with created_in_no_grad)
    multi_output_name: ClassVar[str | None] = None  # "Split" for outputs of split/chunk
    created_in_custom_function: ClassVar[bool] = False
    forbids_rebase: ClassVar[bool] = False  # (True when any of the above is set)

    def __init__(self, steps: tuple[ViewStep, ...], version: int) -> None:
        self.steps = steps
        self.synced_version = version  # the counter's value when grad_fn was last made

    def regenerate(self, base: TensorBase, grad_fn: Node | None, output_nr: int) -> Node:
        """A fresh ``grad_fn`` for the view: "take my region of the base's gradient".

        Called once the base changed, if the view had a history or its base requires grad
        (``grad_fn``, ``output_nr``: the view's current node). A view made under ``no_grad``
        or by a multi-output op may not be regenerated: PyTorch raises, at every access. If
        the base no longer requires grad (``detach_()``), the node has no edge, as PyTorch's.
        """
        if self.forbids_rebase:
            name = None if grad_fn is None else grad_fn.name()
            raise RuntimeError(view_rebase_error(self, name, output_nr, indirect=True))
        if not base.requires_grad:
            # A node without edges (nothing to send a gradient to), made by hand: recording
            # makes nodes only for inputs that need a gradient.
            node = object.__new__(AsStrided._Node)
            if node._keeps_saved:  # (else its class's ``()``)
                node._saved = ()
            node._sequence_nr = new_sequence_nr()
            node.needs_input_grad = (False, False)
            AsStrided.forward(node, base._array, self.steps)
            node._next_nodes = (None,) * len(node._slots)
            node._next_nrs = (0,) * len(node._slots)
            node._input_meta = None
            return node
        with grad_mode.enable_grad():
            return AsStrided.apply(base, self.steps)._grad_fn


class NoGradViewInfo(ViewInfo):
    """A view made under ``no_grad``."""

    __slots__ = ()
    created_in_no_grad = True
    forbids_rebase = True


class InferenceViewInfo(NoGradViewInfo):
    """A view made in inference mode (which is also no-grad mode)."""

    __slots__ = ()
    created_in_inference = True


class MultiOutputViewInfo(ViewInfo):
    """An output of a multi-output view op, with grad mode on: the op's name for the errors."""

    __slots__ = ("multi_output_name",)
    forbids_rebase = True

    def __init__(self, steps: tuple[ViewStep, ...], version: int, name: str) -> None:
        super().__init__(steps, version)
        self.multi_output_name = name


class CustomFunctionViewInfo(ViewInfo):
    """A view a custom Function returned (made in its forward, or an input returned as is).

    PyTorch forbids writing it in place: autograd's view handling would replace the custom
    backward. Views of it inherit this, as PyTorch's creation meta propagates.
    """

    __slots__ = ()
    created_in_custom_function = True
    forbids_rebase = True


def view_info(
    steps: tuple[ViewStep, ...],
    version: int,
    created_in_no_grad: bool,
    multi_output_name: str | None,
    created_in_inference: bool = False,
) -> ViewInfo:
    """A view's ``ViewInfo`` of the class its creation meta gives (at most one is set)."""
    if created_in_no_grad:
        if created_in_inference:
            return InferenceViewInfo(steps, version)
        return NoGradViewInfo(steps, version)
    if multi_output_name is not None:
        return MultiOutputViewInfo(steps, version, multi_output_name)
    return ViewInfo(steps, version)


# The sentence PyTorch appends for each kind of view that may not be modified in place.
_MULTI_OUTPUT_HINT = (
    " This view is the output of a function that returns multiple views. Such functions do not "
    "allow the output views to be modified inplace. You should replace the inplace operation by "
    "an out-of-place one."
)
_CUSTOM_FUNCTION_HINT = (
    " This view was created inside a custom Function (or because an input was returned as-is) "
    "and the autograd logic to handle view+inplace would override the custom backward "
    "associated with the custom Function, leading to incorrect gradients. This behavior is "
    "forbidden. You can fix this by cloning the output of the custom Function."
)
_NO_GRAD_HINT = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can clarify "
    "your code by moving both the view and the inplace either both inside the {block} block (if "
    "you don't want the inplace to be tracked) or both outside (if you want the inplace to be "
    "tracked)."
)


def view_rebase_error(
    view: ViewInfo, grad_fn_name: str | None, output_nr: int, indirect: bool
) -> str:
    """PyTorch's text for an in-place change a view's creation forbids (``handle_view_on_rebase``).

    ``indirect``: the base or another view was written (noticed when the view is next used),
    rather than the view itself. ``grad_fn_name``: the view's own node, or None.
    """
    modified = "its base or another view of its base has been" if indirect else "is being"
    name = None if grad_fn_name is None else errors.node_short_name(grad_fn_name)
    if view.created_in_no_grad or name is None:
        prefix = (
            "A view was created in"
            if name is None
            else f"Output {output_nr} of {name} is a view of a view which was created in"
        )
        if view.created_in_inference:
            message = f"{prefix} inference mode and {modified} modified inplace in normal mode."
        else:
            message = (
                f"{prefix} no_grad mode and {modified} modified inplace with grad mode enabled."
            )
    else:
        message = f"Output {output_nr} of {name} is a view and {modified} modified inplace."
    if view.created_in_custom_function:
        return message + _CUSTOM_FUNCTION_HINT
    if not view.created_in_no_grad:
        return message + _MULTI_OUTPUT_HINT
    block = "inference_mode" if view.created_in_inference else "no_grad"
    return message + _NO_GRAD_HINT.format(block=block)


class ViewOp(Op):
    """An op whose outputs are views of its first input (same buffer, same counter).

    ``forward`` must return a numpy view of its input (or a tuple of views, for
    ``multi_output`` ops such as ``split``).
    """

    multi_output: ClassVar[str | None] = None  # the name PyTorch's error uses, e.g. "Split"
    view_op_number: ClassVar[int]  # its index in ``VIEW_OPS``: how a view step names it

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.view_op_number = len(VIEW_OPS)
        VIEW_OPS.append(cls)
        # Made once per class, after its body: forward and the node class are final by now.
        # (A multi-output op's calls all take the general ``apply``.)
        if cls.multi_output is None:
            cls.apply = staticmethod(view_function(cls))  # type: ignore[assignment]

    @classmethod
    def apply(cls, x: Any, *options: Any) -> Any:
        """Run the view op and make its outputs views of ``x``'s base: the general path.

        Each single-output view op's ``apply`` is its own function (``view_function``), which
        takes the common calls and hands this one every other: an empty tensor, a mode
        watching recording (``debug_switches.modes_on``), a view whose base changed, a view
        of a tensor that does not require grad whose base does. Under ``no_grad`` nothing is
        recorded and ``x``'s history is not read (PyTorch does not read it either: a
        multi-output view whose base changed may still be viewed there); else ``record``.
        """
        array = x._array
        if not array.size:  # (rare: an empty tensor)
            _keep_strides_of_empty(x)
            array = x._array
        step = (cls.view_op_number, options, None)
        if not _grad_state.enabled:
            raw = cls.forward(NO_GRAD_CTX, array, *options)
            if type(raw) is _ndarray:  # (one view: the common case)
                return new_view(raw, None, x, step, False)
            return _as_views(
                tuple(map(untracked, raw)) if type(raw) is tuple else untracked(raw), x, step)
        return _as_views(record(cls, x, *options), x, step)


def view_function(cls: type[ViewOp]) -> Callable[..., Any]:
    """``cls.apply`` for a view op of one output: its common calls, else ``ViewOp.apply``.

    Made once per class (``ViewOp.__init_subclass__``), with the op's forward and node class
    bound, as ``record._unary_recorder`` makes an op's recording function. With no mode
    watching recording (``debug_switches.modes_on``), one view of a non-empty tensor whose
    history is current (not a view, or a view whose base has not changed since) does
    ``record``'s steps for an op that saves nothing and keeps its input's dtype: the node, its
    one edge, the input's shape for backward, the output; a tensor that needs no gradient (nor
    does its base) gets a view without history. Under ``no_grad`` forward runs with the no-grad
    ctx. Either way the output is made a view by ``new_view``. Every other call goes to
    ``ViewOp.apply`` before anything has run.
    """
    forward = cls.forward
    make_node = cls._Node
    number = cls.view_op_number  # (its steps name it by number: see ``ViewStep``)
    with_options = bool(cls._option_defaults)  # (else the node class holds no option)
    general = ViewOp.apply.__func__  # type: ignore[attr-defined]

    def apply_view(x: Any, *options: Any) -> Any:
        """Apply ``cls`` to ``x`` with ``options``: see ``view_function``."""
        array = x._array
        if not array.size:  # (rare: an empty tensor keeps its strides first)
            return general(cls, x, *options)
        if _modes_on:
            if not _grad_state.enabled:
                raw = forward(NO_GRAD_CTX, array, *options)
                if type(raw) is _ndarray:  # (the common case)
                    return new_view(raw, None, x, (number, options, None), False)
                return _as_views(untracked(raw), x, (number, options, None))
            return general(cls, x, *options)
        if x._base is not None and x._view.synced_version != x._counter.version:
            return general(cls, x, *options)  # (its history catches up first)
        x_node = x._grad_fn
        if x_node is not None or (x._base is None and x._requires_grad):
            count = len(options) + 1
            if count >= _SHARED:
                return general(cls, x, *options)
            # 1.-2. the node is forward's ctx (a view saves nothing)
            node = new_node(cls, (x, *options)) if with_options else make_node()
            if node._keeps_saved:  # (else its class's ``()``: a view saves nothing)
                node._saved = ()
            node.needs_input_grad = NEEDS[count][1]
            raw = forward(node, array, *options)
            step = (number, options, None)
            dtype = raw.dtype
            if dtype is not array.dtype or dtype.kind != "f" or node._saved:
                # (``view(dtype)``, a complex view, a forward that saved): general steps
                result = _connect(
                    cls, node, (x, *options), [array, *options], raw, node.needs_input_grad,
                    None)
                make_view(result, x, step, None)
                return result
            # 3. the edge: the producer (and which of its outputs; ``x``'s history is
            # current, so it is read as it is), or the leaf's accumulator; backward's
            # gradient has the view's shape, not the input's
            node._sequence_nr = next(sequence_numbers)
            if x_node is None:
                x_node, output_nr = x._gradient_edge()
            else:
                if x_node._hideable:  # consumed: out of the collector's view (collector.py)
                    _hide(x_node)
                output_nr = x._output_nr
            node._next_nodes = (x_node,)
            if output_nr:  # (else unset: the class's zeros, graph.EDGE_NRS)
                node._output_nrs = (output_nr,)
            shape = array.shape
            node._input_meta = None if raw.shape == shape else ((shape, array.dtype),)
            return new_view(raw, node, x, step, True)  # 4. the output
        if not x._requires_grad and (x._base is None or not x._base.requires_grad):
            # nothing needs a gradient: a view without history
            return new_view(forward(NO_GRAD_CTX, array, *options), None, x,
                            (number, options, None), True)
        return general(cls, x, *options)

    apply_view.__qualname__ = apply_view.__name__ = f"apply_{cls.__name__}"
    return apply_view


def _as_views(result: Any, x: TensorBase, step: ViewStep) -> Any:
    """A view op's new result (one tensor, or a tuple of them) made views of ``x``."""
    if isinstance(result, tuple):
        number, options, _ = step
        multi = VIEW_OPS[number].multi_output
        for index, view in enumerate(result):
            make_view(view, x, (number, options, index), multi)
    else:
        make_view(result, x, step, None)
    return result


def _keep_strides_of_empty(x: Any) -> None:
    """Give ``x``'s empty array the strides ``x.stride()`` shows, for its views to keep.

    numpy gives a new empty array strides of 0, where PyTorch gives a new tensor its usual
    strides (``stride()`` answers PyTorch's); a view keeps its input's strides in both, so
    ``zeros(0, 3).t()`` has strides ``(1, 3)`` only if ``zeros(0, 3)``'s array has ``(3, 1)``.
    (An empty array has no elements: its strides are all there is to change.)
    """
    array = x._array
    strides = x.stride()
    if element_strides(array) != strides:
        set_array(x, strided(array, array.shape, strides))


def new_view(
    array: np.ndarray, grad_fn: Node | None, source: TensorBase, step: ViewStep, recording: bool
) -> TensorBase:
    """A view op's one result on ``array``, first output of ``grad_fn``: a view of ``source``.

    ``new_result`` and ``make_view`` in one, for ``ViewOp.apply``'s fast branches, which know
    the thread's grad mode (``recording``) and so read no mode twice. A view of a non-view
    (the common case) is written out here; a view of a view, or of a guarded buffer, takes
    ``make_view``'s general steps.
    """
    # (the module global ``new_result`` reads: a class attribute read is not specialised)
    view = _new(_tensor_base._output_class)
    view._array = array
    view._shape = view._dtype = None  # (read when first needed)
    view._requires_grad = False
    view._grad_fn = grad_fn
    view._output_nr = 0
    view._meta = None
    if source._base is not None or switches.guarded:
        view._counter = None
        view._base = None
        make_view(view, source, step, None)
        return view
    counter = source._counter
    if counter is None or counter is COUNTER_IN_NODE:
        counter = source._version_counter()
    view._counter = counter
    view._base = source
    # PyTorch's creation meta: none (the common case), or made under no_grad or in inference
    if recording:
        view._view = ViewInfo((step,), counter.version)
    else:
        meta = InferenceViewInfo if inference._state.enabled else NoGradViewInfo
        view._view = meta((step,), counter.version)
    return view


def make_view(
    view: TensorBase, source: TensorBase, step: ViewStep | None, multi: str | None
) -> None:
    """Make ``view`` (an op's new result) a view of ``source``: its counter, base and steps.

    ``step``: the view op's step that made it from ``source``; ``multi``: the name PyTorch's
    error gives a multi-output view op (None for others).
    """
    # ``step`` None: the view is all of ``source`` (an alias), no step to replay.
    counter = source._counter
    if counter is None or counter is COUNTER_IN_NODE:
        counter = source._version_counter()
    view._counter = counter
    # PyTorch's creation meta: no_grad wins over multi-output; a view of a view inherits its
    # source's unless the new view op sets one itself.
    no_grad = not grad_mode._state.enabled
    in_inference = no_grad and inference._state.enabled
    if no_grad:
        multi = None
    steps = () if step is None else (step,)
    base = source._base
    if base is None:
        view._base = source
    else:
        view._base = base
        source_view = source._view
        steps = source_view.steps + steps
        if not no_grad and multi is None:
            if source_view.created_in_custom_function:
                if switches.guarded:
                    guard.note_view(view._array)
                view._view = CustomFunctionViewInfo(steps, counter.version)
                return
            no_grad = source_view.created_in_no_grad
            in_inference = source_view.created_in_inference
            multi = source_view.multi_output_name
    if switches.guarded:  # debugging hook: a view of a guarded buffer inherits its flag
        guard.note_view(view._array)
    view._view = view_info(steps, counter.version, no_grad, multi, in_inference)


def alias_of(tensor: TensorBase) -> TensorBase:
    """A new tensor that is a view of all of ``tensor`` (same buffer, same counter)."""
    alias = TensorBase.output_class._make(tensor._array)
    make_view(alias, tensor, None, None)
    return alias


class AsStrided(Op):
    """y = the view's region of the base;  dbase = grad scattered back into that region.

    Saves nothing. Overlapping views (expand) add up their gradient, hence ``np.add.at``.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("base_shape", "base_strides", "steps")

    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx: Any, base: np.ndarray, steps: tuple[ViewStep, ...]) -> np.ndarray:
        """The view's region of ``base``."""
        ctx.base_shape, ctx.base_strides, ctx.steps = base.shape, base.strides, steps
        return replay(steps, base)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None]:
        """The gradient placed back into a base-shaped array (recorded under create_graph)."""
        if isinstance(grad, TensorBase):
            return as_strided_backward(grad, ctx.base_shape, ctx.base_strides, ctx.steps), None
        # PyTorch's formula copies ``grad`` into a zero-filled storage (version 1) and returns
        # a view of it: the storage's array (numpy's base) and the view share that version.
        scattered = scatter_into_base(grad, ctx.base_shape, ctx.steps, ctx.base_strides)
        if isinstance(scattered.base, np.ndarray):
            grad_versions.written(scattered.base, 1)
        return grad_versions.written(scattered, 1), None


class Strided(ViewOp):
    """y = x's elements at (shape, strides, offset);  dx = grad scattered back.  Saves nothing.

    Shape, strides and offset count elements of ``x``'s memory (its layout may be any dense one).

    PyTorch's ``as_strided`` for a dense ``x``. The engine uses it to hand back a gradient that
    a backward formula made as a view of a root's gradient (``x.sum()``'s is an expanded view
    of the seed, as in PyTorch): numpy made that view, this step makes it a tensor's view.
    """

    saves = ()  # (it saves nothing: its node has no slot for saved values)
    fields = ("base_shape", "base_strides", "strides", "offset")

    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(
        ctx: Any, x: np.ndarray, shape: tuple[int, ...], strides: tuple[int, ...], offset: int
    ) -> np.ndarray:
        """The view of ``x``'s memory (``x`` dense: its elements fill one block)."""
        ctx.base_shape, ctx.base_strides = x.shape, x.strides
        ctx.strides, ctx.offset = strides, offset
        start = np.ravel(x, order="K")[offset:]  # a view: x is dense
        itemsize = x.itemsize
        return np.lib.stride_tricks.as_strided(
            start,
            shape=shape,
            strides=tuple(s * itemsize for s in strides),
            writeable=x.flags.writeable,
        )

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        """The gradient placed back into an array laid out like ``x``."""
        steps = ((Strided.view_op_number, (tuple(grad.shape), ctx.strides, ctx.offset), None),)
        if isinstance(grad, TensorBase):
            scattered = as_strided_backward(grad, ctx.base_shape, ctx.base_strides, steps)
        else:
            scattered = scatter_into_base(grad, ctx.base_shape, steps, ctx.base_strides)
        return scattered, None, None, None


def view_of_memory(base: TensorBase, array: np.ndarray) -> TensorBase:
    """A view of ``base`` (dense, not a view) on exactly the elements ``array`` shows.

    ``array`` must be a numpy view into ``base``'s buffer (``np.shares_memory``).
    """
    itemsize = array.itemsize
    start = np.ravel(base._array, order="K")
    offset = (
        array.__array_interface__["data"][0] - start.__array_interface__["data"][0]
    ) // itemsize
    strides = tuple(s // itemsize for s in array.strides)
    return Strided.apply(base, tuple(array.shape), strides, offset)


class ScatterIntoBase(Op):
    """y = a base-shaped array, ``grad`` in the view's region, 0 elsewhere;  dgrad = gg's region.

    AsStrided's backward as an op of its own, so that ``create_graph`` records it (CopySlices
    uses it to splice gradients into the base's region).
    """

    fields = ("steps",)

    node_name = "AsStridedScatterBackward0"

    @staticmethod
    def forward(
        ctx: Any,
        grad: np.ndarray,
        base_shape: tuple[int, ...],
        base_strides: tuple[int, ...],
        steps: tuple[ViewStep, ...],
    ) -> np.ndarray:
        """``grad`` placed in the view's region of a base-shaped array of zeros."""
        ctx.steps = steps
        return scatter_into_base(grad, base_shape, steps, base_strides)

    @staticmethod
    def backward(ctx: Any, grad: Any) -> tuple[Any, None, None, None]:
        """The view's region of the incoming gradient."""
        if isinstance(grad, TensorBase):
            return AsStrided.apply(grad, ctx.steps), None, None, None
        return np.array(replay(ctx.steps, grad), copy=True), None, None, None


def as_strided_backward(
    grad: TensorBase,
    base_shape: tuple[int, ...],
    base_strides: tuple[int, ...],
    steps: tuple[ViewStep, ...],
) -> TensorBase:
    """The view's gradient placed back into its base, recorded as PyTorch's formula records it.

    Under create_graph PyTorch's ``as_strided_backward`` squeezes the gradient's size-1 dims
    and sums its expanded ones (last dim first), copies it into a view of a zero "storage"
    (CopySlices) and returns the storage viewed with the base's geometry (AsStridedBackward0):
    the gradient is a view of the storage, at version 1. An empty view's gradient is plain
    zeros of the base's shape (no history: PyTorch returns ``at::zeros`` first thing). Views
    whose region still overlaps itself then take the scatter op instead (a graph of other names).
    """
    itemsize = grad._array.itemsize
    block = empty_like_layout(base_shape, base_strides, grad._array.dtype)
    view = replay(steps, block)
    if view.size == 0:
        return TensorBase.output_class._make(np.zeros(base_shape, dtype=block.dtype))
    start = np.ravel(block, order="K").__array_interface__["data"][0]
    offset = (view.__array_interface__["data"][0] - start) // itemsize
    element_strides = [stride // itemsize for stride in view.strides]
    kept = [d for d, size in enumerate(view.shape) if size != 1 and element_strides[d] != 0]
    sizes = [view.shape[d] for d in kept]
    strides = [element_strides[d] for d in kept]
    if min(strides, default=0) < 0 or _may_overlap(sizes, strides):
        return ScatterIntoBase.apply(grad, base_shape, base_strides, steps)  # type: ignore
    for dim in reversed(range(view.ndim)):  # (PyTorch's order: from the last dim)
        if view.shape[dim] == 1:
            grad = grad.squeeze(dim)
        elif element_strides[dim] == 0:
            grad = grad.sum(dim)
    storage = TensorBase.output_class._make(np.zeros(block.size, dtype=block.dtype))
    Strided.apply(storage, tuple(sizes), tuple(strides), offset).copy_(grad)
    base_layout = tuple(stride // block.itemsize for stride in block.strides)
    return Strided.apply(storage, tuple(base_shape), base_layout, 0)


def _may_overlap(sizes: list[int], strides: list[int]) -> bool:
    """PyTorch's ``_maybe_overlapping_memory``: whether two indices may reach one element."""
    reach = 0
    for stride, size in sorted(zip(strides, sizes)):
        if stride <= reach:
            return True
        reach += stride * (size - 1)
    return False


def empty_like_layout(
    shape: tuple[int, ...], strides: tuple[int, ...], dtype: Any
) -> np.ndarray:
    """An uninitialized array laid out in memory like one with these ``strides``.

    PyTorch's ``new_empty_strided``, for dense layouts. View steps are replayed on gradients:
    a step that is a view of the base's buffer (say ``b.t().view(-1)`` of a column-major ``b``)
    is a view of a gradient only if the gradient has the same memory layout.
    """
    order = sorted(range(len(shape)), key=lambda d: (-abs(strides[d]), d))
    array = np.empty(tuple(shape[d] for d in order), dtype=dtype)
    return np.transpose(array, np.argsort(order))


def scatter_into_base(
    grad: Any,
    base_shape: tuple[int, ...],
    steps: tuple[ViewStep, ...],
    base_strides: tuple[int, ...] | None = None,
) -> Any:
    """A base-shaped gradient that is ``grad`` inside the view's region and 0 elsewhere."""
    size = int(np.prod(base_shape))
    if base_strides is None:
        positions = np.arange(size).reshape(base_shape)
    else:
        positions = empty_like_layout(base_shape, base_strides, np.intp)
        positions[...] = np.arange(size).reshape(base_shape)
    positions = replay(steps, positions)
    result = np.zeros(size, dtype=grad.dtype)
    np.add.at(result, positions, grad)
    return result.reshape(base_shape)
