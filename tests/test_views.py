"""Views: what they share with their base, how PyTorch records them, and their errors.

Every expected value and message here was printed by PyTorch 2.13 (run these tests with
MINIGRAD_TEST_REFERENCE=torch to check them against it).
"""

import re

import pytest
from _backend import mg, text
from _cases import parametrize_in_one


def _x():
    """A non-leaf 3x4 tensor [[0, 1, 2, 3], [4, ...], ...] and the leaf it comes from."""
    leaf = mg.arange(12.0).view(3, 4).requires_grad_()
    return leaf * 1, leaf


# expression, grad_fn name, is a view, grad_fn.next_functions[0] name, shape, stride
VIEW_TABLE = [
    ("x[0]", "SelectBackward0", True, "MulBackward0", (4,), (1,)),
    ("x[1:3]", "SliceBackward0", True, "MulBackward0", (2, 4), (4, 1)),
    ("x[:, None]", "UnsqueezeBackward0", True, "MulBackward0", (3, 1, 4), (4, 4, 1)),
    ("x[..., 0]", "SelectBackward0", True, "MulBackward0", (3,), (4,)),
    ("x[...]", "AliasBackward0", True, "MulBackward0", (3, 4), (4, 1)),
    ("x[:, 1]", "SelectBackward0", True, "MulBackward0", (3,), (4,)),
    ("x.view(2, 6)", "ViewBackward0", True, "MulBackward0", (2, 6), (6, 1)),
    ("x.reshape(6, 2)", "ViewBackward0", True, "MulBackward0", (6, 2), (2, 1)),
    ("x.t().reshape(2, 6)", "UnsafeViewBackward0", False, "CloneBackward0", (2, 6), (6, 1)),
    ("x.t().reshape(12)", "UnsafeViewBackward0", False, "CloneBackward0", (12,), (1,)),
    ("x.t()", "TBackward0", True, "MulBackward0", (4, 3), (1, 4)),
    ("x.T", "PermuteBackward0", True, "MulBackward0", (4, 3), (1, 4)),
    ("x.mT", "TransposeBackward0", True, "MulBackward0", (4, 3), (1, 4)),
    ("x.transpose(0, 1)", "TransposeBackward0", True, "MulBackward0", (4, 3), (1, 4)),
    ("x.permute(1, 0)", "PermuteBackward0", True, "MulBackward0", (4, 3), (1, 4)),
    ("x.movedim(0, 1)", "PermuteBackward0", True, "MulBackward0", (4, 3), (1, 4)),
    ("x.swapaxes(0, 1)", "TransposeBackward0", True, "MulBackward0", (4, 3), (1, 4)),
    ("x.squeeze()", "SqueezeBackward0", True, "MulBackward0", (3, 4), (4, 1)),
    ("x.unsqueeze(0)", "UnsqueezeBackward0", True, "MulBackward0", (1, 3, 4), (12, 4, 1)),
    ("x[:1].squeeze(0)", "SqueezeBackward1", True, "SliceBackward0", (4,), (1,)),
    ("x[:1].squeeze((0,))", "SqueezeBackward2", True, "SliceBackward0", (4,), (1,)),
    ("x[0].expand(2, 4)", "ExpandBackward0", True, "SelectBackward0", (2, 4), (0, 1)),
    ("x.expand_as(mg.zeros(2, 3, 4))", "ExpandBackward0", True, "MulBackward0", (2, 3, 4),
     (0, 4, 1)),
    ("x.narrow(1, 1, 2)", "SliceBackward0", True, "MulBackward0", (3, 2), (4, 1)),
    ("x.select(0, 1)", "SelectBackward0", True, "MulBackward0", (4,), (1,)),
    ("x.flatten()", "ViewBackward0", True, "MulBackward0", (12,), (1,)),
    ("x.unflatten(1, (2, 2))", "ViewBackward0", True, "MulBackward0", (3, 2, 2), (4, 2, 1)),
    ("x.diagonal()", "DiagonalBackward0", True, "MulBackward0", (3,), (5,)),
    ("x.diagonal(1)", "DiagonalBackward0", True, "MulBackward0", (3,), (5,)),
    ("x.view_as(mg.zeros(12))", "ViewBackward0", True, "MulBackward0", (12,), (1,)),
    ("x.ravel()", "ViewBackward0", True, "MulBackward0", (12,), (1,)),
    ("x.split(2)[1]", "SplitBackward0", True, "MulBackward0", (1, 4), (4, 1)),
    ("x.split([1, 2])[0]", "SplitWithSizesBackward0", True, "MulBackward0", (1, 4), (4, 1)),
    ("x.chunk(2, 1)[1]", "SplitBackward0", True, "MulBackward0", (3, 2), (4, 1)),
    ("x.unbind(1)[2]", "UnbindBackward0", True, "MulBackward0", (3,), (4,)),
    ("x.tensor_split(2)[0]", "SliceBackward0", True, "MulBackward0", (2, 4), (4, 1)),
    ("x[[0, 2]]", "IndexBackward0", False, "MulBackward0", (2, 4), (4, 1)),
    ("x[x > 4]", "IndexBackward0", False, "MulBackward0", (7,), (1,)),
    ("x[0, [1, 2]]", "IndexBackward0", False, "SelectBackward0", (2,), (1,)),
    ("x.t().contiguous()", "CloneBackward0", False, "TBackward0", (4, 3), (3, 1)),
]


