"""Solvers and decompositions: named tuples, reprs, errors and the special cases of gradients.

Every expected value and message here is what PyTorch 2.13 printed for the same call (the
generic checks of values, gradients and saved tensors are the op table's, tests/opinfo).
"""
import subprocess
import sys
import warnings

import numpy as np
import pytest
from _backend import LIB, mg, text
from _cases import parametrize_in_one

NAN, INF = float("nan"), float("inf")
SINGULAR = [[1.0, 2.0], [2.0, 4.0]]


def raises(error, message, call):
    with pytest.raises(error) as info:
        call()
    assert str(info.value) == text(message)
    return info.value


# ---- named tuples and their reprs ------------------------------------------------------------

def test_slogdet_named_tuples():
    result = mg.linalg.slogdet(mg.tensor([[2.0, 0.0], [0.0, -3.0]]))
    assert type(result).__name__ == "linalg_slogdet"
    assert repr(result) == text("minigrad.return_types.linalg_slogdet(\nsign=tensor(-1.),\n"
                                "logabsdet=tensor(1.7918))")
    sign, logabsdet = result
    assert (sign.item(), round(logabsdet.item(), 4)) == (-1.0, 1.7918)
    legacy = mg.slogdet(mg.tensor([[2.0]]))
    assert type(legacy).__name__ == "slogdet"
    assert legacy.logabsdet is legacy[1] and len(legacy) == 2
    assert type(mg.tensor([[2.0]]).slogdet()).__name__ == "slogdet"


def test_decomposition_named_tuples():
    a = mg.tensor([[3.0, 1.0], [4.0, 2.0]])
    expected = [
        (mg.linalg.qr(a), "linalg_qr", ("Q", "R")),
        (mg.linalg.svd(a), "linalg_svd", ("U", "S", "Vh")),
        (mg.svd(a), "svd", ("U", "S", "V")),
        (mg.linalg.eigh(a), "linalg_eigh", ("eigenvalues", "eigenvectors")),
        (mg.linalg.inv_ex(a), "linalg_inv_ex", ("inverse", "info")),
        (mg.linalg.cholesky_ex(a @ a.mT), "linalg_cholesky_ex", ("L", "info")),
    ]
    for result, name, fields in expected:
        assert type(result).__name__ == name
        assert isinstance(result, tuple) and len(result) == len(fields)
        assert all(getattr(result, field) is result[i] for i, field in enumerate(fields))


def test_qr_mode_r_repr_and_its_backward_error():
    a = mg.tensor([[3.0, 1.0], [4.0, 2.0]], requires_grad=True)
    result = mg.linalg.qr(a.detach(), mode="r")
    assert repr(result) == text("minigrad.return_types.linalg_qr(\nQ=tensor([]),\n"
                                "R=tensor([[-5.0000, -2.2000],\n        [ 0.0000,  0.4000]]))")
    q, r = mg.linalg.qr(a, mode="r")
    assert q.shape == (0,) and q.grad_fn.name() == "LinalgQrBackward0"
    raises(RuntimeError, "The derivative of linalg.qr depends on Q, which is not computed when "
           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
           "differentiate through linalg.qr.", lambda: r.sum().backward())


def test_qr_complete_of_a_tall_matrix_is_not_differentiable():
    a = mg.tensor([[1.0], [2.0]], requires_grad=True)
    _, r = mg.linalg.qr(a, mode="complete")
    assert r.shape == (2, 1)
    raises(RuntimeError, "The QR decomposition is not differentiable when mode='complete' and "
           "nrows > ncols.", lambda: r.sum().backward())


