"""SavedTensor: a value kept for backward, with the version it had when it was saved.

Unpacking compares the shared version counter with the remembered version: a pure integer
comparison, so modify-then-restore is still caught. Writes through ``.data`` go to a tensor with a
fresh counter, so they are not caught: that is PyTorch's documented hole, reproduced on purpose.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from minigrad import errors
from minigrad._dtype import type_name
from minigrad.autograd import anomaly, guard, write_tracking
from minigrad.autograd.debug_switches import switches
from minigrad.autograd.variable import TensorBase

if TYPE_CHECKING:
    from minigrad.autograd.graph import Node


class SavedTensor:
    """One saved value: an input tensor, an output tensor, or a plain value (never checked).

    An input is kept as the tensor itself (the error message names its *current* producer). An
    output is kept as its buffer and counter only: holding the tensor would make a reference
    cycle (tensor -> grad_fn -> saved -> tensor); its producer is the node that saved it.
    """

    __slots__ = ("_value", "_counter", "_saved_version", "_input", "_output_nr", "_had_history")

    def __init__(self, tensor: TensorBase, output_nr: int = 0, is_output: bool = False) -> None:
        """Save ``tensor``: an input of the node, or (``is_output``) its output ``output_nr``."""
        self._value = tensor._array
        counter = self._counter = tensor._counter
        if counter.is_inference:  # made in inference mode (autograd/inference.py)
            raise RuntimeError(errors.INFERENCE_TENSOR_SAVED)
        self._saved_version = counter.version
        self._input = None if is_output else tensor
        self._output_nr = output_nr
        self._had_history = tensor._grad_fn is not None  # see unpack: detach_() afterwards

    @classmethod
    def of_value(cls, value: Any) -> SavedTensor:
        """Save a value nobody else can write to (a scalar, a private intermediate array)."""
        saved = cls.__new__(cls)
        saved._value = value
        saved._counter = saved._input = None
        saved._output_nr = 0
        saved._had_history = False
        return saved

    def unpack(self, owner: Node) -> Any:
        """The saved value, after checking that nothing wrote to it since it was saved."""
        counter = self._counter
        saved_input = self._input
        if saved_input is not None and saved_input._grad_fn is None and self._had_history:
            # A saved input that had history was detach_()-ed since (PyTorch checks this first).
            raise RuntimeError(errors.SAVED_TENSOR_DETACHED_INPLACE)
        if counter is not None and counter.version != self._saved_version:
            raise RuntimeError(self._mismatch_message(owner))
        if switches.guarded:  # debugging hook: writes that bypassed the counter (autograd/guard.py)
            guard.verify(self, owner)
        return self._value

    def unpack_tensor(self, owner: Node) -> Any:
        """The saved value as a tensor (custom Functions, and backward with create_graph)."""
        value = self.unpack(owner)
        if self._input is not None:
            return self._input
        if self._counter is None:
            return value
        # A saved output comes back with its place in the graph, so it can be differentiated.
        producer = owner if value.dtype.kind == "f" else None  # integer outputs have no history
        return TensorBase.output_class._make(value, producer, self._output_nr, self._counter)

    def _mismatch_message(self, owner: Node) -> str:
        if self._input is None:
            # A non-differentiable (integer) output has no producer in PyTorch's message.
            producer = owner.name() if self._value.dtype.kind == "f" else None
            output_nr = self._output_nr
        else:
            grad_fn = self._input.grad_fn  # a view's history is regenerated first (AsStrided)
            producer = None if grad_fn is None else grad_fn.name()
            output_nr = self._input._output_nr
        message = errors.version_mismatch(
            "CPUBoolType" if self._value.dtype == bool else type_name(self._value.dtype),
            self._value.shape,
            None if producer is None else errors.node_short_name(producer),
            output_nr,
            self._counter.version,
            self._saved_version,
            anomaly.is_anomaly_enabled(),
        )
        # debugging hook: where it was saved and modified, if tracked (autograd/write_tracking.py)
        return message + write_tracking.where_modified(owner, self._counter, self._saved_version)
