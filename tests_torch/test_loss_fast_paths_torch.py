"""cross_entropy's and nll_loss's common case (no weight, no ignored target) against PyTorch.

tests/test_loss_fast_paths.py proves the shortcut equals minigrad's general path bit for bit;
here its losses and gradients meet PyTorch's, with nans and signed zeros among the inputs.
"""

from __future__ import annotations

import numpy as np
import pytest
from _cases import parametrize_in_one

import minigrad
import minigrad.nn.functional as F

torch = pytest.importorskip("torch")


def _loss_and_grad(lib, functional, name, x, target, reduction):
    xt = lib.tensor(x, requires_grad=True)
    out = getattr(functional, name)(xt, lib.tensor(target), reduction=reduction)
    out.sum().backward()
    return out.detach().numpy(), xt.grad.numpy()


@parametrize_in_one("name", ["nll_loss", "cross_entropy"])
@parametrize_in_one("reduction", ["mean", "sum", "none"])
@parametrize_in_one("dtype", [np.float32, np.float64])
@parametrize_in_one("seed", range(4))
def test_the_common_case_gives_pytorch_values(name, reduction, dtype, seed):
    rng = np.random.default_rng(seed)
    n, c = int(rng.integers(1, 7)), int(rng.integers(1, 17))
    x = (rng.standard_normal((n, c)) * 30).astype(dtype)
    x[0, 0] = np.nan if seed % 2 else -0.0
    target = rng.integers(0, c, n)
    ours = _loss_and_grad(minigrad, F, name, x, target, reduction)
    theirs = _loss_and_grad(torch, torch.nn.functional, name, x, target, reduction)
    tolerance = 1e-6 if dtype == np.float32 else 1e-12
    for mine, want in zip(ours, theirs):
        np.testing.assert_allclose(mine, want, rtol=tolerance, atol=tolerance, equal_nan=True)
        finite_zero = (want == 0) & np.isfinite(want)
        assert np.array_equal(np.signbit(mine[finite_zero]), np.signbit(want[finite_zero]))


def _outcome(lib, functional, name, x, target, ignore_index):
    """Loss and gradient, or the error's type and text (in minigrad's names)."""
    xt = lib.tensor(x, requires_grad=True)
    try:
        out = getattr(functional, name)(xt, lib.tensor(target), ignore_index=ignore_index)
        out.sum().backward()
    except Exception as error:  # noqa: BLE001 (the error itself is compared)
        return type(error).__name__, str(error).replace(lib.__name__, "minigrad")
    return out.detach().numpy(), xt.grad.numpy()


@parametrize_in_one("name", ["nll_loss", "cross_entropy"])
@parametrize_in_one(("target", "ignore_index"), [
    ([0, 2, 1], -100),  # the common case
    ([0, 2, 1], 1),  # ignore_index among the classes and the targets
    ([0, 2, 0], 1),  # among the classes, not the targets
    ([0, 2, 1], 2),  # the last class
    ([0, 2, 3], -100),  # a target past the classes
    ([0, -1, 1], -100),  # a negative target
    ([0, 3, 1], 3),  # past the classes, and ignored
    ([-100, -100, -100], -100),  # all ignored
    (np.array([0, 2, 1], dtype=np.uint8), -100),
    (np.zeros(0, dtype=np.int64), -100),  # an empty batch
])
def test_target_checks_choose_as_pytorch(name, target, ignore_index):
    """The common-case test (two reductions) decides as the general checks: PyTorch's answers."""
    target = np.asarray(target)
    x = np.random.default_rng(0).standard_normal((len(target), 3)).astype(np.float32)
    ours = _outcome(minigrad, F, name, x, target, ignore_index)
    theirs = _outcome(torch, torch.nn.functional, name, x, target, ignore_index)
    if isinstance(theirs[0], str):
        assert ours == theirs
        return
    for mine, want in zip(ours, theirs):
        np.testing.assert_allclose(mine, want, rtol=1e-6, atol=1e-7, equal_nan=True)


def _tree(node):
    """A node as data: its name and its children's, with output numbers, recursively."""
    if node is None:
        return None
    return (node.name(), tuple((_tree(child), nr) for child, nr in node.next_functions))


