"""``Module.state_dict`` with positional arguments, as PyTorch's: ``destination``, ``prefix``
and ``keep_vars`` in that order (extra ones ignored), each call with its FutureWarning."""

import warnings
from collections import OrderedDict

import pytest

import minigrad

torch = pytest.importorskip("torch")


def _program(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(1, 1))
    destination = OrderedDict()
    log = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = model.state_dict(destination, "p.", True)
        log.append((result is destination, list(destination),
                    [type(value).__name__ for value in destination.values()]))
        log.append(list(model.state_dict({}, "q.")))
        log.append(list(model.state_dict(None)))
        log.append(list(model.state_dict({}, "a.", False, "ignored")))
        log.append(list(model.state_dict(OrderedDict(), prefix="z.")))
    log.append([(w.category.__name__, str(w.message), w.filename == __file__) for w in caught])
    return str(log).replace("torch", "minigrad")  # (the link in the text is PyTorch's page)


def test_positional_arguments_warn_and_work_as_pytorchs():
    assert _program(minigrad) == _program(torch)
