"""``out=`` against PyTorch, for every public function of ``minigrad``, ``.linalg``, ``.special``.

For one representative call of each function (tests/out_calls.py): minigrad takes ``out=`` iff
torch does; where it does, the written values, the returned object, the out tensors' versions
and dtypes, the resize warning, the dtype errors and the autograd refusal match torch's.

One test per function (``test_out_as_in_pytorch[add]``) runs all of these checks
(``check_all`` in tests/_cases.py: a test per check cost more CPU than most checks); a
failure names each failing check as its test id was before the grouping
(``test_out_dtypes_accepted_and_refused_as_in_pytorch[add-float64]``).
"""

from __future__ import annotations

import functools
import inspect
import warnings

import numpy as np
import pytest
import torch
from _cases import check_all
from out_calls import CALLS, NOT_TENSOR_OPS, OTHER_FORMS

import minigrad

LIBS = (minigrad, torch)

# Random results: compare shapes and dtypes, not values (minigrad draws from numpy's streams).
RANDOM = {"rand", "randn", "randint", "randperm", "empty", "normal", "bernoulli", "svd_lowrank",
          "pca_lowrank", "multinomial", "poisson", "randint_like", "empty_strided",
          "empty_permuted"}
# Defined only up to sign (LAPACK's choice): compare absolute values.
SIGNED = {"svd", "linalg.svd", "linalg.eigh", "linalg.qr", "qr"}
# PyTorch lets these through with inputs that require grad (recording a NotImplemented node or
# a CopyBackwards); minigrad refuses out= with every differentiable function (docs/api.md).
COPIES = {"alias_copy", "as_strided_copy", "detach_copy", "diagonal_copy", "expand_copy",
          "permute_copy", "select_copy", "slice_copy", "squeeze_copy", "t_copy", "transpose_copy",
          "unfold_copy", "unsqueeze_copy", "view_copy"}
GRAD_INPUTS_LET_THROUGH = {"softmax", "log_softmax", "diag", "floor_divide", "heaviside",
                           "tensordot", "linalg.norm", "linalg.matrix_norm", "lu",
                           "slice_scatter", "histogram", "linalg.ldl_factor",
                           "linalg.ldl_factor_ex", "linalg.ldl_solve", "nuclear_norm", *COPIES}
# PyTorch's *_copy of the multi-output views write a list of given outs (of the right shapes,
# never resized) and return None; minigrad's take no out= (a known gap).
OUT_LEFT_OUT = {"split_copy", "split_with_sizes_copy", "unbind_copy"}
# With an ``out`` that requires grad, PyTorch fails in these with an unrelated message (a
# resize or leaf error); minigrad gives the out= message.
GRAD_OUT_OTHER_MESSAGE = {"empty", "randn", "linalg.norm", "linalg.matrix_norm", "tensordot",
                          "inner", "lu", "nuclear_norm"}
# PyTorch bumps these outs' versions more than once per call (its kernels write them twice).
EXTRA_BUMPS = {"svd", "randn"}
# PyTorch names other functions in these TypeErrors: minigrad's swapaxes and swapdims are
# transpose itself, PyTorch's unique (unique_consecutive) is a Python function over
# _return_output (_consecutive_return_output), and its from_numpy is a C method that takes no
# keyword at all.
OTHER_NAME_IN_TYPE_ERROR = {"swapaxes", "swapdims", "unique", "unique_consecutive", "from_numpy"}


def public_functions() -> list[str]:
    """Every public function of minigrad and minigrad.linalg, as CALLS names them."""
    names = [name for name in minigrad.__all__
             if inspect.isfunction(getattr(minigrad, name)) and name not in NOT_TENSOR_OPS]
    names += ["linalg." + name for name in minigrad.linalg.__all__ if name != "LinAlgError"]
    names += ["special." + name for name in minigrad.special.__all__]
    return sorted(names)


CALLS = {**CALLS, **OTHER_FORMS}
CHECKED = [name for name in public_functions() if name not in OUT_LEFT_OUT] + list(OTHER_FORMS)


def test_every_public_function_has_a_representative_call():
    assert sorted(set(public_functions()) - set(CALLS)) == []


def _outs(result, lib, dtype=None, size=0, requires_grad=False):
    """Empty out tensors for ``result`` (a tensor or a tuple of them), in ``lib``."""
    if isinstance(result, (tuple, list)):
        return tuple(_outs(r, lib, dtype, size) for r in result)
    natural = str(getattr(result, "dtype", "float32")).split(".")[-1]  # allclose: a bool
    chosen = dtype if dtype is not None else getattr(lib, natural)
    return lib.zeros(size, dtype=chosen, requires_grad=requires_grad)


