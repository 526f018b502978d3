"""Dropout variants, instance/local response norm, the extra losses and the transformer decoder
side by side with PyTorch: modules built in both libraries with PyTorch's state copied in, then
outputs, gradients, running statistics, reprs, state-dict keys and errors compared.

Dropout's random masks differ between the libraries: here only what is deterministic (eval
mode, p = 0, p = 1, the warnings and errors); tests/test_nn_misc.py checks the masks.
"""

import warnings

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")
torch.set_num_threads(1)


def outcome(call):
    """What a call gives: its value, or the exception's type and text (torch -> minigrad)."""
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - the exception is the outcome compared
        return type(exc).__name__, str(exc).replace("torch", "minigrad")


def same_text(value):
    return str(value).replace("torch", "minigrad")


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def close(mine, theirs, what, rtol=1e-4, atol=1e-5):
    np.testing.assert_allclose(
        mine.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol, err_msg=what
    )


def build(make):
    """The same module in both libraries, PyTorch's initial state copied into minigrad's."""
    torch.manual_seed(0)
    theirs = make(torch)
    mine = make(minigrad)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    state = {k: minigrad.tensor(v.detach().numpy()) for k, v in theirs.state_dict().items()}
    mine.load_state_dict(state)
    return mine, theirs


def run_both(mine, theirs, shape, *, transposed=False, seed=0):
    """Forward and backward (a random output gradient) in both; the outputs and inputs."""
    results = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        x = lib.tensor(rand(*shape, seed=seed))
        if transposed:
            x = x.transpose(-1, -2).contiguous().transpose(-1, -2)
        x.requires_grad_(True)
        out = module(x)
        (out * lib.tensor(rand(*out.shape, seed=seed + 1))).sum().backward()
        results.append((out, x))
    return results


def compare_parameters(mine, theirs):
    for (name, a), (_, b) in zip(mine.named_parameters(), theirs.named_parameters(), strict=True):
        close(a.grad, b.grad, name)
    for (name, a), (_, b) in zip(mine.named_buffers(), theirs.named_buffers(), strict=True):
        close(a, b, name)


# ---- dropout ---------------------------------------------------------------------------------


DROPOUT_MODULES = ("Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout")


def test_dropout_modules_match_pytorch_where_nothing_is_random():
    def story(lib):
        nn = lib.nn
        seen = [repr(getattr(nn, name)(0.25, inplace=True)) for name in DROPOUT_MODULES]
        seen += [outcome(lambda name=name: getattr(nn, name)(1.5)) for name in DROPOUT_MODULES]
        for name in DROPOUT_MODULES:
            x = lib.tensor(rand(2, 3, 2) if name == "Dropout1d" else rand(2, 3, 2, 2))
            x.requires_grad_()
            module = getattr(nn, name)(0.5)
            seen.append(module.eval()(x) is x)
            zeros = getattr(nn, name)(1.0)(x)  # p = 1: all zeros, through MulBackward0
            seen += [zeros.tolist(), zeros.grad_fn.name()]
        return [same_text(value) for value in seen]

    assert story(minigrad) == story(torch)


def test_feature_dropout_warnings_and_errors_match_pytorch():
    def story(lib):
        F = lib.nn.functional
        seen = []
        for function, shape in (
            ("dropout1d", (3,)),
            ("dropout1d", (2, 3, 4, 5)),
            ("dropout2d", (2, 3)),
            ("dropout2d", (3,)),
            ("dropout2d", (2, 3, 4)),
            ("dropout2d", (1, 2, 3, 4, 5)),
            ("dropout3d", (3, 4)),
            ("dropout3d", ()),
            ("feature_alpha_dropout", (3,)),
        ):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = outcome(
                    lambda f=function, s=shape: tuple(getattr(F, f)(lib.ones(s), 0.5, True).shape)
                )
            seen.append(
                (function, shape, same_text(result), [same_text(w.message) for w in caught])
            )
        return seen

    assert story(minigrad) == story(torch)


# ---- instance norm, local response norm, BatchNorm3d ----------------------------------------


NORM_CASES = {
    # name: (make, input shape)
    "instance1d": (lambda t: t.nn.InstanceNorm1d(3), (2, 3, 5)),
    "instance1d-affine-unbatched": (lambda t: t.nn.InstanceNorm1d(3, affine=True), (3, 5)),
    "instance2d-tracked": (
        lambda t: t.nn.InstanceNorm2d(4, momentum=0.3, affine=True, track_running_stats=True),
        (2, 4, 3, 3),
    ),
    "instance3d-no-bias-tracked-cumulative": (
        lambda t: t.nn.InstanceNorm3d(
            2, affine=True, bias=False, momentum=None, track_running_stats=True
        ),
        (2, 2, 2, 3, 2),
    ),
    "batchnorm3d": (lambda t: t.nn.BatchNorm3d(3, momentum=0.2), (2, 3, 2, 2, 3)),
    "local-response-3d": (lambda t: t.nn.LocalResponseNorm(3), (2, 6, 4)),
    "local-response-4d": (lambda t: t.nn.LocalResponseNorm(2, 0.5, 0.6, 1.5), (2, 5, 3, 3)),
}


@pytest.mark.parametrize("case", sorted(NORM_CASES))
def test_norm_modules_match_pytorch(case):
    make, shape = NORM_CASES[case]
    mine, theirs = build(make)
    assert repr(mine) == repr(theirs)
    for step in range(2):  # training twice (running statistics move), then eval
        (out, x), (their_out, their_x) = run_both(
            mine, theirs, shape, transposed=step == 1, seed=step
        )
        close(out, their_out, "output")
        assert out.grad_fn.name() == their_out.grad_fn.name()
        close(x.grad, their_x.grad, "input grad")
        compare_parameters(mine, theirs)
    mine.eval()
    theirs.eval()
    (out, _), (their_out, _) = run_both(mine, theirs, shape, seed=5)
    close(out, their_out, "eval output")


def test_norm_module_errors_and_warnings_match_pytorch():
    def story(lib):
        nn = lib.nn
        seen = []
        for call in (
            lambda: nn.InstanceNorm1d(3)(lib.ones(3)),
            lambda: nn.InstanceNorm2d(3)(lib.ones(2, 3, 4, 5, 6)),
            lambda: nn.InstanceNorm3d(3, affine=True)(lib.ones(2, 4, 2, 2, 2)),
            lambda: nn.InstanceNorm1d(3)(lib.ones(2, 4, 5)),
            lambda: nn.InstanceNorm2d(3)(lib.ones(4, 5, 5)),
            lambda: nn.InstanceNorm1d(3)(lib.ones(2, 3, 1)),
            lambda: nn.InstanceNorm1d(3, track_running_stats=True).eval()(lib.ones(2, 3, 1)),
            lambda: nn.BatchNorm3d(3)(lib.ones(2, 3, 4, 5)),
            lambda: nn.LocalResponseNorm(2)(lib.ones(2, 3)),
            lambda: nn.LocalResponseNorm(2)(lib.ones(0, 3, 2)).shape,
        ):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                result = outcome(call)
            seen.append((same_text(result), [same_text(w.message) for w in caught]))
        seen.append(list(nn.InstanceNorm2d(3, affine=True).state_dict()))
        seen.append(list(nn.InstanceNorm2d(3).state_dict()))
        return seen

    assert story(minigrad) == story(torch)
