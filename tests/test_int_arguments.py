"""Where PyTorch's parser takes an int, it takes an integer tensor too, and a method's list of
ints by its name.

Its parser reads an ``int`` parameter from a 0-d integer tensor, and an item of a list of ints
(a factory's ``*size``, ``view``'s, ``repeat``'s ...) from an integer tensor of one element,
through ``__index__``; a variadic method (``x.flip(0, 1)``) also takes the whole list by name
(``x.flip(dims=(0, 1))``), where a lone int is refused. The expectations are PyTorch 2.13's
(these tests pass with MINIGRAD_TEST_REFERENCE=torch).
"""

import pytest
from _backend import mg
from _cases import parametrize_in_one

SIZE_TAKERS = {
    "ones": lambda size: mg.ones(*size).shape,
    "zeros": lambda size: mg.zeros(*size).shape,
    "empty": lambda size: mg.empty(*size).shape,
    "rand": lambda size: mg.rand(*size).shape,
    "randn": lambda size: mg.randn(*size).shape,
    "full": lambda size: mg.full(size, 1.0).shape,
    "randint": lambda size: mg.randint(5, size).shape,
    "new_zeros": lambda size: mg.ones(1).new_zeros(*size).shape,
    "new_ones": lambda size: mg.ones(1).new_ones(size).shape,
    "new_empty": lambda size: mg.ones(1).new_empty(*size).shape,
    "new_full": lambda size: mg.ones(1).new_full(size, 2.0).shape,
    "view": lambda size: mg.arange(6.0).view(*size).shape,
    "reshape": lambda size: mg.arange(6.0).reshape(size).shape,
    "expand": lambda size: mg.ones(1, 3).expand(*size).shape,
    "repeat": lambda size: mg.ones(1, 1).repeat(*size).shape,
}


@parametrize_in_one("name", list(SIZE_TAKERS))
@parametrize_in_one("first", [
    lambda: mg.tensor(2), lambda: mg.tensor([2]), lambda: mg.tensor(2, dtype=mg.uint8),
])
def test_a_size_may_be_an_integer_tensor(name, first):
    assert tuple(SIZE_TAKERS[name]((first(), 3))) == (2, 3)
    assert tuple(SIZE_TAKERS[name]((2, first() + 1))) == (2, 3)


@pytest.mark.parametrize("size", [(mg.tensor(2),), [mg.tensor(2)]])
def test_a_factory_takes_one_integer_tensor_as_its_size(size):
    assert tuple(mg.ones(*size).shape) == (2,)
    assert tuple(mg.zeros(size[0]).shape) == (2,)


def test_a_float_tensor_is_no_size():
    with pytest.raises(TypeError, match=r"ones\(\): argument 'size' \(position 1\) must be "
                                        r"tuple of ints, not Tensor"):
        mg.ones(mg.tensor(2.0))
    with pytest.raises(TypeError, match="failed to unpack the object at pos 2 with error "
                                        '"type must be tuple of ints,but got Tensor"'):
        mg.ones(2, mg.tensor(2.0))


def test_an_int_parameter_takes_a_0d_integer_tensor():
    x = mg.arange(6.0).reshape(2, 3)
    assert tuple(x.transpose(mg.tensor(0), 1).shape) == (3, 2)
    assert tuple(x.unsqueeze(mg.tensor(0)).shape) == (1, 2, 3)
    assert x.select(0, mg.tensor(1)).tolist() == [3.0, 4.0, 5.0]
    assert len(x.chunk(mg.tensor(2))) == 2
    # (of one element but not 0-d: no int)
    with pytest.raises(TypeError, match=r"transpose\(\): argument 'dim0' \(position 1\) must "
                                        r"be int, not Tensor"):
        x.transpose(mg.tensor([0]), 1)