def _flat(value):
    return list(value) if isinstance(value, (tuple, list)) else [value]


def _numpy(tensor):
    return np.asarray(tensor.detach().numpy() if isinstance(tensor, torch.Tensor)
                      else tensor.detach().numpy())


def _run(lib, name, out_spec=None, inputs_require_grad=False, no_grad=False):
    """Call ``name`` in ``lib`` with ``out``; return (outcome, out, warnings)."""
    fn, args, kwargs = CALLS[name](lib)
    if inputs_require_grad:
        args = tuple(a.detach().requires_grad_() if isinstance(a, lib.Tensor)
                     and a.is_floating_point() else a for a in args)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # torch.cholesky, torch.qr: deprecated
        plain = fn(*args, **kwargs)
    out = out_spec(plain, lib) if out_spec else _outs(plain, lib)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if no_grad:
                with lib.no_grad():
                    returned = fn(*args, **kwargs, out=out)
            else:
                returned = fn(*args, **kwargs, out=out)
        except (RuntimeError, TypeError, NotImplementedError) as error:
            returned = error
    messages = [str(w.message) for w in caught if "deprecated in favor" not in str(w.message)]
    return returned, out, messages


def _error_text(error):
    return f"{type(error).__name__}: {str(error).replace('torch', 'minigrad')}"


# The dtypes of the out tensors that check_out_dtypes_accepted_and_refused_as_in_pytorch tries.
OUT_DTYPES = ("float64", "float16", "int64", "int32", "uint8", "bool")


@pytest.mark.parametrize("name", CHECKED)
def test_out_as_in_pytorch(name):
    """Every check below for ``name``: whether out= is taken and, where PyTorch takes it, the
    rest; each named as its own test was, ``test_<check>[<name>]``."""
    checks = [("out_is_accepted_exactly_where_pytorch_accepts_it",
               check_out_is_accepted_exactly_where_pytorch_accepts_it)]
    if not isinstance(_run(torch, name)[0], Exception):  # PyTorch takes out= here
        checks += [
            ("result_written_into_an_empty_out", check_result_written_into_an_empty_out),
            ("out_with_elements_is_resized_with_pytorch_warning",
             check_out_with_elements_is_resized_with_pytorch_warning),
            *((f"out_dtypes_accepted_and_refused_as_in_pytorch[{name}-{dtype}]",
               functools.partial(check_out_dtypes_accepted_and_refused_as_in_pytorch,
                                 dtype=dtype)) for dtype in OUT_DTYPES),
            ("inputs_that_require_grad_are_refused", check_inputs_that_require_grad_are_refused),
            ("an_out_that_requires_grad_is_refused_in_grad_mode_only",
             check_an_out_that_requires_grad_is_refused_in_grad_mode_only),
        ]
    check_all((f"test_{check}" if check.endswith("]") else f"test_{check}[{name}]",
               functools.partial(run, name)) for check, run in checks)


def check_out_is_accepted_exactly_where_pytorch_accepts_it(name):
    got, _, _ = _run(minigrad, name)
    expected, _, _ = _run(torch, name)
    assert isinstance(got, Exception) == isinstance(expected, Exception), (got, expected)
    if isinstance(expected, Exception):
        assert type(got) is type(expected)
        if name not in OTHER_NAME_IN_TYPE_ERROR:
            assert _error_text(got) == _error_text(expected)


def _compare_written(name, got, expected):
    """Values, dtypes and versions of the out tensors, and what the call returned."""
    got_returned, got_out, got_warnings = got
    expected_returned, expected_out, expected_warnings = expected
    assert not isinstance(expected_returned, Exception), expected_returned
    assert not isinstance(got_returned, Exception), got_returned
    # (in the order of the results: PyTorch's kernels resize in their own order)
    # (PyTorch's texts name torch's functions, minigrad's its own)
    assert sorted(got_warnings) == sorted(
        w.split(" (Triggered internally")[0].replace("torch.", "minigrad.")
        for w in expected_warnings)
    if isinstance(expected_out, tuple):
        assert type(got_returned).__name__ == type(expected_returned).__name__
        assert all(g is o for g, o in zip(got_returned, got_out))
    else:
        assert got_returned is got_out
    for g, e in zip(_flat(got_out), _flat(expected_out)):
        assert str(g.dtype).split(".")[-1] == str(e.dtype).split(".")[-1]
        assert tuple(g.shape) == tuple(e.shape)
        if name not in EXTRA_BUMPS:
            assert g._version == e._version
        if name in RANDOM:
            continue
        g_values, e_values = _numpy(g), _numpy(e)
        if name in SIGNED:
            g_values, e_values = np.abs(g_values), np.abs(e_values)
        tolerance = 2e-3 if g_values.dtype == np.float16 else 1e-5
        np.testing.assert_allclose(g_values, e_values, rtol=tolerance, atol=tolerance)


