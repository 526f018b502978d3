"""``grad_fn._saved_*`` against PyTorch 2.13, for every op-table row.

For every differentiable row and sample, the same call runs in both libraries (float64); then
the two backward graphs are walked side by side from the output, as far as their nodes have the
same names, and at each node:

- the ``_saved_*`` and ``_raw_saved_*`` attribute names listed by ``dir(grad_fn)`` are
  PyTorch's (less the documented gaps below);
- each saved tensor has PyTorch's value, dtype and shape, and is the same object where
  PyTorch's is (an input comes back as the input itself); a saved output shares the output's
  memory; a value PyTorch did not save is None in both; a saved list of tensors
  (``IndexPutBackward0._saved_indices``) has the same places, tensor by tensor, None by None;
- each saved option (``_saved_dim``, ``_saved_alpha``, ``_saved_self_sym_sizes`` ...) has
  PyTorch's value; dims exactly as PyTorch shows them (as given: -1 as 18446744073709551615),
  slice bounds and select's index after normalization;
- after backward, reading a saved tensor raises PyTorch's error in both.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from _cases import parametrize_in_one
from opinfo import OpInfo, Sample, all_ops
from row_cases import RowCase, check_each, row_cases
from test_ops import build_args, call

import minigrad

torch = pytest.importorskip("torch")

ROWS = [row for row in all_ops() if row.differentiable]

# Saved values PyTorch's nodes show and minigrad's do not, keyed by node name: the attribute
# names minigrad lacks. (Empty: the LU factors, logsigmoid's buffer, the pooling options and
# ctc's log_alpha are all shown now; keep it empty.)
KNOWN_GAPS: dict[str, set[str]] = {}
# Saved tensors whose values PyTorch leaves unspecified: rrelu in eval mode allocates its noise
# buffer and never writes it (only its dtype and shape are compared).
UNSPECIFIED_VALUES = {("RreluWithNoiseBackward0", "_saved_noise"),
                      ("RreluWithNoiseBackward1", "_saved_noise")}


def _ctc_specified(node: Any, shape: tuple[int, ...]) -> np.ndarray:
    """Where PyTorch's ctc log_alpha is written: t = 0, then t < input_length and s < 2
    target_length + 1 of each sequence (``torch.empty`` elsewhere)."""
    mask = np.zeros(shape, dtype=bool)
    mask[:, 0] = True
    for n, (length, target) in enumerate(zip(node._saved_input_lengths,
                                             node._saved_target_lengths)):
        mask[n, :length, : 2 * target + 1] = True
    return mask


# Saved tensors PyTorch writes only in part: the region of its values that is compared.
PARTLY_SPECIFIED = {("CtcLossBackward0", "_saved_result1"): _ctc_specified}
# Dims PyTorch keeps as the user passed them (negative, unsorted, empty or None for "all"), and
# so does minigrad: compared exactly, with their type (-1 shows as 18446744073709551615, a lone
# int given to an int[] option as a 1-tuple). A diagonal's offset is kept as given too.
DIM_OPTIONS = {"dim", "dims", "dim0", "dim1", "dim2", "dimension", "offset"}
# Rows whose graphs hold singular or eigen vectors (the spectral and nuclear norms use the SVD).
SIGN_FREE = ("svd", "eig", "norm", "pinv")


def saved_names(node: Any) -> set[str]:
    """The saved-value attributes ``dir(node)`` lists."""
    return {name for name in dir(node) if name.startswith(("_saved_", "_raw_saved_"))}


def expected_names(node: Any) -> set[str]:
    gaps = KNOWN_GAPS.get(node.name(), set())
    return saved_names(node) - {f"_saved_{gap}" for gap in gaps} - {
        f"_raw_saved_{gap}" for gap in gaps
    }


def signed(value: Any) -> Any:
    """PyTorch's bindings show a negative int64 option as its unsigned wrap-around
    (-1 -> 18446744073709551615); the signed value is what the user passed."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int) and value >= 2**63:
        return value - 2**64
    if isinstance(value, tuple):
        return tuple(signed(item) for item in value)
    return value


def same_option(name: str, mine: Any, theirs: Any, node: Any) -> bool:
    if mine == theirs and isinstance(mine, bool) == isinstance(theirs, bool):
        return True  # a number may be an int in one library and a float in the other
    if name == "correction":
        return theirs is None and mine == 1  # PyTorch's default, which minigrad fills in
    if name in ("padding", "output_padding") and node.name() == "ConvolutionBackward0":
        # PyTorch's string-padding path ("valid") keeps (0,) whatever the rank
        return set(mine) == set(theirs) == {0}
    return False