@parametrize_in_one("kind", ["leaf", "result"])
@parametrize_in_one("reduction", ["mean", "sum", "none"])
@parametrize_in_one("target_dtype", [np.int64, np.uint8])
def test_cross_entropy_s_graph_is_pytorch_s(kind, reduction, target_dtype):
    """The one-pass recording's nodes (ops/cross_entropy.py) against PyTorch's, saved values too."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 3))
    target = np.array([0, 2, 1, 2], dtype=target_dtype)
    sides = []
    for lib, functional in ((minigrad, F), (torch, torch.nn.functional)):
        leaf = lib.tensor(x, requires_grad=True)
        source = leaf * 2 if kind == "result" else leaf
        labels = lib.tensor(target)
        loss = functional.cross_entropy(source, labels, reduction=reduction)
        sides.append((leaf, labels, loss))
    (m_leaf, m_labels, m_loss), (t_leaf, t_labels, t_loss) = sides
    assert _tree(m_loss.grad_fn) == _tree(t_loss.grad_fn)
    m_nll, t_nll = m_loss.grad_fn, t_loss.grad_fn
    m_ls, t_ls = m_nll.next_functions[0][0], t_nll.next_functions[0][0]
    assert m_ls._sequence_nr < m_nll._sequence_nr  # (a slot in minigrad, a method in PyTorch)
    assert t_ls._sequence_nr() < t_nll._sequence_nr()
    assert (m_nll._saved_target is m_labels) == (t_nll._saved_target is t_labels)
    assert (m_nll._saved_weight is None) == (t_nll._saved_weight is None)
    for mine, theirs in ((m_nll._saved_self, t_nll._saved_self),
                         (m_nll._saved_total_weight, t_nll._saved_total_weight),
                         (m_ls._saved_result, t_ls._saved_result)):
        np.testing.assert_allclose(mine.detach().numpy(), theirs.detach().numpy(), rtol=1e-12)
        assert mine._version == theirs._version
    # (PyTorch shows a negative int64 option as its unsigned wrap-around)
    assert (m_nll._saved_reduction, m_nll._saved_ignore_index % 2**64) == (
        t_nll._saved_reduction, t_nll._saved_ignore_index)
    assert m_ls._saved_dim == t_ls._saved_dim
    m_loss.sum().backward()
    t_loss.sum().backward()
    np.testing.assert_allclose(m_leaf.grad.numpy(), t_leaf.grad.numpy(), rtol=1e-12)


@pytest.mark.parametrize("written", ["logits", "target", "log_softmax"])
def test_cross_entropy_in_place_writes_after_forward_raise_as_in_pytorch(written):
    x = np.random.default_rng(6).standard_normal((3, 4))
    outcomes = []
    for lib, functional in ((minigrad, F), (torch, torch.nn.functional)):
        logits = lib.tensor(x, requires_grad=True)
        labels = lib.tensor([0, 3, 1])
        loss = functional.cross_entropy(logits * 1, labels)
        with lib.no_grad():
            if written == "logits":
                logits.add_(1.0)
            elif written == "target":
                labels.add_(0)
            else:
                loss.grad_fn.next_functions[0][0]._saved_result.add_(1.0)
        try:
            loss.backward()
            outcomes.append(None)
        except RuntimeError as error:
            outcomes.append(str(error).replace(lib.__name__, "minigrad"))
    assert outcomes[0] == outcomes[1]


@parametrize_in_one("mode", ["no_grad", "nothing requires grad"])
@parametrize_in_one("reduction", ["mean", "sum", "none"])
@parametrize_in_one("target", [[0, 4, 1, 2], [0, 5, 1, 2], [-1, 0, 1, 2]])
def test_cross_entropy_and_linear_without_recording_give_pytorch_results(mode, reduction, target):
    """The one pass with nothing to record: PyTorch's values and errors, and no history."""
    rng = np.random.default_rng(3)
    x, w, b = (rng.standard_normal(shape).astype(np.float32) * 5
               for shape in ((4, 5), (3, 5), (3,)))
    x[0, 1], x[1, 2] = -np.inf, 1e30

    def outcomes(lib):
        args = [lib.tensor(v, requires_grad=mode == "no_grad") for v in (x, w, b)]
        seen = []
        with lib.set_grad_enabled(mode != "no_grad"):
            for make in (lambda: lib.nn.functional.linear(*args),
                         lambda: lib.nn.functional.cross_entropy(
                             args[0], lib.tensor(target), reduction=reduction)):
                try:
                    out = make()
                except Exception as error:  # noqa: BLE001 (the error itself is compared)
                    seen.append((type(error).__name__, str(error)))
                    continue
                seen.append((out.numpy(), out.grad_fn is None, out.requires_grad, out.stride()))
        return seen

    for mine, want in zip(outcomes(minigrad), outcomes(torch), strict=True):
        if isinstance(want[0], str):
            assert mine == want
            continue
        np.testing.assert_allclose(mine[0], want[0], rtol=1e-6, atol=1e-6, equal_nan=True)
        assert mine[1:] == want[1:]
