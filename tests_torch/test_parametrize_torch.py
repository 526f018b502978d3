# ruff: noqa: B023 - the lambdas are called at once, inside the loop that binds them
"""nn.utils.parametrize, nn.utils.parametrizations and the legacy weight/spectral norm hooks,
side by side with PyTorch: modules built in both libraries with PyTorch's state loaded into
minigrad's (so the power iteration starts from PyTorch's u and v), then classes, reprs,
state_dict keys, parametrized values, gradients, warnings and errors compared.
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


def rand(*shape, seed=0):
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float32)


def close(mine, theirs, what, rtol=1e-4, atol=1e-5):
    np.testing.assert_allclose(
        mine.detach().numpy(), theirs.detach().numpy(), rtol=rtol, atol=atol, err_msg=what
    )


def load_into(mine, theirs):
    """PyTorch's state (its metadata too) loaded into minigrad's module; the keys must agree."""
    state = theirs.state_dict()
    assert list(mine.state_dict()) == list(state)
    converted = type(state)((k, minigrad.tensor(v.detach().numpy())) for k, v in state.items())
    converted._metadata = state._metadata
    mine.load_state_dict(converted)


def build(make, parametrize):
    """The same module in both libraries, parametrized, with PyTorch's state loaded."""
    torch.manual_seed(0)
    theirs = parametrize(torch, make(torch))
    mine = parametrize(minigrad, make(minigrad))
    load_into(mine, theirs)
    assert type(mine).__name__ == type(theirs).__name__
    assert repr(mine) == repr(theirs)
    return mine, theirs


def forward_backward(mine, theirs, shape, calls=1, seed=0):
    """Run both modules ``calls`` times on the same input; compare outputs and gradients."""
    for call in range(calls):
        outs = []
        for lib, module in ((minigrad, mine), (torch, theirs)):
            module.zero_grad()
            x = lib.tensor(rand(*shape, seed=seed + call))
            out = module(x)
            (out * lib.tensor(rand(*out.shape, seed=99))).sum().backward()
            outs.append(out)
        close(outs[0], outs[1], f"output of call {call}")
        for (name, p_mine), (_, p_theirs) in zip(
            mine.named_parameters(), theirs.named_parameters(), strict=True
        ):
            close(p_mine.grad, p_theirs.grad, f"gradient of {name} at call {call}")
        for (name, b_mine), (_, b_theirs) in zip(
            mine.named_buffers(), theirs.named_buffers(), strict=True
        ):
            close(b_mine, b_theirs, f"buffer {name} at call {call}")


def symmetric(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, x):
            return x.triu() + x.triu(1).transpose(-1, -2)

        def right_inverse(self, a):
            return a.triu()

    return Symmetric()


# ------------------------------------------------------------------------------------------
# parametrize
# ------------------------------------------------------------------------------------------


def test_a_custom_parametrization_matches_pytorch():
    def parametrize(lib, module):
        lib.nn.utils.parametrize.register_parametrization(module, "weight", symmetric(lib))
        return module

    mine, theirs = build(lambda lib: lib.nn.Linear(4, 4), parametrize)
    assert mine.weight.grad_fn.name() == theirs.weight.grad_fn.name() == "AddBackward0"
    forward_backward(mine, theirs, (3, 4))
    for lib, module in ((minigrad, mine), (torch, theirs)):
        pz = lib.nn.utils.parametrize
        assert pz.is_parametrized(module) and pz.is_parametrized(module, "weight")
        assert not pz.is_parametrized(module, "bias")
        assert pz.type_before_parametrizations(module) is lib.nn.Linear
        assert isinstance(module, lib.nn.Linear)
    # assignment runs right_inverse: original takes triu(value), one version bump each
    value = rand(4, 4, seed=5)
    bumps = []
    for lib, module in ((minigrad, mine), (torch, theirs)):
        before = module.parametrizations.weight.original._version
        module.weight = lib.tensor(value)
        bumps.append(module.parametrizations.weight.original._version - before)
    close(mine.parametrizations.weight.original, theirs.parametrizations.weight.original, "set")
    assert bumps[0] == bumps[1] == 1


