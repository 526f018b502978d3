"""``minigrad.linalg``: PyTorch's ``torch.linalg``: norms, solvers and decompositions.

Example:
    >>> import minigrad
    >>> minigrad.linalg.norm(minigrad.tensor([3.0, 4.0]))
    tensor(5.)
"""

from minigrad import _arguments, _out
from minigrad.errors import _LinAlgError as LinAlgError
from minigrad.ops.decompositions import (
    cholesky,
    cholesky_ex,
    eigh,
    eigvalsh,
    pinv,
    qr,
    svd,
    svdvals,
)
from minigrad.ops.determinants import linalg_det as det
from minigrad.ops.determinants import slogdet
from minigrad.ops.householder import householder_product
from minigrad.ops.ldl import ldl_factor, ldl_factor_ex, ldl_solve
from minigrad.ops.least_squares import lstsq
from minigrad.ops.linalg import matmul
from minigrad.ops.lu import lu, lu_factor, lu_factor_ex, lu_solve
from minigrad.ops.matrix_chains import matrix_power, multi_dot, vecdot
from minigrad.ops.matrix_functions import matrix_exp
from minigrad.ops.matrix_measures import cond, matrix_rank
from minigrad.ops.norms import linalg_norm as norm
from minigrad.ops.norms import matrix_norm, vector_norm
from minigrad.ops.solvers import inv, inv_ex, solve, solve_ex
from minigrad.ops.tensor_inverse import tensorinv, tensorsolve
from minigrad.ops.triangular import solve_triangular
from minigrad.ops.vandermonde import linalg_vander as vander
from minigrad.ops.vector_products import linalg_cross as cross
from minigrad.ops.views import linalg_diagonal as diagonal

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eigh",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "ldl_factor",
    "ldl_factor_ex",
    "ldl_solve",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vecdot",
    "vector_norm",
]

# PyTorch's TypeError for an argument of the wrong type (minigrad/_arguments.py).
_arguments.check_functions(globals(), __all__, prefix="linalg_")
_out.install(globals(), "linalg.")  # the functions that take out= (minigrad/_out.py)
