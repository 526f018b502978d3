"""Recording: the one routine through which every op puts its node into the graph.

Built-in ops, users' custom Functions, views and in-place writes all go through ``record``
(it *is* ``Function.apply``), in this order:

1. **needs**: which inputs require a gradient (a view first catches up with its base's history);
2. **forward**, with numpy's float warnings off (custom Functions: under no_grad, on tensors).
   Without grad mode or an input that needs a gradient no node is made: that is the no_grad path;
3. **node and edges**: a sequence number, and per input the node its gradient goes to (its
   producer, or the leaf's accumulator), read from the inputs' *current* history;
4. **outputs**: new tensors, of which only floating-point ones get the node as ``grad_fn``
   (``x.long()`` has no history, as in PyTorch) — or, for an in-place op, the written tensor
   itself (``autograd/inplace.py`` writes it, bumps its counter once and rebases its history);
5. **saved values**: what forward passed to ``save_for_backward``, packed flat into the node with
   their versions (``autograd/saved.py``).

The common case — a built-in op with one array result, every input of the result's shape and
dtype — takes no detour: the node does not even record the inputs' shapes, since backward's
gradients already fit them (``_input_meta`` is None).

The fast branch: a built-in op of one or two inputs called without options is recorded by the
op's own recording function (``function._record``), made once when the class is created
(``Op.__init_subclass__`` calls ``recorder``) from what the op declares: its forward and node
class bound, only the tests its arity needs, the output tensor written out. The same steps as
above; every call it does not take (views, numbers, promotion, anomaly mode) goes to
``_general`` before anything has run, and odd results (another dtype, several outputs) finish
in ``_connect``. Whether any mode changes what a recorded op does (grad mode off in some
thread, anomaly mode, saved-tensor hooks, a debugging aid) is one test of
``debug_switches.modes_on``; only when one is on do they test each. A call of an op of one
input with options (``m.sum(0)``, softmax's dim) has such a function too
(``function._record_options``, from ``options_recorder``), unless the op declares tensors
among its options (``tensor_options``); the same function records an op of two inputs on a
tensor and a Python number (``a * 2.0``, ``a - 1``), the number taken as an option is.
``Tensor``'s arithmetic operators are such functions themselves (``binary_operator``), its
hot methods call them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad import _warnings, errors
from minigrad.autograd import anomaly, grad_mode, quiet, saved
from minigrad.autograd.collector import hide as _hide
from minigrad.autograd.debug_switches import modes_on as _modes_on
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.graph import PENDING_EDGE as _PENDING_EDGE
from minigrad.autograd.graph import extend, sequence_numbers
from minigrad.autograd.quiet import restore, silence
from minigrad.autograd.tensor_base import TensorBase, new_result, set_output_class

if TYPE_CHECKING:
    from minigrad.autograd.function import BackwardNode, Function

_new = object.__new__
_ndarray = np.ndarray
_asarray = np.asarray
# A node's sequence number is ``next(sequence_numbers)``: the builtin on the counter costs ~85
# instructions fewer than calling its bound ``__next__`` (a method-wrapper).
_grad_state = grad_mode._state
_anomaly_state = anomaly._state
# ``silence()`` and ``restore`` as the recorders call them: the context variable's own methods
_set_error_state = quiet.set_error_state
_QUIET = quiet.QUIET
_reset_error_state = quiet.restore
_run_quietly = quiet.run_quietly  # a numpy function in a quiet context (see quiet.py)
_call_quietly = quiet.call_quietly
_hooks_active = saved._hooks_active  # saved-tensor hooks registered (saved.pack's test)
_ON_TENSOR = saved.ON_TENSOR
_NOTHING = saved.NOTHING
_OUTPUT_COUNTER = saved.OUTPUT_COUNTER
_COUNTER_IN_NODE = saved.COUNTER_IN_NODE
_VersionCounter = saved.VersionCounter


class _NoGradContext:
    """The ctx a built-in op's forward gets when nothing is recorded: notes are dropped."""

    # False for every argument: a plain tuple longer than any op's argument list (indexed in C;
    # built-in ops only index it).
    needs_input_grad = (False,) * 64

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

    # The buffer an in-place op with nothing to record writes (see WritingContext), else None.
    out: np.ndarray | None = None


class WritingContext(_NoGradContext):
    """The ctx of an in-place op with nothing to record: ``out`` is the written tensor's buffer.

    A forward may compute straight into ``out`` when it cannot fail half-way (its operands
    already have ``out``'s shape and dtype): ``p.add_(g, alpha=-lr)`` then costs what numpy's
    ``p -= lr * g`` does, instead of a temporary and a copy. autograd/inplace.py's ``write``
    sees the result is the buffer itself and only counts the write.
    """

    def __init__(self, out: np.ndarray) -> None:
        object.__setattr__(self, "out", out)


NO_GRAD_CTX = _NoGradContext()


def save_for_the_other(ctx: Any, x: Any, y: Any) -> None:
    """Save ``x`` and ``y`` for a bilinear op (mul, mm, conv...), each only if needed.

    Each operand's gradient needs the *other* operand, so PyTorch saves ``x`` only if ``y``
    needs a gradient and ``y`` only if ``x`` does: writing the other one later stays legal.
    Recording calls it for the ops that declare ``saves_for_the_other`` (its fast branch
    writes the same entries out); other forwards (convolution's backward ops) call it.
    """
    needs = ctx.needs_input_grad
    # ``ctx.save_for_backward(...)``'s one line, without its call: a built-in op's ctx is its
    # node, whose recording packs ``_saved`` once forward returns, or a no-grad ctx, which
    # drops the attribute.
    ctx._saved = (x if needs[1] else None, y if needs[0] else None)


FAST_BRANCH = True  # tests/test_record_fast.py turns it off to compare with the general path


def record(function: type[Function], *args: Any, target: TensorBase | None = None) -> Any:
    """Run ``function``'s forward on ``args`` and, if anything needs a gradient, record a node.

    ``Function.apply``. A built-in op's leading ``num_inputs`` arguments are its inputs (a Python
    number there is a constant), the rest its options. ``target``: the tensor an in-place op
    writes (its first argument), checked beforehand by ``autograd/inplace.py``.
    """
    if target is None:
        if len(args) == function._fast_inputs:
            return function._record(*args)  # one or two inputs, no options: the fast branch
        if function._record_options is not None and len(args) > 1:
            return function._record_options(*args)  # one input and options
    return _general(function, args, target)


def sync_views(*args: Any) -> None:
    """Let the tensors among ``args`` that are views catch up with their bases' writes.

    Recording does it first (``_general``'s step 1). An op that checks its arguments before it
    records calls this before its checks: PyTorch reads the inputs' history (collecting the
    op's edges) before its kernel checks anything, so a view that may not catch up (made in
    no_grad, a multi-output view) raises its error before a wrong dtype or shape does.
    """
    if _grad_state.enabled:
        for arg in args:
            if isinstance(arg, TensorBase) and arg._base is not None:
                arg._sync_view()


