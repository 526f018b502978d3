"""``Module.half``, ``type``, ``share_memory`` and ``to_empty``, and the ``.data`` assignment
they go through, side by side with PyTorch.

Each scenario is one program written against a library ``lib`` (``torch`` or ``minigrad``)
that logs what it sees (dtypes, classes, flags, identities, error types and texts); the two
logs must be equal with ``torch`` written as ``minigrad``.
"""

import pytest
from _cases import outcome, parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def _state(module):
    return [(name, str(t.dtype), type(t).__name__, t.requires_grad)
            for name, t in module.state_dict(keep_vars=True).items()]


def _conversions(lib, make):
    log = []
    module = make(lib)
    weight = module.weight
    weight.grad = lib.ones_like(weight)
    log.append(module.half() is module)
    log += [_state(module), module.weight is weight, str(weight.grad.dtype)]
    log.append(module.type(lib.float64) is module)
    log += [_state(module), str(weight.grad.dtype)]
    log.append(outcome(lambda: module.type(f"{lib.__name__}.FloatTensor") is module))
    log.append(_state(module))
    log.append(outcome(lambda: module.type(lib.int64)))  # a parameter cannot be an integer
    log.append(_state(module))
    log.append(module.share_memory() is module)
    log += [[t.is_shared() for t in module.state_dict().values()], weight.grad.is_shared()]
    log.append(module.to_empty(device="cpu") is module)
    log += [_state(module), module.weight is weight, weight.grad is None]
    log.append(outcome(lambda: module.to_empty("cpu")))
    return log


def _not_recursive(lib):
    model = lib.nn.Sequential(lib.nn.Linear(1, 1), lib.nn.Linear(1, 1))
    model.to_empty(device="cpu", recurse=False)
    model.half()
    model[0].double()
    return [str(p.dtype) for p in model.parameters()]


def _data_assignments(lib):
    def assign(tensor, value):
        tensor.data = value
        return str(tensor.dtype), tensor.requires_grad, tensor.tolist()

    leaf = lib.ones(2, requires_grad=True)
    return [
        outcome(lambda: assign(leaf, lib.ones(2, dtype=lib.int64))),
        outcome(lambda: assign(leaf * 2, lib.ones(3, dtype=lib.bool))),
        outcome(lambda: assign(lib.nn.Parameter(lib.ones(2)), lib.ones(2, dtype=lib.uint8))),
        outcome(lambda: assign(lib.ones(2), lib.ones(2, dtype=lib.int32))),
        outcome(lambda: assign(leaf, lib.ones(3, dtype=lib.float64))),
        outcome(lambda: assign(lib.ones(2, requires_grad=True), 3)),
        outcome(lambda: assign(lib.nn.Parameter(lib.ones(2), requires_grad=False),
                               lib.ones(2, dtype=lib.int64))),
    ]


SCENARIOS = {
    "linear": lambda lib: _conversions(lib, lambda lib: lib.nn.Linear(2, 3)),
    "batch norm (an integer buffer)": lambda lib: _conversions(
        lib, lambda lib: lib.nn.BatchNorm1d(3)),
    "to_empty without recursion": _not_recursive,
    "data assignments": _data_assignments,
}


@parametrize_in_one("name", list(SCENARIOS))
def test_conversions_as_pytorch(name):
    scenario = SCENARIOS[name]
    assert str(scenario(minigrad)) == str(scenario(torch)).replace("torch", "minigrad")