@parametrize_in_one(
    "expression, name, is_view, previous, shape, stride", VIEW_TABLE, ids=[r[0] for r in VIEW_TABLE]
)
def test_view_ops_record_what_pytorch_records(expression, name, is_view, previous, shape, stride):
    x, leaf = _x()
    v = eval(expression)
    assert v.grad_fn.name() == name
    assert v.grad_fn.next_functions[0][0].name() == previous
    assert v._is_view() is is_view
    assert (v._base is x) is is_view  # a view of a view points at the root, x
    assert tuple(v.shape) == shape
    assert v.stride() == stride
    assert not v.is_leaf and v.requires_grad


@parametrize_in_one("expression", [r[0] for r in VIEW_TABLE if r[2]])
def test_a_view_shares_buffer_and_version_counter_with_its_base(expression):
    x = mg.arange(12.0).view(3, 4)
    v = eval(expression)
    assert v._version == x._version == 0
    v.zero_()  # allowed even on an expanded view: one value for every element
    assert x._version == v._version == 1
    assert x.sum().item() < 66  # something of x was zeroed through v
    x.add_(1)
    assert v._version == 2


# expression, gradient of (view * weights).sum() with weights 0, 1, 2, ... in the view's shape
GRADIENTS = [
    ("x.diagonal(1)", [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 2.0]]),
    ("x.unbind(1)[2]", [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 2.0, 0.0]]),
    ("x.split([1, 2])[1]", [[0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0]]),
    ("x[0].expand(2, 4)", [[4.0, 6.0, 8.0, 10.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]),
    ("x.movedim(0, 1)", [[0.0, 3.0, 6.0, 9.0], [1.0, 4.0, 7.0, 10.0], [2.0, 5.0, 8.0, 11.0]]),
    ("x.unflatten(1, (2, 2))[:, 1]",
     [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 2.0, 3.0], [0.0, 0.0, 4.0, 5.0]]),
    ("x[:, None].expand(3, 2, 4)",
     [[4.0, 6.0, 8.0, 10.0], [20.0, 22.0, 24.0, 26.0], [36.0, 38.0, 40.0, 42.0]]),
    ("x[[0, 0, 2]]", [[4.0, 6.0, 8.0, 10.0], [0.0, 0.0, 0.0, 0.0], [8.0, 9.0, 10.0, 11.0]]),
    ("x.t().reshape(2, 6)", [[0.0, 3.0, 6.0, 9.0], [1.0, 4.0, 7.0, 10.0], [2.0, 5.0, 8.0, 11.0]]),
]