def _general(function: type[Function], args: tuple[Any, ...], target: TensorBase | None) -> Any:
    """``record`` for every call: steps 1 to 5 (the fast branch hands its odd calls here)."""
    # 1. needs
    enabled = _grad_state.enabled
    arrays = [*args]  # what an op's forward computes on: the buffers behind the tensors
    needed_bits = 0  # bit i: argument i needs a gradient
    recording = False
    index = 0  # counted by hand: an enumerate object costs more than the loop (1-3 arguments)
    for arg in args:
        if isinstance(arg, TensorBase):
            arrays[index] = arg._array
            if arg._base is not None and enabled:
                arg._sync_view()
                if arg.requires_grad:  # a view also requires grad if its base does
                    recording = True
                    # ... but one made under no_grad has no gradient edge: PyTorch's node
                    # then neither sends it a gradient nor saves anything for it. (A custom
                    # Function's ``needs_input_grad`` still says True there, as PyTorch's
                    # does: it follows ``requires_grad``; the edge stays empty.)
                    if arg._grad_fn is not None or arg._requires_grad or function._tensor_level:
                        needed_bits |= 1 << index
            elif enabled and (arg._requires_grad or arg._grad_fn is not None):
                needed_bits |= 1 << index
                recording = True
        index += 1  # noqa: SIM113
    tensor_level = function._tensor_level

    # 2. forward
    if recording or tensor_level:  # a custom forward always gets a real ctx, as in PyTorch
        # (a call of the class: quicker than object.__new__)
        node = new_node(function, args) if function._option_defaults else function._Node()
        if node._keeps_saved:  # (else its class's ``()``: the op declares it saves nothing)
            node._saved = ()
        count = len(args)
        node.needs_input_grad = needs = (
            NEEDS[count][needed_bits] if count < _SHARED else _needs_tuple(needed_bits, count)
        )
        if not enabled:  # a custom Function's ctx says what requires grad, in any grad mode
            node.needs_input_grad = tuple(
                isinstance(arg, TensorBase) and arg.requires_grad for arg in args
            )
        if target is not None and recording:
            # A distinct array object for the written tensor's old value, so saving it is told
            # apart from saving another argument that is the same tensor (``x.mul_(x)``).
            arrays[0] = arrays[0].view()
    elif target is None:
        node = NO_GRAD_CTX
    else:
        node = WritingContext(arrays[0])
    token = silence()  # inf and nan are values, not warnings (autograd/quiet.py)
    try:
        if tensor_level:
            with grad_mode.no_grad():
                raw = function._forward(node, *args)  # with ctx, or then setup_context
        else:
            raw = function.forward(node, *arrays)
    except ValueError as error:
        if not (function.broadcasts or target is not None):
            raise
        raise _broadcast_error(error, arrays) from None
    finally:
        restore(token)
    layout = function.result_layout
    if layout is not None and target is None and (
        type(raw) is tuple or (type(raw) is np.ndarray and raw.ndim > 1)
    ):
        raw = _laid_out(layout, node, raw, arrays[: function.num_inputs])
    if recording and not tensor_level and function.saves_for_the_other:
        save_for_the_other(node, arrays[0], arrays[1])  # the bilinear ops' declared saving
    if not recording:
        if tensor_level:
            return _function_outputs(node, args, raw, False)
        if target is not None:
            _inplace_module().write(target, raw)
            return target
        if type(raw) is np.ndarray:  # the common case, without a call
            return new_result(raw)
        return _untracked_outputs(raw)

    return _connect(function, node, args, arrays, raw, needs, target)


def record_checked(
    function: type[Function], args: tuple[Any, ...], needs: tuple[bool, ...]
) -> TensorBase:
    """``record`` for a caller that has answered step 1 itself: a composite's recording function.

    ``F.linear`` (``t`` then ``addmm``) and ``cross_entropy`` (``log_softmax`` then
    ``nll_loss``) check their common case at once and record its ops through here: no argument
    is a view (none has a history to catch up with), every thread records with no mode
    watching (``debug_switches.modes_on``), the op has no result layout rule and gives one
    array result, and ``needs`` tells which inputs need a gradient, one at least. Steps 2 to 5
    are ``_general``'s and ``_connect``'s own: the graph is the one the ops' ``apply`` records.
    """
    node = new_node(function, args) if function._option_defaults else function._Node()
    if node._keeps_saved:  # (else its class's ``()``: the op declares it saves nothing)
        node._saved = ()
    node.needs_input_grad = needs
    arrays = [arg._array if isinstance(arg, TensorBase) else arg for arg in args]
    token = silence()  # inf and nan are values, not warnings (autograd/quiet.py)
    try:
        raw = function.forward(node, *arrays)
    finally:
        restore(token)
    return _connect(function, node, args, arrays, raw, needs, None)


def _laid_out(
    layout: Callable[[np.ndarray, Any], np.ndarray], node: Any, raw: np.ndarray, inputs: Any
) -> np.ndarray:
    """``raw`` laid out by the op's ``layout`` rule, as PyTorch lays its result out.

    A result the rule copies into another layout is the one forward saved, if it saved its
    result (saved values are told apart by identity).
    """
    if type(raw) is tuple:  # several results (``sort``'s values and indices): each
        return tuple(
            _laid_out(layout, node, part, inputs)
            if type(part) is np.ndarray and part.ndim > 1 else part
            for part in raw
        )
    laid_out = layout(raw, inputs)
    if laid_out is not raw:
        _save_laid_out(node, raw, laid_out)
    return laid_out


def _save_laid_out(node: Any, raw: np.ndarray, laid_out: np.ndarray) -> None:
    """Make ``laid_out``, the copy of ``raw`` a layout rule made, what ``node`` saved for it."""
    values = getattr(node, "_saved", ())  # (the no-grad ctx keeps none; saved values are told
    if any(value is raw for value in values):  # apart by identity)
        node._saved = tuple(laid_out if value is raw else value for value in values)


def _connect(
    function: type[Function],
    node: Any,
    args: Sequence[Any],
    arrays: list[Any],
    raw: Any,
    needs: Sequence[bool],
    target: TensorBase | None,
) -> Any:
    """Steps 3 to 5 of ``record``, once forward has run and something needs a gradient."""
    tensor_level = function._tensor_level
    # 3. node and edges
    node._sequence_nr = next(sequence_numbers)
    single = not tensor_level and type(raw) is not tuple
    if single:
        out_array = raw if type(raw) is np.ndarray else np.asarray(raw)
        shape = out_array.shape
        # The gradient arriving is the written tensor's: an in-place op computed in a wider
        # dtype (float32 += float64) still has the target's dtype.
        dtype = out_array.dtype if target is None else target._array.dtype
    if tensor_level:
        node._slots = tuple(i for i, a in enumerate(args) if isinstance(a, TensorBase))
        node._num_args = len(args)
    next_nodes = []
    next_nrs = None  # all 0 (leaves' accumulators, first outputs): a shared tuple
    # every input that needs a gradient has the output's shape and dtype (and so its gradient)
    fits = single and function.gradients_fit_inputs
    for index in node._slots:
        producer = None
        if needs[index]:
            arg = args[index]
            producer = arg._grad_fn
            if producer is None:  # a leaf: its accumulator, made once and kept by the leaf
                meta = arg._meta
                producer = None if meta is None else meta.accumulator
                if producer is None:
                    producer = arg._gradient_edge()[0]
            else:
                if producer._hideable:  # consumed: out of the collector's view (collector.py)
                    _hide(producer)
                if arg._output_nr:
                    if next_nrs is None:
                        next_nrs = [0] * len(node._slots)
                    next_nrs[len(next_nodes)] = arg._output_nr
            if fits:
                array = arg._array
                fits = array.shape == shape and (array.dtype is dtype or array.dtype == dtype)
        next_nodes.append(producer)
    node._next_nodes = tuple(next_nodes)
    count = len(next_nodes)
    if next_nrs is not None:
        node._next_nrs = tuple(next_nrs)
    else:
        node._next_nrs = ZEROS[count] if count < _SHARED else (0,) * count
    node._input_meta = None if fits else _input_meta(node, args, needs)
    if anomaly._state.enabled:
        anomaly.remember_creation(node)

    # 4. outputs and 5. saved values
    if tensor_level:
        return _function_outputs(node, args, raw, True)
    if target is not None:
        return _inplace_module().write_recorded(node, target, args, arrays, raw)
    if single:
        # Only floating-point results have a history; an input of the same dtype proves it.
        output = new_result(out_array, node if fits or dtype.kind == "f" else None)
        if node._saved:
            saved.pack(node, node._saved, arrays, args, (raw,), (output,))
        return output
    make = TensorBase.output_class._make
    outputs = [make(np.asarray(r), None, i) for i, r in enumerate(raw)]
    _mark_outputs(node, outputs, raw)
    if node._saved:
        saved.pack(node, node._saved, arrays, args, raw, outputs)
    return tuple(outputs)