def test_svd_shapes_and_legacy_forms():
    a = mg.tensor([[3.0, 0.0], [0.0, 4.0], [0.0, 0.0]])
    assert [tuple(t.shape) for t in mg.linalg.svd(a)] == [(3, 3), (2,), (2, 2)]
    assert [tuple(t.shape) for t in mg.linalg.svd(a, full_matrices=False)] == [(3, 2), (2,),
                                                                               (2, 2)]
    assert [tuple(t.shape) for t in mg.svd(a, some=False)] == [(3, 3), (2,), (2, 2)]
    assert repr(mg.svd(a, compute_uv=False)) == text(
        "minigrad.return_types.svd(\nU=tensor([[0., 0., 0.],\n        [0., 0., 0.],\n"
        "        [0., 0., 0.]]),\nS=tensor([4., 3.]),\nV=tensor([[0., 0.],\n        [0., 0.]]))")
    u, s, v = mg.svd(a.requires_grad_())
    assert (u.grad_fn.name(), s.grad_fn.name(), v.grad_fn.name()) == (
        "LinalgSvdBackward0", "LinalgSvdBackward0", "TransposeBackward0")
    assert v._base is not None and v.is_contiguous()  # V is Vh.mT, and Vh is column-major


# ---- results laid out as LAPACK's (column-major), as PyTorch keeps them ----------------------

def test_results_are_column_major():
    a = mg.tensor([[2.0, 1.0], [1.0, 3.0]])
    assert not mg.linalg.inv(a).is_contiguous()
    assert mg.linalg.inv(a).stride() == (1, 2)
    assert mg.linalg.cholesky(a).stride() == (1, 2)
    assert mg.linalg.qr(a).Q.stride() == (1, 2)
    assert mg.linalg.solve(a, mg.ones(2, 3)).stride() == (1, 2)
    assert mg.linalg.solve(a, mg.ones(3, 2), left=False).stride() == (2, 1)
    raises(RuntimeError, "view size is not compatible with input tensor's size and stride (at "
           "least one dimension spans across two contiguous subspaces). Use .reshape(...) "
           "instead.", lambda: mg.linalg.inv(a).view(-1))


# ---- singular and not positive-definite matrices ---------------------------------------------

def test_errors_are_linalg_errors_and_runtime_errors():
    assert issubclass(mg.linalg.LinAlgError, RuntimeError)
    error = raises(mg.linalg.LinAlgError, "linalg.inv: The diagonal element 2 is zero, the "
                   "inversion could not be completed because the input matrix is singular.",
                   lambda: mg.linalg.inv(mg.tensor(SINGULAR)))
    assert type(error).__name__ == "_LinAlgError"


SINGULAR_ERRORS = [
    ("inv_batch", lambda: mg.linalg.inv(mg.tensor([[[1.0, 0.0], [0.0, 1.0]], SINGULAR])),
     "linalg.inv: (Batch element 1): The diagonal element 2 is zero, the inversion could not be "
     "completed because the input matrix is singular."),
    ("inverse_zeros", lambda: mg.inverse(mg.zeros(2, 2)),
     "linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because "
     "the input matrix is singular."),
    ("inv_ex_checked", lambda: mg.linalg.inv_ex(mg.zeros(2, 2), check_errors=True),
     "linalg.inv_ex: The diagonal element 1 is zero, the inversion could not be completed "
     "because the input matrix is singular."),
    ("solve", lambda: mg.linalg.solve(mg.tensor(SINGULAR), mg.ones(2)),
     "minigrad.linalg.solve: The solver failed because the input matrix is singular."),
    ("solve_batch", lambda: mg.linalg.solve(mg.stack([mg.eye(2), mg.tensor(SINGULAR)]),
                                            mg.ones(2, 2, 1)),
     "minigrad.linalg.solve: (Batch element 1): The solver failed because the input matrix is "
     "singular."),
    ("cholesky_batch",
     lambda: mg.linalg.cholesky(mg.tensor([[[4.0, 0.0], [0.0, 4.0]], [[1.0, 2.0], [2.0, 1.0]]])),
     "linalg.cholesky: (Batch element 1): The factorization could not be completed because the "
     "input is not positive-definite (the leading minor of order 2 is not positive-definite)."),
    ("cholesky_ex_checked", lambda: mg.linalg.cholesky_ex(mg.zeros(2, 2), check_errors=True),
     "linalg.cholesky_ex: The factorization could not be completed because the input is not "
     "positive-definite (the leading minor of order 1 is not positive-definite)."),
]


