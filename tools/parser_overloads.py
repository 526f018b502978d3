"""Regenerate minigrad/_parser_overloads.json: the overloads PyTorch's parser lists per function.

Run ``python tools/parser_overloads.py`` (PyTorch installed) after adding a public op.
PyTorch binds many functions with several signatures (``clamp``: a Tensor and a Number
``min``/``max``; ``addmm``: its deprecated ``beta``-first forms too); a call that fits none gets
the parser's message listing them all. minigrad's one Python signature per function cannot
show that list, so minigrad/_arguments.py reads it from this file (PyTorch's own listing, with
``torch`` replaced by ``minigrad``), and tests_torch/test_parser_overloads_torch.py checks that
the file is up to date.

Each listing is read off the error of a call with an unknown keyword, which fits no signature:
only functions with more than one signature are kept (one signature gets no listing).
"no_arguments": the Tensor methods PyTorch binds as C methods taking no arguments, whose
texts are CPython's, not the parser's (``TensorBase.relu() takes no arguments (1 given)``).
"descriptors": the Tensor methods that are C methods of ``torch._C.TensorBase``, which refuse
another ``self`` (``Tensor.mul(2, t)``: minigrad/_unbound_methods.py).
"""

from __future__ import annotations

import inspect
import json
import sys
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUTPUT = ROOT / "minigrad" / "_parser_overloads.json"
_LISTED = "received an invalid combination of arguments"


def listing(function: Any) -> list[str] | None:
    """The signatures PyTorch's parser lists for ``function`` (None: not several).

    Asked with an unknown keyword, then (a function whose first complaint is a missing
    argument) with more arguments than any signature takes.
    """
    for args, kwargs in (((), {"__no_such_argument__": 0}), ((object(),) * 12, {})):
        try:
            function(*args, **kwargs)
        except TypeError as error:
            text = str(error)
        except Exception:  # noqa: BLE001, S112 - anything else: not the parser's listing
            continue
        else:
            continue
        if _LISTED in text:
            lines = [line[3:] for line in text.splitlines() if line.startswith(" * ")]
            if len(lines) > 1:
                return [line.replace("torch.", "minigrad.") for line in lines]
    return None


def overloads() -> dict[str, Any]:
    """``{"function": {name: listing}, "method": {name: listing}}`` for minigrad's names."""
    import torch

    import minigrad

    functions: dict[str, list[str]] = {}
    for name in sorted(minigrad.__all__):
        found = listing(getattr(torch, name)) if hasattr(torch, name) else None
        if found:
            functions[name] = found
    for name in sorted(minigrad.nn.functional.__all__):  # (F.conv2d is torch.conv2d)
        function = getattr(torch.nn.functional, name, None)
        found = listing(function) if name not in functions and function is not None else None
        if found:
            functions[name] = found
    for name in sorted(minigrad.linalg.__all__):
        found = listing(getattr(torch.linalg, name)) if hasattr(torch.linalg, name) else None
        if found:
            functions["linalg_" + name] = found
    for name in sorted(minigrad.special.__all__):
        found = listing(getattr(torch.special, name)) if hasattr(torch.special, name) else None
        if found:
            functions["special_" + name] = found
    # Functions PyTorch writes in Python pass their arguments on to a kernel (torch._VF.split)
    # whose parser lists its overloads (minigrad/_arguments.py's PYTHON_LEVEL names).
    from minigrad import _arguments

    kernels: dict[str, list[str]] = {}
    for name in sorted(_arguments.PYTHON_LEVEL):
        found = listing(getattr(torch._VF, name)) if hasattr(torch._VF, name) else None
        if found:
            kernels[name] = found
    methods: dict[str, list[str]] = {}
    no_arguments: list[str] = []
    descriptors: list[str] = []  # (C methods: called through the class, ``self`` checked)
    example = torch.ones(1)
    for name in sorted(n for n in dir(minigrad.Tensor) if not n.startswith("_")):
        static = inspect.getattr_static(torch.Tensor, name, None)
        if callable(static) and callable(getattr(minigrad.Tensor, name, None)):
            found = listing(getattr(example, name))
            if found:
                methods[name] = found
            if takes_no_arguments(getattr(example, name)):
                no_arguments.append(name)
            if isinstance(static, types.MethodDescriptorType):
                descriptors.append(name)
    return {"version": torch.__version__.split("+")[0], "function": functions,
            "method": methods, "kernel": kernels, "no_arguments": no_arguments,
            "descriptors": descriptors}


def takes_no_arguments(method: Any) -> bool:
    """Whether PyTorch binds ``method`` without its parser, as taking no arguments at all.

    (A C method of ``METH_NOARGS``: ``TensorBase.relu() takes no arguments (1 given)``.)
    """
    try:
        method(object())
    except TypeError as error:
        return str(error).endswith("() takes no arguments (1 given)")
    except Exception:  # noqa: BLE001 - anything else: not such a method
        return False
    return False


def render() -> str:
    """The file's text."""
    return json.dumps(overloads(), indent=1) + "\n"


def main() -> int:
    """Write the file."""
    OUTPUT.write_text(render())
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
