"""``format(tensor, spec)`` and f-strings: a 0-d tensor formats as its value, as in PyTorch.

Every expected text here is PyTorch 2.13's (run with MINIGRAD_TEST_REFERENCE=torch to check).
"""

import pytest
from _backend import mg, text


def test_a_0d_tensor_formats_as_its_value():
    assert f"{mg.tensor(1.5)}" == "1.5"
    assert f"{mg.tensor(0.3)}" == "0.30000001192092896"  # (float32's value, as a double)
    assert f"{mg.tensor(0.25):.3f}|{mg.tensor(3):>4}|{mg.tensor(True)}" == "0.250|   3|True"
    loss = (mg.ones(2, requires_grad=True) * 2).sum()
    assert f"loss {loss:.4f}" == "loss 4.0000"  # (no warning about requires_grad either)


def test_other_tensors_format_as_their_repr():
    assert f"{mg.tensor([1.0, 2.0])}" == text("tensor([1., 2.])")
    assert f"{mg.nn.Parameter(mg.tensor(1.5))}" == text(
        "Parameter containing:\ntensor(1.5000, requires_grad=True)"
    )
    refused = r"^unsupported format string passed to Tensor\.__format__$"
    with pytest.raises(TypeError, match=refused):
        f"{mg.tensor([1.5]):.2f}"
