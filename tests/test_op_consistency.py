"""Every public op is whole: its function, its Tensor method, its export and its op-table row.

The public ops are minigrad's ``__all__``, ``nn.functional``, ``linalg``, ``special`` and the
Tensor's public methods and properties, less the names in ``NOT_OPS`` (creation functions,
modes, dtypes, metadata: each group says why). For each op:

- it has a row in the op table (tests/opinfo; a row counts for ``row.op`` or, without one, for
  its name): the generic tests then check it against finite differences and PyTorch;
- where PyTorch has ``torch.<name>``, minigrad has ``minigrad.<name>`` and lists it in
  ``__all__``; where PyTorch has ``torch.Tensor.<name>``, minigrad's Tensor has it too;
- an in-place method ``<name>_`` comes with its out-of-place method ``<name>`` where PyTorch
  has one (``zero_`` has none).

What PyTorch has is read from tests/expected/torch_api_names.json (written by
``tools/torch_api_names.py``; tests_torch checks it is current), so this runs without torch. It
checks minigrad's own API, so it imports minigrad whichever library the other tests run on.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from _cases import parametrize_in_one
from opinfo import all_ops

import minigrad
import minigrad.linalg
import minigrad.nn.functional
import minigrad.special

ROOT = Path(__file__).resolve().parents[1]
TORCH = json.loads((ROOT / "tests" / "expected" / "torch_api_names.json").read_text())
TORCH_FUNCTIONS = set(TORCH["torch"])
TORCH_METHODS = set(TORCH["torch.Tensor"])

# Public names that are not ops, so need no table row.
NOT_OPS = {
    # Types, dtypes and their aliases, the legacy tensor classes, namespaces.
    "Tensor", "Size", "dtype", "device", "return_types", "cuda",
    "bool", "float", "double", "half", "int", "long", "short", "char", "byte", "uint8", "int8",
    "int16", "int32", "int64", "float16", "float32", "float64",
    "BoolTensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor", "HalfTensor",
    "IntTensor", "LongTensor", "ShortTensor",
    # Creation: no tensor input to differentiate (tests/test_creation_ops.py).
    "arange", "as_tensor", "empty", "empty_like", "eye", "from_numpy", "full", "full_like",
    "linspace", "logspace", "ones", "ones_like", "rand", "rand_like", "randint", "randn",
    "randn_like", "randperm", "tensor", "zeros", "zeros_like", "tril_indices", "triu_indices",
    "empty_permuted",
    "new", "new_tensor", "new_zeros", "new_ones", "new_empty", "new_full", "scalar_tensor",
    "asarray",
    # Window factories (tests_torch/test_windows_torch.py).
    "bartlett_window", "blackman_window", "hamming_window", "hann_window", "kaiser_window",
    # Random fills in place and random samples: values depend on the generator
    # (tests/test_tensor_api.py, tests/test_sampling.py, tests_torch/test_sampling_torch.py).
    "normal_", "uniform_", "exponential_", "geometric_", "log_normal_", "cauchy_", "random_",
    "bernoulli", "bernoulli_", "multinomial", "normal", "poisson",
    # Randomized decompositions (tests_torch/test_lowrank_torch.py: properties, gradients).
    "pca_lowrank", "svd_lowrank",
    # Modes and settings (tests/test_grad_mode.py, test_inference_mode.py, test_anomaly.py).
    "enable_grad", "no_grad", "set_grad_enabled", "is_grad_enabled", "inference_mode",
    "is_inference_mode_enabled", "is_anomaly_enabled", "is_anomaly_check_nan_enabled",
    "manual_seed", "seed", "initial_seed", "get_rng_state", "set_rng_state", "Generator",
    "default_generator", "get_num_threads", "set_num_threads", "get_num_interop_threads",
    "set_num_interop_threads", "get_default_dtype", "get_default_device", "set_default_device",
    "get_printoptions", "set_printoptions",
    # The default dtype, dtype limits, global flags (tests/test_dtype_api.py).
    "set_default_dtype", "set_default_tensor_type", "finfo", "iinfo", "set_warn_always",
    "is_warn_always_enabled", "use_deterministic_algorithms",
    "are_deterministic_algorithms_enabled", "is_deterministic_algorithms_warn_only_enabled",
    "typename",
    # Storage layouts (tests/test_tensor_api.py): minigrad's tensors are all strided.
    "layout", "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc",
    "is_sparse", "is_sparse_csr", "is_quantized", "is_meta", "is_nested", "is_mkldnn", "is_mps",
    "is_xpu", "is_xla", "is_ipu", "is_vulkan", "is_mtia", "is_maia", "is_pinned", "pin_memory",
    "is_set_to", "storage_offset",
    # Constants: numbers (and None), not functions.
    "pi", "e", "inf", "nan", "newaxis",
    # Type promotion asked directly: dtypes, not tensors (tests/test_promotion.py).
    "result_type", "promote_types", "can_cast",
    # Saving and loading (tests/test_save_load.py).
    "save", "load",
    # Autograd metadata and API on a tensor (tests/test_backward.py, test_detach_data.py, ...).
    "backward", "register_hook", "register_post_accumulate_grad_hook", "retain_grad",
    "retains_grad", "requires_grad",
    "requires_grad_", "grad", "grad_fn", "is_leaf", "output_nr", "data", "detach", "detach_",
    "is_inference",
    # Queries about a tensor, not computations on its values (tests/test_tensor_api.py).
    "shape", "size", "dim", "ndim", "numel", "is_floating_point", "is_tensor",
    "is_contiguous", "stride", "item", "tolist", "numpy", "is_cpu", "is_cuda", "get_device",
    "nelement", "ndimension", "element_size", "itemsize", "nbytes", "is_signed", "is_complex",
    "is_nonzero", "is_same_size", "data_ptr", "const_data_ptr",
    # A real tensor's conjugate is the tensor itself (tests/test_dtype_api.py).
    "conj", "is_conj", "resolve_conj", "resolve_neg", "is_neg",
    # A shape computed from shapes: no tensor (tests/test_tensor_api.py).
    "broadcast_shapes",
    # Moving between devices and converting dtypes (tests/test_devices.py, test_tensor_api.py).
    "to", "cpu", "type", "type_as",
    # minigrad's own: the class op results are made of (minigrad/tensor.py).
    "output_class",
    # Memory formats, and a tensor's memory: layouts, resizing, sharing; Python loops that
    # refuse tensors requiring grad (tests_torch/test_memory_format_torch.py and
    # test_tensor_memory_torch.py).
    "memory_format", "contiguous_format", "channels_last", "channels_last_3d",
    "preserve_format", "dim_order", "empty_strided", "new_empty_strided", "resize_",
    "resize_as_", "is_shared", "share_memory_", "apply_", "map_", "map2_", "randint_like",
    # Storages: the memory behind tensors, and tensors taking other memory
    # (tests_torch/test_storage_torch.py).
    "untyped_storage", "storage", "set_", "is_storage", "UntypedStorage", "TypedStorage",
    "BoolStorage", "ByteStorage", "CharStorage", "DoubleStorage", "FloatStorage",
    "HalfStorage", "IntStorage", "LongStorage", "ShortStorage",
    # PyTorch's deprecated end-inclusive arange (creation), and two functions that only raise
    # in PyTorch on CPU: removed (matrix_rank) or sparse-only (native_norm)
    # (tests_torch/test_toplevel_forms_torch.py).
    "range", "matrix_rank", "native_norm",
    # detach()'s copy: PyTorch's NotImplemented node, no derivative to check
    # (tests_torch/test_view_copies_torch.py).
    "detach_copy",
}

# PyTorch names minigrad deliberately does not provide as a function, with the reason.
NO_FUNCTION = {
    # torch.get_device exists but is undocumented; the documented API is the method.
    "get_device": "undocumented in PyTorch",
    "cpu": "torch.cpu is a module, not this method's function",
}

# Known gaps (strict xfails: remove the entry when the gap is closed).
MISSING_FUNCTIONS: dict[str, str] = {}


def _public_ops() -> dict[str, str]:
    """``{op key: where it comes from}``: bare names, ``F.<name>``, ``linalg.<name>`` ..."""
    ops: dict[str, str] = {}
    for name in minigrad.__all__:
        ops[name] = "minigrad"
    for name in dir(minigrad.Tensor):
        if not name.startswith("_"):
            ops.setdefault(name, "Tensor")
    for name in minigrad.nn.functional.__all__:
        ops[f"F.{name}"] = "minigrad.nn.functional"
    for name in minigrad.linalg.__all__:
        if name != "LinAlgError":
            ops[f"linalg.{name}"] = "minigrad.linalg"
    for name in minigrad.special.__all__:
        ops[f"special.{name}"] = "minigrad.special"
    return {key: origin for key, origin in ops.items() if key not in NOT_OPS}


PUBLIC_OPS = _public_ops()
BARE_OPS = sorted(key for key in PUBLIC_OPS if "." not in key)
ROWS = all_ops()
COVERED = {row.op or row.name for row in ROWS}


@parametrize_in_one("op", sorted(PUBLIC_OPS))
def test_every_public_op_has_a_table_row(op: str) -> None:
    assert op in COVERED, (
        f"{op} ({PUBLIC_OPS[op]}) has no row in tests/opinfo: add one (a row named {op!r}, or "
        f"op={op!r} on a row testing it), or list it in NOT_OPS saying why it is not an op"
    )


def test_every_row_op_names_a_public_op() -> None:
    named = {row.op for row in ROWS if row.op}
    unknown = named - set(PUBLIC_OPS)
    assert not unknown, f"rows name ops that are not public: {sorted(unknown)}"


def test_the_allow_lists_name_public_names() -> None:
    every = set(minigrad.__all__) | {name for name in dir(minigrad.Tensor)
                                     if not name.startswith("_")}
    assert every >= NOT_OPS, sorted(NOT_OPS - every)
    assert not (NOT_OPS & COVERED), f"listed as not ops, yet rows test: {NOT_OPS & COVERED}"


def test_pytorch_names_are_known_for_every_public_name() -> None:
    assert TORCH["version"] == "2.13.0"
    unknown = sorted(set(BARE_OPS) - set(TORCH["names"]))
    assert not unknown, f"new public names {unknown}: run python tools/torch_api_names.py"


def _function_cases() -> list[object]:
    cases = []
    for name in BARE_OPS:
        if name not in TORCH_FUNCTIONS or name.endswith("_") or name in NO_FUNCTION:
            continue  # in-place functions (torch.exp_) are undocumented in PyTorch
        marks = ()
        if name in MISSING_FUNCTIONS:
            marks = (pytest.mark.xfail(strict=True, reason=MISSING_FUNCTIONS[name]),)
        cases.append(pytest.param(name, id=name, marks=marks))
    return cases


@parametrize_in_one("name", _function_cases())
def test_a_function_where_pytorch_has_one_and_it_is_exported(name: str) -> None:
    assert callable(getattr(minigrad, name, None)), f"minigrad.{name} is missing"
    assert name in minigrad.__all__, f"minigrad.{name} is not in __all__"


@parametrize_in_one("name", [n for n in BARE_OPS if n in TORCH_METHODS])
def test_a_tensor_method_where_pytorch_has_one(name: str) -> None:
    assert hasattr(minigrad.Tensor, name), f"Tensor.{name} is missing"


@parametrize_in_one(
    "name", [n for n in BARE_OPS if n.endswith("_") and n[:-1] in TORCH_METHODS]
)
def test_an_inplace_method_has_its_out_of_place_method(name: str) -> None:
    assert hasattr(minigrad.Tensor, name[:-1]), f"Tensor.{name} but no Tensor.{name[:-1]}"


# --- bugs the op table found that a row cannot hold ---------------------------------------------


def test_view_without_a_shape_raises_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"view\(\) received an invalid combination"):
        minigrad.ones(1).view()