def test_chained_parametrizations_cached_and_removed_as_in_pytorch():
    class Double:
        def __call__(self, lib):
            class Double(lib.nn.Module):
                def forward(self, x):
                    return 2 * x

            return Double()

    def parametrize(lib, module):
        pz = lib.nn.utils.parametrize
        pz.register_parametrization(module, "weight", symmetric(lib))
        pz.register_parametrization(module, "weight", Double()(lib))
        pz.register_parametrization(module, "bias", Double()(lib))
        return module

    mine, theirs = build(lambda lib: lib.nn.Linear(3, 3), parametrize)
    forward_backward(mine, theirs, (2, 3))
    with minigrad.nn.utils.parametrize.cached():
        assert mine.weight is mine.weight
    assert mine.weight is not mine.weight
    for lib, module in ((minigrad, mine), (torch, theirs)):
        pz = lib.nn.utils.parametrize
        pz.remove_parametrizations(module, "weight", leave_parametrized=True)
        assert type(module).__name__ == "ParametrizedLinear"
        pz.remove_parametrizations(module, "bias", leave_parametrized=False)
        assert type(module) is lib.nn.Linear and not hasattr(module, "parametrizations")
    assert list(mine.state_dict()) == list(theirs.state_dict()) == ["weight", "bias"]
    close(mine.weight, theirs.weight, "weight left parametrized")
    close(mine.bias, theirs.bias, "bias given back")


def test_parametrize_errors_match_pytorch():
    def to_double(lib):
        class ToDouble(lib.nn.Module):
            def forward(self, x):
                return x.double()

        return ToDouble()

    def flat(lib):
        class Flat(lib.nn.Module):
            def forward(self, x):
                return x.flatten()

        return Flat()

    def no_inverse(lib):
        class NoInverse(lib.nn.Module):
            def forward(self, x):
                return x

        return NoInverse()

    seen = []
    for lib in (minigrad, torch):
        pz = lib.nn.utils.parametrize
        results = [
            outcome(
                lambda: pz.register_parametrization(lib.nn.Linear(2, 2), "nope", no_inverse(lib))
            ),
            outcome(
                lambda: pz.register_parametrization(lib.nn.Linear(2, 2), "weight", to_double(lib))
            ),
            outcome(lambda: pz.register_parametrization(lib.nn.Linear(2, 2), "weight", flat(lib))),
            outcome(lambda: pz.remove_parametrizations(lib.nn.Linear(2, 2), "weight")),
            outcome(lambda: pz.ParametrizationList([], lib.zeros(2))),
        ]
        layer = pz.register_parametrization(lib.nn.Linear(2, 2), "weight", no_inverse(lib))
        results.append(outcome(lambda: setattr(layer, "weight", lib.zeros(2, 2))))
        chained = pz.register_parametrization(lib.nn.Linear(2, 2), "weight", no_inverse(lib))
        results.append(
            outcome(
                lambda: pz.register_parametrization(
                    chained,
                    "weight",
                    flat(lib),
                )
            )
        )
        seen.append(results)
    assert seen[0] == seen[1]


# ------------------------------------------------------------------------------------------
# parametrizations: weight_norm, spectral_norm, orthogonal
# ------------------------------------------------------------------------------------------


WEIGHT_NORM_CASES = [
    (lambda lib: lib.nn.Linear(3, 4), 0, (2, 3)),
    (lambda lib: lib.nn.Linear(3, 4), 1, (2, 3)),
    (lambda lib: lib.nn.Linear(3, 4), None, (2, 3)),
    (lambda lib: lib.nn.Conv2d(2, 3, 3), 0, (2, 2, 5, 5)),
    (lambda lib: lib.nn.Conv2d(2, 3, 3), 2, (2, 2, 5, 5)),
]


@pytest.mark.parametrize(("make", "dim", "shape"), WEIGHT_NORM_CASES)
def test_weight_norm_matches_pytorch(make, dim, shape):
    def parametrize(lib, module):
        return lib.nn.utils.parametrizations.weight_norm(module, dim=dim)

    mine, theirs = build(make, parametrize)
    assert mine.weight.grad_fn.name() == theirs.weight.grad_fn.name()
    forward_backward(mine, theirs, shape)