def _unary_recorder(
    function: type[Function],
    fallback: Callable[[Any], Any] | None = None,
    float_kernels: dict[type, Callable[..., Any]] | None = None,
) -> Callable[[Any], Any]:
    """``function``'s recording function for one input and no options: ``record``'s fast branch.

    Made once per built-in op of one input (``Op.__init_subclass__``, stored as
    ``function._record``); ``record`` calls it for every call of that form and ``Tensor``'s
    methods (``a.sigmoid()``, ``a.sum()`` ...) directly. The op's own declarations drive it as
    they drive ``record``: its forward (called, on the input's buffer), its node class, what
    forward saves (packed by ``saved.pack_fast``). Specialising per op binds those once and
    leaves out the tests another arity needs; it follows the same steps as ``_general``:

    * grad mode off or no gradient needed: forward with the no-grad ctx, a tensor around the
      result (several results: ``_untracked_outputs``);
    * a view (it first catches up with its base's history), a number or anomaly mode (a
      forward stack to capture): ``_general``, before anything has run;
    * a result of the input's dtype: node, edge, output and saved values here; a result of
      another shape keeps the input's shape for backward (``_input_meta``). Another dtype or
      several results: ``_connect``, as ``_general`` does.

    A recorded output is ``tensor_base.new_result`` written out: the call measured 0.1-0.2 us
    of a recorded ``a + b``'s ~1.7 (the issue's tightest figure); the no-grad path calls it
    (0.03 us of ~1.05).
    tests/test_record_fast.py runs every op of the op table through both paths and compares.

    ``Tensor``'s hot one-input methods are such functions themselves (``unary_method``):
    ``float_kernels`` maps each floating dtype class to the kernel that runs for it (the op's
    ``forward_kernel``, or its ``dtype_kernels``' entry), and every other dtype, or a call
    that is not on a tensor, goes to ``fallback`` (the op's public function: it casts
    integers, checks, or raises).
    """
    make_node = function._Node
    forward = function.forward
    broadcasts = function.broadcasts
    pack = saved.fast_packer(1, function.saves, len(function._Node._kept_inputs))  # (once)
    saves_result = pack is saved.pack_result  # (its common case is written out below)
    # Declared by the elementwise families (ops/unary.py's UnaryOp): the result has the
    # input's shape.
    elementwise = getattr(function, "elementwise", False)
    # Forward's work without forward, if the op declares it (the UnaryOp families, whose
    # kernels touch only numpy): called in the quiet context, the declared value saved here.
    kernel = function.forward_kernel
    saves_input = function.saves == ("self",)  # (else the result: UnaryOp saves one value)
    layout = function.result_layout  # (a rule of minigrad/_layout.py, or None)
    # What the no-grad path calls: the kernel, or one declared for it alone (the reductions')
    no_grad_kernel = function.no_grad_kernel or kernel
    # Whether its node has a slot for saved values (else it reads its class's ``()``)
    keeps_saved = make_node._keeps_saved
    if fallback is None:

        def fallback(x: Any) -> Any:
            """Every call the fast branch does not take: the general routine."""
            return _general(function, (x,), None)

    elif no_grad_kernel is not kernel:  # (a method's kernel is chosen by dtype, for both paths)
        raise TypeError(f"{function.__name__}: a method's op has one kernel for both paths")

    def record_unary(x: Any) -> Any:
        """Record ``function`` on ``x`` (or run it without a node): see ``_unary_recorder``."""
        if not (FAST_BRANCH and (type(x) is _Tensor or isinstance(x, TensorBase))):
            return fallback(x)  # a number (or the fast branch is off)
        x_array = x._array
        step = no_grad_kernel  # what runs forward's work (None: forward itself) ...
        recording_step = kernel  # ... and what runs it when a node is recorded
        if float_kernels is not None:  # a Tensor method: the kernel of this floating dtype
            dtype = x._dtype  # (kept on the tensor, read the first time: as below)
            if dtype is None:
                dtype = x._dtype = x_array.dtype
            step = recording_step = float_kernels.get(type(dtype))
            if step is None:
                return fallback(x)  # an integer or bool tensor: cast, or refused
        # Every thread records and no mode watches recording (debug_switches.modes_on): one
        # test instead of grad mode's, anomaly mode's, the hooks' and the switches' below.
        fast = not _modes_on
        node = None  # (none: the no-grad path)
        if fast or _grad_state.enabled:
            if x._base is not None:  # a view catches up with its base's history first
                return _general(function, (x,), None)
            x_node = x._grad_fn
            if x_node is not None or x._requires_grad:
                if not fast and _anomaly_state.enabled:  # a forward stack to capture
                    return _general(function, (x,), None)
                # 1.-2. the node is forward's ctx
                node = make_node()  # (a call of the class: quicker than object.__new__)
                step = recording_step
        # inf and nan are values, not warnings: a kernel runs in the quiet context
        # (``call_quietly`` if another thread is inside it, as ``_binary_recorder``), forward
        # with the error state set and reset around it (with the no-grad ctx if no node)
        try:
            if step is None:
                if node is not None:
                    if keeps_saved:  # what forward saves (``ctx.save_for_backward``), if any
                        node._saved = ()
                    # its ``needs_input_grad``, read from the edge (graph.NEEDS_FROM_EDGES)
                    node._next0 = _PENDING_EDGE
                token = _set_error_state(_QUIET)
                try:
                    raw = forward(NO_GRAD_CTX if node is None else node, x_array)
                finally:
                    _reset_error_state(token)
                if layout is not None and type(raw) is _ndarray and raw.ndim > 1:
                    laid_out = layout(raw, (x_array,))
                    if laid_out is not raw:
                        _save_laid_out(node, raw, laid_out)
                        raw = laid_out
            else:
                try:
                    raw = _run_quietly(step, x_array)
                except RuntimeError:
                    raw = _call_quietly(step, x_array)
                if layout is not None and raw.ndim > 1:  # (before it is saved)
                    raw = layout(raw, (x_array,))
        except ValueError as error:
            if not broadcasts:
                raise
            raise _broadcast_error(error, (x_array,)) from None
        if node is None:  # the no-grad path: a tensor without history around the result
            if type(raw) is not _ndarray:
                if type(raw) is tuple:
                    return _untracked_outputs(raw)
                raw = _asarray(raw)  # a reduction's numpy scalar
            return new_result(raw)  # (its shape and dtype read if an op records with it)
        # (``raw`` stays what forward returned: saved values are recognized by identity)
        # (a reduction returns a numpy scalar; several results come as a tuple)
        out_array = raw if type(raw) is _ndarray else None if type(raw) is tuple else _asarray(raw)
        dtype = x._dtype
        if dtype is None:  # (not read yet: the first op on a result nobody recorded with)
            dtype = x._dtype = x_array.dtype
        if out_array is None or out_array.dtype is not dtype:
            # several outputs, or another dtype (a comparison's bools): general steps
            if step is not None:  # the kernel ran: what the family's forward saves
                node._saved = (x_array,) if saves_input else (raw,)
            return _connect(function, node, (x,), [x_array], raw, _NEEDS_UNARY, None)
        # The shape backward must give the input's gradient: none needed when the
        # result has the input's, as the incoming gradient has it already; an
        # elementwise op's always has (numpy makes a tuple per ``shape`` read: the
        # two reads and their comparison cost ~0.1 us).
        if elementwise:
            node._input_meta = None
            out_shape = x._shape  # (None too if not read yet: both read when first needed)
        else:
            shape = x._shape
            if shape is None:
                shape = x._shape = x_array.shape
            out_shape = out_array.shape
            node._input_meta = None if out_shape == shape else ((shape, dtype),)
        node._sequence_nr = next(sequence_numbers)
        # 3. the edge: the producer (and which of its outputs), or the leaf's accumulator
        if x_node is None:
            meta = x._meta
            x_node = None if meta is None else meta.accumulator
            if x_node is None:
                x_node = x._gradient_edge()[0]
        else:
            if x_node._hideable:  # consumed: out of the collector's view (collector.py)
                _hide(x_node)
            output_nr = x._output_nr
            if output_nr:  # (else unset: the class's zeros, graph.EDGE_NRS)
                node._output_nrs = (output_nr,)
        node._next0 = x_node  # (the class keeps its edges in slots: graph.EDGES_IN_SLOTS)
        # 4. the output
        output = _new(_Tensor)
        output._array = out_array
        output._shape = out_shape
        output._dtype = dtype
        # A counter made on first use, as ``new_result`` gives outside inference mode
        # (which this thread is not in: it records).
        output._counter = None
        output._requires_grad = False
        output._grad_fn = node
        output._output_nr = 0
        output._meta = None
        output._base = None
        output._view = None
        # 5. saved values
        if step is not None:  # the kernel ran: the family's declared value is saved here
            if saves_result and (fast or not (_hooks_active[0] or switches.saves)):
                # ``saved.pack_result``'s case written out, without the call (0.14 us
                # of a recorded ``a.sigmoid()``'s ~3) nor the tuple ``(raw,)`` it would
                # take: the result alone at version 0, its counter the node's, in its slot
                # (saved.OUTPUT_COUNTER), not made yet: the first to need it makes it for
                # the result and the node (tensor_base.saved_output_counter). A chain of
                # such ops then keeps no counter per op for the collector to traverse.
                output._counter = _COUNTER_IN_NODE
                node._output_counter = None
                node._saved = (out_array, _OUTPUT_COUNTER, 0, 0, False, None)
            else:
                pack(node, (x_array,) if saves_input else (raw,), x, None, raw, output)
        elif node._saved:  # what forward passed to ``save_for_backward``
            pack(node, node._saved, x, None, raw, output)
        return output

    record_unary.__qualname__ = record_unary.__name__ = f"record_{function.__name__}"
    return record_unary


