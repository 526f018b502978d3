"""Start the README suite's longest tests first (tests/_slow_first.py)."""

import pytest
from _slow_first import slow_first

# The longest tests of tests/ (benchmarks/README.md, branch citests: 317 and 111 s at load ~18).
SLOW = (
    "tests/test_backward.py::test_a_million_op_chain_backpropagates_without_recursion_and_can_be_",
    "tests/test_ops.py::test_op_table_row[F.conv2d]",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (every worker sorts its collection alike)."""
    slow_first(items, SLOW)