def test_weight_norm_loads_a_legacy_state_dict_as_pytorch():
    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        legacy = torch.nn.utils.weight_norm(torch.nn.Linear(3, 2))
    state = {k: minigrad.tensor(v.detach().numpy()) for k, v in legacy.state_dict().items()}
    mine = minigrad.nn.utils.parametrizations.weight_norm(minigrad.nn.Linear(3, 2))
    theirs = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(3, 2))
    assert repr(mine.load_state_dict(state)) == repr(theirs.load_state_dict(legacy.state_dict()))
    forward_backward(mine, theirs, (4, 3))


SPECTRAL_CASES = [
    (lambda lib: lib.nn.Linear(5, 4), {}, (2, 5)),
    (lambda lib: lib.nn.Conv2d(2, 3, 3), {"n_power_iterations": 2}, (2, 2, 5, 5)),
    (lambda lib: lib.nn.ConvTranspose2d(3, 2, 2), {}, (1, 3, 3, 3)),
    (lambda lib: lib.nn.Conv1d(2, 3, 3), {"dim": -1, "eps": 1e-6}, (2, 2, 6)),
]


@pytest.mark.parametrize(("make", "kwargs", "shape"), SPECTRAL_CASES)
def test_spectral_norm_matches_pytorch_through_training_steps(make, kwargs, shape):
    def parametrize(lib, module):
        return lib.nn.utils.parametrizations.spectral_norm(module, **kwargs)

    mine, theirs = build(make, parametrize)
    forward_backward(mine, theirs, shape, calls=3)  # each call: a power-iteration step
    mine.eval()
    theirs.eval()
    forward_backward(mine, theirs, shape, calls=1)


def test_spectral_norm_of_a_vector_and_its_errors_match_pytorch():
    def parametrize(lib, module):
        return lib.nn.utils.parametrizations.spectral_norm(module, "bias")

    mine, theirs = build(lambda lib: lib.nn.Linear(3, 4), parametrize)
    forward_backward(mine, theirs, (2, 3))
    seen = [
        [
            outcome(
                lambda: lib.nn.utils.parametrizations.spectral_norm(lib.nn.Linear(2, 2), "nope")
            ),
            outcome(
                lambda: lib.nn.utils.parametrizations.spectral_norm(lib.nn.Linear(2, 2), dim=2)
            ),
            outcome(
                lambda: lib.nn.utils.parametrizations.spectral_norm(
                    lib.nn.Linear(2, 2), n_power_iterations=0
                )
            ),
        ]
        for lib in (minigrad, torch)
    ]
    assert seen[0] == seen[1]


ORTHOGONAL_CASES = [
    ((4, 4), None, True),
    ((4, 4), "cayley", True),
    ((5, 3), None, True),  # householder, base from a random completion: loaded from PyTorch
    ((3, 5), "matrix_exp", True),
    ((4, 3), "householder", False),
    ((3, 4), "householder", False),
]


@pytest.mark.parametrize(("shape", "orthogonal_map", "trivialization"), ORTHOGONAL_CASES)
def test_orthogonal_matches_pytorch(shape, orthogonal_map, trivialization):
    out_features, in_features = shape

    def parametrize(lib, module):
        return lib.nn.utils.parametrizations.orthogonal(
            module, orthogonal_map=orthogonal_map, use_trivialization=trivialization
        )

    mine, theirs = build(lambda lib: lib.nn.Linear(in_features, out_features), parametrize)
    close(mine.weight, theirs.weight, "orthogonal weight")
    forward_backward(mine, theirs, (2, in_features))


def test_orthogonal_right_inverse_without_trivialization_matches_pytorch():
    value = rand(4, 3, seed=3)
    results = []
    for lib in (minigrad, torch):
        layer = lib.nn.utils.parametrizations.orthogonal(
            lib.nn.Linear(3, 4), orthogonal_map="householder", use_trivialization=False
        )
        q, _ = np.linalg.qr(value)
        layer.weight = lib.tensor(q.astype(np.float32))
        results.append(layer.weight)
    close(results[0], results[1], "weight after assigning an orthogonal matrix", atol=1e-4)


