"""Saved values: what a node keeps for backward, with the version each had when it was saved.

A node keeps them flat in one tuple, ``node._saved``, six entries per value (no object each)::

    (value, counter, saved_version, origin, had_history, position,  value, counter, ...)

- ``value``: the array (or, for custom Functions, the tensor's buffer), or a plain value;
- ``counter``: the version counter the value shares with its tensor, None if nobody else can
  write to it (a scalar, a private intermediate array); for an input, ``ON_TENSOR``: the
  input tensor's own counter, read from it when needed (see below); for the node's output 0,
  ``OUTPUT_COUNTER``: the counter is in the node's slot of that name;
- ``saved_version``: the counter's value at save time; unpacking compares the two, a pure
  integer comparison, so modify-then-restore is still caught;
- ``origin``: who the value belongs to, which decides what backward gets back and what the
  stale-version message names: an input *tensor* (the message names its *current*
  producer), which for the arguments 0 and 1 the node keeps in a slot of its own while the
  entry names the slot (``IN_NODE``); an ``int``, the number of the node's own output it is
  (kept as buffer and counter only: holding the tensor would make a cycle tensor -> grad_fn
  -> saved -> tensor); a weak reference to a node, for the result of an in-place op through
  a view (see ``inplace.py``); None for a plain value;
- ``had_history``: for an input, whether it had a ``grad_fn`` when saved (PyTorch's
  ``!is_leaf_``): if ``detach_()`` took it away since, unpacking raises PyTorch's error first;
- ``position``: for an input, its position among the op's arguments (None otherwise). PyTorch's
  generated nodes check their saved inputs in the order of the arguments' *names* (``other``
  before ``self``), then their outputs: an op declares that order as ``unpack_order``, which
  decides which stale tensor the error names when several are stale.

An input's counter is not kept in its entry: the entry keeps the tensor (``origin``), whose
counter never changes once made, and unpacking reads it there. Nor is one made for saving: an
op result never viewed, detached, written or saved before (most of them) has none, which is a
counter at version 0; every way to write the buffer through autograd's eyes goes through that
tensor or an alias sharing its counter, which the tensor makes on first need, starting at 0.
A long chain then leaves no counter per op for the garbage collector to traverse; keeping the
input tensors of arguments 0 and 1 and the counter of output 0 in the node's slots does the
same for the ``_saved`` tuple itself: holding only atoms, it is untracked by the collector's
first pass over it.

Nor is a counter made for saving the node's own new result (``exp``, ``sigmoid``, ``tanh``,
``relu``, a custom Function's output): the node's slot ``_output_counter`` holds None
(version 0) and the result's ``_counter`` says ``COUNTER_IN_NODE`` ("mine is my node's"). The
first that needs the object (a write, a view, ``detach()``, the alias ``_saved_result``,
unpacking as tensors) makes it in the node's slot, for both
(``tensor_base.saved_output_counter``); backward's check reads None as version 0, one
comparison as before.

**The compact pair.** A bilinear op (``mul``, ``mm`` ...) recorded on two inputs that both need
a gradient, neither written since it was made (no counter yet, or a result its node saved
with none made: version 0), saves each input for the other's gradient. Its recording function
(``record.py``'s ``record_binary``) then keeps ``node._saved = (x_array, y_array)`` alone,
two entries instead of twelve: the tensors are in the slots ``_input0`` and ``_input1`` as
usual, both were saved at version 0, and whether each had history is its edge's kind (the
edge ``_next0`` is the input's ``grad_fn``, or its accumulator if it was a leaf). A tuple of
length ``PAIR`` is never the six-field form (whose lengths are multiples of six), and
``entries`` is the one place that turns it into that form: every reader of the entries goes
through it (``saved_values``, ``unpack``'s general path, ``unpack_one``, the saved
attributes), while backward's runner for the op checks the two tensors directly
(``function.py``'s ``backward_runner``).

``node._saved`` is ``()`` when nothing was saved and None once backward freed the values: using
them again raises PyTorch's "backward through the graph a second time". Writes through
``.data`` go to a tensor with a fresh counter, so they are not caught: that is PyTorch's
documented hole, reproduced on purpose. ``saved_values`` is the one public way to read them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from minigrad import errors
from minigrad._dtype import backend_type_name
from minigrad.autograd import anomaly, debug_hooks, guard, saved_hooks, write_tracking
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.graph import (
    COUNTER_IN_NODE,
    SAVED_FIELDS,
    SAVED_OUTPUT_COUNTER,
    SAVED_PAIR,
    AccumulateGrad,
    extend,
)
from minigrad.autograd.tensor_base import TensorBase, saved_output_counter
from minigrad.autograd.version import VersionCounter

if TYPE_CHECKING:
    from minigrad.autograd.graph import Node

FIELDS = SAVED_FIELDS  # entries per saved value in ``node._saved`` (see pack)
PAIR = SAVED_PAIR  # the length of the compact pair (module docstring)
NOTHING = (None, None, 0, None, False, None)  # a None passed to save_for_backward
_hooks_state = saved_hooks._state


# The counter field of a saved input: its tensor's counter, read from the tensor (module
# docstring). A string, not an instance of a class of ours: the garbage collector untracks a
# tuple that holds only atoms (strings, numbers, arrays), and instances of Python classes are
# never atoms.
ON_TENSOR = "the tensor's counter"
# The origin field of a saved input of argument 0 or 1: the tensor is kept in that slot of
# the node (``Node._input0``, ``_input1``) rather than in ``_saved``, for the same reason.
IN_NODE = ("_input0", "_input1")
# The counter field of the node's output 0: the counter is kept in the node's slot of this name
# (None there until something needs it: see the module docstring).
OUTPUT_COUNTER = SAVED_OUTPUT_COUNTER

_hooks_active = saved_hooks.active


class Hooked:
    """A value kept through saved-tensor hooks: what ``pack`` returned, and ``unpack``.

    It takes the value's place in ``node._saved`` with no counter: autograd cannot see what the
    hooks did with the tensor, so (as in PyTorch) it is not version-checked.
    """

    __slots__ = ("packed", "unpack_hook")
    # Whether any value was ever kept so: the engine then counts dependencies at the start,
    # as an unpack hook may look at leaves' .grad while backward runs (autograd/engine.py).
    ever_made = False

    def __init__(self, packed: Any, unpack_hook: Callable[[Any], Any]) -> None:
        self.packed = packed
        self.unpack_hook = unpack_hook
        Hooked.ever_made = True

    def unpack(self) -> TensorBase:
        """The tensor ``unpack_hook`` gives back (PyTorch's check: it must be a tensor)."""
        tensor = self.unpack_hook(self.packed)
        if not isinstance(tensor, TensorBase):
            raise TypeError(errors.unpack_hook_not_tensor(tensor))
        return tensor


def entries(node: Node) -> tuple[Any, ...] | None:
    """``node._saved`` in the six-field form (module docstring), the compact pair expanded.

    The one reader of the compact pair's meaning: ``()`` nothing saved, None freed.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.saved import entries
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x * minigrad.tensor([3.0, 4.0], requires_grad=True)
        >>> len(y.grad_fn._saved), len(entries(y.grad_fn))  # the pair, read as 2 x 6 entries
        (2, 12)
        >>> entries(y.grad_fn)[2:6], entries(y.grad_fn)[8:12]  # (version, origin, history, arg)
        ((0, '_input0', False, 0), (0, '_input1', False, 1))
    """
    saved = node._saved
    if saved is not None and len(saved) == PAIR:
        return _expand_pair(node, saved)
    return saved


def _expand_pair(node: Node, pair: tuple[Any, ...]) -> tuple[Any, ...]:
    """The compact pair read as two six-field entries (see ``entries``).

    Each input at version 0 in its slot; it had history if its edge is not a leaf's
    accumulator (the pair is kept only where both inputs needed a gradient: no edge is None).
    """
    x_array, y_array = pair
    return (
        x_array, ON_TENSOR, 0, "_input0", not isinstance(node._next0, AccumulateGrad), 0,
        y_array, ON_TENSOR, 0, "_input1", not isinstance(node._next1, AccumulateGrad), 1,
    )


def saved_values(node: Node) -> Iterator[tuple[int, Any, VersionCounter | None, int, Any]]:
    """The values ``node`` keeps for backward: ``(index, value, counter, saved_version, origin)``.

    ``index`` is the position in ``save_for_backward``; see the module docstring for the rest.
    Yields nothing once backward has freed them. Reading does not check versions.

    Example:
        >>> import minigrad
        >>> from minigrad.autograd.saved import saved_values
        >>> x = minigrad.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x.exp()  # saves its result: output 0 of its own node
        >>> [(i, version, origin) for i, _, _, version, origin in saved_values(y.grad_fn)]
        [(0, 0, 0)]
        >>> [origin is x for *_, origin in saved_values(x.log().grad_fn)]  # saves its input
        [True]
    """
    saved = entries(node) or ()
    for start in range(0, len(saved), FIELDS):
        value, counter, version, origin = saved[start : start + 4]
        counter, origin = _resolve(node, counter, origin)
        yield start // FIELDS, value, counter, version, origin


def _resolve(node: Node, counter: Any, origin: Any) -> tuple[Any, Any]:
    """An entry's counter and origin themselves, where the entry names a slot of ``node``.

    An input's counter is made now if its tensor has none yet, and so is the node's saved
    output's (the readers here want the object; backward's common path reads None as version
    0 instead, see ``unpack``).
    """
    if type(origin) is str:  # an input kept in one of the node's slots (IN_NODE)
        origin = getattr(node, origin)
    if counter is ON_TENSOR:
        counter = origin._version_counter()
    elif counter is OUTPUT_COUNTER:
        counter = saved_output_counter(node)  # made now if nobody needed it yet
    return counter, origin


def pack(
    node: Node,
    values: Sequence[Any],
    seen_inputs: Sequence[Any],
    input_tensors: Sequence[Any],
    seen_outputs: Sequence[Any],
    output_tensors: Sequence[TensorBase],
    pending_writes: int = 0,
) -> None:
    """Store ``values`` (what forward passed to ``save_for_backward``) flat in ``node._saved``.

    Values are recognized by identity: one that *is* an input tensor's buffer (as forward saw
    it) is saved as that input, one that *is* an output as that output, anything else as a
    plain value. ``pending_writes``: bumps the outputs' counters will get before the node is
    complete (1 for an in-place op, whose inputs are saved *before* the write, as in PyTorch).
    """
    packed: list[Any] = []
    claimed = -1  # the input matched last: values saved in argument order claim them in turn
    index = -1  # the value's position in ``values``
    for value in values:  # a plain loop: one or two values, once per recorded op
        index += 1
        if value is None:
            packed += NOTHING
            continue
        match = None
        if (index < len(seen_inputs) and value is seen_inputs[index] and index > claimed
                and isinstance(input_tensors[index], TensorBase)):
            # One buffer may be two inputs, two tensors with counters of their own
            # (``div(x, x.data)``, ``atan2(x.squeeze(), x)`` of a 0-d ``x``): a value saved
            # at an input's own position is that input (a built-in op of two inputs saves
            # ``(self or None, other or None)``).
            match = index
        else:
            position = 0  # counted by hand: an enumerate object costs more than the loop
            for seen in seen_inputs:
                if value is seen and isinstance(input_tensors[position], TensorBase):
                    match = position
                    # Otherwise the next one not claimed yet.
                    if position > claimed:
                        break
                position += 1  # noqa: SIM113
        if match is not None:
            claimed = match
            tensor = input_tensors[match]
            counter = tensor._counter
            if counter is COUNTER_IN_NODE:  # a result its node saved: the node's counter
                counter = tensor._grad_fn._output_counter
            if counter is not None and counter.is_inference:  # (autograd/inference.py)
                raise RuntimeError(errors.INFERENCE_TENSOR_SAVED)
            origin = tensor
            if match < len(node._kept_inputs):  # kept in the node's slot (module docstring)
                origin = IN_NODE[match]
                setattr(node, origin, tensor)
            # (no counter yet: version 0, and none is made for this: module docstring)
            packed += (tensor._array, ON_TENSOR, 0 if counter is None else counter.version,
                       origin, tensor._grad_fn is not None, match)
        else:
            output_nr = 0
            for seen in seen_outputs:
                if value is seen:
                    output = output_tensors[output_nr]
                    counter = output._counter
                    if (counter is None and output_nr == 0 and not pending_writes
                            and output._grad_fn is node and node._keeps_output_counter):
                        # Made by this op just now, never written: version 0, and no counter
                        # made for it; the tensor's is the node's (module docstring).
                        output._counter = COUNTER_IN_NODE
                        node._output_counter = None
                        packed += (output._array, OUTPUT_COUNTER, 0, 0, False, None)
                        break
                    if counter is COUNTER_IN_NODE:  # (an existing result its node saved)
                        counter = output._version_counter()
                    elif counter is None:
                        # Made by this op just now, so no other thread sees it yet: no lock
                        # (the accessor's). Written tensors (pending_writes) exist already.
                        counter = (output._version_counter() if pending_writes
                                   else _set_counter(output))
                    if counter.is_inference:
                        raise RuntimeError(errors.INFERENCE_TENSOR_SAVED)
                    version = counter.version + pending_writes
                    if output_nr == 0 and node._keeps_output_counter:  # in the node's slot
                        node._output_counter = counter
                        counter = OUTPUT_COUNTER
                    packed += (output._array, counter, version, output_nr, False, None)
                    break
                output_nr += 1  # noqa: SIM113
            else:
                packed += (value, None, 0, None, False, None)
    entries = tuple(packed)
    if _hooks_active[0] and _hooks_state.stack:  # saved_tensors_hooks (one check without)
        # An in-place op's result is packed once written (``pack_written_outputs``), as
        # PyTorch saves it after the write: the hook sees its new values and version.
        entries = _pack_with_hooks(
            node, entries, output_tensors, _hooks_state.stack[-1], not pending_writes
        )
    node._saved = entries
    # debugging hook: track where, guard buffers (autograd/debug_hooks.py); an in-place op's
    # write comes first (inplace.py calls it then: the guard checksums the values it keeps)
    if switches.saves and not pending_writes:
        debug_hooks.on_save(node)


def pack_fast(
    node: Node,
    values: Sequence[Any],
    x: TensorBase,
    y: TensorBase | None,
    raw: Any,
    output: TensorBase,
) -> None:
    """``pack`` for recording's fast branch: inputs ``x`` and ``y`` (or None), one new output.

    ``raw``: what forward returned, ``output`` the new tensor around it.

    The same entries ``pack`` makes, without its loops over inputs and outputs: with distinct
    input buffers, identity alone tells what each value is. Inputs sharing one buffer
    (``a * a``, where ``pack`` hands them out in argument order), saved-tensor hooks and the
    debugging switches take ``pack`` itself, and so does a node whose class has not the slot a
    value would be kept in (``Node._kept_inputs``, ``_keeps_output_counter``).
    """
    x_array = x._array
    y_array = None if y is None else y._array
    if (x_array is y_array or (_hooks_active[0] and _hooks_state.stack) or switches.saves
            or len(node._kept_inputs) < (1 if y is None else 2)
            or not node._keeps_output_counter):
        if y is None:
            pack(node, values, (x_array,), (x,), (raw,), (output,))
        else:
            pack(node, values, (x_array, y_array), (x, y), (raw,), (output,))
        return
    packed: tuple[Any, ...] = ()
    for value in values:  # one or two values
        if value is None:
            packed += NOTHING
        elif value is x_array or value is y_array:
            # kept in the node's slot, named by the entry (IN_NODE, module docstring)
            if value is x_array:
                tensor = node._input0 = x
                origin, position = "_input0", 0
            else:
                tensor = node._input1 = y
                origin, position = "_input1", 1
            counter = tensor._counter  # None: version 0, none made for this (module docstring)
            if counter is None:
                version = 0
            elif counter is COUNTER_IN_NODE:  # a result its node saved: the node's counter
                version = version_in_node(tensor)
            elif counter.is_inference:
                raise RuntimeError(errors.INFERENCE_TENSOR_SAVED)
            else:
                version = counter.version
            packed += (value, ON_TENSOR, version, origin, tensor._grad_fn is not None,
                       position)
        elif value is raw:
            counter = output._counter  # None: made by this op just now, so never written
            if counter is None and output._grad_fn is node:
                # No counter made for it: the tensor's is the node's (module docstring).
                output._counter = COUNTER_IN_NODE
                version = 0
            elif counter is None or counter is COUNTER_IN_NODE:  # (not this node's: made)
                counter = output._version_counter()
                version = counter.version
            elif counter.is_inference:
                raise RuntimeError(errors.INFERENCE_TENSOR_SAVED)
            else:
                version = counter.version
            node._output_counter = counter  # kept in the node's slot (module docstring)
            packed += (output._array, OUTPUT_COUNTER, version, 0, False, None)
        else:
            packed += (value, None, 0, None, False, None)
    node._saved = packed


def pack_inputs(
    node: Node,
    values: Sequence[Any],
    x: TensorBase,
    y: TensorBase,
    raw: Any,
    output: TensorBase,
) -> None:
    """``pack_fast`` for a two-input op that saves its inputs in place: ``(x or None, y or None)``.

    What ``div``, ``atan2`` and kin save (the bilinear ops, which declare
    ``saves_for_the_other``, have their entries written out by their recording functions,
    autograd/record.py, and come here for the rest). Each position is then told apart by one
    identity test against the input at that position, and the entries are written out;
    anything else (other values, ``a * a``, saved-tensor hooks, the debugging switches, an
    inference tensor) takes ``pack_fast``, which takes ``pack`` where it must.
    """
    x_array = x._array
    y_array = y._array
    if len(values) != 2 or x_array is y_array or _hooks_active[0] or switches.saves:
        pack_fast(node, values, x, y, raw, output)
        return
    saved_x, saved_y = values
    if saved_x is x_array:
        counter = x._counter  # None: version 0, none made for this (module docstring)
        if counter is None:
            version = 0
        elif counter is COUNTER_IN_NODE:  # a result its node saved: the node's counter
            version = version_in_node(x)
        elif counter.is_inference:
            pack_fast(node, values, x, y, raw, output)  # (raises PyTorch's error)
            return
        else:
            version = counter.version
        first = (x_array, ON_TENSOR, version, "_input0", x._grad_fn is not None, 0)
    elif saved_x is None:
        first = NOTHING
    else:
        pack_fast(node, values, x, y, raw, output)
        return
    if saved_y is y_array:
        counter = y._counter
        if counter is None:
            version = 0
        elif counter is COUNTER_IN_NODE:
            version = version_in_node(y)
        elif counter.is_inference:
            pack_fast(node, values, x, y, raw, output)
            return
        else:
            version = counter.version
        second = (y_array, ON_TENSOR, version, "_input1", y._grad_fn is not None, 1)
    elif saved_y is None:
        second = NOTHING
    else:
        pack_fast(node, values, x, y, raw, output)
        return
    # Only now, with no way left to fall back: the tensors in the node's slots (IN_NODE).
    if saved_x is not None:
        node._input0 = x
    if saved_y is not None:
        node._input1 = y
    node._saved = first + second


def pack_result(
    node: Node,
    values: Sequence[Any],
    x: TensorBase,
    y: TensorBase | None,
    raw: Any,
    output: TensorBase,
) -> None:
    """``pack_fast`` for an op that saves its result alone (``exp``, ``sigmoid``, ``tanh``).

    The choice of this packing is what counts: its case (the result alone, no saved-tensor
    hooks, no debugging switch) the one-input recording functions write out themselves,
    without this call (autograd/record.py), and hand it the rest, which ``pack_fast`` packs.
    """
    pack_fast(node, values, x, y, raw, output)


def pack_input(
    node: Node,
    values: Sequence[Any],
    x: TensorBase,
    y: TensorBase | None,
    raw: Any,
    output: TensorBase,
) -> None:
    """``pack_fast`` for an op of one input that saves that input alone (``log``, ``sin``).

    Anything else (another value, saved-tensor hooks, the debugging switches, an inference
    tensor) takes ``pack_fast``.
    """
    x_array = x._array
    if len(values) != 1 or values[0] is not x_array or _hooks_active[0] or switches.saves:
        pack_fast(node, values, x, y, raw, output)
        return
    counter = x._counter  # None: version 0, none made for this (module docstring)
    if counter is None:
        version = 0
    elif counter is COUNTER_IN_NODE:  # a result its node saved: the node's counter
        version = version_in_node(x)
    elif counter.is_inference:
        pack_fast(node, values, x, y, raw, output)  # (raises PyTorch's error)
        return
    else:
        version = counter.version
    node._input0 = x
    node._saved = (x_array, ON_TENSOR, version, "_input0", x._grad_fn is not None, 0)


def fast_packer(num_inputs: int, saves: Any, kept_inputs: int = 2) -> Callable[..., None]:
    """The packing a recording function of an op uses, chosen once from its declarations.

    ``num_inputs`` and ``saves`` (PyTorch's names of the saved values): an op of one input that
    saves ``("result",)`` gets ``pack_result``, one that saves ``("self",)`` ``pack_input``,
    any op of two inputs whose node keeps both in slots (``kept_inputs``, the length of its
    class's ``_kept_inputs``) ``pack_inputs`` (the bilinear ops' form, tested by identity per
    position at no cost to the others, which fall back), the rest ``pack_fast``. Each falls
    back to ``pack_fast`` and that to ``pack``, so the choice changes the cost, never the
    entries.
    """
    if num_inputs == 2 and kept_inputs == 2:
        return pack_inputs
    if num_inputs == 2:
        return pack_fast
    if num_inputs == 1 and saves == ("result",):
        return pack_result
    if num_inputs == 1 and saves == ("self",):
        return pack_input
    return pack_fast


def version_in_node(tensor: TensorBase) -> int:
    """The version of a result its node saved (``_counter`` is ``COUNTER_IN_NODE``)."""
    counter = tensor._grad_fn._output_counter
    return 0 if counter is None else counter.version  # (none made: never written)


def _set_counter(tensor: TensorBase) -> VersionCounter:
    counter = tensor._counter = VersionCounter()
    return counter


def unpack(node: Node, as_tensors: bool) -> tuple[Any, ...]:
    """The saved values, after checking that nothing wrote to them since they were saved.

    ``as_tensors`` (custom Functions, backward with create_graph): inputs come back as the
    tensors themselves, outputs as tensors with their place in the graph.
    """
    saved = node._saved
    if saved is None:
        raise RuntimeError(errors.BACKWARD_TWICE)
    if len(saved) == PAIR:  # (its runner checks the compact pair itself: here, every check)
        saved = _expand_pair(node, saved)
    if not as_tensors and not switches.guarded:
        # (The layouts of the common packers are checked before this is called, without a
        # loop, by each built-in op's backward runner: autograd/function.py backward_runner.)
        # The common case first: every value unchanged since it was saved, none kept through
        # hooks. Then the answer is the values as they are, whatever order the checks take;
        # anything else goes the full way below, which raises PyTorch's error in its order.
        values = saved[::FIELDS]
        start = 1  # the counter of the first value
        for value in values:  # a plain loop: one to four values, once per node per backward
            counter = saved[start]
            if counter is ON_TENSOR:  # an input (the common case): its tensor's counter
                origin = saved[start + 2]
                if type(origin) is str:  # kept in one of the node's slots
                    origin = getattr(node, origin)
                counter = origin._counter  # None: version 0
                if ((0 if counter is None else counter.version if counter is not COUNTER_IN_NODE
                     else version_in_node(origin)) != saved[start + 1]
                        or saved[start + 3] and origin._grad_fn is None
                        or origin._array is not value):  # (``x.data = ...`` since: below)
                    break
            elif counter is None:  # a plain value, or one kept through hooks
                if type(value) is Hooked:
                    break
            else:  # an output's counter (output 0's is kept in the node's slot)
                if counter is OUTPUT_COUNTER:
                    counter = node._output_counter  # None: never made, so never written
                if counter is not None and (counter.version != saved[start + 1] or (
                        saved[start + 3] and saved[start + 2]._grad_fn is None)):
                    break
            start += FIELDS
        else:
            return values
    order = node._function.unpack_order
    if order is not None and len(saved) > FIELDS:
        _check_in_order(node, saved, order)  # which stale tensor is named: PyTorch's order
    if Hooked.ever_made and any(type(value) is Hooked for value in saved[::FIELDS]):
        # Unpack hooks are called in PyTorch's order, the one its pack hooks were called in.
        found = [saved[start : start + FIELDS] for start in range(0, len(saved), FIELDS)]
        results: list[Any] = [None] * len(found)
        for index in _pack_order(node, found):
            results[index] = _unpack_at(node, saved, index * FIELDS, as_tensors)
        return tuple(results)
    # a plain loop: runs once per node per backward
    return tuple(_unpack_at(node, saved, start, as_tensors) for start in range(0, len(saved),
                                                                              FIELDS))


def unpack_one(node: Node, index: int) -> Any:
    """The value saved at ``index`` (``grad_fn._saved_self``), checked like backward checks it.

    Tensors come back as tensors: an input as the tensor itself, an output with its place in
    the graph; a private value as it was kept.
    """
    saved = entries(node)
    if saved is None:
        raise RuntimeError(errors.BACKWARD_TWICE)
    if index * FIELDS >= len(saved):
        return None  # forward saved nothing this time (its saving is conditional)
    return _unpack_at(node, saved, index * FIELDS, True)


def unpack_exposed(node: Node, index: int) -> Any:
    """The value saved at ``index`` as ``grad_fn._saved_<name>`` hands it to the user.

    As ``unpack_one``; a private array (an intermediate the op kept, with no tensor of its
    own: layer_norm's mean, det's LU factors) comes back as a tensor sharing its buffer and a
    version counter the entry keeps from now on. So a write through that tensor (or a view of
    it) makes backward raise PyTorch's version error rather than compute with the written
    value, as PyTorch's saved variables do. (Made on first exposure only: backward's common
    path still sees no counter on a value nobody could write.)
    """
    value = unpack_one(node, index)
    if type(value) is not np.ndarray:
        return value  # a tensor, a plain number, or None
    saved = entries(node)
    start = index * FIELDS
    counter = saved[start + 1]
    if counter is None:  # first exposure: version 0 from now on
        counter = VersionCounter()
        node._saved = saved[: start + 1] + (counter, counter.version) + saved[start + 3 :]
    return TensorBase.output_class._make(value, None, 0, counter)


def _unpack_at(node: Node, saved: tuple[Any, ...], start: int, as_tensors: bool) -> Any:
    value = saved[start]
    counter, origin = _resolve(node, saved[start + 1], saved[start + 3])
    if counter is None:
        if type(value) is Hooked:
            return _from_hooks(node, value.unpack(), origin, as_tensors)
        return value
    if saved[start + 4] and origin._grad_fn is None:
        # A saved input that had history was detach_()-ed since (PyTorch checks this first).
        raise RuntimeError(errors.SAVED_TENSOR_DETACHED_INPLACE)
    if counter.version != saved[start + 2]:
        raise RuntimeError(_mismatch_message(node, value, counter, saved[start + 2], origin))
    if switches.guarded:  # debugging hook: writes that bypassed the counter (autograd/guard.py)
        guard.verify(handle(node, start // FIELDS), node)
    if saved[start + 1] is ON_TENSOR and origin._array is not value:
        value = _current_buffer(value, origin)
    if origin is None:  # a private array exposed (``unpack_exposed``): a plain value still
        return value
    return _as_tensor(node, value, counter, origin) if as_tensors else value


def _current_buffer(value: Any, origin: TensorBase) -> Any:
    """A saved input's buffer now, which backward reads as PyTorch's does.

    PyTorch saves the input tensor, so ``x.data = t`` after the op (not a write: no version
    bump) is what backward computes with (``.data``'s documented hole: silently another
    gradient). One of another shape gives the formula's broadcasting error.
    """
    current = origin._array
    if isinstance(value, np.ndarray) and current.shape != value.shape:
        raise RuntimeError(errors.broadcast_mismatch(value.shape, current.shape))
    return current


def _from_hooks(node: Node, tensor: TensorBase, origin: Any, as_tensors: bool) -> Any:
    """What an unpack hook returned, as backward wants it."""
    if not as_tensors:
        return tensor._array
    if isinstance(origin, TensorBase) or origin is None:
        return tensor
    # A saved output comes back as a new tensor with its place in the graph (as in PyTorch).
    return _as_tensor(node, tensor._array, tensor._version_counter(), origin)


def pack_written_outputs(node: Node, output_tensors: Sequence[TensorBase]) -> None:
    """After an in-place op's write: give its saved results to the pack hook (``pack``)."""
    if _hooks_active[0] and _hooks_state.stack and node._saved:
        node._saved = _pack_with_hooks(
            node, node._saved, output_tensors, _hooks_state.stack[-1], True, False
        )


def _pack_with_hooks(
    node: Node,
    packed: tuple[Any, ...],
    output_tensors: Sequence[TensorBase],
    hooks: tuple[Callable[[Any], Any], Callable[[Any], Any]],
    outputs: bool = True,
    inputs: bool = True,
) -> tuple[Any, ...]:
    """``packed`` with each tensor replaced by what the pack hook makes of it.

    The hook gets the tensor itself (an input, or the output); Python numbers and None are kept
    as they are, as PyTorch keeps them. ``outputs``/``inputs``: whether to pack the saved
    results / the other entries now (an in-place op packs its results after the write). The
    hook is called in PyTorch's order (``_pack_order``); the entries keep their places.
    """
    pack_hook, unpack_hook = hooks
    extend(node)  # the node will hold what the hook returns: the collector must see it
    entries = [packed[start : start + FIELDS] for start in range(0, len(packed), FIELDS)]
    for index in _pack_order(node, entries):
        entry = entries[index]
        if type(entry[0]) is Hooked or (outputs if type(entry[3]) is int else inputs) is False:
            continue  # (packed already, or later)
        tensor = saved_tensor_of(node, entry, output_tensors)
        if tensor is not None:
            entries[index] = (Hooked(call_pack_hook(pack_hook, tensor), unpack_hook), None, 0,
                              entry[3], False, entry[5])
    return tuple(value for entry in entries for value in entry)


def _pack_order(node: Node, entries: list[tuple[Any, ...]]) -> list[int]:
    """The order in which PyTorch packs a built-in op's saved values: by their names.

    (Its generated code saves the inputs sorted by name -- ``other`` before ``self``, ``max``
    before ``min`` -- and the results once the op ran.) A custom Function's values, and an
    op's whose names are not one per value, go in the order they were saved.
    """
    count = len(entries)
    if count < 2 or not getattr(node, "_builtin", False):
        return list(range(count))
    names = node._function.saves
    if names is None and all(type(e[3]) is int or e[5] in (0, 1) for e in entries):
        # (a unary or binary op's inputs and results, named as its attributes name them)
        names = tuple("result" if type(e[3]) is int else ("self", "other")[e[5]] for e in entries)
    if type(names) is not tuple or len(names) != count:
        return list(range(count))
    if not all(type(name) is str for name in names):
        return list(range(count))
    return sorted(range(count), key=lambda i: (type(entries[i][3]) is int, names[i]))


def saved_tensor_of(
    node: Node, entry: Sequence[Any], output_tensors: Sequence[TensorBase] = ()
) -> Any:
    """The tensor behind one saved entry of ``node`` (what a pack hook gets), or None."""
    value, counter, _, origin = entry[:4]
    if type(origin) is str:  # an input kept in one of the node's slots
        return getattr(node, origin)
    if isinstance(origin, TensorBase):
        return origin
    if type(origin) is int and origin < len(output_tensors):
        return output_tensors[origin]
    if counter is OUTPUT_COUNTER:
        counter = saved_output_counter(node)  # shared with the result's tensor, if alive
    if counter is not None or type(value) is np.ndarray:
        # an output known by buffer and counter only, or a private intermediate array
        return TensorBase.output_class._make(value, None, 0, counter)
    return None


def call_pack_hook(pack_hook: Callable[[Any], Any], tensor: TensorBase) -> Any:
    """``pack_hook(tensor)``, refusing a hook that writes to its argument (PyTorch's rule)."""
    version = tensor._version_counter().version
    packed = pack_hook(tensor)
    if tensor._version_counter().version != version:
        raise RuntimeError(errors.PACK_HOOK_MODIFIED_INPUT)
    return packed


def _check_in_order(node: Node, saved: tuple[Any, ...], order: tuple[int, ...]) -> None:
    """Run unpack's checks in PyTorch's order: inputs as ``order`` lists them, then outputs."""

    def rank(start: int) -> int:
        position = saved[start + 5]
        if position is None:
            return len(order) + len(saved)  # an output: after every input
        return order.index(position) if position in order else len(order) + position

    tracked = [start for start in range(0, len(saved), FIELDS) if saved[start + 1] is not None]
    for start in sorted(tracked, key=rank):
        counter, origin = _resolve(node, saved[start + 1], saved[start + 3])
        if saved[start + 4] and origin._grad_fn is None:
            raise RuntimeError(errors.SAVED_TENSOR_DETACHED_INPLACE)
        if counter.version != saved[start + 2]:
            raise RuntimeError(
                _mismatch_message(node, saved[start], counter, saved[start + 2], origin)
            )


def _as_tensor(node: Node, value: Any, counter: Any, origin: Any) -> Any:
    if isinstance(origin, TensorBase):
        return origin
    # A saved output comes back with its place in the graph, so it can be differentiated.
    output_nr = origin if type(origin) is int else 0
    producer = node if value.dtype.kind == "f" else None  # integer outputs have no history
    if isinstance(origin, weakref.ref):
        # The result of an in-place op on a view: PyTorch gives it the view's node after the
        # write (AsStrided over the base's CopySlices) while that node lives, else the op's.
        # (The op's own node runs inside CopySlices: as a producer it would run twice.)
        producer = origin() or producer
    return TensorBase.output_class._make(value, producer, output_nr, counter)


def _mismatch_message(node: Node, value: Any, counter: Any, saved_version: int,
                      origin: Any) -> str:
    if isinstance(origin, TensorBase):
        grad_fn = origin.grad_fn  # a view's history is regenerated first (AsStrided)
        producer = None if grad_fn is None else grad_fn.name()
        output_nr = origin._output_nr
    elif origin is None:  # a private array exposed (``unpack_exposed``): no producer
        producer, output_nr = None, 0
    else:
        owner = node
        if isinstance(origin, weakref.ref):
            # PyTorch names the view's node after the write while it is alive (inplace.py).
            owner = origin() or node
        # A non-differentiable (integer) output has no producer in PyTorch's message.
        producer = owner.name() if value.dtype.kind == "f" else None
        output_nr = origin if type(origin) is int else 0
    message = errors.version_mismatch(
        backend_type_name(value.dtype),
        value.shape,
        None if producer is None else errors.node_short_name(producer),
        output_nr,
        counter.version,
        saved_version,
        anomaly.is_anomaly_enabled(),
    )
    # debugging hook: where it was saved and modified, if tracked (autograd/write_tracking.py)
    return message + write_tracking.where_modified(node, counter, saved_version)


def handle(node: Node, index: int) -> tuple[int, int]:
    """A key for one saved value while its node lives: (the node's id, its index)."""
    return id(node), index
