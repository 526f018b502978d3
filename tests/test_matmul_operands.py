"""``matmul`` inside backward formulas: a saved numpy array beside a tensor (create_graph).

Backward formulas call the same ``matmul`` on arrays (plain backward) or on a tensor and a
saved array (a backward recorded under ``create_graph``). The batched path used to call
``expand`` on the array and fail. Expected values come from numpy's ``matmul``; the gradient
through the tensor operand from finite differences (``gradcheck``).
"""
import numpy as np
import pytest
from _backend import LIB, mg

from minigrad.ops import linalg

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's internal formula helper")

SHAPES = [((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 5)), ((4,), (2, 4, 5)), ((2, 1, 3, 4), (3, 4, 2))]


@pytest.mark.parametrize(("left", "right"), SHAPES)
@pytest.mark.parametrize("tensor_side", ["left", "right"])
def test_a_tensor_times_a_saved_array(left, right, tensor_side):
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal(left), rng.standard_normal(right)
    if tensor_side == "left":
        def product(t):
            return linalg.matmul(t, b)
        start = a
    else:
        def product(t):
            return linalg.matmul(a, t)
        start = b
    x = mg.tensor(start, requires_grad=True)
    assert np.allclose(product(x).detach().numpy(), np.matmul(a, b), rtol=1e-12, atol=1e-12)
    assert mg.autograd.gradcheck(product, (x,))


def test_two_arrays_give_an_array():
    a, b = np.ones((2, 3, 4)), np.arange(20.0).reshape(4, 5)
    result = linalg.matmul(a, b)
    assert type(result) is np.ndarray
    assert np.array_equal(result, np.matmul(a, b))
