"""Sequence models and parameter containers side by side with PyTorch.

``ParameterList``/``ParameterDict`` (reprs, names, conversions, errors); ``RNN``, ``LSTM`` and
``GRU`` with PyTorch's weights copied in (outputs, final states, gradients, shape errors).
"""

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


def test_parameter_containers_match_pytorch():
    def story(lib):
        nn = lib.nn
        seen = []
        plist = nn.ParameterList([lib.zeros(2, 3), nn.Parameter(lib.ones(1)), "x"])
        plist.append(lib.zeros(1, dtype=lib.float64))
        plist += [nn.Parameter(lib.ones(2), requires_grad=False)]
        seen += [repr(plist), repr(plist[1:3]), repr(nn.ParameterList()), len(plist), plist[-3]]
        seen.append([(n, type(p).__name__, p.requires_grad) for n, p in plist.named_parameters()])
        pdict = nn.ParameterDict({"b": lib.zeros(2), "a": lib.ones(2, dtype=lib.float64)})
        pdict.update([("z", lib.zeros(1)), ("c", 3)])
        seen += [repr(pdict), list(pdict), pdict.popitem(), list(pdict.state_dict())]
        seen += [repr(pdict | nn.ParameterDict({"y": lib.zeros(1)})), "q" in pdict]

        class Model(nn.Module):
            def __init__(self):
                super().__init__()
                self.scales = nn.ParameterList([lib.ones(2)])
                self.heads = nn.ParameterDict({"mean": lib.zeros(2)})

        model = Model()
        seen += [repr(model), list(model.state_dict())]
        for bad in (lambda: plist[9], lambda: pdict[0], lambda: plist.extend(lib.zeros(2)),
                    lambda: plist(1), lambda: pdict(1), lambda: pdict.update(3),
                    lambda: pdict.update([(1, 2, 3)]), lambda: pdict.update([3]),
                    lambda: nn.ParameterList([lib.zeros(2, dtype=lib.int64)])):
            seen.append(outcome(bad))
        return [same_text(value) for value in seen]

    assert story(minigrad) == story(torch)