def _options_recorder(function: type[Function]) -> Callable[..., Any]:
    """``function``'s recording function for one input and options (``m.sum(0)``, softmax's dim).

    The same function records an op of two inputs on a tensor and a Python number (``a * 2.0``,
    ``a - 1``, ``a / 2``, ``a.add(1, alpha=2)``): the number goes to forward as given (PyTorch
    wraps it as a 0-d "wrapped number", which promotes as numpy's weak Python scalar does), it
    has no edge (None) and, saved (``Mul``'s ``_saved_other``, ``Div``'s), it is a plain value,
    as ``_general`` makes them. The callers send only numbers numpy combines with the tensor's
    dtype as PyTorch promotes them (``binary_operator``'s recording function: a floating tensor
    and an ``int`` or ``float``; the op's promoting function otherwise); a result of another
    dtype would finish in ``_connect`` all the same.

    ``_unary_recorder``'s steps for a call with options, made once per built-in op of one
    input (``Op.__init_subclass__``, stored as ``function._record_options``; ``record`` calls
    it for every call with options): the node is ``new_node``'s (the options as given) and
    forward is called with them. What ``_general`` would do differently goes to ``_general``
    before anything has run: a number or a tensor among the options, a view recording, anomaly
    mode. A floating result of the input's dtype gets its edge, output and saved values here
    (``_connect``'s steps for that case: the options are not tensors, so ``saved.pack_fast``
    makes ``pack``'s entries); several results or another dtype finish in ``_connect``.
    """
    make_node = function._Node
    forward = function.forward
    broadcasts = function.broadcasts
    layout = function.result_layout  # (a rule of minigrad/_layout.py, or None)
    with_options = bool(function._option_defaults)  # (else the node class holds no option)
    # An op of two inputs: the first of ``options`` is its second input, a number (see above)
    inputs = function.num_inputs
    for_the_other = function.saves_for_the_other  # (``Mul``: the number, if x needs a gradient)
    keeps_saved = make_node._keeps_saved  # (a slot for saved values, else the class's ``()``)

    def record_options(x: Any, *options: Any) -> Any:
        """Record ``function`` on ``x`` with ``options``: see ``_options_recorder``."""
        if not (FAST_BRANCH and (type(x) is _Tensor or isinstance(x, TensorBase))):
            return _general(function, (x, *options), None)  # a number (or the branch is off)
        for option in options:
            if isinstance(option, TensorBase):  # (``_general`` hands forward its buffer)
                return _general(function, (x, *options), None)
        x_array = x._array
        fast = not _modes_on  # (debug_switches.modes_on: as in ``_unary_recorder``)
        node = None  # (none: the no-grad path)
        if fast or _grad_state.enabled:
            args = (x, *options)
            if x._base is not None:  # a view catches up with its base's history first
                return _general(function, args, None)
            if x._grad_fn is not None or x._requires_grad:
                if not fast and _anomaly_state.enabled:  # a forward stack to capture
                    return _general(function, args, None)
                # 1.-2. the node is forward's ctx
                node = new_node(function, args) if with_options else make_node()
                if keeps_saved:  # (else its class's ``()``: the op declares it saves nothing)
                    node._saved = ()
                # its ``needs_input_grad``, read from the edges (graph.NEEDS_FROM_EDGES)
                node._next0 = _PENDING_EDGE
                if inputs == 2:
                    node._next1 = None  # (a number's edge: none)
        token = _set_error_state(_QUIET)  # inf and nan are values, not warnings
        try:
            raw = forward(NO_GRAD_CTX if node is None else node, x_array, *options)
        except ValueError as error:
            if not broadcasts:
                raise
            raise _broadcast_error(error, (x_array, *options)) from None
        finally:
            _reset_error_state(token)
        if layout is not None and (
            type(raw) is tuple or (type(raw) is _ndarray and raw.ndim > 1)
        ):  # (the rule sees the inputs, a number among them, as ``_general`` hands them)
            raw = _laid_out(layout, node, raw, (x_array, *options)[:inputs])
        if node is None:  # the no-grad path: a tensor without history around the result
            if type(raw) is _ndarray:
                return new_result(raw)
            return _untracked_outputs(raw)
        if for_the_other:  # the bilinear ops' declared saving: the number, x needing it
            save_for_the_other(node, x_array, options[0])
        # (a reduction returns a numpy scalar; several results come as a tuple)
        out_array = raw if type(raw) is _ndarray else None if type(raw) is tuple else _asarray(raw)
        dtype = x._dtype
        if dtype is None:  # (not read yet)
            dtype = x._dtype = x_array.dtype
        if out_array is None or out_array.dtype is not dtype or dtype.kind != "f":
            # several outputs, another dtype: general steps (as ``_general`` takes them)
            return _connect(function, node, args, [x_array, *options], raw,
                            _NEEDS_UNARY if inputs == 1 else _NEEDS_X, None)
        # 3. node and edge, as ``_connect`` makes them for one input of the result's dtype:
        # the input's shape kept for backward if the result's differs (a reduction's)
        shape = x._shape
        if shape is None:
            shape = x._shape = x_array.shape
        out_shape = out_array.shape
        node._input_meta = None if out_shape == shape else (
            ((shape, dtype),) if inputs == 1 else ((shape, dtype), None))
        node._sequence_nr = next(sequence_numbers)
        # (the edge as the tensor gives it: the unary recorder's inline copy of this call is
        # the hot path's, this one saves its nine lines)
        x_node, output_nr = x._gradient_edge()
        node._next0 = x_node  # (edges in slots: EDGES_IN_SLOTS)
        if x_node._hideable:  # consumed: out of the collector's view (collector.py)
            _hide(x_node)
        if output_nr:  # (else unset: the class's zeros, graph.EDGE_NRS; a number's is 0)
            node._output_nrs = (output_nr,) if inputs == 1 else (output_nr, 0)
        # 4. the output and 5. saved values (the options are no tensors: ``pack``'s entries)
        output = new_result(out_array, node, out_shape, dtype)
        values = node._saved
        if values:
            saved.pack_fast(node, values, x, None, raw, output)
        return output

    record_options.__qualname__ = record_options.__name__ = f"record_{function.__name__}_options"
    return record_options


