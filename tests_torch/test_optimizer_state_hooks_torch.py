"""The optimizer's state-dict hooks side by side with PyTorch.

``register_state_dict_pre_hook``/``post_hook`` and ``register_load_state_dict_pre_hook``/
``post_hook``: one program per library logs which hooks ran, in which order (``prepend``),
what each saw, what a returned dict replaced and what the handles removed.
"""

import pytest

import minigrad

torch = pytest.importorskip("torch")


def _program(lib):
    param = lib.nn.Parameter(lib.ones(2))
    optimizer = lib.optim.SGD([param], lr=0.1, momentum=0.9)
    param.grad = lib.ones(2)
    optimizer.step()
    seen, log = [], []
    handles = [
        optimizer.register_state_dict_pre_hook(lambda o: seen.append("pre")),
        optimizer.register_state_dict_pre_hook(lambda o: seen.append("pre first"), prepend=True),
        optimizer.register_state_dict_post_hook(lambda o, sd: seen.append(("post", sorted(sd)))),
        optimizer.register_state_dict_post_hook(lambda o, sd: {**sd, "epoch": 3}),
        optimizer.register_state_dict_post_hook(
            lambda o, sd: seen.append(("post first", sorted(sd))), prepend=True),
    ]
    state_dict = optimizer.state_dict()
    log += [list(seen), sorted(state_dict)]
    seen.clear()

    def rename(o, sd):  # edits the (shallow) copy the optimizer loads
        seen.append(("load pre", sorted(sd)))
        sd.pop("epoch", None)
        sd["param_groups"][0]["lr"] = 0.5

    optimizer.register_load_state_dict_pre_hook(rename)
    optimizer.register_load_state_dict_pre_hook(
        lambda o, sd: seen.append(("load pre first", sorted(sd))), prepend=True)
    optimizer.register_load_state_dict_post_hook(
        lambda o: seen.append(("load post", o.param_groups[0]["lr"])))
    optimizer.register_load_state_dict_post_hook(lambda o: seen.append("load post first"),
                                                 prepend=True)
    log.append(optimizer.load_state_dict(state_dict))
    log += [list(seen), sorted(state_dict), state_dict["param_groups"][0]["lr"]]
    seen.clear()
    for handle in handles:
        handle.remove()
    log += [sorted(optimizer.state_dict()), list(seen), type(handles[0]).__name__]
    optimizer.register_load_state_dict_pre_hook(
        lambda o, sd: {"state": {}, "param_groups": sd["param_groups"]})
    optimizer.load_state_dict(optimizer.state_dict())
    log.append(dict(optimizer.state))
    return log


def test_state_dict_hooks_run_as_pytorchs():
    assert str(_program(minigrad)) == str(_program(torch)).replace("torch", "minigrad")