@pytest.mark.parametrize(("name", "call", "message"), SINGULAR_ERRORS,
                         ids=[c[0] for c in SINGULAR_ERRORS])
def test_singular_errors(name, call, message):
    raises(mg.linalg.LinAlgError, message, call)


def test_inv_ex_returns_what_lapack_leaves_for_singular_matrices():
    cases = [
        (SINGULAR, [[-INF, INF], [INF, -INF]], 2),
        ([[0.0, 0.0], [0.0, 0.0]], [[NAN, NAN], [NAN, INF]], 1),
        ([[0.0, 1.0], [0.0, 1.0]], [[INF, -INF], [0.0, 1.0]], 1),
        ([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]],
         [[NAN, NAN, NAN], [-INF, INF, NAN], [INF, -INF, NAN]], 3),
    ]
    for matrix, inverse, info in cases:
        result = mg.linalg.inv_ex(mg.tensor(matrix))
        np.testing.assert_array_equal(result.inverse.numpy(), np.array(inverse, dtype=np.float32))
        assert result.info.item() == info and result.info.dtype == mg.int32


# In float64: PyTorch's float32 Cholesky (MKL's) scales a column by a reciprocal an ulp low on
# CPUs without AVX-512 (MKL_ENABLE_INSTRUCTIONS=AVX2 or SSE4_2: 0.99999994 for the 1 below the
# first pivot), which moves the zero pivot off zero; its float64 one is exact on every path.
def test_cholesky_ex_returns_the_partial_factor():
    a = mg.tensor([[4.0, 2.0, 1.0], [2.0, 1.0, 0.0], [1.0, 0.0, 3.0]], dtype=mg.float64)
    lower, info = mg.linalg.cholesky_ex(a)
    assert lower.tolist() == [[2.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.5, 0.0, 3.0]]
    assert info.item() == 2
    upper, info = mg.linalg.cholesky_ex(a, upper=True)
    assert upper.tolist() == [[2.0, 1.0, 0.5], [0.0, 0.0, 0.0], [0.0, 0.0, 3.0]]
    lower, info = mg.linalg.cholesky_ex(mg.tensor([[1.0, 2.0], [2.0, 1.0]], dtype=mg.float64))
    assert lower.tolist() == [[1.0, 0.0], [2.0, -3.0]] and info.item() == 2


def test_determinants_of_singular_and_negative_matrices():
    assert repr(mg.linalg.det(mg.tensor(SINGULAR))) == "tensor(-0.)"
    assert repr(mg.det(mg.zeros(2, 2))) == "tensor(0.)"
    assert repr(mg.linalg.slogdet(mg.tensor([[[1.0, 2.0], [2.0, 4.0]],
                                             [[0.0, 1.0], [1.0, 0.0]]]))) == text(
        "minigrad.return_types.linalg_slogdet(\nsign=tensor([-0., -1.]),\n"
        "logabsdet=tensor([-inf, 0.]))")
    assert repr(mg.logdet(mg.tensor([[1.0, 2.0], [2.0, 1.0]]))) == "tensor(nan)"
    assert repr(mg.logdet(mg.tensor(SINGULAR))) == "tensor(-inf)"
    assert mg.logdet(mg.tensor([[1.0, 2.0], [2.0, 1.0]], requires_grad=True)).grad_fn.name() == (
        "WhereBackward0")


def test_empty_matrices():
    empty = mg.ones(0, 0)
    assert repr(mg.linalg.det(empty)) == "tensor(1.)"
    assert mg.linalg.inv(empty).shape == (0, 0)
    assert mg.linalg.slogdet(empty).logabsdet.item() == 0.0
    assert mg.linalg.svdvals(empty).shape == (0,)
    assert mg.linalg.eigh(empty).eigenvectors.shape == (0, 0)
    assert mg.linalg.pinv(empty).shape == (0, 0)


