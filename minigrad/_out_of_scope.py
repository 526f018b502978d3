"""Names PyTorch has that minigrad deliberately leaves out, and why.

A user porting a script reaches for ``torch.fft`` or ``torch.cuda.synchronize``; the module-level
``__getattr__`` of ``minigrad`` (and of ``minigrad.cuda``) looks the name up here and raises
``OutOfScopeError`` saying what is missing and why, instead of a bare "has no attribute". Names
in no table get Python's ordinary AttributeError.
"""

from __future__ import annotations

from minigrad.errors import OutOfScopeError

_CPU_ONLY = "minigrad runs on the CPU only"
_COMPLEX = "minigrad has real dtypes only (no complex numbers)"
_SPARSE = "minigrad has dense tensors only (no sparse layouts)"
_COMPILER = "minigrad runs eagerly, op by op: there is no tracer or compiler"
_QUANTIZED = "minigrad has no quantized tensors"
_FORWARD_AD = "minigrad has reverse-mode autograd only (no forward-mode AD or vmap)"
_DISTRIBUTED = "minigrad runs in one process"

# minigrad.<name>: why it is missing.
TOP_LEVEL = {
    "mps": _CPU_ONLY,
    "xpu": _CPU_ONLY,
    "mtia": _CPU_ONLY,
    "amp": "automatic mixed precision needs an accelerator; " + _CPU_ONLY,
    "autocast": "automatic mixed precision needs an accelerator; " + _CPU_ONLY,
    "complex": _COMPLEX,
    "complex32": _COMPLEX,
    "complex64": _COMPLEX,
    "complex128": _COMPLEX,
    "cfloat": _COMPLEX,
    "cdouble": _COMPLEX,
    "chalf": _COMPLEX,
    "view_as_complex": _COMPLEX,
    "view_as_real": _COMPLEX,
    "polar": _COMPLEX,
    "fft": "the FFT module works on complex numbers; " + _COMPLEX,
    "stft": _COMPLEX,
    "istft": _COMPLEX,
    "sparse": _SPARSE,
    "sparse_coo_tensor": _SPARSE,
    "sparse_csr_tensor": _SPARSE,
    "sparse_csc_tensor": _SPARSE,
    "sparse_bsr_tensor": _SPARSE,
    "sparse_compressed_tensor": _SPARSE,
    "sparse_coo": _SPARSE,
    "sparse_csr": _SPARSE,
    "masked": _SPARSE,
    "nested": "minigrad has no nested (ragged) tensors",
    "indices_copy": _SPARSE,
    "values_copy": _SPARSE,
    "bfloat16": "minigrad's dtypes are numpy's, which has no bfloat16",
    "float8_e4m3fn": "minigrad's dtypes are numpy's, which has no 8-bit floats",
    "float8_e5m2": "minigrad's dtypes are numpy's, which has no 8-bit floats",
    "quantization": _QUANTIZED,
    "quantize_per_tensor": _QUANTIZED,
    "quantize_per_channel": _QUANTIZED,
    "qint8": _QUANTIZED,
    "quint8": _QUANTIZED,
    "qint32": _QUANTIZED,
    "ao": _QUANTIZED,
    "jit": _COMPILER,
    "compile": _COMPILER,
    "compiler": _COMPILER,
    "export": _COMPILER,
    "fx": _COMPILER,
    "onnx": _COMPILER,
    "vmap": _FORWARD_AD,
    "distributed": _DISTRIBUTED,
    "multiprocessing": _DISTRIBUTED,
    "meta": "minigrad has no meta tensors (tensors without data)",
    "profiler": "minigrad has no profiler; time with the benchmarks' helpers or timeit",
    "hub": "minigrad has no model hub",
}

# minigrad.autograd.<name>: why it is missing.
AUTOGRAD = {
    "forward_ad": _FORWARD_AD,
    "profiler": "minigrad has no profiler; time with the benchmarks' helpers or timeit",
}

# minigrad.testing.<name>: FileCheck checks the text of TorchScript graphs.
TESTING = {"FileCheck": "it checks the text of TorchScript graphs; " + _COMPILER}

# minigrad.func.<name>: the transforms that need batching rules or a functional program
# (jvp, jacfwd and linearize are built on reverse mode: minigrad/func.py).
FUNC = dict.fromkeys(("vmap", "functionalize"), _FORWARD_AD)

# minigrad.cuda.<name>: everything that needs a GPU.
CUDA = dict.fromkeys(
    (
        "current_device", "set_device", "device", "device_of", "synchronize", "get_device_name",
        "get_device_properties", "get_device_capability", "get_arch_list", "initial_seed",
        "get_rng_state", "get_rng_state_all", "set_rng_state", "set_rng_state_all", "Stream",
        "Event", "stream", "current_stream", "default_stream", "amp", "graph", "CUDAGraph",
        "memory_allocated", "max_memory_allocated", "memory_reserved", "max_memory_reserved",
        "reset_peak_memory_stats", "memory_summary", "memory_stats", "mem_get_info", "nvtx",
        "OutOfMemoryError", "FloatTensor", "DoubleTensor", "LongTensor", "IntTensor",
        "HalfTensor", "BoolTensor", "ByteTensor",
    ),
    "it needs a CUDA device; " + _CPU_ONLY + " (Torch not compiled with CUDA enabled)",
)  # fmt: skip


def complex_number(value: complex) -> OutOfScopeError:
    """The error for a Python complex number where PyTorch would make a complex tensor."""
    return OutOfScopeError(
        f"complex number {value!r}: {_COMPLEX}. See docs/api.md for what minigrad covers and how "
        "it differs from PyTorch.")


def missing(module: str, name: str, table: dict[str, str]) -> AttributeError:
    """The error for ``module.name``: OutOfScopeError if the table knows it, else AttributeError.

    Returned, not raised, so that a module's ``__getattr__`` reads ``raise missing(...)``.
    """
    reason = table.get(name)
    if reason is None:
        return AttributeError(f"module '{module}' has no attribute '{name}'")
    return OutOfScopeError(
        f"{module}.{name} is not available: {reason}. See docs/api.md for what minigrad covers "
        "and how it differs from PyTorch."
    )