@pytest.mark.parametrize("expression, expected", GRADIENTS, ids=[g[0] for g in GRADIENTS])
def test_view_gradients(expression, expected):
    x, leaf = _x()
    v = eval(expression)
    weights = mg.arange(float(v.numel())).view(v.shape)
    (v * weights).sum().backward()
    assert leaf.grad.tolist() == expected


def test_split_chunk_unbind_return_tuples_of_views_from_one_node():
    x, _ = _x()
    pieces = x.split(2)
    assert isinstance(pieces, tuple) and [tuple(p.shape) for p in pieces] == [(2, 4), (1, 4)]
    assert pieces[0].grad_fn is pieces[1].grad_fn
    assert [p.output_nr for p in pieces] == [0, 1]
    assert [p.output_nr for p in x.unbind(1)] == [0, 1, 2, 3]
    assert [tuple(p.shape) for p in x.chunk(3, 1)] == [(3, 2), (3, 2)]
    assert [tuple(p.shape) for p in mg.chunk(mg.zeros(5), 4)] == [(2,), (2,), (1,)]
    # chunk of an empty dimension keeps the number of chunks, through split_with_sizes
    empty = (mg.zeros(0, 2, requires_grad=True) * 1).chunk(3)
    assert len(empty) == 3 and empty[0].grad_fn.name() == "SplitWithSizesBackward0"
    assert [p.tolist() for p in mg.split(mg.arange(5.0), [1, 4])] == [[0.0], [1.0, 2.0, 3.0, 4.0]]
    assert mg.unbind(mg.tensor([[1.0, 2.0], [3.0, 4.0]]), 1)[1].tolist() == [2.0, 4.0]


def test_unused_outputs_of_split_get_zero_gradient():
    leaf = mg.arange(6.0, requires_grad=True)
    first, second, third = (leaf * 1).split(2)
    (second * 10).sum().backward()
    assert leaf.grad.tolist() == [0.0, 0.0, 10.0, 10.0, 0.0, 0.0]


def test_detach_of_a_view_shares_the_counter_but_is_not_a_view():
    x, _ = _x()
    v = x[0]
    d = v.detach()
    assert not d._is_view() and d._base is None
    d.add_(1)
    assert x._version == v._version == d._version == 1
    assert x[0, 0].item() == 1.0


def test_detach_in_place_on_a_view_raises():
    x, _ = _x()
    with pytest.raises(RuntimeError) as info:
        x[0].detach_()
    assert str(info.value) == (
        "Can't detach views in-place. Use detach() instead. If you are using "
        "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set as True, "
        "gradients are views of DDP buckets, and hence detach_() cannot be called on these "
        "gradients. To fix this error, please refer to the Optimizer.zero_grad() function in "
        "torch/optim/optimizer.py as the solution."
    )


def test_contiguity_and_strides():
    x = mg.arange(12.0).view(3, 4)
    assert x.stride() == (4, 1) and x.stride(0) == 4 and x.stride(-1) == 1
    t = x.t()
    assert not t.is_contiguous() and t.stride() == (1, 4)
    c = t.contiguous()
    assert c.is_contiguous() and c.stride() == (3, 1) and c._base is None
    assert x.contiguous() is x
    assert not x[:, ::2].is_contiguous() and x[:, ::2].stride() == (4, 2)
    assert x.t().unsqueeze(2).stride() == (1, 4, 1)  # PyTorch's stride for the new dimension
    assert x[:1].expand(3, 4).stride() == (0, 1)
    assert mg.zeros(1, 4).expand(3, 1, 4).stride() == (0, 4, 1)


def test_advanced_indexing_lays_its_copy_out_like_its_input():
    y = mg.arange(24.0).view(2, 3, 4)
    assert y.transpose(0, 2)[[0, 1]].stride() == (6, 1, 3)
    assert y.permute(1, 2, 0)[:, [0, 2]].stride() == (1, 3, 6)
    assert y.transpose(0, 2)[None, [0, 1]].stride() == (12, 6, 1, 3)
    assert y[:, [0, 1]].stride() == (8, 4, 1)