# ---- gradients at the special points ---------------------------------------------------------

def test_det_gradient_of_a_singular_matrix():
    # First order: PyTorch solves with a perturbed LU and gets 0 (the scale det is 0); with
    # create_graph it switches to the adjugate, computed through the SVD.
    a = mg.tensor(SINGULAR, dtype=mg.float64, requires_grad=True)
    mg.linalg.det(a).backward()
    assert a.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]]
    (first,) = mg.autograd.grad(mg.linalg.det(a), a, create_graph=True)
    np.testing.assert_allclose(first.detach().numpy(), [[4.0, -2.0], [-2.0, 1.0]], atol=1e-12)
    (second,) = mg.autograd.grad(first.sum(), a)
    np.testing.assert_allclose(second.numpy(), [[1.0, -1.0], [-1.0, 1.0]], atol=1e-12)


def test_slogdet_sign_has_no_gradient():
    a = mg.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
    mg.linalg.slogdet(a).sign.backward()
    assert a.grad is None


def test_repeated_values_make_vector_gradients_nan_but_not_value_gradients():
    # The vectors of a repeated singular value (eigenvalue) are not unique: PyTorch's formula
    # divides by 0 there; the values alone have the finite shortcut U diag(gS) Vh.
    eye = mg.eye(2, dtype=mg.float64, requires_grad=True)
    mg.linalg.svd(eye).U.sum().backward()
    assert np.isnan(eye.grad.numpy()).all()
    eye.grad = None
    mg.linalg.eigh(eye).eigenvectors.sum().backward()
    assert np.isnan(eye.grad.numpy()).all()
    eye.grad = None
    mg.linalg.svdvals(eye).sum().backward()
    assert eye.grad.tolist() == [[1.0, 0.0], [0.0, 1.0]]
    eye.grad = None
    mg.linalg.eigvalsh(eye).sum().backward()
    assert eye.grad.tolist() == [[1.0, 0.0], [0.0, 1.0]]


def test_svdvals_and_eigvalsh_record_the_full_decomposition():
    a = mg.tensor([[2.0, 1.0], [1.0, 3.0]], requires_grad=True)
    assert mg.linalg.svdvals(a).grad_fn.name() == "LinalgSvdBackward0"
    assert mg.linalg.eigvalsh(a).grad_fn.name() == "LinalgEighBackward0"
    assert mg.linalg.svdvals(a.detach()).grad_fn is None


# ---- argument errors the op table cannot express ---------------------------------------------

