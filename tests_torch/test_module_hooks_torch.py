"""State-dict hooks, extra state and ``set_submodule`` run side by side in both libraries.

Each scenario is one program written against a library ``lib`` (``torch`` or ``minigrad``); it
returns a log of what the hooks saw, in which order, and what came out (values, returned keys,
error types and texts). The two logs must be equal, with ``torch`` written as ``minigrad``
(but not in ``pytorch``: the URLs in the texts stay PyTorch's).
"""

import pytest
from _cases import outcome, parametrize_in_one

import minigrad

torch = pytest.importorskip("torch")


def same(scenario):
    theirs = str(scenario(torch)).replace("pytorch", "PYTORCH").replace("torch", "minigrad")
    theirs = theirs.replace("PYTORCH", "pytorch")  # URLs keep PyTorch's name
    assert str(scenario(minigrad)) == theirs


def two_levels(lib):
    nn = lib.nn
    return nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Linear(2, 1)))


def hook_every_module(lib, model, log):
    """Register all four hooks on every module; each logs what it was given."""
    for name, module in model.named_modules():
        module.register_state_dict_pre_hook(
            lambda m, prefix, keep_vars, name=name: log.append(("pre", name, prefix, keep_vars))
        )
        module.register_state_dict_post_hook(
            lambda m, sd, prefix, meta, name=name: log.append(
                ("post", name, prefix, list(sd), dict(meta))
            )
        )
        module.register_load_state_dict_pre_hook(
            lambda m, sd, prefix, meta, strict, missing, unexpected, errors, name=name: log.append(
                ("load-pre", name, prefix, sorted(sd), strict, list(missing), list(unexpected))
            )
        )
        module.register_load_state_dict_post_hook(
            lambda m, keys, name=name: log.append(
                (
                    "load-post",
                    name,
                    type(keys).__name__,
                    list(keys.missing_keys),
                    list(keys.unexpected_keys),
                    # the values are already loaded when a module's post-hook runs
                    m.weight.detach().sum().item() if hasattr(m, "weight") else None,
                )
            )
        )


@pytest.mark.parametrize("strict", [True, False])
def test_every_hook_sees_what_pytorchs_sees_in_the_same_order(strict):
    def scenario(lib):
        log = []
        model = two_levels(lib)
        hook_every_module(lib, model, log)
        state = model.state_dict(keep_vars=True)
        log.append(sorted(state))
        state = {k: lib.ones_like(v) for k, v in state.items() if k != "0.bias"}
        state["extra"] = lib.zeros(1)
        state["1.0.extra"] = lib.zeros(1)
        log.append(outcome(lambda: repr(model.load_state_dict(state, strict=strict))))
        return log

    same(scenario)


@pytest.mark.parametrize("edit", ["clear", "add", "none"])
def test_a_load_post_hook_edits_the_keys_the_strict_check_reads(edit):
    def scenario(lib):
        layer = lib.nn.Linear(2, 1)

        def hook(module, keys):
            if edit == "clear":
                keys.missing_keys.clear()
                keys.unexpected_keys.clear()
            elif edit == "add":
                keys.unexpected_keys.append("invented")

        handle = layer.register_load_state_dict_post_hook(hook)
        state = {"weight": lib.full((1, 2), 3.0), "stray": lib.zeros(1)}
        if edit == "add":
            state = {"weight": lib.full((1, 2), 3.0), "bias": lib.zeros(1)}
        first = outcome(lambda: repr(layer.load_state_dict(state)))
        loaded = layer.weight.detach().tolist()
        handle.remove()
        second = outcome(lambda: repr(layer.load_state_dict(state)))
        return first, loaded, second

    same(scenario)


def test_hooks_that_return_values_raise_pytorchs_errors():
    def scenario(lib):
        layer = lib.nn.Linear(2, 1)
        load = layer.register_load_state_dict_post_hook(lambda module, keys: keys)
        result = [outcome(lambda: layer.load_state_dict(layer.state_dict()))]
        load.remove()
        post = layer.register_state_dict_post_hook(lambda m, sd, prefix, meta: sd)
        result.append(outcome(lambda: list(layer.state_dict())))
        post.remove()
        result.append(list(layer.state_dict()))

        def private(module, sd, prefix, meta):
            return {"replaced": 1}

        handle = layer._register_state_dict_hook(private)  # its returned dict is kept
        result.append(dict(layer.state_dict()))
        handle.remove()
        layer.register_state_dict_post_hook(private)
        result.append(outcome(lambda: layer._register_state_dict_hook(private)))
        return result

    same(scenario)