def test_view_of_a_non_contiguous_tensor_raises_and_reshape_copies():
    x, _ = _x()
    with pytest.raises(RuntimeError) as info:
        x.t().view(12)
    assert str(info.value) == (
        "view size is not compatible with input tensor's size and stride (at least one dimension "
        "spans across two contiguous subspaces). Use .reshape(...) instead."
    )
    assert x.t().view(4, 3).stride() == (1, 4)  # a view is fine when the layout allows it
    r = x.t().reshape(12)
    assert r._base is None and r.tolist() == [0.0, 4.0, 8.0, 1.0, 5.0, 9.0, 2.0, 6.0, 10.0, 3.0,
                                              7.0, 11.0]
    alias = x.t().reshape(2, 2, 3)  # not contiguous, but a view is possible
    assert alias._base is x and alias.grad_fn.name() == "ReshapeAliasBackward0"


def test_flatten_of_one_dimension_returns_the_tensor_itself():
    x, _ = _x()
    assert x.flatten(1) is x
    assert tuple(mg.tensor(3.0).flatten().shape) == (1,)


@parametrize_in_one(
    "expression, kind, message",
    [
        ("x.split(0)", RuntimeError,
         "split_size can only be 0 if dimension size is 0, but got dimension size of 3"),
        ("x.split(-1)", RuntimeError,
         "split expects split_size be non-negative, but got split_size=-1"),
        ("x.split([1, 1])", RuntimeError,
         "split_with_sizes expects split_sizes to sum exactly to 3 (input tensor's size at "
         "dimension 0), but got split_sizes=[1, 1]"),
        ("mg.tensor(1.0).split(1)", RuntimeError, "split expects at least a 1-dimensional tensor"),
        ("x.chunk(0)", RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
        ("mg.tensor(1.0).unbind()", IndexError,
         "Dimension specified as 0 but tensor has no dimensions"),
        ("x.unbind(2)", IndexError,
         "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
        ("x.diagonal(0, 1, 1)", RuntimeError, "diagonal dimensions cannot be identical 1, 1"),
        ("x.movedim((0, 0), (1, 0))", RuntimeError,
         "movedim: repeated dim in `source` ([0, 0])"),
        ("x.movedim((0,), (1, 0))", RuntimeError,
         "movedim: Invalid source or destination dims: source ([0] dims) should contain the same "
         "number of dims as destination ([1, 0] dims)"),
        ("x.unflatten(1, (3, 2))", RuntimeError,
         "unflatten: Provided sizes [3, 2] don't multiply up to the size of dim 1 (4) in the "
         "input tensor"),
        ("x.unflatten(1, ())", RuntimeError, "unflatten: sizes must be non-empty"),
        ("x.narrow(0, 4, 0)", IndexError,
         "start out of range (expected to be in range of [-3, 3], but got 4)"),
        ("x.narrow(1, 1, 5)", RuntimeError, "start (1) + length (5) exceeds dimension size (4)."),
        ("x.select(0, 3)", IndexError,
         "select(): index 3 out of range for tensor of size [3, 4] at dimension 0"),
        ("x.permute(0, 0)", RuntimeError, "permute(): duplicate dims are not allowed."),
        ("x.flatten(1, 0)", RuntimeError,
         "flatten() has invalid args: start_dim cannot come after end_dim"),
        ("x.view(5, -1)", RuntimeError, "shape '[5, -1]' is invalid for input of size 12"),
        ("x.view(-1, -1)", RuntimeError, "only one dimension can be inferred"),
        ("mg.zeros(0, 3).view(0, -1)", RuntimeError,
         "cannot reshape tensor of 0 elements into shape [0, -1] because the unspecified "
         "dimension size -1 can be any value and is ambiguous"),
        ("x.expand(3, 4, 2)", RuntimeError,
         "The expanded size of the tensor (2) must match the existing size (4) at non-singleton "
         "dimension 2.  Target sizes: [3, 4, 2].  Tensor sizes: [3, 4]"),
        ("x.expand(4)", RuntimeError,
         "expand(minigrad.FloatTensor{[3, 4]}, size=[4]): the number of sizes provided (1) must "
         "be greater or equal to the number of dimensions in the tensor (2)"),
        ("mg.zeros(3).mT", RuntimeError,
         "tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor."),
        ("mg.hsplit(x, 3)", RuntimeError,
         "minigrad.hsplit attempted to split along dimension 1, but the size of the dimension 4 "
         "is not divisible by the split_size 3!"),
    ],
)
def test_view_op_errors(expression, kind, message):
    x = mg.arange(12.0).view(3, 4)  # noqa: F841 - used by the expressions
    with pytest.raises(kind) as info:
        eval(expression)
    assert str(info.value) == text(message)


# --- indexing ----------------------------------------------------------------------------------


@parametrize_in_one(
    "key, chain",
    [
        ("[:, 0]", ["SelectBackward0"]),  # a full slice inside a tuple is skipped
        ("[:]", ["SliceBackward0"]),  # ... but not on its own
        ("[0:10, 0]", ["SelectBackward0"]),
        ("[-4:, 0]", ["SelectBackward0", "SliceBackward0"]),
        ("[:, :]", ["AliasBackward0"]),
        ("[()]", ["AliasBackward0"]),
        ("[None, 0]", ["SelectBackward0", "UnsqueezeBackward0"]),
        ("[1, 2]", ["SelectBackward0", "SelectBackward0"]),
        ("[True]", ["IndexBackward0", "UnsqueezeBackward0"]),
        ("[mg.tensor(1)]", ["SelectBackward0"]),  # a 0-d integer tensor selects
        ("[mg.tensor([1])]", ["IndexBackward0"]),
        ("[[0, 1], 1:]", ["IndexBackward0", "SliceBackward0"]),
    ],
)
def test_indexing_records_what_pytorch_records(key, chain):
    x, _ = _x()
    out = eval("x" + key)
    names, node = [], out.grad_fn
    while node.name() != "MulBackward0":
        names.append(node.name())
        node = node.next_functions[0][0]
    assert names == chain


def test_advanced_indexing_copies_and_saves_its_index():
    x, leaf = _x()
    index = mg.tensor([0, 2])
    picked = x[index]
    assert picked._base is None and x._version == 0
    picked.add_(100)
    assert x[0, 0].item() == 0.0  # a copy: x unchanged
    index.add_(0)  # the index was saved by IndexBackward0
    with pytest.raises(RuntimeError) as info:
        picked.sum().backward()
    assert str(info.value) == text(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [minigrad.LongTensor [2]] is at version 1; expected version 0 instead. Hint: "
        "enable anomaly detection to find the operation that failed to compute its gradient, "
        "with minigrad.autograd.set_detect_anomaly(True, check_nan=False)."
    )


@parametrize_in_one(
    "expression, kind, message",
    [
        ("x[::-1]", ValueError, "step must be greater than zero"),
        ("x[:, ::-2]", ValueError, "step must be greater than zero"),
        ("x[::0]", ValueError, "slice step cannot be zero"),
        ("x[3]", IndexError, "index 3 is out of bounds for dimension 0 with size 3"),
        ("x[None, 7]", IndexError, "index 7 is out of bounds for dimension 1 with size 3"),
        ("x[0, 0, 0]", IndexError, "too many indices for tensor of dimension 2"),
        ("x[1.5]", IndexError,
         "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
         "valid indices (got float)"),
        ("x[[5]]", IndexError, "index 5 is out of bounds for dimension 0 with size 3"),
        ("x[:, [1], [9]]", IndexError, "too many indices for tensor of dimension 2"),
        ("x[[0, 1], [0, 1, 2]]", IndexError,
         "shape mismatch: indexing tensors could not be broadcast together with shapes [2], [3]"),
        ("x[mg.tensor([True, False])]", IndexError,
         "The shape of the mask [2] at index 0 does not match the shape of the indexed tensor "
         "[3, 4] at index 0"),
        ("x[mg.tensor([1.0])]", IndexError,
         "tensors used as indices must be long, int, byte or bool tensors"),
        ("mg.tensor(1.0)[0]", IndexError,
         "invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
         "in C++ to convert a 0-dim tensor to a number"),
        ("mg.tensor(1.0)[:]", IndexError, "slice() cannot be applied to a 0-dim tensor."),
    ],
)
def test_indexing_errors(expression, kind, message):
    x = mg.arange(12.0).view(3, 4)  # noqa: F841 - used by the expressions
    with pytest.raises(kind) as info:
        eval(expression)
    assert str(info.value) == text(message)


def test_x_dot_T_warns_unless_two_dimensional():
    with pytest.warns(UserWarning, match="The use of `x.T` on tensors of dimension other than 2"):
        _ = mg.zeros(3).T
    with pytest.warns(UserWarning, match="Tensor.T is deprecated on 0-D tensors"):
        _ = mg.tensor(1.0).T


@pytest.mark.parametrize(
    "expression, name",
    [
        ("w[0]", "SelectBackwardBackward0"),
        ("w[1:]", "SliceBackwardBackward0"),
        ("w.diagonal()", "DiagonalBackwardBackward0"),
        ("w.split(2)[0]", "CatBackward0"),
        ("w.unbind()[0]", "StackBackward0"),
        ("w.t()", "TBackward0"),
        ("w[None]", "SqueezeBackward1"),
        ("w.permute(1, 0)", "PermuteBackward0"),
        ("w[mg.tensor([0, 1])]", "IndexPutImplBackward0"),
    ],
)
def test_second_order_gradients_through_views(expression, name):
    w = mg.arange(9.0).view(3, 3).requires_grad_()
    y = eval(expression)
    g = (mg.arange(float(y.numel())).view(y.shape) + 1).requires_grad_()
    (gw,) = mg.autograd.grad(y, w, g, create_graph=True)
    assert gw.grad_fn.name() == name
    (gw * mg.arange(9.0).view(3, 3)).sum().backward()
    # d/dg of sum(gw * k) is the part of k that the same expression takes
    k = mg.arange(9.0).view(3, 3)
    assert g.grad.tolist() == eval(expression, {"w": k, "mg": mg}).tolist()


@pytest.mark.parametrize(("shape", "sizes", "message"), [
    # PyTorch's order: each dimension's match from the last one, the result's numel after
    ((3,), (2, -99), "The expanded size of the tensor (-99) must match the existing size (3) at "
                     "non-singleton dimension 1.  Target sizes: [2, -99].  Tensor sizes: [3]"),
    ((3,), (-99, 3), "numel: integer multiplication overflow"),
    ((1,), (3, -5), "numel: integer multiplication overflow"),
    ((3,), (-1, 3), "The expanded size of the tensor (-1) isn't allowed in a leading, "
                    "non-existing dimension 0"),
    ((), (2, -1), "numel: integer multiplication overflow"),  # (0-d: no leading-dim check)
])
def test_expand_with_a_negative_size_gets_pytorchs_error(shape, sizes, message):
    with pytest.raises(RuntimeError, match=f"^{re.escape(text(message))}$"):
        mg.ones(shape).expand(*sizes)


@pytest.mark.parametrize(("method", "parameter"), [
    ("expand", "size"), ("repeat", "repeats"), ("tile", "dims"), ("flip", "dims")])
def test_a_variadic_method_called_without_its_values_gets_the_parsers_error(method, parameter):
    with pytest.raises(TypeError, match=re.escape(
            f'{method}() missing 1 required positional arguments: "{parameter}"')):
        getattr(mg.ones(3), method)()
