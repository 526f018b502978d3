"""The test modules that MINIGRAD_TEST_REFERENCE=torch changes, for CI's reference run.

The switch acts only through ``_backend`` (``mg`` is PyTorch there); nothing else in the tests,
the library or the examples reads the variable. A test module that imports ``_backend``
neither itself nor through the test helpers it imports (anywhere in the module, functions
included) runs the same code under the switch as without it: the README's ``pytest`` has run
its checks already, so the reference run gains nothing from running them again.

    python tests/reference_modules.py   # the test files whose imports reach _backend

tests/test_reference_modules.py lists the modules this leaves out, and checks in a fresh
interpreter that importing them loads no ``_backend``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent
SWITCH = "_backend"


def local_modules(tests_dir: Path = TESTS_DIR) -> dict[str, Path]:
    """The modules importable from tests/ (on sys.path when pytest runs there), by name."""
    modules = {path.stem: path for path in tests_dir.glob("*.py")}
    for package in (p for p in tests_dir.iterdir() if (p / "__init__.py").is_file()):
        modules[package.name] = package / "__init__.py"
        for path in package.glob("*.py"):
            modules[f"{package.name}.{path.stem}"] = path
    return modules


def _imported_names(path: Path, package: str) -> set[str]:
    """Every module name an import statement of ``path`` may load (``from a import b``: both
    ``a`` and ``a.b``; relative imports resolved inside ``package``)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(filter(None, [package, base]))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def reaches_switch(name: str, modules: dict[str, Path]) -> bool:
    """Whether importing local module ``name`` may import ``_backend`` (transitively)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        current = todo.pop()
        if current == SWITCH:
            return True
        if current in seen:
            continue
        seen.add(current)
        path = modules[current]
        package = current if path.name == "__init__.py" else current.rpartition(".")[0]
        todo.extend(n for n in _imported_names(path, package) if n in modules)
    return False


def changed_by_switch(tests_dir: Path = TESTS_DIR) -> dict[str, bool]:
    """``{test module name: whether the reference switch changes it}``, sorted by name."""
    modules = local_modules(tests_dir)
    return {name: reaches_switch(name, modules) for name in sorted(modules)
            if name.startswith("test_")}


def main() -> None:
    """Print the paths (relative to the repository) of the modules the switch changes."""
    root = TESTS_DIR.parent
    for name, changed in changed_by_switch().items():
        if changed:
            print((TESTS_DIR / f"{name}.py").relative_to(root))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