def _binary_recorder(
    function: type[Function],
    fallback: Callable[[Any, Any], Any] | None = None,
    floats_only: bool = False,
) -> Callable[[Any, Any], Any]:
    """``function``'s recording function for two inputs and no options: ``record``'s fast branch.

    ``_unary_recorder`` for two inputs. It records inputs of one dtype, of any shapes
    (broadcasting, matrix products: each input's shape is kept for backward as ``_connect``
    keeps it); numbers, promotion, a view or anomaly mode go to ``fallback`` before anything
    has run: ``_general`` by default.

    ``Tensor``'s arithmetic operators are made here too (``binary_operator``): with the op's
    public function as ``fallback`` (``arithmetic.add``: numbers, promotion, NotImplemented),
    ``a + b`` records in one call. ``floats_only``: other dtypes take the fallback too (``a - b``
    and ``a / b`` of integer tensors have rules of their own).
    """
    make_node = function._Node
    forward = function.forward
    broadcasts = function.broadcasts
    pack = saved.fast_packer(2, function.saves, len(function._Node._kept_inputs))  # (once)
    for_the_other = function.saves_for_the_other  # (declared by the bilinear ops)
    keeps_dtype = function.keeps_dtype  # (declared: add, mul)
    layout = function.result_layout  # (a rule of minigrad/_layout.py, or None)
    kernel = function.forward_kernel  # forward's work without forward, if the op declares it
    if kernel is not None:
        _check_kernel_fields(function)
    keeps_saved = make_node._keeps_saved  # (a slot for saved values, else the class's ``()``)
    # What the no-grad path of an op without a kernel calls in forward's place, if it
    # declares it (mm's: its product without forward's notes); an op with a kernel runs its
    # kernel on both paths.
    no_grad_kernel = function.no_grad_kernel if kernel is None else None
    quiet_kernel = kernel or no_grad_kernel  # (what runs in the quiet context, if any)
    # A floating tensor and an ``int`` or ``float`` (``a * 2.0``, ``2 * a``, ``a - 1``): numpy
    # combines them as PyTorch promotes them, nothing to check: the op's recording function
    # for a number (``_options_recorder``). Anything else (an integer tensor's wrapping, a
    # bool, a numpy scalar) takes ``fallback``.
    with_number = function._record_options
    if fallback is None:

        def fallback(x: Any, y: Any) -> Any:
            """Every call the fast branch does not take: the general routine."""
            return _general(function, (x, y), None)

    def record_binary(x: Any, y: Any) -> Any:
        """Record ``function`` on ``x`` and ``y`` (or run it without a node)."""
        if not (
            FAST_BRANCH
            and (type(x) is _Tensor or isinstance(x, TensorBase))
            and (type(y) is _Tensor or isinstance(y, TensorBase))
        ):
            if (
                # (an int past int64 and uint64: the fallback's OverflowError, as PyTorch's;
                # a one-digit int, as most are, passes on the first two comparisons, which
                # CPython 3.11 specialises: a chained one with 2**64 costs ~300 instructions)
                (type(y) is float or type(y) is int and (
                    y <= 0x3FFFFFFF and y >= -0x3FFFFFFF or -(1 << 63) <= y < 1 << 64))
                and (type(x) is _Tensor or isinstance(x, TensorBase))
                and x._array.dtype.kind == "f"
                and with_number is not None
            ):
                return with_number(x, y)  # a tensor and a number (it checks FAST_BRANCH)
            return fallback(x, y)  # another number (or the fast branch is off)
        x_array = x._array  # (read first: an uninitialized parameter's raises here)
        y_array = y._array
        # (kept on the tensors, read the first time: ``TensorBase._dtype``, ``_shape``)
        dtype = x._dtype
        if dtype is None:
            dtype = x._dtype = x_array.dtype
        y_dtype = y._dtype
        if y_dtype is None:
            y_dtype = y._dtype = y_array.dtype
        if y_dtype is not dtype or (floats_only and dtype.kind != "f"):
            return fallback(x, y)  # promotion
        fast = not _modes_on  # (debug_switches.modes_on: as in ``_unary_recorder``)
        node = None  # (none: the no-grad path)
        if fast or _grad_state.enabled:
            if x._base is not None or y._base is not None:
                return fallback(x, y)  # a view catches up with its base's history first
            x_node = x._grad_fn
            y_node = y._grad_fn
            x_needs = x_node is not None or x._requires_grad
            y_needs = y_node is not None or y._requires_grad
            if x_needs or y_needs:
                if not fast and _anomaly_state.enabled:
                    return fallback(x, y)  # a forward stack to capture
                # 1.-2. the node is forward's ctx
                node = make_node()
                if kernel is None:  # forward reads its ``needs_input_grad`` from the edges
                    node._next0 = _PENDING_EDGE if x_needs else None
                    node._next1 = _PENDING_EDGE if y_needs else None
                    if keeps_saved:  # ... and may save (a kernel saves nothing: see below)
                        node._saved = ()
        # inf and nan are values, not warnings: a kernel runs in the quiet context
        # (quiet.run_quietly: RuntimeError if another thread is inside it: then
        # ``call_quietly``, which also raises the kernel's own error again), forward with the
        # error state set and reset around it (with the no-grad ctx if no node). (The kernel
        # is tested first: add's and mul's path pays nothing for mm's no-grad kernel.)
        try:
            if kernel is None and (node is not None or no_grad_kernel is None):
                token = _set_error_state(_QUIET)
                try:
                    raw = forward(NO_GRAD_CTX if node is None else node, x_array, y_array)
                finally:
                    _reset_error_state(token)
            else:
                try:
                    raw = _run_quietly(quiet_kernel, x_array, y_array)
                except RuntimeError:
                    raw = _call_quietly(quiet_kernel, x_array, y_array)
        except ValueError as error:
            if not broadcasts:
                raise
            raise _broadcast_error(error, (x_array, y_array)) from None
        if layout is not None and raw.ndim > 1:  # (a vector's layout is numpy's, PyTorch's)
            laid_out = layout(raw, (x_array, y_array))
            if laid_out is not raw:  # (rare: the rule copied; no call on the common path)
                _save_laid_out(node, raw, laid_out)
                raw = laid_out
        if node is None:  # the no-grad path: a tensor without history around the result
            if type(raw) is not _ndarray:
                if type(raw) is tuple:
                    return _untracked_outputs(raw)
                raw = _asarray(raw)  # a reduction's numpy scalar
            return new_result(raw)  # (its shape and dtype read if an op records with it)
        if keeps_dtype and type(raw) is _ndarray:
            out_array = raw  # (of the inputs' dtype, as the op declares: no read)
        else:
            # (a reduction returns a numpy scalar; several results come as a tuple)
            out_array = (
                raw if type(raw) is _ndarray else None if type(raw) is tuple else _asarray(raw)
            )
            if out_array is None or out_array.dtype is not dtype:
                # (by tests, not ``x_needs + 2 * y_needs``: CPython 3.11 specialises no
                # arithmetic on bools)
                needs = _NEEDS_BOTH if x_needs and y_needs else _NEEDS_X if x_needs else _NEEDS_Y
                node.needs_input_grad = needs  # (the edges, connected by ``_connect``)
                if keeps_saved and kernel is not None:
                    node._saved = ()  # (a kernel ran: nothing saved, unless declared below)
                if for_the_other:
                    save_for_the_other(node, x_array, y_array)
                return _connect(function, node, (x, y), [x_array, y_array], raw, needs, None)
        # The shapes backward must give the inputs' gradients, unless the incoming
        # gradient has them already: broadcasting and matrix products change shapes.
        # (The inputs' shapes kept on them, read from the buffer once: numpy makes a new
        # tuple per ``shape`` read, ~0.05 us. The result's is read only if needed: an op that
        # broadcasts its inputs elementwise gives inputs of one shape a result of that shape.
        # The four ``is None`` tests stay inline: a helper's call would cost more than a read.)
        x_shape = x._shape
        if x_shape is None:
            x_shape = x._shape = x_array.shape
        y_shape = y._shape
        if y_shape is None:
            y_shape = y._shape = y_array.shape
        if broadcasts and x_shape == y_shape:
            shape = x_shape  # (the result's too)
            node._input_meta = None
        elif ((x_shape == (shape := out_array.shape) or not x_needs)
              and (y_shape == shape or not y_needs)):
            node._input_meta = None
        else:
            node._input_meta = (
                (x_shape, dtype) if x_needs else None,
                (y_shape, dtype) if y_needs else None,
            )
        node._sequence_nr = next(sequence_numbers)
        # 3. edges: the producer (and which of its outputs), or a leaf's accumulator
        if x_node is None:
            if x_needs:
                meta = x._meta
                x_node = None if meta is None else meta.accumulator
                if x_node is None:
                    x_node = x._gradient_edge()[0]
            x_nr = 0
        else:
            if x_node._hideable:  # consumed: out of the collector's view (collector.py)
                _hide(x_node)
            x_nr = x._output_nr
        if y_node is None:
            if y_needs:
                meta = y._meta
                y_node = None if meta is None else meta.accumulator
                if y_node is None:
                    y_node = y._gradient_edge()[0]
            y_nr = 0
        else:
            if y_node._hideable:
                _hide(y_node)
            y_nr = y._output_nr
        node._next0 = x_node  # (the class keeps its edges in slots: graph.EDGES_IN_SLOTS)
        node._next1 = y_node
        if x_nr or y_nr:  # (else unset: the class's zeros, graph.EDGE_NRS)
            node._output_nrs = (x_nr, y_nr)
        # 4. the output
        output = _new(_Tensor)
        output._array = out_array
        output._shape = shape
        output._dtype = dtype
        # A counter made on first use, as ``new_result`` gives outside inference mode
        # (which this thread is not in: it records).
        output._counter = None
        output._requires_grad = False
        output._grad_fn = node
        output._output_nr = 0
        output._meta = None
        output._base = None
        output._view = None
        if for_the_other:  # 5. saved values: each input if the other needs a gradient
            x_counter = x._counter
            y_counter = y._counter
            if (x_counter is None and y_counter is None and x_needs and y_needs and fast
                    and x_array is not y_array):
                # The common case, tested first in the fewest steps (the general test below
                # takes it too): two inputs needing a gradient, neither with a counter (both
                # at version 0), no debugging switch on, not ``a * a``. The compact pair,
                # which ``saved.entries`` reads as the twelve six-field entries below
                # (saved.py's module docstring); the tensors in the node's slots.
                node._input0 = x
                node._input1 = y
                node._saved = (x_array, y_array)
            # (A result its node saved, ``saved.COUNTER_IN_NODE``, as in the chain
            # ``sigmoid(y * w + b)``: tested last, then the node's counter is taken.)
            elif (
                (x_counter is None or type(x_counter) is _VersionCounter
                 or x_counter is _COUNTER_IN_NODE
                 and ((x_counter := x._grad_fn._output_counter) is None
                      or type(x_counter) is _VersionCounter))
                and (y_counter is None or type(y_counter) is _VersionCounter
                     or y_counter is _COUNTER_IN_NODE
                     and ((y_counter := y._grad_fn._output_counter) is None
                          or type(y_counter) is _VersionCounter))
                and x_array is not y_array
                and (fast or not (_hooks_active[0] or switches.saves))
            ):
                # ``save_for_the_other`` and ``saved.pack``'s entries for it written
                # out, without either call or the tuple between them: each input saved
                # at its version (no counter yet: 0, and none is made for this; an
                # inference tensor's raises in ``pack``; a result its node saved at its
                # node's counter's), kept in the node's slot (saved.IN_NODE), or an entry
                # of Nones.
                if x_needs and y_needs:
                    node._input0 = x
                    node._input1 = y
                    if x_counter is None and y_counter is None:
                        # Both at version 0: the compact pair, which ``saved.entries``
                        # reads as the twelve entries below (saved.py's module docstring).
                        node._saved = (x_array, y_array)
                    else:
                        node._saved = (
                            x_array, _ON_TENSOR, 0 if x_counter is None else x_counter.version,
                            "_input0", x._grad_fn is not None, 0,
                            y_array, _ON_TENSOR, 0 if y_counter is None else y_counter.version,
                            "_input1", y._grad_fn is not None, 1,
                        )
                elif x_needs:  # y alone
                    node._input1 = y
                    node._saved = _NOTHING + (
                        y_array, _ON_TENSOR, 0 if y_counter is None else y_counter.version,
                        "_input1", y._grad_fn is not None, 1,
                    )
                else:  # x alone
                    node._input0 = x
                    node._saved = (
                        x_array, _ON_TENSOR, 0 if x_counter is None else x_counter.version,
                        "_input0", x._grad_fn is not None, 0,
                    ) + _NOTHING
            else:
                save_for_the_other(node, x_array, y_array)
                pack(node, node._saved, x, y, raw, output)
            return output
        if kernel is None:  # (a kernel saves nothing: what it saves is declared, as above)
            values = node._saved
            if values:  # 5. saved values (the packing chosen for the op: saved.fast_packer)
                pack(node, values, x, y, raw, output)
        return output
    record_binary.__qualname__ = record_binary.__name__ = f"record_{function.__name__}"
    return record_binary


