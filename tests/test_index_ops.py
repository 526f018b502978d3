"""Writing at indices, diagonals, cartesian_prod and einsum's sublists: the special cases.

Every expected value and message here is what PyTorch 2.13 printed for the same call (the
generic checks of values, gradients and saved tensors are the op table's, tests/opinfo).
"""
import warnings

import pytest
from _backend import mg, text


def raises(error, message, call):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text(message)


def node_chain(tensor):
    """The names of the first input's chain of nodes, from the output back to the leaf."""
    names, node = [], tensor.grad_fn
    while node is not None:
        names.append(node.name())
        node = node.next_functions[0][0] if node.next_functions else None
    return names


# ---- values PyTorch computes in its own way --------------------------------------------------

def test_integer_results_truncate_as_pytorch():
    rows = mg.arange(6).view(2, 3)
    assert rows.index_add(0, mg.tensor([0]), mg.tensor([[3, 4, 5]]), alpha=1.5).tolist() == [
        [3, 5, 7], [3, 4, 5]]  # alpha becomes 1
    assert rows.scatter_reduce(0, mg.tensor([[0, 0, 0]]), mg.tensor([[3, 4, 5]]),
                               "mean").tolist() == [[1, 2, 3], [3, 4, 5]]  # floor division
    assert mg.zeros(3, dtype=mg.int64).scatter_reduce(
        0, mg.tensor([0, 0]), mg.tensor([-4, -5]), "amax", include_self=False).tolist() == [
        -4, 0, 0]
    assert mg.zeros(3, dtype=mg.int64).index_fill(0, mg.tensor([0, -1]), 2.7).tolist() == [
        2, 0, 2]


def test_scatter_reduce_values():
    x, index, src = mg.zeros(3), mg.tensor([0, 0]), mg.tensor([2.0, 3.0])
    expected = {
        "sum": ([5.0, 0.0, 0.0], [5.0, 0.0, 0.0]),
        "prod": ([0.0, 0.0, 0.0], [6.0, 0.0, 0.0]),
        "mean": ([5 / 3, 0.0, 0.0], [2.5, 0.0, 0.0]),
        "amax": ([3.0, 0.0, 0.0], [3.0, 0.0, 0.0]),
        "amin": ([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]),
        "max": ([3.0, 0.0, 0.0], [3.0, 0.0, 0.0]),
        "min": ([0.0, 0.0, 0.0], [2.0, 0.0, 0.0]),
    }
    for reduce, (with_self, without_self) in expected.items():
        assert x.scatter_reduce(0, index, src, reduce).tolist() == pytest.approx(with_self)
        assert x.scatter_reduce(0, index, src, reduce, include_self=False).tolist() == (
            pytest.approx(without_self))
    nan = mg.tensor([1.0, 2.0]).scatter_reduce(0, mg.tensor([0, 0]),
                                               mg.tensor([float("nan"), 5.0]), "amax")
    assert repr(nan) == "tensor([nan, 2.])"


