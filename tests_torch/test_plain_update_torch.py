"""``add_``'s fast branch for an optimizer's update against PyTorch.

tests/test_plain_update.py proves the branch equal to the general path; here each of its
cases, and an SGD step through the branch, is compared with PyTorch's answer.
"""
from __future__ import annotations

import numpy as np
import torch
from _cases import parametrize_in_one
from test_plain_update import CASES, _observe

import minigrad


@parametrize_in_one("name", CASES)
def test_each_case_gives_pytorchs_answer(name: str) -> None:
    run, no_grad = CASES[name]
    ours, expected = _observe(minigrad, run, no_grad), _observe(torch, run, no_grad)
    # (bit for bit: PyTorch's kernel fuses ``a + alpha * b``, and minigrad's add too)
    assert ours == expected


def test_sgd_step_versions_and_values() -> None:
    """An SGD step through the branch: one version bump per parameter, PyTorch's values."""
    rng = np.random.default_rng(1)
    arrays = [rng.standard_normal(s).astype(np.float32) for s in ((4, 3), (4,))]
    results = []
    for lib in (minigrad, torch):
        params = [lib.nn.Parameter(lib.tensor(a.copy())) for a in arrays]
        opt = lib.optim.SGD(params, lr=0.1)
        (params[0].sum(1) * params[1]).square().sum().backward()
        opt.step()
        results.append([(p.detach().numpy().tobytes(), p._version) for p in params])
    assert results[0] == results[1]