def new_node(function: type[Function], args: Sequence[Any]) -> BackwardNode:
    """The node of ``function`` called on ``args``, with the options it declares as given.

    An option at forward's default (``alpha=1``, the same object) is read from the node class,
    where it is a class attribute; if any is given another value, the node is of the subclass
    whose slots hold them all (``Function._OptionsNode``, of the same name). Either way the
    node reads as forward's ``ctx.alpha = alpha`` would have made it. The recording functions
    (calls with the inputs alone: every option at its default) make ``function._Node()``.
    """
    options = function._option_defaults
    for position, _, default in options:
        if position < len(args) and args[position] is not default:
            node = function._OptionsNode()
            for index, name, value in options:
                setattr(node, name, args[index] if index < len(args) else value)
            return node
    return function._Node()


def _check_kernel_fields(function: type[Function]) -> None:
    """Refuse a ``forward_kernel`` on an op whose node keeps a field without a default.

    The recording function calls the kernel in forward's place, so nothing would set it.
    """
    fields = function._Node._fields  # (the options with a default are class attributes)
    if fields:
        raise TypeError(f"{function.__name__} declares forward_kernel but its forward has "
                        f"no default for its field {fields[0]!r}")


def binary_operator(
    function: type[Function], fallback: Callable[[Any, Any], Any], floats_only: bool
) -> Callable[[Any, Any], Any]:
    """``Tensor.__add__`` and kin: ``function``'s recording function, ``fallback`` for the rest.

    ``fallback`` takes every call that is not two tensors of one dtype (a floating one if
    ``floats_only``) recorded as ``function._record`` records them (minigrad/tensor.py: the
    op's public function, or NotImplemented for an operand that is not a number).
    """
    return _binary_recorder(function, fallback, floats_only)