def assert_same_option(name: str, mine: Any, theirs: Any, node: Any,
                       context: dict[str, Any]) -> None:
    # Dims, and any int64 PyTorch shows wrapped around (a negative index, slice bound, shift,
    # diagonal ...), are shown as given: exactly, not normalised.
    if name in DIM_OPTIONS or signed(theirs) != theirs:
        assert (type(mine), mine) == (type(theirs), theirs), (
            f"{node.name()}._saved_{name}: minigrad {mine!r}, PyTorch {theirs!r}")
        return
    theirs = signed(theirs)
    if isinstance(theirs, float) and isinstance(mine, float):
        assert mine == pytest.approx(theirs, rel=1e-12), name
        return
    assert same_option(name, mine, theirs, node), (
        f"{node.name()}._saved_{name}: minigrad {mine!r}, PyTorch {theirs!r}"
    )


def assert_same_tensor(mine: Any, theirs: Any, context: dict[str, Any], what: str) -> None:
    assert isinstance(mine, minigrad.Tensor), f"{what}: {mine!r}"
    assert str(mine.dtype) == str(theirs.dtype).replace("torch.", "minigrad."), what
    assert tuple(mine.shape) == tuple(theirs.shape), what
    mine_values, their_values = mine.detach().numpy(), theirs.detach().numpy()
    if context["sign_free"]:
        # singular and eigen vectors are unique only up to sign (LAPACK builds differ), and so
        # is what is computed from them
        mine_values, their_values = np.abs(mine_values), np.abs(their_values)
    np.testing.assert_allclose(mine_values, their_values, rtol=1e-7, atol=1e-9, err_msg=what)
    for m_input, t_input in zip(context["m_inputs"], context["t_inputs"]):
        if theirs is t_input:
            assert mine is m_input, f"{what}: PyTorch gives back the input itself"


def compare_nodes(m_node: Any, t_node: Any, context: dict[str, Any], seen: set[int]) -> None:
    """Compare the two nodes, then their children with the same names."""
    if id(t_node) in seen or m_node.name() != t_node.name():
        return
    seen.add(id(t_node))
    name = t_node.name()
    assert saved_names(m_node) == expected_names(t_node), name
    for attribute in sorted(expected_names(t_node)):
        if attribute.startswith("_raw_saved_"):
            continue
        what = f"{name}.{attribute}"
        theirs = getattr(t_node, attribute)
        mine = getattr(m_node, attribute)
        if theirs is None and f"_raw{attribute}" in saved_names(t_node):
            assert mine is None, what  # a tensor PyTorch did not save
        elif (name, attribute) in UNSPECIFIED_VALUES and not t_node._saved_training:
            assert isinstance(mine, minigrad.Tensor), what
            assert (str(mine.dtype), tuple(mine.shape)) == (
                str(theirs.dtype).replace("torch.", "minigrad."), tuple(theirs.shape)), what
        elif (name, attribute) in PARTLY_SPECIFIED:
            mask = PARTLY_SPECIFIED[name, attribute](t_node, tuple(theirs.shape))
            assert_same_tensor(_masked(mine, mask), _masked(theirs, mask), context, what)
        elif isinstance(theirs, torch.Tensor):
            assert_same_tensor(mine, theirs, context, what)
        elif isinstance(theirs, tuple) and any(isinstance(t, torch.Tensor) for t in theirs):
            assert isinstance(mine, tuple) and len(mine) == len(theirs), what
            for place, (m_item, t_item) in enumerate(zip(mine, theirs)):
                if t_item is None:
                    assert m_item is None, f"{what}[{place}]"
                else:
                    assert_same_tensor(m_item, t_item, context, f"{what}[{place}]")
        else:
            assert_same_option(attribute[len("_saved_"):], mine, theirs, t_node, context)
    for (m_child, _), (t_child, _) in zip(m_node.next_functions, t_node.next_functions):
        if m_child is not None and t_child is not None:
            compare_nodes(m_child, t_child, context, seen)


def _masked(value: Any, mask: np.ndarray) -> Any:
    """The tensor with 0 outside ``mask`` (a new tensor of the same library, dtype and shape)."""
    library = minigrad if isinstance(value, minigrad.Tensor) else torch
    return library.tensor(np.where(mask, value.detach().numpy(), 0), dtype=value.dtype)


def first_saved_tensor(node: Any) -> str | None:
    """The first ``_saved_*`` name whose value PyTorch keeps as a tensor (None: there is none)."""
    for name in sorted(expected_names(node)):
        if name.startswith("_saved_") and isinstance(getattr(node, name), torch.Tensor):
            return name
    return None