def test_orthogonal_errors_match_pytorch():
    seen = [
        [
            outcome(lambda: lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(2, 2), "bias")),
            outcome(
                lambda: lib.nn.utils.parametrizations.orthogonal(
                    lib.nn.Linear(2, 2), orthogonal_map="qr"
                )
            ),
            outcome(lambda: lib.nn.utils.parametrizations.orthogonal(lib.nn.Linear(2, 2), "nope")),
        ]
        for lib in (minigrad, torch)
    ]
    assert seen[0] == seen[1]


# ------------------------------------------------------------------------------------------
# the legacy hooks
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dim", [0, 1, None])
def test_legacy_weight_norm_matches_pytorch(dim):
    messages = []

    def parametrize(lib, module):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.utils.weight_norm(module, dim=dim)
        messages.append([(w.category, str(w.message).replace("torch", "minigrad")) for w in caught])
        return module

    mine, theirs = build(lambda lib: lib.nn.Linear(3, 4), parametrize)
    assert messages[0] == messages[1]
    forward_backward(mine, theirs, (2, 3), calls=2)
    for lib, module in ((minigrad, mine), (torch, theirs)):
        lib.nn.utils.remove_weight_norm(module)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    close(mine.weight, theirs.weight, "weight after remove_weight_norm")
    seen = [
        outcome(lambda: lib.nn.utils.remove_weight_norm(lib.nn.Linear(2, 2)))
        for lib in (minigrad, torch)
    ]
    assert seen[0] == seen[1]


@pytest.mark.parametrize(
    ("make", "shape"),
    [
        (lambda lib: lib.nn.Linear(5, 4), (2, 5)),
        (lambda lib: lib.nn.ConvTranspose1d(3, 2, 2), (2, 3, 4)),
    ],
)
def test_legacy_spectral_norm_matches_pytorch(make, shape):
    def parametrize(lib, module):
        return lib.nn.utils.spectral_norm(module)

    mine, theirs = build(make, parametrize)
    assert mine.state_dict()._metadata == theirs.state_dict()._metadata
    forward_backward(mine, theirs, shape, calls=3)
    for lib, module in ((minigrad, mine), (torch, theirs)):
        lib.nn.utils.remove_spectral_norm(module)
    assert list(mine.state_dict()) == list(theirs.state_dict())
    close(mine.weight, theirs.weight, "weight after remove_spectral_norm")
    seen = [
        [
            outcome(lambda: lib.nn.utils.remove_spectral_norm(lib.nn.Linear(2, 2))),
            outcome(
                lambda: lib.nn.utils.spectral_norm(lib.nn.utils.spectral_norm(lib.nn.Linear(2, 2)))
            ),
        ]
        for lib in (minigrad, torch)
    ]
    assert seen[0] == seen[1]


def test_legacy_spectral_norm_reads_a_version_0_state_dict_as_pytorch():
    torch.manual_seed(0)
    theirs = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 4))  # W^T W invertible
    theirs(torch.randn(2, 3))
    old = theirs.state_dict()
    old["weight"] = theirs.weight.detach().clone()  # version 0 stored the weight, not v
    del old["weight_v"]
    old._metadata[""]["spectral_norm"]["weight.version"] = 0
    mine = minigrad.nn.utils.spectral_norm(minigrad.nn.Linear(3, 4))
    target = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 4))
    converted = type(old)((k, minigrad.tensor(v.numpy())) for k, v in old.items())
    converted._metadata = old._metadata
    mine.load_state_dict(converted)
    target.load_state_dict(old)
    close(mine.weight_v, target.weight_v, "v recovered from a version-0 state_dict", atol=1e-4)


def test_transfer_parametrizations_and_params_matches_pytorch():
    results = []
    for lib in (minigrad, torch):
        torch.manual_seed(0)
        source = lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(3, 2))
        lib.nn.utils.parametrize.register_parametrization(source, "bias", symmetric_vector(lib))
        target = lib.nn.utils.parametrize.transfer_parametrizations_and_params(
            source, lib.nn.Linear(3, 2)
        )
        shared = [
            target.parametrizations.weight.original0 is source.parametrizations.weight.original0,
            target.parametrizations.bias.original is source.parametrizations.bias.original,
        ]
        results.append((type(target).__name__, list(target.state_dict()), shared, repr(target)))
    assert results[0] == results[1]


def symmetric_vector(lib):
    class Flip(lib.nn.Module):
        def forward(self, x):
            return x + x.flip(0)

    return Flip()
