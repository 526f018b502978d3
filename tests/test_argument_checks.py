"""Calls whose argument types passed the checks once skip them next time (``_arguments.checked``).

The skip is keyed by the call's argument types and keyword names: a call of another key, a
wrong type in the same place included, still gets PyTorch's TypeError, before and after a
call that passed; a call that passed still works after one that was refused.
"""

import pytest
from _backend import mg, text


def _error(call):
    with pytest.raises(TypeError) as info:
        call()
    return str(info.value)


@pytest.mark.parametrize(("good", "bad", "message"), [
    (lambda x, y: x.add_(y, alpha=0.5), lambda x, y: x.add_(y, alpha="a"),
     "add_(): argument 'alpha' must be Number, not str"),
    (lambda x, y: x.add_(y, alpha=0.5), lambda x, y: x.add_("a", alpha=0.5),
     "add_(): argument 'other' (position 1) must be Tensor, not str"),
    (lambda x, y: mg.sum(x, dim=0, keepdim=True), lambda x, y: mg.sum(x, dim=0, keepdim="a"),
     "sum(): argument 'keepdim' must be bool, not str"),
    # NumPy's names (renamed, so never skipped) beside PyTorch's
    (lambda x, y: mg.sum(x, axis=0, keepdims=True), lambda x, y: mg.sum(x, dim=0, keepdim="a"),
     "sum(): argument 'keepdim' must be bool, not str"),
])
def test_a_refused_call_is_refused_before_and_after_one_that_passed(good, bad, message):
    x, y = mg.ones(3), mg.ones(3)
    assert _error(lambda: bad(x, y)) == text(message)
    for _ in range(2):
        good(x, y)
        assert _error(lambda: bad(x, y)) == text(message)


def test_a_keyword_call_that_passed_computes_what_the_checked_call_computes():
    x, y = mg.ones(3), mg.tensor([1.0, 2.0, 3.0])
    for _ in range(3):
        x.add_(y, alpha=0.5)
    assert x.tolist() == [2.5, 4.0, 5.5]
    assert mg.sum(x, dim=0, keepdim=True).tolist() == [12.0]
    assert mg.sum(x, dim=0, keepdim=True).tolist() == [12.0]