def unary_method(
    function: type[Function], fallback: Callable[[Any], Any], float_classes: Sequence[type]
) -> Callable[[Any], Any]:
    """``Tensor.sigmoid`` and kin: ``function``'s recording function, ``fallback`` for the rest.

    A tensor of a floating dtype (its numpy dtype's class among ``float_classes``) is recorded
    as ``function._record`` records it, with the kernel ``function.dtype_kernels`` gives that
    dtype, else ``function.forward_kernel``; anything else goes to ``fallback`` (the op's
    public function: ``unary.sigmoid`` casts an integer tensor first). The method needs no
    frame of its own around the recording function (~700 instructions of a no-grad
    ``a.sigmoid()``'s ~10,900).
    """
    kernel = function.forward_kernel
    if kernel is None or function._tensor_level or function.num_inputs != 1:
        raise TypeError(f"{function.__name__} has no one-input kernel for a Tensor method")
    # (the op's own dict when it declares one: its entries may be replaced, see dtype_kernels)
    kernels = function.dtype_kernels if function.dtype_kernels is not None else {}
    for float_class in float_classes:
        kernels.setdefault(float_class, kernel)
    return _unary_recorder(function, fallback, kernels)


def options_recorder(function: type[Function]) -> Callable[..., Any] | None:
    """The recording function of a built-in op of one input called with options (else None).

    Also of an op of two inputs whose second is a Python number (``a * 2.0``, ``a - 1``,
    ``Add.apply(a, 1, 2, None)``): the number is forward's argument as an option is.
    None for an op that declares ``tensor_options``: its calls would all be handed on.

    ``Op.__init_subclass__`` stores it as ``function._record_options``.
    """
    if function._tensor_level or function.num_inputs > 2 or function.tensor_options:
        return None
    return _options_recorder(function)


def recorder(function: type[Function]) -> Callable[..., Any] | None:
    """The recording function of a built-in op of one or two inputs (None for the others).

    ``Op.__init_subclass__`` stores it as ``function._record``.
    """
    if function._tensor_level:
        return None
    if function.num_inputs == 1:
        return _unary_recorder(function)
    if function.num_inputs == 2:
        return _binary_recorder(function)
    return None


# The class of op results (minigrad.Tensor), bound once minigrad/tensor.py has defined it.
_Tensor: Any = None


def bind_output_class(cls: type[TensorBase]) -> None:
    """Make ``cls`` the class of op results (``TensorBase.output_class``, and the recorders')."""
    global _Tensor
    set_output_class(cls)
    _Tensor = cls


def _broadcast_error(error: ValueError, arrays: Sequence[Any]) -> RuntimeError:
    """PyTorch's error for a numpy broadcasting failure in forward (of the array operands)."""
    shapes = [np.shape(arrays[0])]
    shapes += [array.shape for array in arrays[1:] if isinstance(array, np.ndarray)]
    return RuntimeError(errors.from_numpy_value_error(error, shapes))


def _needs_tuple(bits: int, length: int) -> tuple[bool, ...]:
    """``needs_input_grad`` from bits: bit i says whether argument i needs a gradient."""
    return tuple(bool(bits >> index & 1) for index in range(length))


# Tuples every node of up to ``_SHARED - 1`` arguments shares instead of making its own:
# ``needs_input_grad`` by bits (bit i: argument i needs a gradient), and the ``_next_nrs`` of
# nodes whose inputs are all leaves or first outputs.
_SHARED = 7
NEEDS = tuple(
    tuple(_needs_tuple(bits, length) for bits in range(1 << length)) for length in range(_SHARED)
)
ZEROS = tuple((0,) * length for length in range(_SHARED))
_NEEDS_UNARY = NEEDS[1][1]  # a recorded one-input op: its input needs a gradient
_NEEDS_X, _NEEDS_Y, _NEEDS_BOTH = NEEDS[2][1], NEEDS[2][2], NEEDS[2][3]  # (x: bit 0, y: bit 1)


def _input_meta(
    node: BackwardNode, args: Sequence[Any], needs: Sequence[bool]
) -> tuple[tuple[tuple[int, ...], np.dtype] | None, ...]:
    """Per edge, the shape and dtype its gradient must have (None: no gradient goes there)."""
    metas = []  # a loop, not a generator: one or two inputs, on every op that changes shapes
    for index in node._slots:
        if needs[index]:
            array = args[index]._array
            metas.append((array.shape, array.dtype))
        else:
            metas.append(None)
    return tuple(metas)


def _mark_outputs(node: BackwardNode, outputs: Sequence[Any], seen: Sequence[Any]) -> None:
    """Give each output its place in the graph; non-differentiable ones stay without history.

    A custom Function's outputs that are not tensors (numbers, None) count as outputs too, as
    in PyTorch: the tensors after them have their positions, and backward gets None for them.
    """
    marked = node._non_differentiable
    extend(node)  # (a built-in op's node has no ``__dict__``)
    node._num_outputs = len(outputs)
    # Kept so the engine can hand zeros to backward for outputs that received no gradient.
    node._output_meta = tuple(
        (t._array.shape, t._array.dtype) if isinstance(t, TensorBase) else None for t in outputs
    )
    for output_nr, (tensor, value) in enumerate(zip(outputs, seen)):
        if not isinstance(tensor, TensorBase):
            continue
        if tensor._counter is _COUNTER_IN_NODE:
            # A result another node saved, returned as is: it takes its counter from that
            # node now, before it leaves it (tensor_base.saved_output_counter).
            tensor._version_counter()
        differentiable = tensor._array.dtype.kind == "f" and not any(value is m for m in marked)
        tensor._grad_fn = node if differentiable else None
        tensor._output_nr = output_nr


def _function_outputs(node: BackwardNode, args: Sequence[Any], raw: Any, recording: bool) -> Any:
    """A custom Function's outputs, as ``apply`` hands them out (steps 4 and 5)."""
    single = not isinstance(raw, tuple)
    values = (raw,) if single else raw
    dirty = node._dirty
    if dirty:
        _check_dirty(dirty, args, values, recording)
    if any(not isinstance(value, TensorBase) for value in node._non_differentiable):
        raise RuntimeError(errors.MARK_NON_DIFFERENTIABLE_NOT_TENSOR)
    if recording:  # (PyTorch looks at what was saved only when it records: _save_variables)
        for index, value in enumerate(node._saved or ()):
            if value is not None and not isinstance(value, TensorBase):
                raise TypeError(errors.save_for_backward_not_tensor(index, value))
    marked = node._non_differentiable if recording else ()
    outputs = tuple(_as_output(value, args, dirty, marked) for value in values)
    _mark_views(node, outputs, values, dirty, recording)
    if recording:
        for tensor in dirty:
            if tensor._base is not None and tensor._view.forbids_rebase:
                _refuse_rebase(tensor)
        # (``mark_non_differentiable`` names what forward returned: an input returned as is
        # is handed out as an alias, which must be looked up by the input it stands for)
        _mark_outputs(node, outputs, values)
        if node._saved:
            saved.pack(node, node._saved, args, args, outputs, outputs)
        for tensor in dirty:
            if tensor._base is not None:  # a view written in place: its base takes the history
                _inplace_module().rebase_dirty_view(node, tensor)
    return outputs[0] if single else outputs


