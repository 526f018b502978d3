"""The public API as a whole: __all__ lists, out-of-scope names, and the generated docs page.

These check minigrad's own packaging (PyTorch has other internals), so they run against
minigrad only.
"""
import importlib
import inspect
import pydoc
import sys
import types
from pathlib import Path

import pytest
from _backend import LIB
from _cases import parametrize_in_one

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="checks minigrad's own packaging")

ROOT = Path(__file__).resolve().parents[1]
MODULES = ["minigrad", "minigrad.autograd", "minigrad.autograd.functional",
           "minigrad.nn.functional", "minigrad.nn", "minigrad.nn.init", "minigrad.nn.utils",
           "minigrad.optim", "minigrad.optim.lr_scheduler", "minigrad.linalg", "minigrad.viz",
           "minigrad.cuda",
           "minigrad.accelerator", "minigrad.utils.data", "minigrad.func",
           "minigrad.nn.utils.parametrize", "minigrad.nn.utils.parametrizations",
           "minigrad.nn.utils.stateless", "minigrad.optim.swa_utils",
           "minigrad.backends.mps", "minigrad.backends.cudnn", "minigrad.signal.windows",
           "minigrad.testing"]
# Modules that define their own API (rather than gathering names from elsewhere): only what they
# define counts as public there.
DEFINES_OWN = {"minigrad.autograd.functional", "minigrad.func", "minigrad.nn.utils.parametrize",
               "minigrad.nn.utils.parametrizations", "minigrad.nn.utils.stateless",
               "minigrad.optim.swa_utils", "minigrad.nn.init", "minigrad.optim.lr_scheduler",
               "minigrad.viz",
               "minigrad.cuda", "minigrad.accelerator",
               "minigrad.backends.mps", "minigrad.backends.cudnn", "minigrad.signal.windows"}


def public_names(module):
    """Names a user would take for public: not private, not modules, not helpers imported from
    outside minigrad (``Any``, ``Callable``); in a DEFINES_OWN module, only its own."""
    names = set()
    for name, value in vars(module).items():
        if name.startswith("_") or isinstance(value, types.ModuleType):
            continue
        origin = getattr(value, "__module__", None) or ""
        if not origin.startswith("minigrad"):
            continue
        if module.__name__ in DEFINES_OWN and origin != module.__name__:
            continue
        names.add(name)
    return names


@parametrize_in_one("name", MODULES)
def test_all_lists_every_public_name_and_nothing_else(name):
    module = importlib.import_module(name)
    assert len(module.__all__) == len(set(module.__all__)), "a name is listed twice"
    missing = public_names(module) - set(module.__all__)
    assert not missing, f"public in {name} but not in __all__: {sorted(missing)}"
    for listed in module.__all__:
        assert hasattr(module, listed), f"{name}.__all__ lists {listed!r}, which does not exist"


@parametrize_in_one("name", MODULES)
def test_every_listed_function_and_class_has_a_docstring(name):
    module = importlib.import_module(name)
    for listed in module.__all__:
        value = getattr(module, listed)
        if inspect.isfunction(value) or inspect.isclass(value):
            assert inspect.getdoc(value), f"{name}.{listed} has no docstring"


def test_help_lists_the_public_functions():
    import minigrad

    text = pydoc.render_doc(minigrad, renderer=pydoc.plaintext)
    for name in ("zeros", "allclose", "inference_mode", "unique", "device"):
        assert name in text


def test_the_docs_page_is_up_to_date():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        api_docs = importlib.import_module("api_docs")
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert api_docs.current() == api_docs.render(), (
        "docs/api.md is stale: run `python tools/api_docs.py` and commit the result")


OUT_OF_SCOPE = [
    ("minigrad", "fft", "complex"),
    ("minigrad", "sparse_coo_tensor", "sparse"),
    ("minigrad", "compile", "compiler"),
    ("minigrad", "complex64", "complex"),
    ("minigrad", "vmap", "forward-mode"),
    ("minigrad.func", "vmap", "forward-mode"),
    ("minigrad.func", "functionalize", "forward-mode"),
    ("minigrad.autograd", "forward_ad", "forward-mode"),
    ("minigrad.cuda", "synchronize", "CPU only"),
    ("minigrad.cuda", "current_device", "CPU only"),
    ("minigrad.testing", "FileCheck", "TorchScript"),
]


@parametrize_in_one(("module_name", "name", "reason"), OUT_OF_SCOPE)
def test_pytorch_names_left_out_say_why(module_name, name, reason):
    from minigrad.errors import OutOfScopeError

    module = importlib.import_module(module_name)
    with pytest.raises(OutOfScopeError) as info:
        getattr(module, name)
    message = str(info.value)
    assert message.startswith(f"{module_name}.{name} is not available: ")
    assert reason in message and "docs/api.md" in message
    assert isinstance(info.value, NotImplementedError) and isinstance(info.value, AttributeError)
    assert not hasattr(module, name)  # hasattr and getattr with a default keep working
    assert getattr(module, name, None) is None


# Python complex numbers, which would make complex tensors in PyTorch
COMPLEX_USES = {
    "tensor(1j)": lambda mg, t: mg.tensor(1j),
    "tensor([1, 2+1j])": lambda mg, t: mg.tensor([1, 2 + 1j]),
    "t * 1j": lambda mg, t: t * 1j,
    "1j - t": lambda mg, t: 1j - t,
    "t ** 1j": lambda mg, t: t**1j,
    "t == 1j": lambda mg, t: t == 1j,
    "t += 1j": lambda mg, t: t.__iadd__(1j),
}


@parametrize_in_one("use", list(COMPLEX_USES))
def test_complex_numbers_say_they_are_out_of_scope(use):
    import minigrad
    from minigrad.errors import OutOfScopeError

    t = minigrad.ones(2)
    with pytest.raises(OutOfScopeError, match=r"^complex number \(?[0-9+]*j\)?: minigrad has "
                       r"real dtypes only \(no complex numbers\)\. See docs/api\.md"):
        COMPLEX_USES[use](minigrad, t)
    assert t._version == 0


def test_unknown_names_are_ordinary_attribute_errors():
    import minigrad
    from minigrad.errors import OutOfScopeError

    for module in (minigrad, minigrad.autograd, minigrad.cuda, minigrad.testing):
        with pytest.raises(AttributeError) as info:
            module.no_such_name  # noqa: B018 - the access is the test
        assert not isinstance(info.value, OutOfScopeError)
        assert str(info.value) == f"module '{module.__name__}' has no attribute 'no_such_name'"
