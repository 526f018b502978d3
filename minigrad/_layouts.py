"""``minigrad.layout``: how a tensor's elements are stored. minigrad's are all ``strided``.

PyTorch's layouts are named here so that code which reads ``x.layout`` or compares it with
``torch.strided`` runs unchanged; minigrad has dense (strided) tensors only.
"""

from __future__ import annotations


class layout:  # noqa: N801 - PyTorch's name
    """A storage layout, printed as PyTorch prints it (``minigrad.strided``).

    Example:
        >>> import minigrad
        >>> minigrad.zeros(2).layout
        minigrad.strided
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"minigrad.{self.name}"

    def __reduce__(self) -> str:
        return self.name  # (pickled as the module-level constant of that name)


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
jagged = layout("jagged")
_mkldnn = layout("_mkldnn")
