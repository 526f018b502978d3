"""A leaf's accumulator sums its gradients without re-checking them only where they must fit.

Uncounted (engine.py), a leaf's accumulator reached only by built-in ops' runners sums the
gradients it receives without comparing their shapes and dtypes (``grad_versions.add_into``'s
``fitted``): each was fitted to the leaf as recorded. A leaf whose buffer changed shape or dtype
between two recordings (``x.data = ...``) breaks that, so its accumulator is marked
(``tensor_base.set_array``) and summed with the checks, as on the counted path. These tests
hold the two paths to one result: the same program backward as it is, and with a node hook on
its root that does nothing (the engine then counts from the start). The expectations here are
path independence; PyTorch's outcomes (each gradient checked against the shape the accumulator
recorded, a new accumulator after a change of dtype) are held in
tests_torch/test_leaf_buffer_changed_torch.py.
"""

import pytest
from _backend import LIB, mg

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's engine paths")


def _outcome(first_shape, later_shape, later_dtype, counted):
    """Backward of ``x * 2`` recorded at one buffer and ``x * 3`` at another; what it gives."""
    x = mg.ones(first_shape, requires_grad=True)
    first = (x * 2).sum()
    x.data = mg.ones(later_shape, dtype=later_dtype)
    root = first + (x * 3).sum()
    if counted:  # a node hook: Python code in backward, so counted from the first node
        root.grad_fn.register_prehook(lambda grads: None)
    try:
        root.backward()
    except Exception as error:  # noqa: BLE001  (the outcome compared: its type and text)
        return type(error), str(error)
    return tuple(x.grad.shape), x.grad.dtype, x.grad.tolist(), x.grad._version


@pytest.mark.parametrize(
    ("first_shape", "later_shape", "later_dtype"),
    [
        ((1,), (3,), "float32"),  # a later gradient broadcast against the first
        ((3,), (1,), "float32"),
        ((2,), (3,), "float32"),  # shapes that do not broadcast
        ((2,), (2,), "float64"),  # another dtype
    ],
)
def test_a_leaf_whose_buffer_changed_sums_as_the_counted_path_does(
    first_shape, later_shape, later_dtype
):
    dtype = getattr(mg, later_dtype)
    uncounted = _outcome(first_shape, later_shape, dtype, counted=False)
    assert uncounted == _outcome(first_shape, later_shape, dtype, counted=True)


def test_only_a_change_of_shape_or_dtype_marks_the_accumulator():
    x = mg.ones(3, requires_grad=True)
    (x * 2).sum()  # the accumulator is made
    accumulator = x._meta.accumulator
    x.data = mg.zeros(3)  # same shape and dtype: the shortcut stays
    assert not accumulator._buffer_changed
    x.data = mg.zeros(3, dtype=mg.float64)
    assert accumulator._buffer_changed
