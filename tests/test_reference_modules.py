"""The test modules CI's reference run (MINIGRAD_TEST_REFERENCE=torch) takes.

It takes only the modules whose imports reach ``_backend`` (tests/reference_modules.py); the
others run the same code either way and have run in the README's ``pytest`` already. The list
of those left out is written here, so that a module joining or leaving it shows up in review.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from reference_modules import changed_by_switch, local_modules, main, reaches_switch

TESTS_DIR = Path(__file__).resolve().parent

# The test modules that never import _backend: minigrad's own API, its examples' printed
# outputs, subprocesses of minigrad, tests written against minigrad only.
UNCHANGED = [
    "test_bitwise", "test_data_api", "test_elementwise_extra", "test_examples",
    "test_func_forward", "test_fused", "test_loss_fast_paths", "test_op_consistency",
    "test_printing", "test_promotion", "test_random_generators", "test_reference_modules",
    "test_sampling", "test_serialization_safety", "test_signatures", "test_thread_settings",
    "test_unbound_methods",
]


def test_the_modules_left_out_of_the_reference_run_are_listed() -> None:
    found = changed_by_switch()
    assert sorted(name for name, changed in found.items() if not changed) == UNCHANGED
    assert set(found) == {path.stem for path in TESTS_DIR.glob("test_*.py")}


def test_the_modules_left_out_load_no_backend_when_imported() -> None:
    # A fresh interpreter, as the reference run's: importing them (and what they import at
    # import time) under the switch must not load _backend, nor anything that reads the switch.
    code = textwrap.dedent(f"""
        import os, sys
        os.environ["MINIGRAD_TEST_REFERENCE"] = "torch"
        sys.path.insert(0, {str(TESTS_DIR)!r})
        for name in {UNCHANGED!r}:
            __import__(name)
            assert "_backend" not in sys.modules, name
        print("ok")
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=False, cwd=TESTS_DIR.parent)
    assert result.stdout.strip() == "ok", result.stderr


def test_an_import_reaches_the_switch_through_helpers_and_inside_functions(tmp_path) -> None:
    (tmp_path / "_backend.py").write_text("")
    (tmp_path / "helper.py").write_text("from _backend import LIB\n")
    (tmp_path / "test_direct.py").write_text("import _backend\n")
    (tmp_path / "test_helper.py").write_text("from helper import LIB\n")
    (tmp_path / "test_late.py").write_text("def test_x():\n    import helper\n")
    (tmp_path / "test_other.py").write_text("import os\nimport numpy\n")
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from .inner import X\n")
    (package / "inner.py").write_text("from _backend import LIB as X\n")
    (tmp_path / "test_package.py").write_text("from pkg import X\n")
    assert changed_by_switch(tmp_path) == {
        "test_direct": True, "test_helper": True, "test_late": True, "test_other": False,
        "test_package": True,
    }
    assert reaches_switch("pkg.inner", local_modules(tmp_path))


def test_the_script_prints_the_changed_modules_paths(capsys) -> None:
    main()
    printed = capsys.readouterr().out.split()
    assert "tests/test_backward.py" in printed
    assert "tests/test_examples.py" not in printed
    assert len(printed) == len(changed_by_switch()) - len(UNCHANGED)