def check_result_written_into_an_empty_out(name):
    _compare_written(name, _run(minigrad, name), _run(torch, name))


def check_out_with_elements_is_resized_with_pytorch_warning(name):
    def spec(result, lib):
        return _outs(result, lib, size=7)

    _compare_written(name, _run(minigrad, name, spec), _run(torch, name, spec))


def check_out_dtypes_accepted_and_refused_as_in_pytorch(name, dtype):
    def spec(result, lib):
        return _outs(result, lib, getattr(lib, dtype))

    got = _run(minigrad, name, spec)
    expected = _run(torch, name, spec)
    if isinstance(expected[0], Exception):
        assert isinstance(got[0], Exception), f"minigrad accepted: {got[0]!r}"
        assert _error_text(got[0]) == _error_text(expected[0])
    else:
        _compare_written(name, got, expected)


def check_inputs_that_require_grad_are_refused(name):
    got = _run(minigrad, name, inputs_require_grad=True)[0]
    expected = _run(torch, name, inputs_require_grad=True)[0]
    if name in GRAD_INPUTS_LET_THROUGH:
        assert isinstance(got, RuntimeError) and "out=" in str(got)
        return
    assert isinstance(got, Exception) == isinstance(expected, Exception), (got, expected)
    if isinstance(expected, Exception):
        assert _error_text(got) == _error_text(expected)


def _out_requiring_grad(result, lib):
    outs = _outs(result, lib)
    for tensor in _flat(outs):
        if tensor.is_floating_point():
            tensor.requires_grad_()
    return outs


def check_an_out_that_requires_grad_is_refused_in_grad_mode_only(name):
    got = _run(minigrad, name, _out_requiring_grad)
    expected = _run(torch, name, _out_requiring_grad)
    if name not in GRAD_OUT_OTHER_MESSAGE:
        assert isinstance(got[0], Exception) == isinstance(expected[0], Exception)
        if isinstance(expected[0], Exception):
            assert _error_text(got[0]) == _error_text(expected[0])
    if name in {"empty", "randn", "lu"}:  # PyTorch cannot resize a tensor that requires grad
        return
    got = _run(minigrad, name, _out_requiring_grad, no_grad=True)
    expected = _run(torch, name, _out_requiring_grad, no_grad=True)
    _compare_written(name, got, expected)
    for g, e in zip(_flat(got[1]), _flat(expected[1])):
        assert (g.requires_grad, g.grad_fn) == (e.requires_grad, None)


# --- documented differences (docs/api.md, "out=") -------------------------------------------


def test_a_view_out_is_resized_inside_its_base_by_torch_and_refused_by_minigrad():
    base = torch.zeros(4)
    with pytest.warns(UserWarning, match="was resized"):
        torch.add(torch.ones(3), 1, out=base[1:3])
    assert base.tolist() == [0.0, 2.0, 2.0, 2.0]

    base = minigrad.zeros(4)
    with pytest.raises(RuntimeError) as info:
        minigrad.add(minigrad.ones(3), 1, out=base[1:3])
    assert str(info.value) == (
        "add(): the out= tensor has shape [2] but the result has shape [3], and minigrad cannot "
        "resize a view of another tensor. Pass an out tensor of shape [3], or one that is not a "
        "view.")
    assert (base.tolist(), base._version) == ([0.0, 0.0, 0.0, 0.0], 0)


def test_a_grown_out_leaves_earlier_views_on_its_old_memory_in_minigrad():
    results = {}
    for lib in LIBS:
        out = lib.zeros(2)
        head = out[:1]
        with pytest.warns(UserWarning, match="was resized"):
            lib.add(lib.ones(3), 1, out=out)
        results[lib.__name__] = (out.tolist(), head.tolist(), head._version)
    assert results["torch"] == ([2.0, 2.0, 2.0], [2.0], 1)
    assert results["minigrad"] == ([2.0, 2.0, 2.0], [0.0], 1)  # same counter, old memory
