"""Put tests/ on sys.path, so the op table (``opinfo``) and its test helpers import here too;
pin PyTorch's CPU kernels (tests/_torch_kernels.py); start each test's module-wide random
stream from where it began; start the longest tests first (tests/_slow_first.py)."""

import copy
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

TESTS_DIR = Path(__file__).resolve().parents[1] / "tests"
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))

import _torch_kernels  # noqa: E402, F401 (before any test imports torch: its kernels pinned)
from _slow_first import slow_first  # noqa: E402

# The longest tests of tests_torch, longest first (--durations on main, 2026-12-05: 120 to 9 s
# at load ~8).
SLOW = (
    "tests_torch/test_indexing_sweep_torch.py::test_setitem_matches_pytorch[float64]",
    "tests_torch/test_half_opmath_torch.py::test_half_matches_pytorch",
    "tests_torch/test_training_examples_torch.py::test_digits_mlp_reaches_97_percent",
    "tests_torch/test_edge_values_torch.py::test_unary_edge_values_as_pytorch",
    "tests_torch/test_examples_torch.py::test_recording_is_up_to_date",
    "tests_torch/test_views_torch.py::test_random_programs_match_pytorch",
    "tests_torch/test_elementwise_edges_torch.py::test_elementwise_edges_as_pytorch",
    "tests_torch/test_layouts_torch.py::test_a_result_made_like_a_strided_tensor_is_laid_out_",
    "tests_torch/test_indexing_sweep_torch.py::test_setitem_matches_pytorch",
    "tests_torch/test_read_only_arrays_torch.py::test_read_only_array_warning[from_numpy-once]",
    "tests_torch/test_indexing_sweep_torch.py::test_getitem_matches_pytorch[float64]",
    "tests_torch/test_random_programs.py::test_random_programs_agree_with_pytorch",
    "tests_torch/test_debugging_torch.py::test_with_tracking_the_first_line_is_pytorchs_message",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (every worker sorts its collection alike)."""
    slow_first(items, SLOW)


# A test module's random stream (``RNG`` or ``_RNG``, a numpy Generator) as it was before the
# module's first test ran: each test starts from it, so that the data a test draws does not
# depend on which tests its xdist worker happened to run before (worksteal hands them out in
# no fixed order, and a draw can fall outside a tolerance: test_lowrank_torch's did).
_STREAM_STARTS: dict[tuple[str, str], Any] = {}


@pytest.fixture(autouse=True)
def _stream_from_its_start(request: pytest.FixtureRequest) -> None:
    module = request.module
    for name in ("RNG", "_RNG"):
        stream = getattr(module, name, None)
        if isinstance(stream, np.random.Generator):
            key = (module.__name__, name)
            start = _STREAM_STARTS.setdefault(key, copy.deepcopy(stream.bit_generator.state))
            stream.bit_generator.state = start