# One test per row, running all of its samples (tests/row_cases.py).
@parametrize_in_one("case", row_cases(ROWS, test="test_saved_values_match_pytorch"),
                    per_test=100)
def test_saved_values_match_pytorch(case: RowCase) -> None:
    check_each(case, lambda sample: check_saved_values(case.row, sample))


def check_saved_values(row: OpInfo, sample: Sample) -> None:
    """The nodes' saved values and options as PyTorch's; reading one after backward raises."""
    m_args, m_kwargs, _ = build_args(minigrad, row, sample, "float64")
    t_args, t_kwargs, _ = build_args(torch, row, sample, "float64")
    try:
        theirs = call(torch, row, t_args, t_kwargs)
    except Exception as error:  # noqa: BLE001 - the forward tests compare the errors
        with pytest.raises(type(error)):
            call(minigrad, row, m_args, m_kwargs)
        return
    mine = call(minigrad, row, m_args, m_kwargs)
    assert (mine.grad_fn is None) == (theirs.grad_fn is None)
    if theirs.grad_fn is None:
        return
    context = {"m_inputs": [*m_args, *m_kwargs.values()],
               "t_inputs": [*t_args, *t_kwargs.values()],
               "sign_free": any(word in row.name for word in SIGN_FREE)}
    compare_nodes(mine.grad_fn, theirs.grad_fn, context, set())

    # after backward, the saved tensors are freed: reading one raises PyTorch's error
    attribute = first_saved_tensor(theirs.grad_fn)
    if attribute is None or mine.grad_fn.name() != theirs.grad_fn.name():
        return
    try:
        theirs.backward(torch.ones_like(theirs))
    except RuntimeError:  # the backward tests compare the errors
        with pytest.raises(RuntimeError):
            mine.backward(minigrad.ones_like(mine))
        return
    mine.backward(minigrad.ones_like(mine))
    with pytest.raises(RuntimeError) as t_info:
        getattr(theirs.grad_fn, attribute)
    with pytest.raises(RuntimeError) as m_info:
        getattr(mine.grad_fn, attribute)
    assert str(m_info.value) == str(t_info.value)


_LU_MATRICES = np.random.default_rng(1).standard_normal((4, 3, 6))


def _lu_layouts(lib: Any) -> dict[str, Any]:
    """Square matrices in the layouts that decide what PyTorch's det factors (A or A^T)."""
    x = lib.tensor(_LU_MATRICES, dtype=lib.float64)
    square = x[:, :, :3].contiguous()
    return {"contiguous": square[0], "transposed": square[0].mT, "strided": x[0, :, ::2],
            "rows of a wider one": x[0, :, 3:], "batch": square[:2],
            "batch transposed": square[:2].mT, "expanded": square[:1].expand(2, 3, 3),
            "singular": lib.zeros(3, 3, dtype=lib.float64),
            "empty": lib.zeros(0, 0, dtype=lib.float64)}


_LU_CALLS = {
    "det": lambda lib, a: lib.linalg.det(a),
    "slogdet": lambda lib, a: lib.linalg.slogdet(a)[1],
    "solve": lambda lib, a: lib.linalg.solve(a, lib.ones(a.shape[-1], dtype=lib.float64)),
    "solve left=False": lambda lib, a: lib.linalg.solve(
        a, lib.ones(a.shape[-1], a.shape[-1], dtype=lib.float64), left=False),
}


@pytest.mark.parametrize("call_name", list(_LU_CALLS))
def test_saved_lu_factors_as_pytorch(call_name: str) -> None:
    """``_saved_LU``/``_saved_pivots``: of A^T for a contiguous A in det and slogdet, else of
    A (solve always factors A); int32 pivots, 1-based."""
    for layout, theirs in _lu_layouts(torch).items():
        mine = _lu_layouts(minigrad)[layout]
        if layout == "singular" and call_name.startswith("solve"):
            continue  # (an error: the forward tests compare it)
        t_node = _LU_CALLS[call_name](torch, theirs.requires_grad_()).grad_fn
        m_node = _LU_CALLS[call_name](minigrad, mine.requires_grad_()).grad_fn
        for name in ("_saved_LU", "_saved_pivots"):
            t_value, m_value = getattr(t_node, name), getattr(m_node, name)
            assert str(m_value.dtype) == str(t_value.dtype).replace("torch", "minigrad"), name
            np.testing.assert_allclose(m_value.numpy(), t_value.numpy(), rtol=1e-12,
                                       err_msg=f"{layout}: {name}")
