"""Every public reduction against PyTorch 2.13, live: dim forms x keepdim x dtype= x inputs.

One test per reduction collects its cases and lists every difference: the values (exact for
integers, bools and indices; dtype-aware tolerance for floats; nan where nan), the dtype and
shape, the input's gradient where the result is differentiable, or the error's type and text
(``torch`` read as ``minigrad``). The calls PyTorch's parser refuses (``keepdim`` without a
dim, the moments' overloads) are test_keepdim_without_dim_torch.py's and
test_moments_overloads_torch.py's; here the calls are the ones that bind.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import minigrad

torch = pytest.importorskip("torch")

DIMS: list[Any] = ["none", 0, -1, 1, (0, 1), (), [0, -1], 5, -6, (0, 0), (1, -1)]
INT_DIMS: list[Any] = ["none", 0, -1, 1, 5, -6]


def _inputs() -> dict[str, Callable[[Any], Any]]:
    """name -> make(lib): the inputs, the same values in both libraries."""
    rng = np.random.default_rng(0)
    base = rng.standard_normal((3, 4)).round(2)
    special = base.copy()
    special[0, 1], special[1, 2], special[2, 0] = np.nan, np.inf, -np.inf
    ints = rng.integers(-5, 6, (3, 4))
    made = {
        "float32": lambda lib: lib.tensor(base, dtype=lib.float32),
        "float64": lambda lib: lib.tensor(base, dtype=lib.float64),
        "float16": lambda lib: lib.tensor(base, dtype=lib.float16),
        "int64": lambda lib: lib.tensor(ints),
        "bool": lambda lib: lib.tensor(ints > 0),
        "0d": lambda lib: lib.tensor(1.5),
        "empty_dim": lambda lib: lib.zeros(0, 4),
        "one_element": lambda lib: lib.tensor([[2.5]]),
        "nan_inf": lambda lib: lib.tensor(special),
        "strided": lambda lib: lib.tensor(np.arange(24.0).reshape(4, 6) / 7).t()[::2],
    }
    return made


INPUTS = _inputs()


def _outcome(lib: Any, input_name: str, call: Callable[[Any, Any], Any]) -> Any:
    x = INPUTS[input_name](lib)
    if x.dtype.is_floating_point:
        x.requires_grad_()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call(lib, x)
    except Exception as error:  # noqa: BLE001 - the outcome is compared, whatever it is
        return ("error", type(error).__name__, str(error).replace("torch.", "minigrad.")
                .replace("torch", "minigrad"))
    results = list(result) if isinstance(result, tuple) else [result]
    values = []
    for value in results:
        if not isinstance(value, lib.Tensor):
            values.append(("python", value))
            continue
        values.append((str(value.dtype).split(".")[-1], tuple(value.shape),
                       np.asarray(value.detach().tolist(), dtype=float)))
    grad = None
    first = results[0]
    if isinstance(first, lib.Tensor) and first.requires_grad and first.numel() > 0:
        try:
            (first.double() * lib.arange(first.numel(), dtype=lib.float64).reshape(first.shape)
             .add(1)).sum().backward()
            grad = np.asarray(x.grad.tolist(), dtype=float) if x.grad is not None else None
        except Exception as error:  # noqa: BLE001
            grad = ("error", type(error).__name__)
    return ("result", values, grad)


def _close(ours: Any, theirs: Any, dtype: str) -> bool:
    if isinstance(ours, tuple) or isinstance(theirs, tuple) or ours is None or theirs is None:
        return bool(ours == theirs) if not isinstance(ours, np.ndarray) else False
    if ours.shape != theirs.shape:
        return False
    tolerance = {"float16": 2e-3, "float32": 2e-5}.get(dtype, 1e-10)
    return bool(np.allclose(ours, theirs, rtol=tolerance, atol=tolerance, equal_nan=True))


def _same(ours: Any, theirs: Any) -> bool:
    if ours[0] != theirs[0]:
        return False
    if ours[0] == "error":
        return ours == theirs
    if len(ours[1]) != len(theirs[1]):
        return False
    for a, b in zip(ours[1], theirs[1], strict=True):
        if a[0] == "python" or b[0] == "python":
            if a != b and not (a[0] == b[0] == "python" and math.isclose(a[1], b[1])):
                return False
            continue
        if a[:2] != b[:2] or not _close(a[2], b[2], a[0]):
            return False
    dtype = ours[1][0][0] if ours[1] and ours[1][0][0] != "python" else "float64"
    return _close(ours[2], theirs[2], dtype)


def _dim_arguments(dim: Any, by_name: bool) -> tuple[tuple[Any, ...], dict[str, Any]]:
    if dim == "none":
        return (), {}
    return ((), {"dim": dim}) if by_name else ((dim,), {})


def _sweep(calls: dict[str, Callable[[Any, Any], Any]]) -> list[str]:
    differ = []
    for label, call in calls.items():
        for input_name in INPUTS:
            ours = _outcome(minigrad, input_name, call)
            theirs = _outcome(torch, input_name, call)
            if not _same(ours, theirs):
                differ.append(f"{label} on {input_name}:\n    minigrad {_short(ours)}\n"
                              f"    torch    {_short(theirs)}")
    return differ


def _short(outcome: Any) -> str:
    return repr(outcome)[:300].replace("\n", " ")


def _calls(name: str, dims: list[Any], keepdim: bool = True, dtypes: bool = False,
           extra: tuple[dict[str, Any], ...] = ({},), by_name: bool = False,
           ) -> dict[str, Callable[[Any, Any], Any]]:
    calls: dict[str, Callable[[Any, Any], Any]] = {}
    for dim in dims:
        for keep in ((False, True) if keepdim and dim != "none" else (None,)):
            for dtype in ((None, "float64", "int32") if dtypes else (None,)):
                for options in extra:
                    args, kwargs = _dim_arguments(dim, by_name)
                    kwargs = dict(kwargs, **options)
                    if keep is not None:
                        kwargs["keepdim"] = keep
                    label = f"{name}{args}{kwargs}" + (f" dtype={dtype}" if dtype else "")

                    def call(lib: Any, x: Any, args: Any = args, kwargs: Any = kwargs,
                             dtype: Any = dtype) -> Any:
                        named = dict(kwargs)
                        if dtype is not None:
                            named["dtype"] = getattr(lib, dtype)
                        return getattr(lib, name)(x, *args, **named)

                    calls[label] = call
                    calls["method " + label] = (
                        lambda lib, x, c=call, args=args, kwargs=kwargs, dtype=dtype:
                        getattr(x, name)(*args, **dict(kwargs, **(
                            {"dtype": getattr(lib, dtype)} if dtype else {}))))
    return calls


SWEEPS: dict[str, dict[str, Callable[[Any, Any], Any]]] = {
    "sum": _calls("sum", DIMS, dtypes=True),
    "mean": _calls("mean", DIMS, dtypes=False, extra=({}, {"dtype": None})),
    "nansum": _calls("nansum", DIMS, dtypes=True),
    "nanmean": _calls("nanmean", DIMS),
    "prod": _calls("prod", INT_DIMS, dtypes=True),
    "amax": _calls("amax", DIMS),
    "amin": _calls("amin", DIMS),
    "max": _calls("max", INT_DIMS),
    "min": _calls("min", INT_DIMS),
    "argmax": _calls("argmax", INT_DIMS),
    "argmin": _calls("argmin", INT_DIMS),
    "all": _calls("all", DIMS),
    "any": _calls("any", DIMS),
    "logsumexp": _calls("logsumexp", [d for d in DIMS if d != "none"]),
    "std": _calls("std", DIMS, extra=({}, {"correction": 0}, {"correction": 2})),
    "var": _calls("var", DIMS, extra=({}, {"correction": 0}, {"correction": 2})),
    "std_mean": _calls("std_mean", DIMS, extra=({}, {"correction": 0})),
    "var_mean": _calls("var_mean", DIMS, extra=({}, {"correction": 0})),
    "norm": _calls("norm", ["none", 0, -1, (0, 1), 5], extra=({}, {"p": 1}, {"p": "fro"}),
                   by_name=True),
    "median": _calls("median", INT_DIMS),
    "nanmedian": _calls("nanmedian", INT_DIMS),
    "mode": _calls("mode", INT_DIMS),
    "count_nonzero": _calls("count_nonzero", DIMS, keepdim=False),
    "cumsum": _calls("cumsum", [0, -1, 1, 5], keepdim=False, dtypes=True),
    "cumprod": _calls("cumprod", [0, -1, 1, 5], keepdim=False, dtypes=True),
    "cummax": _calls("cummax", [0, -1, 1, 5], keepdim=False),
    "cummin": _calls("cummin", [0, -1, 1, 5], keepdim=False),
    "logcumsumexp": _calls("logcumsumexp", [0, -1, 1, 5], keepdim=False),
    "aminmax": {"aminmax()": lambda lib, x: lib.aminmax(x),
                **{f"aminmax(dim={d}, keepdim={k})": (
                    lambda lib, x, d=d, k=k: lib.aminmax(x, dim=d, keepdim=k))
                   for d in (0, -1, 5) for k in (False, True)}},
}
# Known differences, by reduction: "call on input" -> why (measured on PyTorch 2.13.0).
KNOWN: dict[str, dict[str, str]] = {}


@pytest.mark.parametrize("name", list(SWEEPS))
def test_reduction_as_pytorch(name: str) -> None:
    differ = _sweep(SWEEPS[name])
    known = KNOWN.get(name, {})
    unexpected = [row for row in differ if row.split(":\n")[0] not in known]
    assert not unexpected, f"{len(unexpected)} differences:\n" + "\n".join(unexpected)
    fixed = set(known) - {row.split(":\n")[0] for row in differ}
    assert not fixed, f"known differences now equal (remove them): {sorted(fixed)}"


_FOLDED = [[1.0, 2.0, math.inf], [math.inf, 1.0, 2.0], [1.0, math.inf, 2.0], [1.0, 2.0, -math.inf],
           [math.inf, -math.inf, 1.0], [1.0, math.nan, math.inf], [math.inf] * 3,
           [-math.inf, 1.0, 2.0], [0.5, 0.25, 1.5], [math.nan, 1.0, 2.0], [3e38] * 3,
           [-3e38, 3e38, 3e38]]


@pytest.mark.parametrize("name", ["var_mean", "std_mean"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("dim", [None, 0, 1, (0, 1)])
def test_running_moments_as_pytorch(name: str, dtype: str, dim: Any) -> None:
    """Welford's running mean: an infinity before a slice's last element makes it nan; float32
    folds in float64 (3e38s average to 3e38). Rows and columns put the infinities first/last."""
    # (float64 leaves out the 3e38 rows: its two-pass mean of three 3e38s is 3e38 + 1 ulp, and
    # their variance 2e45 where Welford's is 0; the fold itself is not reproduced bit for bit)
    rows = _FOLDED if dtype == "float32" else _FOLDED[:-2]
    for values in (rows, np.array(rows).T.tolist()):
        results = []
        for lib in (minigrad, torch):
            x = lib.tensor(values, dtype=getattr(lib, dtype))
            pair = getattr(lib, name)(x) if dim is None else getattr(lib, name)(x, dim)
            results.append([np.asarray(part.tolist(), dtype=float) for part in pair])
        for ours, theirs in zip(*results, strict=True):
            assert np.allclose(ours, theirs, rtol=1e-6, atol=0, equal_nan=True), (ours, theirs)
