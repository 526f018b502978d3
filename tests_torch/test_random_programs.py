"""A fixed batch of random autograd programs must run identically in minigrad and PyTorch.

2,000 programs (seeds 0..1999) in chunks, so that pytest-xdist spreads them over the cores.
A divergence fails the test with its shrunk, runnable reproduction, unless ``known.py`` lists
its class (a known, not-yet-fixed bug with its issue). More by hand:
``python -m tests_torch.random_programs --n 20000 --jobs 2``.
"""

import pytest
import torch

from tests_torch.random_programs.check import check_seed
from tests_torch.random_programs.compare import Divergence, compare
from tests_torch.random_programs.generator import Statement
from tests_torch.random_programs.known import classify
from tests_torch.random_programs.runner import Run, run
from tests_torch.random_programs.shrink import reproduction, shrink

PROGRAMS = 2000
CHUNK = 100


@pytest.fixture(autouse=True, scope="module")
def _one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny tensors: threads only cost time on a shared machine
    yield
    torch.set_num_threads(threads)


@pytest.mark.parametrize("first", range(0, PROGRAMS, CHUNK))
def test_random_programs_agree_with_pytorch(first):
    new = []
    for seed in range(first, first + CHUNK):
        finding = check_seed(seed)
        if finding is not None and finding.known is None:
            new.append(f"--- seed {seed}\n{reproduction(shrink(finding))}")
    assert not new, "minigrad diverges from PyTorch:\n" + "\n".join(new[:5])


def test_a_difference_between_two_runs_is_a_divergence():
    """The tester can fail: two programs that differ in one value or one raise are told apart."""
    leaf = Statement("t0 = torch.tensor([1.0, 2.0], requires_grad=True)", "leaf", "t0")
    doubled = Statement("t1 = t0 * 2", "unary", "t1", ("t0",))
    tripled = Statement("t1 = t0 * 3", "unary", "t1", ("t0",))
    write = Statement("t0.add_(1)", "inplace_unary", "t0")
    assert compare(run([leaf, doubled], torch), run([leaf, doubled], torch)) is None
    value = compare(run([leaf, doubled], torch), run([leaf, tripled], torch))
    assert (value.category, value.name) == ("value", "t1")
    raised = compare(run([leaf, doubled], torch), run([leaf, write], torch))
    assert (raised.category, raised.statement) == ("raise", 1)


def test_known_classes_are_recognised_by_their_facts_only():
    program = [Statement("t1.mul_(t1)", "inplace_binary", "t1", ("t1",))] * 3
    stale = ("RuntimeError", "one of the variables needed for gradient computation has been "
             "modified by an inplace operation: ...")
    divergence = Divergence("raise", 2, None, stale, None)
    shared = Run([], {}, [set(), {"inplace_operand_shares_counter"}, set()])
    unshared = Run([], {}, [set(), set(), set()])
    assert "class 1" in classify(program, shared, divergence)
    assert classify(program, unshared, divergence) is None
    other = Divergence("value", None, "t1", None, None)
    assert classify(program, shared, other) is None