HALF_ERRORS = [
    ("inv", lambda h: mg.linalg.inv(h), RuntimeError,
     "linalg.inv: Low precision dtypes not supported. Got Half"),
    ("det", lambda h: mg.linalg.det(h), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Half'"),
    ("slogdet", lambda h: mg.linalg.slogdet(h), RuntimeError,
     "linalg.slogdet: Low precision dtypes not supported. Got Half"),
    ("logdet", lambda h: mg.logdet(h), RuntimeError,
     "logdet: Low precision dtypes not supported. Got Half"),
    ("solve", lambda h: mg.linalg.solve(h, h), NotImplementedError,
     "\"lu_cpu\" not implemented for 'Half'"),
    ("cholesky", lambda h: mg.linalg.cholesky(h), NotImplementedError,
     "\"cholesky_cpu\" not implemented for 'Half'"),
    ("qr", lambda h: mg.linalg.qr(h), NotImplementedError,
     "\"geqrf_cpu\" not implemented for 'Half'"),
    ("svd", lambda h: mg.linalg.svd(h), NotImplementedError,
     "\"linalg_svd_cpu\" not implemented for 'Half'"),
    ("svdvals", lambda h: mg.linalg.svdvals(h), NotImplementedError,
     "\"linalg_svd_cpu\" not implemented for 'Half'"),
    ("eigh", lambda h: mg.linalg.eigh(h), NotImplementedError,
     "\"linalg_eigh_cpu\" not implemented for 'Half'"),
    ("pinv", lambda h: mg.linalg.pinv(h), RuntimeError,
     "linalg.pinv(Half{[2, 2]}): expected a tensor with 2 or more dimensions of float, double, "
     "cfloat or cdouble types"),
]


OTHER_ERRORS = [
    ("svd_legacy_1d", lambda: mg.svd(mg.ones(3)), RuntimeError,
     "linalg.svd: input should have at least 2 dimensions, but has 1 dimensions instead"),
    ("pinv_atol_integer", lambda: mg.linalg.pinv(mg.ones(2, 2, dtype=mg.int64), atol=0.1),
     RuntimeError, "This function doesn't handle types other than float and double"),
    ("pinv_atol_1d", lambda: mg.linalg.pinv(mg.ones(3), atol=0.1), IndexError,
     "Dimension out of range (expected to be in range of [-1, 0], but got -2)"),
    ("not_a_tensor", lambda: mg.linalg.inv([[1.0]]), TypeError,
     "linalg_inv(): argument 'A' (position 1) must be Tensor, not list"),
    ("cholesky_legacy_integer", lambda: mg.cholesky(mg.ones(2, 2, dtype=mg.int64)),
     NotImplementedError, "\"cholesky_cpu\" not implemented for 'Long'"),
]


def _half(call):
    return lambda: call(mg.ones(2, 2, dtype=mg.float16))


ARGUMENT_ERRORS = [(f"half_{name}", _half(call), error, message)
                   for name, call, error, message in HALF_ERRORS] + OTHER_ERRORS


@parametrize_in_one(("name", "call", "error", "message"), ARGUMENT_ERRORS,
                         ids=[c[0] for c in ARGUMENT_ERRORS])
def test_argument_errors(name, call, error, message):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (the deprecation warning of cholesky)
        raises(error, message, call)


def test_deprecated_functions_warn_once_with_pytorchs_text():
    # The warnings are given once per process, so they are checked in a fresh one.
    script = (
        f"import warnings\nimport {LIB} as mg\n"
        "a = mg.eye(2)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        "    for _ in range(2):\n"
        "        mg.cholesky(a); mg.qr(a)\n"
        "        mg.zeros(2).scatter(0, mg.tensor([0]), mg.ones(1), reduce='add')\n"
        "for warning in caught:\n"
        "    print(warning.category.__name__, str(warning.message).split(' (Triggered')[0])\n"
        "    print('---')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    given = result.stdout.split("---\n")[:-1]
    assert len(given) == 3
    cholesky, qr, scatter = (w.strip() for w in given)
    assert cholesky == "UserWarning " + text(
        "minigrad.cholesky is deprecated in favor of minigrad.linalg.cholesky and will be removed "
        "in a future PyTorch release.\nL = minigrad.cholesky(A)\nshould be replaced with\n"
        "L = minigrad.linalg.cholesky(A)\nand\nU = minigrad.cholesky(A, upper=True)\nshould be "
        "replaced with\nU = minigrad.linalg.cholesky(A).mH\nThis transform will produce "
        "equivalent results for all valid (symmetric positive definite) inputs.")
    assert qr == "UserWarning " + text(
        "minigrad.qr is deprecated in favor of minigrad.linalg.qr and will be removed in a future "
        "PyTorch release.\nThe boolean parameter 'some' has been replaced with a string parameter "
        "'mode'.\nQ, R = minigrad.qr(A, some)\nshould be replaced with\nQ, R = "
        "minigrad.linalg.qr(A, 'reduced' if some else 'complete')")
    assert scatter == "UserWarning " + text(
        "The reduce argument of minigrad.scatter with Tensor src is deprecated and will be "
        "removed in a future PyTorch release. Use minigrad.scatter_reduce instead for more "
        "reduction options.")
