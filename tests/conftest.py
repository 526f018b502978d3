"""Start the README suite's longest tests first (tests/_slow_first.py)."""

import pytest
from _slow_first import slow_first

# The longest tests of tests/, longest first (--durations of the README suite on main and on this
# branch, 2026-12-05, load 8-24: 330 to 60 s).
SLOW = (
    "tests/test_ops.py::test_op_table_row[F.conv2d]",
    "tests/test_backward.py::test_a_million_op_chain_backpropagates_without_recursion_and_can_be_",
    "tests/test_ops.py::test_op_table_row[F.conv2d_",
    "tests/test_training_examples.py::test_digits_classifier_trains_both_models_and_plots",
    "tests/test_readme.py::test_readme_debugging_examples_print_what_the_readme_shows",
    "tests/test_reference_modules.py::test_the_script_prints_the_changed_modules_paths",
    "tests/test_gc_footprint.py::test_a_view_chain_keeps_no_tuple_for_its_view_steps",
    "tests/test_ops.py::test_op_table_row[F.max_pool2d]",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first (every worker sorts its collection alike)."""
    slow_first(items, SLOW)