def test_take_diag_and_diag_embed_values():
    x = mg.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert x.take(mg.tensor([[0, -1]])).tolist() == [[1.0, 4.0]]
    assert mg.take(mg.tensor(3.0), mg.tensor([0, 0])).tolist() == [3.0, 3.0]
    assert mg.diag(mg.tensor([[1, 2, 3], [4, 5, 6]]), -1).tolist() == [4]
    assert mg.diag_embed(mg.tensor([1.0, 2.0]), 1).tolist() == [
        [0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]


def test_cartesian_prod_is_recorded_as_a_flattened_meshgrid():
    a = mg.tensor([1.0, 2.0], requires_grad=True)
    b = mg.tensor([3.0, 4.0, 5.0], requires_grad=True)
    result = mg.cartesian_prod(a, b)
    assert result.tolist() == [[1.0, 3.0], [1.0, 4.0], [1.0, 5.0], [2.0, 3.0], [2.0, 4.0],
                               [2.0, 5.0]]
    assert node_chain(result) == ["StackBackward0", "UnsafeViewBackward0", "CloneBackward0",
                                  "ExpandBackward0", "ViewBackward0",
                                  "torch::autograd::AccumulateGrad"]
    assert mg.cartesian_prod(a) is a


# ---- nodes and backward errors ---------------------------------------------------------------

def test_scatter_with_reduce_has_no_derivative():
    w = mg.ones(3, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (deprecated with a tensor src)
        y = w.scatter(0, mg.tensor([0]), mg.tensor([2.0]), reduce="add")
    assert y.tolist() == [3.0, 1.0, 1.0]
    assert y.grad_fn.name() == "torch::autograd::NotImplemented"
    assert repr(y) == "tensor([3., 1., 1.], grad_fn=<NotImplemented>)"
    raises(RuntimeError, "derivative for aten::scatter is not implemented",
           lambda: y.sum().backward())
    z = w.clone().scatter_(0, mg.tensor([0]), 2.0, reduce="multiply")
    raises(RuntimeError, "derivative for aten::scatter_ is not implemented",
           lambda: z.sum().backward())


def test_scatter_reduce_max_alias_has_no_backward():
    z = mg.zeros(3, requires_grad=True)
    y = z.scatter_reduce(0, mg.tensor([0]), mg.ones(1), "max")
    assert y.grad_fn.name() == "ScatterReduceBackward0"
    raises(RuntimeError, "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' "
           "but got max.", lambda: y.sum().backward())


def test_prod_double_backward_through_two_zeros_raises():
    x = mg.tensor([1.0, 0.0, 2.0], requires_grad=True)
    src = mg.tensor([0.0, 0.0, 3.0], requires_grad=True)
    y = x.scatter_reduce(0, mg.tensor([0, 0, 1]), src, "prod")
    (first,) = mg.autograd.grad(y.sum(), src, create_graph=True)
    assert first.tolist() == [0.0, 0.0, 0.0]
    assert first.grad_fn.name() == "torch::autograd::Error"
    raises(RuntimeError, "scatter_reduce(): Double backward is unsupported for src when >1 zeros "
           "in src are scattered to the same position in self", lambda: first.sum().backward())


def test_in_place_index_ops_refuse_a_leaf():
    leaf = mg.zeros(4, 3, requires_grad=True)
    index = mg.tensor([0, 2])
    calls = [
        lambda: leaf.index_add_(0, index, mg.ones(2, 3)),
        lambda: leaf.index_copy_(0, index, mg.ones(2, 3)),
        lambda: leaf.index_fill_(0, index, 1.0),
        lambda: leaf.masked_scatter_(mg.ones(4, 3, dtype=mg.bool), mg.ones(12)),
        lambda: leaf.scatter_add_(0, mg.tensor([[0, 1, 2]]), mg.ones(1, 3)),
        lambda: leaf.scatter_reduce_(0, mg.tensor([[0, 1, 2]]), mg.ones(1, 3), "amax"),
    ]
    for call in calls:
        raises(RuntimeError, "a leaf Variable that requires grad is being used in an in-place "
               "operation.", call)
    assert leaf._version == 0


def test_in_place_index_ops_record_the_out_of_place_nodes():
    x = mg.zeros(4, 3, requires_grad=True)
    names = [
        x.clone().index_add_(0, mg.tensor([0]), mg.ones(1, 3)),
        x.clone().index_copy_(0, mg.tensor([0]), mg.ones(1, 3)),
        x.clone().index_fill_(0, mg.tensor([0]), 1.0),
        x.clone().index_fill_(0, mg.tensor([0]), mg.tensor(1.0)),
        x.clone().masked_scatter_(mg.ones(4, 3, dtype=mg.bool), mg.ones(12)),
        x.clone().scatter_add_(0, mg.tensor([[0, 1, 2]]), mg.ones(1, 3)),
        x.clone().scatter_reduce_(0, mg.tensor([[0, 1, 2]]), mg.ones(1, 3), "amax"),
    ]
    assert [t.grad_fn.name() for t in names] == [
        "IndexAddBackward0", "IndexCopyBackward0", "IndexFillBackward0", "IndexFillBackward1",
        "MaskedScatterBackward0", "ScatterAddBackward0", "ScatterReduceBackward0"]


# ---- einsum's sublist form -------------------------------------------------------------------

def test_einsum_sublists():
    x, y = mg.ones(4, 3), mg.ones(2, 3)
    assert mg.einsum(x, [0, 1], y, [2, 1]).shape == (4, 2)  # implicit output: A, C
    assert mg.einsum(x, [0, 1], y, [2, 1], [2, 0]).shape == (2, 4)
    assert mg.einsum(x, [..., 1], [1, ...]).shape == (3, 4)
    assert mg.einsum(mg.ones(2, 2), [30, 30]).item() == 2.0  # 30 is the letter "e"
    raises(ValueError, "einsum(): subscript in subscript list is not within the valid range "
           "[0, 52)", lambda: mg.einsum(mg.ones(2), [52]))
    raises(ValueError, "einsum(): must specify the equation string and at least one operand, "
           "or at least one operand and its subscripts list", lambda: mg.einsum(mg.ones(2)))
