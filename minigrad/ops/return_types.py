"""``return_types``: the named tuples of ops with several results (``.values``, ``.indices``, ...).

They print like PyTorch's (``minigrad.return_types.sort(values=..., indices=...)``).
"""

from __future__ import annotations

import collections
from typing import Any

# The fields of each op's named tuple (linear algebra: ops/solvers.py, ops/decompositions.py).
_RESULT_FIELDS: dict[str, tuple[str, ...]] = {
    "max": ("values", "indices"),
    "min": ("values", "indices"),
    "sort": ("values", "indices"),
    "topk": ("values", "indices"),
    "median": ("values", "indices"),
    "nanmedian": ("values", "indices"),
    "kthvalue": ("values", "indices"),
    "mode": ("values", "indices"),
    "cummax": ("values", "indices"),
    "cummin": ("values", "indices"),
    "aminmax": ("min", "max"),
    "frexp": ("mantissa", "exponent"),
    "slogdet": ("sign", "logabsdet"),
    "linalg_slogdet": ("sign", "logabsdet"),
    "linalg_inv_ex": ("inverse", "info"),
    "linalg_cholesky_ex": ("L", "info"),
    "qr": ("Q", "R"),
    "linalg_qr": ("Q", "R"),
    "svd": ("U", "S", "V"),
    "linalg_svd": ("U", "S", "Vh"),
    "linalg_eigh": ("eigenvalues", "eigenvectors"),
    "triangular_solve": ("solution", "cloned_coefficient"),
    "linalg_lstsq": ("solution", "residuals", "rank", "singular_values"),
    "linalg_lu_factor": ("LU", "pivots"),
    "linalg_lu_factor_ex": ("LU", "pivots", "info"),
    "linalg_solve_ex": ("result", "info"),
    "linalg_lu": ("P", "L", "U"),
    "lu_unpack": ("P", "L", "U"),
    "linalg_ldl_factor": ("LD", "pivots"),
    "linalg_ldl_factor_ex": ("LD", "pivots", "info"),
    "histogram": ("hist", "bin_edges"),
    "histogramdd": ("hist", "bin_edges"),
    "geqrf": ("a", "tau"),
}


class return_types:  # noqa: N801 - PyTorch's name
    """The named tuples of ops with several results (``.values``, ``.indices``, ``.U``, ...).

    ``return_types.sort`` is what ``sort`` returns; ``return_types.sort_out`` what it returns
    when called with ``out=(values, indices)`` (minigrad/_out.py).
    """


def _return_type(name: str, fields: tuple[str, ...] = ("values", "indices")) -> type:
    """A named tuple printed like ``torch.return_types.<name>`` (one field a line)."""
    base = collections.namedtuple(name, fields)  # type: ignore[misc]

    def __repr__(self: Any) -> str:  # noqa: N807 - a method of the class below
        items = ",\n".join(f"{field}={value!r}" for field, value in zip(fields, self))
        return f"minigrad.return_types.{name}(\n{items})"

    return type(name, (base,), {"__slots__": (), "__repr__": __repr__,
                                "__module__": "minigrad.return_types"})


for _name, _fields in _RESULT_FIELDS.items():
    setattr(return_types, _name, _return_type(_name, _fields))
    setattr(return_types, _name + "_out", _return_type(_name + "_out", _fields))