@pytest.mark.parametrize("assign", [False, True])
def test_load_pre_hooks_see_the_metadata(assign):
    def scenario(lib):
        seen = []
        layer = lib.nn.Linear(2, 1)
        layer.register_load_state_dict_pre_hook(
            lambda module, sd, prefix, meta, *rest: seen.append(dict(meta))
        )
        state = layer.state_dict()
        layer.load_state_dict(state, assign=assign)
        layer.load_state_dict(dict(state))  # no metadata
        return seen, dict(state._metadata)

    same(scenario)


def test_a_pre_hook_may_rename_keys_before_loading():
    def scenario(lib):
        layer = lib.nn.Linear(1, 1, bias=False)

        def rename(module, sd, prefix, *rest):
            sd[prefix + "weight"] = sd.pop(prefix + "w")

        layer.register_load_state_dict_pre_hook(rename)
        given = {"w": lib.tensor([[2.0]])}
        keys = repr(layer.load_state_dict(given))
        return keys, layer.weight.detach().tolist(), sorted(given)

    same(scenario)


def test_extra_state_goes_into_the_state_dict_and_back():
    def scenario(lib):
        class Counter(lib.nn.Module):
            def __init__(self):
                super().__init__()
                self.scale = lib.nn.Parameter(lib.ones(1))
                self.calls = 0

            def get_extra_state(self):
                return {"calls": self.calls}

            def set_extra_state(self, state):
                self.calls = state["calls"]

        source = lib.nn.Sequential(Counter())
        source[0].calls = 4
        state = source.state_dict()
        target = lib.nn.Sequential(Counter())
        loaded = repr(target.load_state_dict(state))
        missing = outcome(lambda: target.load_state_dict({"0.scale": lib.ones(1)}))
        plain = lib.nn.Linear(1, 1)
        unexpected = outcome(
            lambda: plain.load_state_dict({**plain.state_dict(), "_extra_state": 1})
        )
        base = lib.nn.Module()
        return (
            list(state),
            state["0._extra_state"],
            loaded,
            target[0].calls,
            missing,
            unexpected,
            outcome(base.get_extra_state),
            outcome(lambda: base.set_extra_state(1)),
        )

    same(scenario)


@pytest.mark.parametrize(
    ("target", "strict", "make"),
    [
        ("1.0", False, "tanh"),
        ("1.new", False, "tanh"),
        ("1.new", True, "tanh"),
        ("0.weight", False, "tanh"),
        ("nothere.x", False, "tanh"),
        ("", False, "tanh"),
        ("0", False, "int"),
    ],
)
def test_set_submodule(target, strict, make):
    def scenario(lib):
        model = two_levels(lib)
        module = lib.nn.Tanh() if make == "tanh" else 3
        result = outcome(lambda: model.set_submodule(target, module, strict=strict))
        return result, repr(model)

    same(scenario)


@parametrize_in_one(
    ("getter", "target"),
    [
        ("get_submodule", ""),
        ("get_submodule", "1.0"),
        ("get_submodule", "1.nothere"),
        ("get_submodule", "0.weight"),
        ("get_parameter", "1.0.bias"),
        ("get_parameter", "2.running_mean"),
        ("get_parameter", "1.0.nothere"),
        ("get_parameter", "1"),
        ("get_buffer", "2.running_mean"),
        ("get_buffer", "0.weight"),
        ("get_buffer", "2.nothere"),
    ],
)
def test_get_submodule_parameter_and_buffer(getter, target):
    def scenario(lib):
        nn = lib.nn
        model = nn.Sequential(nn.Linear(2, 2), nn.Sequential(nn.Linear(2, 1)), nn.BatchNorm1d(1))
        found = outcome(lambda: getattr(model, getter)(target))
        if isinstance(found, tuple):  # the error
            return found
        if isinstance(found, lib.nn.Module):
            return repr(found)
        return type(found).__name__, tuple(found.shape)  # (random values differ)

    same(scenario)
