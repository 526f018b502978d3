"""``minigrad.device``: where a tensor lives. minigrad is a CPU-only build of PyTorch's API.

Every tensor is on the CPU. Devices are still named, parsed and compared as in PyTorch, so that
device-agnostic code (``device = torch.device("cpu")``, ``x.to(device)``, ``device=`` on the
factories) runs unchanged; asking for any other device raises the error a CPU-only PyTorch build
raises for it.
"""

from __future__ import annotations

import re
from typing import Any

from minigrad import errors
from minigrad._warnings import warn_once

# The device types PyTorch's parser knows, in the order its message lists them.
DEVICE_TYPES = (
    "cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga",
    "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone",
)  # fmt: skip
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::(0|[1-9][0-9]*))?")

NO_ACCELERATOR = "Cannot access accelerator device when none is available."

# What a CPU-only build asserts when these device types are used.
_NOT_COMPILED = {
    "cuda": "Torch not compiled with CUDA enabled",
    "xpu": "Torch not compiled with XPU enabled",
    "mtia": (
        "Torch not compiled with MTIA enabled. Ensure you have `import "
        "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
        "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!"
    ),
}
# The names PyTorch's dispatcher prints for the backends of the other device types.
_BACKEND_NAMES = {
    "hip": "HIP", "ve": "VE", "fpga": "FPGA", "maia": "MAIA", "xla": "XLA", "ipu": "IPU",
    "vulkan": "Vulkan", "mps": "MPS", "lazy": "Lazy",
}  # fmt: skip

_NO_ARGUMENT = object()


class device:  # noqa: N801 - PyTorch's name
    """A device: a type (``"cpu"``, ``"cuda"``, ...) and an optional index.

    Made from a string (``"cpu"``, ``"cuda:1"``), a type and an index, or another device. Any of
    PyTorch's device types can be named; only ``"cpu"`` can hold tensors in minigrad.

    Example:
        >>> import minigrad
        >>> minigrad.device("cpu")
        device(type='cpu')
        >>> minigrad.zeros(2, device="cpu").device
        device(type='cpu')
        >>> str(minigrad.device("cuda", 1))
        'cuda:1'
    """

    __slots__ = ("_type", "_index")

    def __init__(self, type: Any = _NO_ARGUMENT, index: int | None = None) -> None:  # noqa: A002
        if type is _NO_ARGUMENT:
            raise TypeError(_signature_error(()))
        if isinstance(type, device):
            if index is not None:
                raise TypeError(_signature_error((type, index)))
            self._type, self._index = type._type, type._index
            return
        if isinstance(type, int) and not isinstance(type, bool):
            raise RuntimeError(NO_ACCELERATOR)  # a bare index means "the accelerator"
        if not isinstance(type, str):
            raise TypeError(_signature_error((type,) if index is None else (type, index)))
        if index is not None and (not isinstance(index, int) or isinstance(index, bool)):
            raise TypeError(
                "device(): argument 'index' (position 2) must be int, not "
                f"{errors.argument_type_name(index)}"
            )
        name, parsed_index = _parse(type)
        if parsed_index is not None and index is not None:
            raise RuntimeError(
                "type (string) must not include an index because index was passed explicitly: "
                f"{type}"
            )
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        if name == "mkldnn":
            warn_once(errors.MKLDNN_DEVICE_DEPRECATED)
        self._type = name
        self._index = parsed_index if index is None else index

    @property
    def type(self) -> str:
        """The device type, e.g. ``"cpu"``."""
        return self._type

    @property
    def index(self) -> int | None:
        """The device index, or None if none was given."""
        return self._index

    def __repr__(self) -> str:
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index})"

    def __str__(self) -> str:
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, device):
            return False
        return (self._type, self._index) == (other._type, other._index)

    def __hash__(self) -> int:
        return hash((self._type, self._index))

    def __reduce__(self) -> tuple[Any, ...]:
        return (device, (str(self),))

    def __enter__(self) -> device:
        # ``with minigrad.device("cpu"):`` makes the CPU the default device, which it already
        # is; any other device could never be used, so it fails right away.
        check_available(self)
        return self

    def __exit__(self, *exc_info: object) -> None:
        pass



def _parse(text: str) -> tuple[str, int | None]:
    if not text:
        raise RuntimeError("Device string must not be empty")
    match = _DEVICE_STRING.fullmatch(text)
    if match is None:
        raise RuntimeError(f"Invalid device string: '{text}'")
    name, index = match.groups()
    if name not in DEVICE_TYPES:
        raise RuntimeError(
            f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device "
            f"string: {name}"
        )
    return name, None if index is None else int(index)


CPU = device("cpu")
def _signature_error(args: tuple[Any, ...]) -> str:
    return errors.invalid_arguments(
        "device", args, {}, ("minigrad.device device", "str type, int index = -1")
    )


def as_device(value: Any, function: str) -> device:
    """``function``'s ``device=`` argument as a device (a string, an index or a device)."""
    if isinstance(value, device):
        return value
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        return device(value)
    raise TypeError(
        f"{function}(): argument 'device' must be minigrad.device, not "
        f"{errors.argument_type_name(value)}"
    )


def check_available(where: device, op: str | None = None) -> None:
    """Raise what a CPU-only PyTorch raises when ``where`` (not the CPU) is used.

    ``op`` is the ATen operator a factory would run there (its dispatcher names it); None for a
    copy to the device (``.to(device)``, ``tensor(..., device=)``), which PyTorch refuses
    earlier and with another message.
    """
    kind = where.type
    if kind == "cpu":
        return
    if kind in _NOT_COMPILED:
        raise AssertionError(_NOT_COMPILED[kind])
    if kind in ("hpu", "privateuseone"):
        raise ModuleNotFoundError(f"No module named 'minigrad.{kind}'")
    if kind == "meta":
        raise NotImplementedError(
            "minigrad has no meta tensors (tensors without data): they are out of scope, "
            "as every device but the CPU"
        )
    if kind in _BACKEND_NAMES and (op is not None or kind == "lazy"):
        raise NotImplementedError(
            f"Could not run '{op or 'aten::empty.memory_format'}' with arguments from the "
            f"'{_BACKEND_NAMES[kind]}' backend. This could be because the operator doesn't "
            "exist for this backend, or was omitted during the selective/custom build process "
            "(if using custom build). minigrad runs on the CPU only."
        )
    raise RuntimeError(f"PyTorch is not linked with support for {kind} devices")


def check_factory_device(value: Any, function: str, op: str = "aten::empty.memory_format") -> None:
    """Accept a factory's ``device=`` argument if it names the CPU; else raise as PyTorch."""
    if value is None:
        return
    check_available(as_device(value, function), op)


def get_default_device() -> device:
    """The device factories use when ``device=`` is not given: always the CPU.

    Example:
        >>> import minigrad
        >>> minigrad.get_default_device()
        device(type='cpu')
    """
    return CPU


def set_default_device(device: Any) -> None:
    """Set the default device: the CPU (or None) is accepted, any other raises."""
    if device is not None:
        check_available(as_device(device, "set_default_device"))
