"""nn.utils: gradient clipping and parameters <-> vector (PyTorch's values and versions)."""

import math

import pytest
from _backend import mg

nn = mg.nn


def params_with_grads(*grads):
    params = []
    for grad in grads:
        param = nn.Parameter(mg.zeros(len(grad)))
        param.grad = mg.tensor(grad)
        params.append(param)
    return params


def test_clip_grad_norm_scales_all_gradients_by_one_factor():
    a, b = params_with_grads([3.0, 0.0], [0.0, 4.0])
    total = nn.utils.clip_grad_norm_([a, b], max_norm=1.0)
    assert total.item() == pytest.approx(5.0)
    assert a.grad.tolist() == pytest.approx([0.6, 0.0], abs=1e-6)
    assert b.grad.tolist() == pytest.approx([0.0, 0.8], abs=1e-6)
    assert a.grad._version == 1  # one in-place multiplication


def test_clip_grad_norm_below_the_limit_still_multiplies_once():
    (a,) = params_with_grads([0.3, 0.4])
    total = nn.utils.clip_grad_norm_(a, max_norm=10.0)  # a single tensor is accepted too
    assert total.item() == pytest.approx(0.5)
    assert a.grad.tolist() == pytest.approx([0.3, 0.4])
    assert a.grad._version == 1


def test_clip_grad_norm_other_norms_and_edge_cases():
    a, b = params_with_grads([3.0, -7.0], [1.0, 2.0])
    assert nn.utils.clip_grad_norm_([a, b], 1.0, norm_type="inf").item() == 7.0
    assert a.grad.tolist() == pytest.approx([3 / 7, -1.0], abs=1e-6)
    (c,) = params_with_grads([1.0, 1.0])
    assert nn.utils.clip_grad_norm_([c], 1.0, norm_type=1).item() == 2.0
    assert nn.utils.clip_grad_norm_([nn.Parameter(mg.ones(1))], 1.0).item() == 0.0
    (bad,) = params_with_grads([math.inf, 1.0])
    with pytest.raises(RuntimeError) as excinfo:
        nn.utils.clip_grad_norm_([bad], 1.0, error_if_nonfinite=True)
    assert str(excinfo.value) == (
        "The total norm of order 2.0 for gradients from `parameters` is non-finite, so it "
        "cannot be clipped. To disable this error and scale the gradients by the non-finite "
        "norm anyway, set `error_if_nonfinite=False`"
    )


def test_clip_grad_value_clamps_in_place_twice():
    (a,) = params_with_grads([5.0, -0.5, -3.0])
    assert nn.utils.clip_grad_value_([a], 1.0) is None
    assert a.grad.tolist() == [1.0, -0.5, -1.0]
    assert a.grad._version == 2  # clamp_min_ then clamp_max_, as PyTorch's foreach path


def test_parameters_to_vector_and_back():
    layer = nn.Linear(2, 1)
    vector = nn.utils.parameters_to_vector(layer.parameters())
    assert vector.shape == (3,) and vector.grad_fn is not None
    vector.sum().backward()
    assert layer.weight.grad.tolist() == [[1.0, 1.0]]
    nn.utils.vector_to_parameters(mg.tensor([1.0, 2.0, 3.0]), layer.parameters())
    assert layer.weight.tolist() == [[1.0, 2.0]] and layer.bias.tolist() == [3.0]
    with pytest.raises(TypeError) as excinfo:
        nn.utils.vector_to_parameters([1.0], layer.parameters())
    assert str(excinfo.value).startswith("expected ") and str(excinfo.value).endswith(
        "Tensor, but got: list"
    )
