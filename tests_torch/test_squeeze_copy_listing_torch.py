"""squeeze_copy's dim: None fits none of its three overloads (PyTorch 2.13's parser listing).

minigrad's signature makes ``dim`` optional with a NOT_GIVEN default (PyTorch has no None
for it), so the argument checks' lenient matching does not take None for its int list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import minigrad

torch = pytest.importorskip("torch")

CALLS: dict[str, Callable[[Any], Any]] = {
    "none": lambda lib: lib.squeeze_copy(lib.ones(2, 1), None),
    "none_keyword": lambda lib: lib.squeeze_copy(lib.ones(2, 1), dim=None),
    "str": lambda lib: lib.squeeze_copy(lib.ones(2, 1), "a"),
    "item_past_int64": lambda lib: lib.squeeze_copy(lib.ones(2, 1), (1, 2**70)),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_message_as_pytorch(name: str) -> None:
    messages = []
    for lib in (torch, minigrad):
        with pytest.raises(TypeError) as caught:
            CALLS[name](lib)
        text = str(caught.value)
        message, trace, _ = text.partition("\nException raised from")  # (PyTorch's C++ trace)
        messages.append((message + ('"' if trace else "")).replace("torch.", "minigrad."))
    assert messages[1] == messages[0]


def test_valid_dims_still_work() -> None:
    x = minigrad.ones(2, 1, 1)
    assert x.squeeze().shape == (2,)
    assert minigrad.squeeze_copy(x).shape == (2,)
    assert minigrad.squeeze_copy(x, 1).shape == (2, 1)
    assert minigrad.squeeze_copy(x, (1, 2)).shape == (2,)