LIST_BY_NAME = [
    ("flip", "dims", (0,), [[3.0, 4.0, 5.0], [0.0, 1.0, 2.0]]),
    ("permute", "dims", (1, 0), [[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]),
    ("reshape", "shape", (3, 2), [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]),
    ("repeat", "repeats", (1, 2), [[0.0, 1.0, 2.0] * 2, [3.0, 4.0, 5.0] * 2]),
    ("tile", "dims", (1, 2), [[0.0, 1.0, 2.0] * 2, [3.0, 4.0, 5.0] * 2]),
]


@pytest.mark.parametrize(("method", "name", "value", "expected"), LIST_BY_NAME)
def test_a_variadic_method_takes_its_list_by_name(method, name, value, expected):
    x = mg.arange(6.0).reshape(2, 3)
    assert getattr(x, method)(**{name: value}).tolist() == expected
    assert getattr(x, method)(**{name: list(value)}).tolist() == expected
    with pytest.raises(TypeError, match=f"got multiple values for argument '{name}'"):
        getattr(x, method)(*value, **{name: value})
    with pytest.raises(TypeError, match=rf"{method}\(\) got an unexpected keyword argument "
                                        "'wrong'"):
        getattr(x, method)(wrong=1, **{name: value})
    with pytest.raises(TypeError, match=rf'{method}\(\) missing 1 required positional '
                                        f'arguments: "{name}"'):
        getattr(x, method)(wrong=value)


@pytest.mark.parametrize(("method", "name"), [("flip", "dims"), ("reshape", "shape"),
                                              ("repeat", "repeats"), ("tile", "dims")])
def test_a_lone_int_by_name_is_no_list(method, name):
    with pytest.raises(TypeError, match=rf"{method}\(\): argument '{name}' must be tuple of "
                                        "ints, not int"):
        getattr(mg.arange(6.0).reshape(2, 3), method)(**{name: 0 if method == "flip" else 6})


def test_expand_takes_its_size_by_name():
    assert tuple(mg.ones(1, 3).expand(size=(2, 3)).shape) == (2, 3)


@pytest.mark.parametrize("dim", [lambda: mg.tensor(1), lambda: mg.tensor([1])])
def test_a_dim_may_be_an_integer_tensor(dim):
    x = mg.arange(6.0).reshape(2, 3)
    assert x.sum(dim()).tolist() == [3.0, 12.0]
    assert x.sum((dim(),)).tolist() == [3.0, 12.0]
    assert x.mean(dim()).tolist() == [1.0, 4.0]
    assert x.amax(dim()).tolist() == [2.0, 5.0]
    assert x.flip(dim()).tolist() == [[2.0, 1.0, 0.0], [5.0, 4.0, 3.0]]


def test_an_int_dim_may_be_a_0d_integer_tensor():
    x = mg.arange(6.0).reshape(2, 3)
    assert tuple(x.softmax(mg.tensor(1)).shape) == (2, 3)
    assert x.size(mg.tensor(1)) == 3
    with pytest.raises(TypeError, match=r"softmax\(\): argument 'dim' \(position 1\) must be "
                                        r"int, not Tensor"):
        x.softmax(mg.tensor([1]))


INT_LIST_TAKERS = {
    "roll by a 0-d tensor": (lambda: mg.arange(4).roll(mg.tensor(1)).tolist(), [3, 0, 1, 2]),
    "roll by a one-element tensor": (
        lambda: mg.arange(4).roll(mg.tensor([1])).tolist(), [3, 0, 1, 2]
    ),
    "roll along a 0-d tensor": (
        lambda: mg.arange(4).view(2, 2).roll(1, mg.tensor(1)).tolist(), [[1, 0], [3, 2]]
    ),
    "roll by a list of tensors": (
        lambda: mg.arange(4).view(2, 2).roll([mg.tensor(1), 1], (0, 1)).tolist(),
        [[3, 2], [1, 0]],
    ),
    "movedim from a 0-d tensor": (lambda: mg.ones(2, 3).movedim(mg.tensor(0), 1).shape, (3, 2)),
    "movedim from a list of tensors": (
        lambda: mg.ones(2, 3).movedim([mg.tensor(0)], [1]).shape, (3, 2)
    ),
    "split by a 0-d tensor": (lambda: [t.shape for t in mg.ones(5).split(mg.tensor(2))],
                              [(2,), (2,), (1,)]),
    "split by a float tensor": (  # (PyTorch's Tensor.split converts with int())
        lambda: [t.shape for t in mg.ones(5).split(mg.tensor(2.7))], [(2,), (2,), (1,)]
    ),
    "split by a list of tensors": (
        lambda: [t.shape for t in mg.ones(5).split([mg.tensor(2), 3])], [(2,), (3,)]
    ),
    "unflatten into tensor sizes": (
        lambda: mg.ones(6).unflatten(0, (mg.tensor(2), 3)).shape, (2, 3)
    ),
}


@parametrize_in_one("name", list(INT_LIST_TAKERS))
def test_an_int_list_takes_integer_tensors(name):
    run, expected = INT_LIST_TAKERS[name]
    result = run()
    assert (list(map(tuple, result)) if name.startswith("split") else
            tuple(result) if isinstance(expected, tuple) else result) == expected


@pytest.mark.parametrize(("run", "message"), [
    (lambda: mg.ones(4).roll(mg.tensor(1.0)),
     "roll(): argument 'shifts' (position 1) must be tuple of ints, not Tensor"),
    (lambda: mg.ones(6).unflatten(0, (mg.tensor(2.0), 3)),
     "unflatten(): argument 'sizes' (position 2) must be tuple of ints, but found element of "
     "type Tensor at pos 0"),
])
def test_a_float_tensor_is_no_int_in_a_list(run, message):
    with pytest.raises(TypeError) as excinfo:
        run()
    assert str(excinfo.value) == message