def _mark_views(node: Any, outputs: Sequence[Any], returned: Sequence[Any],
                dirty: Sequence[Any], recording: bool) -> None:
    """Views among a custom Function's outputs may not be written in place, as in PyTorch.

    With one differentiable output, PyTorch's creation meta of such a view says it was made
    in a custom Function; with several, that it is one of several outputs (the error of a
    split's outputs). Unrecorded, no output is differentiable. A tensor it marked dirty stays
    the view it was.
    """
    marked = node._non_differentiable  # (what forward returned: ``returned``, not aliases)
    several = recording and sum(
        isinstance(o, TensorBase) and o._array.dtype.kind == "f"
        and not any(r is m for m in marked) for o, r in zip(outputs, returned)
    ) > 1
    for output in outputs:
        if (isinstance(output, TensorBase) and output._base is not None
                and output._array.dtype.kind == "f" and not any(output is d for d in dirty)):
            from minigrad.autograd import views  # (views builds on this module)

            # (Its history is the Function's node, given now: in sync with the counter.)
            steps, version = output._view.steps, output._version
            output._view = (
                views.MultiOutputViewInfo(steps, version, node.name()) if several
                else views.CustomFunctionViewInfo(steps, version)
            )


def _refuse_rebase(view: TensorBase) -> None:
    """PyTorch's error for a dirty view whose creation forbids rebasing (a split output ...)."""
    from minigrad.autograd.views import view_rebase_error  # (views builds on this module)

    grad_fn = view._grad_fn  # (the view's own node: the Function's is not given yet)
    name = None if grad_fn is None else grad_fn.name()
    raise RuntimeError(view_rebase_error(view._view, name, view._output_nr, False))


def _check_dirty(
    dirty: Sequence[Any], args: Sequence[Any], values: Sequence[Any], recording: bool
) -> None:
    """PyTorch's checks of ``ctx.mark_dirty``'s tensors after forward (the write is done).

    Each counts as a write (a version bump). A leaf, or a view of one, that requires grad may
    not have been written; each must be returned; one that is not an input is pointless (a
    warning); a view can be rebased only if it is the one tensor returned.
    """
    for tensor in dirty:
        if not isinstance(tensor, TensorBase):
            raise RuntimeError(errors.MARK_DIRTY_NOT_TENSOR)
    for tensor in dirty:
        tensor._version_counter().bump()  # marking dirty counts as a write, as in PyTorch
    returned = [value for value in values if isinstance(value, TensorBase)]
    for tensor in dirty:
        if recording and tensor._requires_grad and tensor._grad_fn is None:
            raise RuntimeError(errors.LEAF_USED_INPLACE)
        if recording and tensor._base is not None and tensor.requires_grad and (
            tensor._base._grad_fn is None
        ):
            raise RuntimeError(errors.VIEW_OF_LEAF_INPLACE)
        if not any(tensor is value for value in returned):
            raise RuntimeError(errors.DIRTY_NOT_RETURNED)
    if not recording:
        return
    for tensor in dirty:
        if not any(tensor is arg for arg in args):
            _warnings.warn(errors.DIRTY_NOT_INPUT, stacklevel=6)
        if tensor._base is not None and len(returned) > 1:
            raise RuntimeError(errors.DIRTY_VIEW_SEVERAL_OUTPUTS)


def _as_output(
    value: Any, args: Sequence[Any], dirty: Sequence[Any], marked: Sequence[Any] = ()
) -> Any:
    """What a custom forward returned, as ``apply`` hands it out."""
    if not isinstance(value, TensorBase):
        return value  # non-tensor outputs pass through, as in PyTorch
    if any(value is d for d in dirty):
        return value  # modified in place: the same tensor, rebased onto this node
    if any(value is a for a in args):
        if value.requires_grad and any(value is m for m in marked):
            # Non-differentiable, of an input that requires grad: PyTorch hands out a
            # detached alias (no view, no history), leaving the input as it was.
            return value.detach()
        # An input returned unchanged: the output is a view of it (same buffer and counter).
        from minigrad.autograd.views import alias_of  # (views.py builds on this module)

        return alias_of(value)
    return value


def _untracked_outputs(raw: Any) -> Any:
    """What forward returned (not one array), as tensors without history."""
    if type(raw) is tuple:
        return tuple(untracked(r) for r in raw)
    return untracked(raw)


def untracked(raw: Any) -> TensorBase:
    """A result without history (nothing needed a gradient, or grad mode is off)."""
    return new_result(raw if type(raw) is np.ndarray else np.asarray(raw))



_inplace: Any = None  # autograd/inplace.py, bound on first use (it imports this module)


def _inplace_module() -> Any:
    """autograd/inplace.py, which writes a ``target`` (steps 4 and 5 of an in-place op).

    Bound once: an import statement inside ``record`` would run the import machinery on every
    in-place op.
    """
    global _inplace
    if _inplace is None:
        from minigrad.autograd import inplace

        _inplace = inplace
    return _inplace


def record_inputs(function: type[Function], inputs: Sequence[Any], options: tuple[Any, ...]) -> Any:
    """``function.apply(*inputs, *options)`` for an op of N tensor inputs (``cat``, ``stack``).

    ``inputs``: tensors only (the caller checked them), as many as ``function.num_inputs``.
    ``record``'s steps without its detours: step 1 asks each input once whether it needs a
    gradient; with none (or grad mode off) forward runs with the no-grad ctx and the result
    has no history; else forward runs with the node as its ctx and ``_connect`` makes the
    edges, the output and the saved values (steps 3 to 5). A view input in grad mode (its
    history may have to catch up first), or a mode watching recording
    (``debug_switches.modes_on``) with grad mode on, takes ``_general`` before anything ran.
    """
    if _modes_on and _grad_state.enabled:
        return _general(function, (*inputs, *options), None)
    arrays = []
    needed_bits = 0  # bit i: input i needs a gradient
    if _grad_state.enabled:
        bit = 1
        for tensor in inputs:
            if tensor._base is not None:  # a view: its history may catch up first
                return _general(function, (*inputs, *options), None)
            if tensor._grad_fn is not None or tensor._requires_grad:
                needed_bits |= bit
            bit <<= 1
            arrays.append(tensor._array)
    else:
        arrays = [tensor._array for tensor in inputs]
    node: Any = NO_GRAD_CTX
    if needed_bits:
        args = (*inputs, *options)
        count = len(args)
        node = new_node(function, args) if function._option_defaults else function._Node()
        if node._keeps_saved:  # (else its class's ``()``: the op declares it saves nothing)
            node._saved = ()
        node.needs_input_grad = needs = (
            NEEDS[count][needed_bits] if count < _SHARED else _needs_tuple(needed_bits, count))
    token = _set_error_state(_QUIET)  # inf and nan are values, not warnings
    try:
        raw = function.forward(node, *arrays, *options)
    finally:
        _reset_error_state(token)
    layout = function.result_layout
    if layout is not None and type(raw) is _ndarray and raw.ndim > 1:
        raw = _laid_out(layout, node, raw, arrays)
    if not needed_bits:
        return new_result(raw)  # the no-grad path: a tensor without history
    return _connect(function, node, args, [*arrays, *options], raw, needs, None)
