"""The uniform unary ops save exactly what their family declares (``saves``).

``SavesInput`` ops declare ``("self",)``, ``SavesResult`` ops ``("result",)``. The declaration is
checked by what it means: after ``y = op(x)``, an in-place write to ``x`` makes backward raise iff
the op saved ``x``, and a write to ``y`` iff it saved ``y``. Run with
MINIGRAD_TEST_REFERENCE=torch, the same checks hold PyTorch to minigrad's declarations.
"""
from _backend import mg
from _cases import parametrize_in_one

from minigrad.ops.unary import LogBase, SavesInput, SavesResult, UnaryOp


def uniform_ops() -> list[type]:
    found, todo = [], [UnaryOp]
    while todo:
        for cls in todo.pop().__subclasses__():
            todo.append(cls)
            if cls not in (SavesInput, SavesResult, LogBase):  # ops, not their families
                found.append(cls)
    return found


UNIFORM = uniform_ops()


def test_the_families_cover_the_uniform_ops():
    names = {cls.__name__ for cls in UNIFORM}
    assert {"Exp", "Sin", "Log1p", "Sigmoid", "Relu", "Rsqrt", "Erf"} <= names
    assert all(cls.saves in (("self",), ("result",)) for cls in UNIFORM)


def backward_raises(op_name: str, write_to: str) -> bool:
    x = mg.tensor([0.25, 0.5], requires_grad=True)
    y = getattr(mg, op_name)(x)
    (x if write_to == "self" else y).detach().mul_(1.0)  # bumps the shared version counter
    try:
        y.sum().backward()
    except RuntimeError as error:
        assert "modified by an inplace operation" in str(error)
        return True
    return False


@parametrize_in_one("op", UNIFORM, ids=lambda cls: cls.__name__)
@parametrize_in_one("write_to", ["self", "result"])
def test_forward_saves_exactly_what_is_declared(op, write_to):
    assert backward_raises(op.__name__.lower(), write_to) == (write_to in op.saves)
