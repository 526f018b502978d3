# ruff: noqa: B023 - the lambdas are called at once, inside the loop that binds them
"""minigrad.func and nn.utils.stateless side by side with torch.func: gradients, values, aux
outputs, Jacobians and Hessians of the same functions on the same inputs, forward-mode products
(jvp, jacfwd, linearize) and their nesting with the reverse transforms, functional calls of
modules with PyTorch's state, and the errors of bad argnums, outputs, cotangents and tangents.
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
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float64)


def same(mine, theirs, what=""):
    """Equal pytrees of tensors (to float64 precision) or equal plain values."""
    if isinstance(theirs, (tuple, list)):
        assert type(mine) is type(theirs) and len(mine) == len(theirs), what
        for a, b in zip(mine, theirs, strict=True):
            same(a, b, what)
    elif isinstance(theirs, dict):
        assert list(mine) == list(theirs), what
        for key in theirs:
            same(mine[key], theirs[key], what)
    elif isinstance(theirs, torch.Tensor):
        assert tuple(mine.shape) == tuple(theirs.shape), what
        assert mine.requires_grad == theirs.requires_grad, what
        np.testing.assert_allclose(
            mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-10, atol=1e-12, err_msg=what
        )
    else:
        assert mine == theirs, what


def both(make_call, *arrays):
    """``make_call(lib)(*tensors)`` in both libraries on the same float64 inputs."""
    results = []
    for lib in (minigrad, torch):
        tensors = [lib.tensor(a) for a in arrays]
        with warnings.catch_warnings():  # torch.func's jacfwd path warns about torch.jit
            warnings.simplefilter("ignore", DeprecationWarning)
            # (and its linearize's make_fx about a constant it folds)
            warnings.filterwarnings("ignore", "Attempted to insert a get_attr", UserWarning)
            results.append(outcome(lambda: make_call(lib)(*tensors)))
    return results


def same_outcomes(cases, *arrays):
    """Each ``make`` of ``cases`` gives the same value or the same error in both libraries."""
    for make in cases:
        mine, theirs = both(make, *arrays)
        if isinstance(theirs, tuple) and isinstance(theirs[0], str):
            assert mine == theirs
        else:
            same(mine, theirs)


def f_scalar(lib):
    return lambda x, y: (lib.sin(x) * y).sum() + (x**3).sum()


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (1, 0), -1])
def test_grad_and_grad_and_value_match_pytorch(argnums):
    x, y = rand(3), rand(3, seed=1)
    same(*both(lambda lib: lib.func.grad(f_scalar(lib), argnums=argnums), x, y))
    same(*both(lambda lib: lib.func.grad_and_value(f_scalar(lib), argnums=argnums), x, y))


def test_grad_with_aux_pytrees_and_nesting_match_pytorch():
    x = rand(2, 3)

    def with_aux(lib):
        return lib.func.grad(lambda p: ((p["a"] * p["b"][0]).sum(), p["a"] * 2), has_aux=True)

    for lib_results in [both(lambda lib: lambda a: with_aux(lib)({"a": a, "b": [a + 1]}), x)]:
        same(*lib_results)
    second = both(
        lambda lib: lib.func.grad(lib.func.grad(lambda t: lib.sin(t).sum() if t.dim() == 0 else t)),
        rand(),
    )
    same(*second)
    third = both(lambda lib: lib.func.grad(lib.func.grad(lib.func.grad(lib.tanh))), rand())
    same(*third)


def test_grad_composes_with_ordinary_autograd_as_in_pytorch():
    results = []
    for lib in (minigrad, torch):
        w = lib.tensor(rand(3), requires_grad=True)
        g = lib.func.grad(lambda x: (w * x**2).sum())(lib.tensor(rand(3, seed=1)))
        g.sum().backward()
        results.append((g, w.grad))
    same(*results)


def test_vjp_jacrev_and_hessian_match_pytorch():
    x, y = rand(3), rand(3, seed=1)
    for make in (
        lambda lib: (
            lambda a, b: lib.func.vjp(lambda s, t: (s * t, s.exp()), a, b)[1](
                (lib.ones(3, dtype=lib.float64), a)
            )
        ),
        lambda lib: lambda a, b: lib.func.vjp(lambda s: s**2, a)[0],
        lambda lib: lambda a, b: lib.func.vjp(lambda s: (s**2, s.sum()), a, has_aux=True)[2],
        lambda lib: lambda a, b: lib.func.jacrev(lambda s, t: s[:, None] * t)(a, b),
        lambda lib: lambda a, b: lib.func.jacrev(lambda s, t: (s * t, s.sum()), (0, 1))(a, b),
        lambda lib: lambda a, b: lib.func.jacrev(lambda s: (s.exp(), s.cos()), has_aux=True)(a),
        lambda lib: lambda a, b: lib.func.hessian(lambda s, t: (s**3 * t).sum())(a, b),
        lambda lib: (
            lambda a, b: lib.func.hessian(lambda s, t: (s**2 * t**2).sum(), argnums=(0, 1))(a, b)
        ),
    ):
        same(*both(make, x, y))


def test_transform_errors_match_pytorch():
    x = rand(3)
    cases = [
        lambda lib: lib.func.grad(lambda t: t),
        lambda lib: lib.func.grad(lambda t: t.sum().item()),
        lambda lib: lib.func.grad(lambda t: (t.sum(), 1)),
        lambda lib: lib.func.grad(lambda t: t.sum(), has_aux=True),
        lambda lib: lib.func.grad(lambda t: t.sum(), argnums=1),
        lambda lib: lib.func.grad(lambda t: t.sum(), argnums=1.5),
        lambda lib: lib.func.grad(lambda t: t.sum(), argnums=()),
        lambda lib: lambda t: lib.func.grad(lambda a, b: a.sum(), argnums=(0, -2))(t, t),
        lambda lib: lambda t: lib.func.grad(lambda a: a.sum())(3.0),
        lambda lib: lambda t: lib.func.grad(lambda a: a.sum())(t.long()),
        lambda lib: lambda t: lib.func.vjp(lambda a: 3, t),
        lambda lib: lambda t: lib.func.vjp(lambda a: a * 2, t)[1](lib.ones(2, dtype=t.dtype)),
        lambda lib: lambda t: lib.func.vjp(lambda a: (a, a), t)[1](t),
        lambda lib: lambda t: lib.func.jacrev(lambda a: a, argnums=1)(t),
    ]
    same_outcomes(cases, x)


# --- forward-mode transforms: jvp, jacfwd, linearize (minigrad: the double-backward trick) ---

FORWARD_FUNCTIONS = {
    "elementwise": lambda lib: lambda a, b: lib.sin(a) * lib.exp(b) + a**3,
    "reduction": lambda lib: lambda a, b: (a * b).sum() + a.mean() * b.amax(),
    "matmul": lambda lib: lambda a, b: a.reshape(3, 2) @ b.reshape(2, 3),
    "broadcasting": lambda lib: lambda a, b: a[:, None] * b.tanh() - b[0],
    "several outputs": lambda lib: lambda a, b: (a * b, {"s": (a**2).sum()}, [b.exp()]),
    "independent output": lambda lib: lambda a, b: (a * b, lib.ones(2, dtype=lib.float64)),
}


@pytest.mark.parametrize("name", FORWARD_FUNCTIONS)
def test_jvp_jacfwd_and_linearize_values_match_pytorch(name):
    make = FORWARD_FUNCTIONS[name]
    x, y, u, v = rand(6), rand(6, seed=1), rand(6, seed=2), rand(6, seed=3)
    same(*both(lambda lib: lambda a, b, s, t: lib.func.jvp(make(lib), (a, b), (s, t)), x, y, u, v))
    for argnums in (0, 1, (0, 1), (1, 0)):
        same(*both(lambda lib: lib.func.jacfwd(make(lib), argnums=argnums), x, y), argnums)
    same(*both(lambda lib: lambda a, b, s, t: lib.func.linearize(make(lib), a, b)[1](s, t),
               x, y, u, v))
    same(*both(lambda lib: lambda a, b: lib.func.linearize(make(lib), a, b)[0], x, y))


def test_forward_transforms_with_aux_and_pytrees_match_pytorch():
    x, y = rand(2, 3), rand(2, 3, seed=1)

    def f(p):
        return (p["a"] * p["b"][0]).sin(), {"aux": p["a"].sum()}

    same(*both(lambda lib: lambda a, b: lib.func.jvp(f, ({"a": a, "b": [b]},),
                                                     ({"a": b, "b": [a]},), has_aux=True), x, y))
    same(*both(lambda lib: lambda a, b: lib.func.jacfwd(f, has_aux=True)({"a": a, "b": [b]}),
               x, y))
    same(*both(lambda lib: lambda a, b: lib.func.linearize(lambda p: f(p)[0],
                                                           {"a": a, "b": [b]})[1](
                                                               {"a": b, "b": [a]}), x, y))


def test_forward_transforms_nest_with_reverse_ones_as_in_pytorch():
    x, y = rand(3), rand(3, seed=1)

    def f(lib):
        return lambda a: (lib.sin(a) * a.exp()).sum() + (a[:, None] * a).pow(2).sum()

    for make in (
        lambda lib: lib.func.hessian(f(lib)),
        lambda lib: lib.func.jacfwd(lib.func.jacrev(f(lib))),
        lambda lib: lib.func.jacrev(lib.func.jacfwd(f(lib))),
        lambda lib: lib.func.jacfwd(lib.func.jacfwd(f(lib))),
        lambda lib: lib.func.jacfwd(lib.func.grad(f(lib))),
        lambda lib: lib.func.grad(lambda a: lib.func.jvp(f(lib), (a,), (a.cos(),))[1]),
        lambda lib: lambda a: lib.func.jvp(lib.func.grad(f(lib)), (a,), (a * 2,)),
        lambda lib: lambda a: lib.func.vjp(
            lambda b: lib.func.jvp(lambda c: c.sin() * c, (b,), (b,))[1], a)[1](a.exp()),
        lambda lib: lambda a: lib.func.jvp(
            lambda b: lib.func.vjp(lambda c: c.sin() * c, b)[1](b.exp())[0], (a,), (a,)),
    ):
        same(*both(make, x))
    same(*both(lambda lib: lib.func.hessian(lambda a, b: (a**2 * b.sin()).sum(), argnums=(0, 1)),
               x, y))


def test_forward_transforms_compose_with_ordinary_autograd_as_in_pytorch():
    results = []
    for lib in (minigrad, torch):
        w = lib.tensor(rand(3), requires_grad=True)
        x, v = lib.tensor(rand(3, seed=1)), lib.tensor(rand(3, seed=2))
        _, tangent = lib.func.jvp(lambda a: (w * a).sin(), (x,), (v,))
        tangent.sum().backward()
        jacobian = lib.func.jacfwd(lambda a: w * a**2)(x)
        results.append((tangent.detach(), w.grad, jacobian.detach()))
    same(*results)


def test_forward_transform_errors_match_pytorch():
    x = rand(3)
    cases = [
        lambda lib: lambda t: lib.func.jvp(lib.sin, [t], [t]),
        lambda lib: lambda t: lib.func.jvp(lib.sin, t, t),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (t,), [t]),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (t,), t),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (t,), (t[:2],)),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (t,), (t.long(),)),
        lambda lib: lambda t: lib.func.jvp(lambda a: a * 2, (t.long(),), (t.long(),)),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (), ()),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (1.0,), (1.0,)),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (t,), (1.0,)),
        lambda lib: lambda t: lib.func.jvp(lambda d: d["a"], ({"a": t, "b": t},), ({"a": t},)),
        lambda lib: lambda t: lib.func.jvp(lib.sin, (t,), (t,), has_aux=True),
        lambda lib: lambda t: lib.func.jvp(lambda a: (a.sin(), 3), (t,), (t,), has_aux=True),
        lambda lib: lambda t: lib.func.jvp(lambda a: 3, (t,), (t,)),
        lambda lib: lambda t: lib.func.jvp(lambda a: None, (t,), (t,)),
        lambda lib: lambda t: lib.func.jvp(lambda a: (), (t,), (t,)),
        lambda lib: lambda t: lib.func.jvp(lambda a: a > 0, (t,), (t,)),
        lambda lib: lambda t: lib.func.jvp(lambda a: lib.ones(2), (t,), (t,), strict=True),
        lambda lib: lambda t: lib.func.jvp(lambda a: a, (t,), (t * 3,), strict=True),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a * 2)(1.0),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a, randomness="x")(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a, argnums=3, randomness="x")(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a, argnums=[0])(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a * lib.rand(3, dtype=a.dtype))(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: lib.nn.functional.dropout(a, 0.5))(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a.bernoulli())(t.sigmoid()),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a * 0 * lib.rand(3, dtype=a.dtype),
                                              randomness="same")(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a, b: a * b, argnums=(0, -2))(t, t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a, b: a * b, argnums=())(t, t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a.sin(), has_aux=True)(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a * 2)(t.long()),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: 3)(t),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a * 2)(t[:0]),
        lambda lib: lambda t: lib.func.jacfwd(lambda a: a * a)(t[0]),
        lambda lib: lambda t: lib.func.linearize(lambda a: a * 2, 1.0),
        lambda lib: lambda t: lib.func.linearize(lambda a: a * 2, t.long()),
        lambda lib: lambda t: lib.func.linearize(lambda a, b: a * b, t, t)[1]((t, t)),
        lambda lib: lambda t: lib.func.linearize(lambda a, b: a * b, t, t)[1](t, t[:2]),
        lambda lib: lambda t: lib.func.linearize(lambda a, b: a * b, t, t)[1](t, t.float()),
        lambda lib: lambda t: lib.func.linearize(lambda a, b: a * b, t, t)[1](t),
        lambda lib: lambda t: lib.func.linearize(lambda d: d["a"], {"a": t})[1]({"b": t}),
    ]
    same_outcomes(cases, x)


def build(make):
    torch.manual_seed(0)
    theirs = make(torch).double()
    mine = make(minigrad).double()
    mine.load_state_dict({k: minigrad.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    return mine, theirs


def mlp(lib):
    return lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2))


def test_functional_call_and_per_parameter_gradients_match_pytorch():
    mine, theirs = build(mlp)
    x = rand(5, 3)
    results = []
    for lib, model in ((minigrad, mine), (torch, theirs)):
        params = {k: v.detach() for k, v in model.named_parameters()}
        params["0.weight"] = params["0.weight"] * 2

        def loss(p, inputs, lib=lib, model=model):
            return lib.func.functional_call(model, p, (inputs,)).pow(2).mean()

        grads = lib.func.grad(loss)(params, lib.tensor(x))
        out = lib.func.functional_call(
            model,
            ({"0.weight": params["0.weight"]}, {"2.bias": params["2.bias"] + 1}),
            lib.tensor(x),
        )
        results.append((grads, out, model[0].weight))  # the module's own weight comes back
    same(*results)


def test_functional_call_ties_strictness_and_errors_match_pytorch():
    def tied(lib):
        model = lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.Linear(2, 2))
        model[1].weight = model[0].weight
        return model

    mine, theirs = build(tied)
    x = rand(1, 2)
    results = []
    for lib, model in ((minigrad, mine), (torch, theirs)):
        w = lib.tensor(rand(2, 2, seed=4))
        inputs = lib.tensor(x)
        fc = lib.func.functional_call
        results.append(
            [
                outcome(lambda: fc(model, {"0.weight": w}, inputs)),
                outcome(lambda: fc(model, {"0.weight": w}, inputs, tie_weights=False)),
                outcome(lambda: fc(model, {"0.weight": w, "1.weight": w + 1}, inputs)),
                outcome(lambda: fc(model, {"0.weight": w}, inputs, strict=True)),
                outcome(lambda: fc(model, {"nope": w}, inputs, strict=True)),
                outcome(lambda: fc(model, ({"0.weight": w}, {"0.weight": w}), inputs)),
                outcome(lambda: fc(model, 3, inputs)),
            ]
        )
    same(*results)


def test_stack_module_state_matches_pytorch():
    def stacked(lib, models):
        params, buffers = lib.func.stack_module_state(models)
        flags = {k: (v.requires_grad, v.is_leaf) for k, v in {**params, **buffers}.items()}
        return params, buffers, flags

    def bn(lib):
        return lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.BatchNorm1d(2))

    def frozen(lib, models):
        models[1][0].bias.requires_grad_(False)
        return models

    results = []
    for lib in (minigrad, torch):
        models = []
        for seed in range(3):
            torch.manual_seed(seed)
            theirs = bn(torch).double()
            mine = bn(minigrad).double()
            mine.load_state_dict({k: minigrad.tensor(v.numpy())
                                  for k, v in theirs.state_dict().items()})
            models.append(mine if lib is minigrad else theirs)
        results.append([
            outcome(lambda: stacked(lib, models)),
            outcome(lambda: lib.func.stack_module_state([])),
            outcome(lambda: lib.func.stack_module_state([models[0], lib.nn.Linear(3, 2)])),
            outcome(lambda: lib.func.stack_module_state([models[0], bn(lib).eval()])),
            outcome(lambda: lib.func.stack_module_state(frozen(lib, models))),
        ])
    same(*results)


def test_stateless_functional_call_warns_as_pytorch():
    messages = []
    for lib in (minigrad, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.nn.utils.stateless.functional_call(lib.nn.Linear(2, 1), {}, lib.ones(2))
        messages.append([(w.category, str(w.message).replace("torch", "minigrad")) for w in caught])
    assert messages[0] == messages[1]
