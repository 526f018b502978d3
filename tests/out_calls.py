"""One representative call of every public function, for the ``out=`` tests.

``CALLS[name](lib)`` returns the function and its arguments ``(fn, args, kwargs)``, built with
``lib`` (``minigrad`` or ``torch``), so the same call runs in both libraries. Functions that take
no tensor and make none (``manual_seed``, ``is_grad_enabled``, ...) are in ``NOT_TENSOR_OPS``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Call = Callable[[Any], tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]]


def words(text: str) -> list[str]:
    """The whitespace-separated words of ``text``."""
    return text.split()


def _x(lib: Any) -> Any:
    return lib.tensor([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]])


def _sq(lib: Any) -> Any:
    return lib.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]])


def _v(lib: Any) -> Any:
    return lib.tensor([0.5, -1.25, 2.0])


def _i(lib: Any) -> Any:
    return lib.tensor([2, 0, 1, 1])


def _b(lib: Any) -> Any:
    return lib.tensor([[True, False, True], [False, False, True]])


def unary(name: str, value: Callable[[Any], Any] = _x, *args: Any, **kwargs: Any) -> Call:
    """``lib.name(value, *args, **kwargs)``."""
    return lambda lib: (getattr(lib, name), (value(lib), *args), dict(kwargs))


def binary(name: str, *args: Any, **kwargs: Any) -> Call:
    """``lib.name(x, y, *args, **kwargs)`` with two float matrices of one shape."""
    return lambda lib: (getattr(lib, name), (_x(lib), _x(lib).flip(0), *args), dict(kwargs))


def linalg(name: str, value: Callable[[Any], Any] = _sq, *args: Any, **kwargs: Any) -> Call:
    """``lib.linalg.name(value, *args, **kwargs)``."""
    return lambda lib: (getattr(lib.linalg, name), (value(lib), *args), dict(kwargs))


def made(name: str, *args: Any, **kwargs: Any) -> Call:
    """``lib.name(*args, **kwargs)``: a factory."""
    return lambda lib: (getattr(lib, name), args, dict(kwargs))


def with_lib(name: str, build: Callable[[Any], tuple[tuple[Any, ...], dict[str, Any]]]) -> Call:
    """``lib.name(*args, **kwargs)`` with ``(args, kwargs) = build(lib)``."""
    return lambda lib: (getattr(lib, name), *build(lib))


UNARY = words("""abs acos asin atan ceil cos cosh deg2rad erf erfc exp exp2 expm1 fix floor frac log
log10 log1p log2 neg rad2deg reciprocal relu round sinc rsqrt sigmoid sign sin sinh sqrt square tan
tanh trunc isfinite
isinf isnan logical_not nan_to_num clone flatten ravel t adjoint argwhere nonzero selu
masked_select:b tril triu argmax argmin amax amin all any logdet:sq det:sq inverse:sq
pinverse:sq qr:sq svd:sq slogdet:sq cholesky:sq max min sum nansum count_nonzero prod mean std var
norm unique median:1 nanmedian:1 var_mean std_mean aminmax
diag diag_embed unbind cartesian_prod:v clamp_max:1.0 clamp_min:0.0 squeeze unsqueeze:0
numel is_floating_point is_tensor is_complex is_signed empty_like zeros_like ones_like
full_like:2.0 rand_like randn_like absolute negative positive asinh acosh atanh arcsin
arccos arctan arcsinh arccosh
arctanh logit diff trace:sq atleast_1d atleast_2d atleast_3d""")

BINARY = words("""add sub mul div true_divide atan2 arctan2 floor_divide remainder maximum minimum
eq ne lt le gt ge not_equal less less_equal greater greater_equal logical_and logical_or
logical_xor rsub allclose isclose equal subtract multiply divide is_same_size logaddexp logaddexp2
hypot xlogy dist""")


def _unary_calls() -> dict[str, Call]:
    values = {"b": _b, "sq": _sq, "v": _v}
    calls: dict[str, Call] = {}
    for entry in UNARY:
        name, _, extra = entry.partition(":")
        if extra in values:
            calls[name] = unary(name, values[extra])
        elif extra:
            calls[name] = unary(name, _x, float(extra) if "." in extra else int(extra))
        else:
            calls[name] = unary(name)
    calls["masked_select"] = with_lib("masked_select", lambda lib: ((_x(lib), _b(lib)), {}))
    return calls


CALLS: dict[str, Call] = {
    **_unary_calls(),
    **{name: binary(name) for name in BINARY},
    "adaptive_avg_pool1d": unary("adaptive_avg_pool1d", _x, 2),
    "adaptive_max_pool1d": unary("adaptive_max_pool1d", _x, 2),
    "avg_pool1d": unary("avg_pool1d", _x, 2),
    "conv1d": with_lib("conv1d", lambda lib: ((_x(lib)[None], lib.ones(1, 2, 2)), {})),
    "conv2d": with_lib("conv2d", lambda lib: ((_x(lib)[None, None], _x(lib)[None, None]), {})),
    "conv3d": with_lib("conv3d", lambda lib: ((_x(lib)[None, None, None],
                                                 _x(lib)[None, None, None]), {})),
    "conv_transpose1d": with_lib("conv_transpose1d",
                                 lambda lib: ((_x(lib)[None], lib.ones(2, 1, 2)), {})),
    "conv_transpose2d": with_lib("conv_transpose2d",
                                 lambda lib: ((_x(lib)[None, None], _x(lib)[None, None]), {})),
    "conv_transpose3d": with_lib("conv_transpose3d",
                                 lambda lib: ((_x(lib)[None, None, None],
                                               _x(lib)[None, None, None]), {})),
    "max_pool1d": unary("max_pool1d", _x, 2),
    "max_pool1d_with_indices": unary("max_pool1d_with_indices", _x, 2),
    "max_pool2d": unary("max_pool2d", lambda lib: _x(lib)[None], 2),
    "max_pool3d": unary("max_pool3d", lambda lib: lib.ones(1, 2, 2, 2), 2),
    "pixel_shuffle": unary("pixel_shuffle", lambda lib: lib.ones(4, 1, 1), 2),
    "channel_shuffle": unary("channel_shuffle", lambda lib: lib.ones(1, 4, 1), 2),
    "native_channel_shuffle": unary("native_channel_shuffle", lambda lib: lib.ones(1, 4, 1), 2),
    "pixel_unshuffle": unary("pixel_unshuffle", lambda lib: lib.ones(1, 2, 2), 2),
    "pow": unary("pow", _x, 2.0),
    "clamp": unary("clamp", _x, -1.0, 1.0),
    "clip": unary("clip", _x, -1.0, 1.0),
    "lerp": with_lib("lerp", lambda lib: ((_x(lib), _x(lib).flip(0), 0.25), {})),
    "addcmul": with_lib("addcmul", lambda lib: ((_x(lib), _x(lib), _x(lib).flip(1)), {})),
    "addcdiv": with_lib("addcdiv", lambda lib: ((_x(lib), _x(lib), _x(lib).flip(1) + 3), {})),
    "softmax": unary("softmax", _x, 1),
    "log_softmax": unary("log_softmax", _x, 1),
    "logsumexp": unary("logsumexp", _x, 1),
    "cumsum": unary("cumsum", _x, 1),
    "cumprod": unary("cumprod", _x, 1),
    "logcumsumexp": unary("logcumsumexp", _x, 1),
    "argsort": unary("argsort", _x, 1),
    "sort": unary("sort", _x, 1),
    "topk": unary("topk", _x, 2),
    "flip": unary("flip", _x, (0,)),
    "roll": unary("roll", _x, 1, 1),
    "tile": unary("tile", _x, (2,)),
    "transpose": unary("transpose", _x, 0, 1),
    "swapaxes": unary("swapaxes", _x, 0, 1),
    "swapdims": unary("swapdims", _x, 0, 1),
    "movedim": unary("movedim", _x, 0, 1),
    "moveaxis": unary("moveaxis", _x, 0, 1),
    "permute": unary("permute", _x, (1, 0)),
    "reshape": unary("reshape", _x, (3, 2)),
    "narrow": unary("narrow", _x, 1, 0, 2),
    "select": unary("select", _x, 1, 0),
    "diagonal": unary("diagonal", _sq),
    "unflatten": unary("unflatten", _v, 0, (1, 3)),
    "chunk": unary("chunk", _x, 2),
    "split": unary("split", _x, 1),
    "split_with_sizes": unary("split_with_sizes", _x, [1, 2], 1),
    "tensor_split": unary("tensor_split", _x, 2),
    "hsplit": unary("hsplit", _x, 3),
    "vsplit": unary("vsplit", _x, 2),
    "dsplit": with_lib("dsplit", lambda lib: ((_x(lib).reshape(1, 2, 3), 3), {})),
    "histc": unary("histc", _x, 4),
    "bincount": unary("bincount", _i),
    "cat": with_lib("cat", lambda lib: (([_x(lib), _x(lib)],), {})),
    "stack": with_lib("stack", lambda lib: (([_x(lib), _x(lib)],), {})),
    **{name: with_lib(name, lambda lib: (([_x(lib), _x(lib)],), {}))
       for name in ("hstack", "vstack", "row_stack", "dstack", "column_stack")},
    "broadcast_to": unary("broadcast_to", _x, (2, 2, 3)),
    "broadcast_tensors": with_lib("broadcast_tensors", lambda lib: ((_x(lib), _v(lib)), {})),
    "meshgrid": with_lib("meshgrid", lambda lib: ((_v(lib), _v(lib)), {"indexing": "ij"})),
    "kthvalue": unary("kthvalue", _x, 2),
    "repeat_interleave": unary("repeat_interleave", _x, 2),
    "searchsorted": with_lib("searchsorted", lambda lib: ((lib.tensor([-1.0, 0.5, 2.0]), _x(lib)),
                                                          {})),
    "bucketize": with_lib("bucketize", lambda lib: ((_x(lib), lib.tensor([-1.0, 0.5, 2.0])), {})),
    "isin": with_lib("isin", lambda lib: ((_x(lib), _v(lib)), {})),
    "quantile": unary("quantile", _x, 0.25, 1),
    "nanquantile": unary("nanquantile", _x, 0.25, 1),
    "nanmean": unary("nanmean", _x, 1),
    "cross": with_lib("cross", lambda lib: ((_x(lib), _x(lib).flip(1)), {"dim": 1})),
    "inner": with_lib("inner", lambda lib: ((_x(lib), _sq(lib)), {})),
    "kron": with_lib("kron", lambda lib: ((_x(lib), _v(lib)), {})),
    "vdot": with_lib("vdot", lambda lib: ((_v(lib), _v(lib).flip(0)), {})),
    "rot90": unary("rot90", _x),
    "fliplr": unary("fliplr", _x),
    "flipud": unary("flipud", _x),
    "diagflat": unary("diagflat", _v),
    "block_diag": with_lib("block_diag", lambda lib: ((_x(lib), _v(lib)), {})),
    "mode": unary("mode", _x, 1),
    "cummax": unary("cummax", _x, 1),
    "cummin": unary("cummin", _x, 0),
    "concat": with_lib("concat", lambda lib: (([_x(lib), _x(lib)],), {})),
    "concatenate": with_lib("concatenate", lambda lib: (([_x(lib), _x(lib)],), {})),
    "is_nonzero": with_lib("is_nonzero", lambda lib: ((lib.tensor([1.5]),), {})),
    "where": with_lib("where", lambda lib: ((_b(lib), _x(lib), _x(lib).flip(0)), {})),
    "gather": with_lib("gather", lambda lib: ((_x(lib), 1, lib.tensor([[0, 2], [1, 1]])), {})),
    "take_along_dim": with_lib(
        "take_along_dim", lambda lib: ((_x(lib), lib.tensor([[0, 2], [1, 1]]), 1), {})),
    "take": with_lib("take", lambda lib: ((_x(lib), lib.tensor([0, 5, 3])), {})),
    "index_select": with_lib("index_select", lambda lib: ((_x(lib), 1, lib.tensor([2, 0])), {})),
    "index_add": with_lib(
        "index_add", lambda lib: ((_x(lib), 1, lib.tensor([2, 0]), _x(lib)[:, :2]), {})),
    "index_copy": with_lib(
        "index_copy", lambda lib: ((_x(lib), 1, lib.tensor([2, 0]), _x(lib)[:, :2]), {})),
    "index_fill": with_lib("index_fill", lambda lib: ((_x(lib), 1, lib.tensor([2, 0]), 5.0), {})),
    "masked_fill": with_lib("masked_fill", lambda lib: ((_x(lib), _b(lib), 2.0), {})),
    "masked_scatter": with_lib(
        "masked_scatter", lambda lib: ((_x(lib), _b(lib), _x(lib).flip(1)), {})),
    "scatter": with_lib(
        "scatter", lambda lib: ((_x(lib), 1, lib.tensor([[0, 2], [1, 1]]), _x(lib)), {})),
    "scatter_add": with_lib(
        "scatter_add", lambda lib: ((_x(lib), 1, lib.tensor([[0, 2], [1, 1]]), _x(lib)), {})),
    "scatter_reduce": with_lib(
        "scatter_reduce",
        lambda lib: ((_x(lib), 1, lib.tensor([[0, 2], [1, 1]]), _x(lib), "amax"), {})),
    "slice_scatter": with_lib(
        "slice_scatter", lambda lib: ((_x(lib), _x(lib)[:, :2], 1, 1, None, 1), {})),
    "select_scatter": with_lib(
        "select_scatter", lambda lib: ((_x(lib), _v(lib), 0, -1), {})),
    "diagonal_scatter": with_lib(
        "diagonal_scatter", lambda lib: ((_x(lib), _v(lib)[:2], 0), {})),
    "index_put": with_lib(
        "index_put", lambda lib: ((_x(lib), (lib.tensor([1, 1]),), _v(lib), True), {})),
    "index_put_": with_lib(
        "index_put_", lambda lib: ((_x(lib), (_b(lib),), lib.tensor(2.0)), {})),
    "put": with_lib("put", lambda lib: ((_x(lib), lib.tensor([0, -1]), _v(lib)[:2]), {})),
    "index_reduce": with_lib(
        "index_reduce",
        lambda lib: ((_x(lib), 1, lib.tensor([2, 0]), _x(lib)[:, :2], "amax"), {})),
    "frexp": unary("frexp"),
    "as_strided": with_lib("as_strided", lambda lib: ((_x(lib), (2, 2), (1, 2), 1), {})),
    "as_strided_": with_lib("as_strided_", lambda lib: ((_x(lib), (2, 2), (1, 2)), {})),
    "resize_as_": with_lib("resize_as_", lambda lib: ((_x(lib), _sq(lib)), {})),
    "as_strided_scatter": with_lib(
        "as_strided_scatter", lambda lib: ((_x(lib), _sq(lib)[:2, :2], (2, 2), (1, 2)), {})),
    "ldexp": with_lib("ldexp", lambda lib: ((_x(lib), lib.tensor([1, -1, 2])), {})),
    "ldexp_": with_lib("ldexp_", lambda lib: ((_x(lib), lib.tensor([1, -1, 2])), {})),
    "renorm": with_lib("renorm", lambda lib: ((_x(lib), 2, 0, 1.0), {})),
    "narrow_copy": with_lib("narrow_copy", lambda lib: ((_x(lib), 1, 1, 2), {})),
    "unsafe_split": with_lib("unsafe_split", lambda lib: ((_x(lib), 2, 1), {})),
    "unsafe_chunk": with_lib("unsafe_chunk", lambda lib: ((_x(lib), 2, 1), {})),
    "unsafe_split_with_sizes": with_lib(
        "unsafe_split_with_sizes", lambda lib: ((_x(lib), [1, 2], 1), {})),
    "gradient": with_lib("gradient", lambda lib: ((_sq(lib),), {"spacing": 2.0})),
    "unravel_index": with_lib("unravel_index", lambda lib: ((lib.tensor([5, -1]), (2, 3)), {})),
    "hardshrink": unary("hardshrink"),
    "prelu": with_lib("prelu", lambda lib: ((_x(lib), lib.tensor([0.25])), {})),
    "cosine_similarity": binary("cosine_similarity"),
    "pairwise_distance": binary("pairwise_distance"),
    "triplet_margin_loss": with_lib(
        "triplet_margin_loss", lambda lib: ((_x(lib), _x(lib).flip(0), _x(lib).flip(1)), {})),
    "matmul": with_lib("matmul", lambda lib: ((_x(lib), _sq(lib)), {})),
    "mm": with_lib("mm", lambda lib: ((_x(lib), _sq(lib)), {})),
    "mv": with_lib("mv", lambda lib: ((_x(lib), _v(lib)), {})),
    "dot": with_lib("dot", lambda lib: ((_v(lib), _v(lib).flip(0)), {})),
    "outer": with_lib("outer", lambda lib: ((_v(lib), _v(lib)), {})),
    "bmm": with_lib("bmm", lambda lib: ((_x(lib)[None], _sq(lib)[None]), {})),
    "addmm": with_lib("addmm", lambda lib: ((_x(lib), _x(lib), _sq(lib)), {})),
    "baddbmm": with_lib(
        "baddbmm", lambda lib: ((_x(lib)[None], _x(lib)[None], _sq(lib)[None]), {})),
    "addmv": with_lib("addmv", lambda lib: ((_x(lib)[:, 0], _x(lib), _v(lib)), {})),
    "addmv_": with_lib("addmv_", lambda lib: ((_x(lib)[:, 0].clone(), _x(lib), _v(lib)), {})),
    "addr": with_lib("addr", lambda lib: ((_x(lib), _x(lib)[:, 0], _v(lib)), {})),
    "addbmm": with_lib("addbmm", lambda lib: ((_x(lib), _x(lib)[None], _sq(lib)[None]), {})),
    "ger": with_lib("ger", lambda lib: ((_v(lib), _v(lib)), {})),
    "chain_matmul": with_lib("chain_matmul", lambda lib: ((_x(lib), _sq(lib)), {})),
    "matrix_power": unary("matrix_power", _sq, 2),
    "cdist": with_lib("cdist", lambda lib: ((_x(lib), _sq(lib)), {})),
    "cov": unary("cov"),
    "corrcoef": unary("corrcoef"),
    "triangular_solve": with_lib("triangular_solve", lambda lib: ((_x(lib).T, _sq(lib)), {})),
    "cholesky_solve": with_lib("cholesky_solve", lambda lib: ((_x(lib).T, _sq(lib)), {})),
    "cholesky_inverse": unary("cholesky_inverse", _sq),
    "matrix_exp": unary("matrix_exp", _sq),
    **{name: unary(name) for name in ("trapezoid", "trapz", "cumulative_trapezoid")},
    "msort": unary("msort"),
    "tensordot": with_lib("tensordot", lambda lib: ((_x(lib), _sq(lib)), {"dims": 1})),
    "einsum": with_lib("einsum", lambda lib: (("ij,jk->ik", _x(lib), _sq(lib)), {})),
    "arange": made("arange", 5),
    "linspace": made("linspace", 0.0, 1.0, 5),
    "logspace": made("logspace", 0.0, 1.0, 5),
    "combinations": unary("combinations", _v),
    "unique_consecutive": unary("unique_consecutive", _i),
    "zeros": made("zeros", 2, 3),
    "ones": made("ones", 2, 3),
    "empty": made("empty", 2, 3),
    "empty_strided": made("empty_strided", (2, 3), (1, 2)),
    "full": made("full", (2, 3), 1.5),
    "rand": made("rand", 2, 3),
    "randn": made("randn", 2, 3),
    "randint": made("randint", 0, 5, (2, 3)),
    "randint_like": with_lib("randint_like", lambda lib: ((_x(lib), 5), {})),
    "randperm": made("randperm", 4),
    "normal": made("normal", 0.0, 1.0, (2, 3)),
    "bernoulli": with_lib("bernoulli", lambda lib: ((lib.full((2, 3), 0.5),), {})),
    "multinomial": with_lib("multinomial", lambda lib: ((lib.full((2, 3), 0.5), 2), {})),
    "poisson": with_lib("poisson", lambda lib: ((lib.full((2, 3), 0.5),), {})),
    "eye": made("eye", 3),
    "tril_indices": made("tril_indices", 3, 3),
    "triu_indices": made("triu_indices", 3, 3),
    "tensor": made("tensor", [1.0, 2.0]),
    "from_numpy": lambda lib: (lib.from_numpy, (__import__("numpy").ones(3),), {}),
    "as_tensor": made("as_tensor", [1.0, 2.0]),
}
for _name in ("cholesky", "cholesky_ex", "det", "eigh", "eigvalsh", "inv", "inv_ex",
              "matrix_norm", "pinv", "qr", "slogdet", "svd", "svdvals"):
    CALLS["linalg." + _name] = linalg(_name)
CALLS["linalg.norm"] = linalg("norm", _v)
CALLS["linalg.vector_norm"] = linalg("vector_norm", _v)
CALLS["linalg.solve"] = lambda lib: (lib.linalg.solve, (_sq(lib), _x(lib).T), {})
CALLS["linalg.matrix_power"] = linalg("matrix_power", _sq, 2)
CALLS["linalg.multi_dot"] = lambda lib: (lib.linalg.multi_dot, ([_x(lib), _sq(lib)],), {})
CALLS["linalg.matmul"] = lambda lib: (lib.linalg.matmul, (_x(lib), _sq(lib)), {})
CALLS["linalg.diagonal"] = lambda lib: (lib.linalg.diagonal, (_sq(lib)[None],), {"offset": 1})
CALLS["linalg.vecdot"] = lambda lib: (lib.linalg.vecdot, (_x(lib), _x(lib).flip(0)), {})
CALLS["linalg.solve_triangular"] = lambda lib: (
    lib.linalg.solve_triangular, (_sq(lib), _x(lib).T), {"upper": True})
CALLS["linalg.matrix_exp"] = linalg("matrix_exp")
CALLS["linalg.matrix_rank"] = linalg("matrix_rank")
CALLS["linalg.cond"] = linalg("cond")
CALLS["linalg.lu_factor"] = linalg("lu_factor")
CALLS["linalg.lu_factor_ex"] = linalg("lu_factor_ex")
CALLS["linalg.solve_ex"] = lambda lib: (lib.linalg.solve_ex, (_sq(lib), _x(lib).T), {})
CALLS["linalg.lu"] = linalg("lu")
CALLS["linalg.lu_solve"] = lambda lib: (
    lib.linalg.lu_solve, (*lib.linalg.lu_factor(_sq(lib)), _x(lib).T), {})
CALLS["lu"] = unary("lu", _sq)
CALLS["lu_unpack"] = lambda lib: (lib.lu_unpack, tuple(lib.linalg.lu_factor(_sq(lib))), {})
CALLS["lu_solve"] = lambda lib: (lib.lu_solve, (_x(lib).T, *lib.linalg.lu_factor(_sq(lib))), {})
CALLS["linalg.lstsq"] = lambda lib: (lib.linalg.lstsq, (_sq(lib), _x(lib).T), {})
CALLS["linalg.cross"] = lambda lib: (lib.linalg.cross, (_x(lib), _x(lib).flip(1)), {})

# more elementwise math (ops/elementwise_extra.py)
CALLS.update({name: unary(name) for name in words("sgn angle signbit isneginf isposinf isreal")})
CALLS.update({name: binary(name) for name in words(
    "fmod copysign fmax fmin heaviside nextafter float_power")})
CALLS.update({name: with_lib(name, lambda lib: ((_i(lib), _i(lib).flip(0) + 4), {}))
              for name in ("gcd", "lcm")})
# bitwise ops (ops/bitwise.py)
CALLS.update({name: with_lib(name, lambda lib: ((_i(lib), _i(lib).flip(0) + 1), {}))
              for name in words("""bitwise_and bitwise_or bitwise_xor bitwise_left_shift
              bitwise_right_shift""")})
CALLS["bitwise_not"] = unary("bitwise_not", _i)
# a real tensor's conjugate (the tensor itself), and a 0-d factory (tests/test_dtype_api.py)
CALLS.update({name: unary(name) for name in words("conj resolve_conj resolve_neg is_conj is_neg")})
# The in-place ops' functions (``minigrad.exp_(x)``): a call writes into its first argument.
INPLACE_UNARY = words("""abs_ acos_ acosh_ arccos_ arccosh_ arcsin_ arcsinh_ arctan_ arctanh_
asin_ asinh_ atan_ atanh_ ceil_ cos_ cosh_ deg2rad_ detach_ erf_ erfc_ exp2_ exp_ expm1_ fix_
floor_ frac_ log10_ log1p_ log2_ log_ logit_ nan_to_num_ neg_ negative_ rad2deg_ reciprocal_
relu_ round_ rsqrt_ sigmoid_ sin_ sinc_ sinh_ sqrt_ square_ tan_ tanh_ trunc_ zero_""")
CALLS.update({name: unary(name) for name in INPLACE_UNARY})
for _name, _value in (("clamp_", 0.0), ("clamp_max_", 1.0), ("clamp_min_", 0.0), ("clip_", 0.0),
                      ("fill_", 2.0)):
    CALLS[_name] = unary(_name, _x, _value)
CALLS["xlogy_"] = binary("xlogy_")
for _name in ("gcd_", "lcm_"):
    CALLS[_name] = with_lib(_name, lambda lib: ((_i(lib), _i(lib).flip(0)), {}))
CALLS["scalar_tensor"] = lambda lib: (lib.scalar_tensor, (1.5,), {})
CALLS["asarray"] = lambda lib: (lib.asarray, ([1.5],), {})

NOT_TENSOR_OPS = words("""broadcast_shapes can_cast get_default_device get_default_dtype
get_printoptions is_anomaly_check_nan_enabled is_anomaly_enabled is_grad_enabled
is_inference_mode_enabled load manual_seed promote_types result_type save
set_default_device set_printoptions seed initial_seed get_rng_state set_rng_state
get_num_threads set_num_threads get_num_interop_threads set_num_interop_threads
set_default_dtype set_default_tensor_type finfo iinfo set_warn_always is_warn_always_enabled
use_deterministic_algorithms are_deterministic_algorithms_enabled
is_deterministic_algorithms_warn_only_enabled typename is_inference is_storage""")
# (and two functions that only raise, as PyTorch's on CPU: tests_torch/test_toplevel_forms_torch.py)
NOT_TENSOR_OPS += ["matrix_rank", "native_norm"]

# Other overloads of some functions, whose out= rules differ from the representative call's.
OTHER_FORMS: dict[str, Call] = {
    "sum(x, dim)": unary("sum", _x, 1),
    "sum(ints, dim)": unary("sum", lambda lib: lib.tensor([[1, 2], [3, 4]]), 0),
    "prod(x, dim)": unary("prod", _x, 1),
    "mean(x, dim)": unary("mean", _x, 1),
    "std(x, dim)": unary("std", _x, 0),
    "any(x, dim)": unary("any", _x, 1),
    "max(x, dim)": unary("max", _x, 1),
    "min(x, dim)": unary("min", _x, 0),
    "max(x, other)": binary("max"),
    "argsort(stable)": lambda lib: (lib.argsort, (_x(lib),), {"stable": True, "dim": 1}),
    "cumsum(ints)": unary("cumsum", lambda lib: lib.tensor([[1, 2], [3, 4]]), 1),
    "add(ints)": with_lib("add", lambda lib: ((lib.tensor([1, 2]), 3), {})),
    "clamp(ints)": unary("clamp", lambda lib: lib.tensor([1, 5]), 0, 3),
}

# special functions (ops/gamma.py, ops/special_functions.py) and minigrad.special


def _positive(lib: Any) -> Any:
    return lib.tensor([[0.5, 1.25, 2.0], [1.5, 3.25, 0.75]])


def _probabilities(lib: Any) -> Any:
    return lib.tensor([[0.5, 0.125, 0.25], [0.75, 0.875, 0.375]])


def special(name: str, value: Callable[[Any], Any] = _x, *args: Any) -> Call:
    """``lib.special.name(value, *args)``."""
    return lambda lib: (getattr(lib.special, name), (value(lib), *args), {})


def special_binary(name: str) -> Call:
    """``lib.special.name(x, y)`` with two positive matrices."""
    return lambda lib: (getattr(lib.special, name), (_positive(lib), _positive(lib).flip(0)), {})


CALLS.update({name: unary(name) for name in words("lgamma digamma i0")})
CALLS["erfinv"] = unary("erfinv", _probabilities)
CALLS["polygamma"] = lambda lib: (lib.polygamma, (2, _positive(lib)), {})
CALLS["mvlgamma"] = unary("mvlgamma", _positive, 1)
CALLS.update({"special." + name: special(name) for name in words(
    "digamma entr erf erfc erfcx exp2 expit expm1 gammaln i0 i0e i1 i1e log1p log_ndtr ndtr psi "
    "round sinc")})
CALLS.update({"special." + name: special(name, _probabilities)
              for name in ("erfinv", "logit", "ndtri")})
CALLS["special.multigammaln"] = special("multigammaln", _positive, 1)
CALLS["special.polygamma"] = lambda lib: (lib.special.polygamma, (2, _positive(lib)), {})
CALLS["special.logsumexp"] = special("logsumexp", _x, 1)
CALLS["special.softmax"] = special("softmax", _x, 1)
CALLS["special.log_softmax"] = special("log_softmax", _x, 1)
CALLS.update({"special." + name: special_binary(name) for name in ("xlogy", "xlog1py", "zeta")})
CALLS.update({name: with_lib(name, lambda lib: ((_positive(lib), _positive(lib).flip(0)), {}))
              for name in ("igamma", "igammac")})
CALLS.update({"special." + name: special_binary(name) for name in ("gammainc", "gammaincc")})

# window functions (minigrad/_windows.py)
CALLS.update({name: made(name, 5) for name in words(
    "bartlett_window blackman_window hamming_window hann_window kaiser_window")})

# histograms (ops/histogram.py)
CALLS["histogram"] = unary("histogram", _x, 3)
CALLS["histogramdd"] = unary("histogramdd", _x, 3)

# Vandermonde matrices (ops/vandermonde.py)
CALLS["vander"] = unary("vander", _v)
CALLS["linalg.vander"] = linalg("vander", _v)
CALLS["linalg.tensorinv"] = lambda lib: (lib.linalg.tensorinv, (_sq(lib),), {"ind": 1})
CALLS["linalg.tensorsolve"] = lambda lib: (lib.linalg.tensorsolve, (_sq(lib), _v(lib)), {})

# QR in LAPACK's form (ops/householder.py)
CALLS["geqrf"] = unary("geqrf", _sq)
CALLS["orgqr"] = lambda lib: (lib.orgqr, tuple(lib.geqrf(_sq(lib))), {})
CALLS["linalg.householder_product"] = lambda lib: (
    lib.linalg.householder_product, tuple(lib.geqrf(_sq(lib))), {})
CALLS["ormqr"] = lambda lib: (lib.ormqr, (*lib.geqrf(_sq(lib)), _x(lib).T), {})

# randomized low-rank decompositions (minigrad/_lowrank.py)
CALLS["svd_lowrank"] = unary("svd_lowrank", _sq, 2)
CALLS["pca_lowrank"] = unary("pca_lowrank", _sq, 2)

# symmetric indefinite LDL^T (ops/ldl.py)
CALLS["linalg.ldl_factor"] = linalg("ldl_factor")
CALLS["linalg.ldl_factor_ex"] = linalg("ldl_factor_ex")
CALLS["linalg.ldl_solve"] = lambda lib: (
    lib.linalg.ldl_solve, (*lib.linalg.ldl_factor(_sq(lib)), _x(lib).T), {})

# orthogonal polynomials (ops/orthogonal_polynomials.py)
CALLS.update({"special." + name: special(name, _x, 3) for name in words(
    "chebyshev_polynomial_t chebyshev_polynomial_u chebyshev_polynomial_v chebyshev_polynomial_w "
    "shifted_chebyshev_polynomial_t shifted_chebyshev_polynomial_u shifted_chebyshev_polynomial_v "
    "shifted_chebyshev_polynomial_w hermite_polynomial_h hermite_polynomial_he "
    "laguerre_polynomial_l legendre_polynomial_p")})
CALLS.update({"special." + name: special(name, _positive) for name in words(
    "airy_ai bessel_j0 bessel_j1 bessel_y0 bessel_y1 "
    "modified_bessel_i0 modified_bessel_i1 modified_bessel_k0 modified_bessel_k1 "
    "scaled_modified_bessel_k0 scaled_modified_bessel_k1 spherical_bessel_j0")})
# PyTorch's top-level forms of nn functions, ATen's signatures (tests/opinfo/toplevel_forms.py)
CALLS.update({name: unary(name, _x, 0.5, False) for name in words(
    "dropout dropout_ alpha_dropout alpha_dropout_ feature_dropout feature_dropout_ "
    "feature_alpha_dropout feature_alpha_dropout_ native_dropout")})
CALLS.update({name: unary(name) for name in words("celu celu_ selu_ rrelu rrelu_")})
CALLS.update({name: unary(name, _x, 0.5, -1.0) for name in ("threshold", "threshold_")})
CALLS.update({
    "batch_norm": with_lib("batch_norm", lambda lib: (
        (_x(lib), None, None, None, None, True, 0.1, 1e-5, False), {})),
    "native_batch_norm": with_lib("native_batch_norm", lambda lib: (
        (_x(lib), None, None, None, None, True, 0.1, 1e-5), {})),
    "instance_norm": with_lib("instance_norm", lambda lib: (
        (_x(lib)[None], None, None, None, None, True, 0.1, 1e-5, False), {})),
    "layer_norm": unary("layer_norm", _x, [3]),
    "native_layer_norm": unary("native_layer_norm", _x, [3], None, None, 1e-5),
    "rms_norm": unary("rms_norm", _x, [3]),
    "group_norm": unary("group_norm", _x, 1),
    "native_group_norm": unary("native_group_norm", _x, None, None, 2, 3, 1, 1, 1e-5),
})
CALLS.update({
    "bilinear": with_lib("bilinear", lambda lib: ((_x(lib), _x(lib), lib.ones(2, 3, 3)), {})),
    "pdist": unary("pdist"),
    "embedding": with_lib("embedding", lambda lib: ((_x(lib), lib.tensor([1, 0])), {})),
    "kl_div": binary("kl_div"),
    "hinge_embedding_loss": with_lib("hinge_embedding_loss", lambda lib: (
        (_x(lib), lib.ones(2, 3)), {})),
    "margin_ranking_loss": with_lib("margin_ranking_loss", lambda lib: (
        (_v(lib), _v(lib).flip(0), lib.ones(3)), {})),
    "cosine_embedding_loss": with_lib("cosine_embedding_loss", lambda lib: (
        (_x(lib), _x(lib).flip(0), lib.ones(2)), {})),
    "poisson_nll_loss": with_lib("poisson_nll_loss", lambda lib: (
        (_x(lib), _x(lib).abs(), True, False, 1e-8, 1), {})),
    "binary_cross_entropy_with_logits": with_lib("binary_cross_entropy_with_logits", lambda lib: (
        (_x(lib), _x(lib).sigmoid()), {})),
    "ctc_loss": with_lib("ctc_loss", lambda lib: (
        (lib.full((2, 1, 2), 0.5).log(), lib.tensor([[1]]), [2], [1]), {})),
    "constant_pad_nd": unary("constant_pad_nd", _x, [1, 1]),
    "convolution": with_lib("convolution", lambda lib: (
        (_x(lib)[None], lib.ones(1, 2, 2), None, [1], [0], [1], False, [0], 1), {})),
    "grid_sampler": with_lib("grid_sampler", lambda lib: (
        (_x(lib)[None, None], lib.zeros(1, 1, 1, 2), 0, 0, False), {})),
    "grid_sampler_2d": with_lib("grid_sampler_2d", lambda lib: (
        (_x(lib)[None, None], lib.zeros(1, 1, 1, 2), 0, 0, False), {})),
    "grid_sampler_3d": with_lib("grid_sampler_3d", lambda lib: (
        (lib.ones(1, 1, 2, 2, 2), lib.zeros(1, 1, 1, 1, 3), 0, 0, False), {})),
    "affine_grid_generator": with_lib("affine_grid_generator", lambda lib: (
        (lib.eye(2, 3)[None], [1, 1, 2, 2], False), {})),
})
CALLS.update({
    "frobenius_norm": unary("frobenius_norm", _x, [1]),
    "nuclear_norm": unary("nuclear_norm"),
    "norm_except_dim": unary("norm_except_dim"),
    "detach": unary("detach"),
    "fill": unary("fill", _x, 2.0),
    "range": made("range", 1, 4),
    "nonzero_static": lambda lib: (lib.nonzero_static, (_x(lib),), {"size": 2}),
})
# the *_copy functions (minigrad/ops/view_copies.py)
CALLS.update({
    "alias_copy": unary("alias_copy"),
    "as_strided_copy": unary("as_strided_copy", _x, (2, 2), (1, 2)),
    "detach_copy": unary("detach_copy"),
    "diagonal_copy": unary("diagonal_copy", _sq),
    "expand_copy": unary("expand_copy", _v, (2, 3)),
    "permute_copy": unary("permute_copy", _x, (1, 0)),
    "select_copy": unary("select_copy", _x, 1, 0),
    "slice_copy": unary("slice_copy", _x, 1, 0, 2),
    "split_copy": unary("split_copy", _x, 2, 1),
    "split_with_sizes_copy": unary("split_with_sizes_copy", _x, [1, 2], 1),
    "squeeze_copy": unary("squeeze_copy", lambda lib: _x(lib)[None]),
    "t_copy": unary("t_copy"),
    "transpose_copy": unary("transpose_copy", _x, 0, 1),
    "unbind_copy": unary("unbind_copy"),
    "unfold_copy": unary("unfold_copy", _x, 1, 2, 1),
    "unsqueeze_copy": unary("unsqueeze_copy", _x, 0),
    "view_copy": unary("view_copy", _x, (3, 2)),
})
CALLS["empty_permuted"] = made("empty_permuted", (2, 3, 4), (2, 0, 1))
CALLS.update({
    name: with_lib(name, lambda lib, gates=gates: (
        (_x(lib), lib.zeros(2, 1), lib.ones(gates, 3), lib.ones(gates, 1)), {}))
    for name, gates in (("rnn_tanh_cell", 1), ("rnn_relu_cell", 1), ("gru_cell", 3))
})
CALLS["lstm_cell"] = with_lib("lstm_cell", lambda lib: (
    (_x(lib), (lib.zeros(2, 1), lib.zeros(2, 1)), lib.ones(4, 3), lib.ones(4, 1)), {}))
CALLS["embedding_bag"] = with_lib("embedding_bag", lambda lib: (
    (_x(lib), lib.tensor([1, 0, 1]), lib.tensor([0, 1])), {}))
CALLS.update({
    name: with_lib(name, lambda lib, gates=gates: (
        (_x(lib)[None], lib.zeros(1, 2, 1), [lib.ones(gates, 3), lib.ones(gates, 1)], False, 1,
         0.0, False, False, False), {}))
    for name, gates in (("rnn_tanh", 1), ("rnn_relu", 1), ("gru", 3))
})
CALLS["lstm"] = with_lib("lstm", lambda lib: (
    (_x(lib)[None].double(), (lib.zeros(1, 2, 1).double(),) * 2,
     [lib.ones(4, 3).double(), lib.ones(4, 1).double()], False, 1, 0.0, False, False, False),
    {}))
