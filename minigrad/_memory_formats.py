"""``minigrad.memory_format``: the order in which a new tensor's elements are laid out.

PyTorch's four formats, as arguments of ``contiguous``, ``clone``, ``to``, ``empty`` and the
``*_like`` factories: ``contiguous_format`` (row-major), ``channels_last`` (a 4-d NCHW tensor
stored as NHWC), ``channels_last_3d`` (5-d NCDHW as NDHWC) and ``preserve_format`` (as the
tensor it is made from). What each one means for strides lives in ``minigrad/_layout.py``.
"""

from __future__ import annotations


class memory_format:  # noqa: N801 - PyTorch's name
    """A memory format, printed as PyTorch prints it (``minigrad.channels_last``).

    The four formats are the module's constants; like PyTorch's, the type makes no others.

    Example:
        >>> import minigrad
        >>> x = minigrad.zeros(2, 3, 4, 5).contiguous(memory_format=minigrad.channels_last)
        >>> minigrad.channels_last, x.stride()
        (minigrad.channels_last, (60, 1, 15, 3))
    """

    __slots__ = ("name",)

    def __new__(cls, *args: object, **kwargs: object) -> memory_format:  # noqa: D102
        raise TypeError("cannot create 'minigrad.memory_format' instances")

    @classmethod
    def _named(cls, name: str) -> memory_format:
        made = object.__new__(cls)
        made.name = name
        return made

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self) -> str:
        return self.name  # (pickled as the module-level constant of that name)


contiguous_format = memory_format._named("contiguous_format")
channels_last = memory_format._named("channels_last")
channels_last_3d = memory_format._named("channels_last_3d")
preserve_format = memory_format._named("preserve_format")
