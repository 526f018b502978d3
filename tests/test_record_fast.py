"""Recording's fast branch (per-op recording functions, autograd/record.py) vs its general path.

Every sample of every op of the op table runs twice, once with the fast branch and once with it
turned off (``FAST_BRANCH`` false: every call goes the general way), from the same seed and on
equal inputs: values, dtypes, ``grad_fn`` names, saved values with their versions and origins,
gradients and error texts must be identical. The expected side is the general path, which the
rest of the suite checks against PyTorch.
"""
from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from _backend import LIB
from _backend import mg as minigrad
from opinfo import OpInfo, Sample
from row_cases import RowCase, check_each, row_cases
from test_ops import ALL_OPS, build_args

pytestmark = pytest.mark.skipif(LIB != "minigrad", reason="minigrad's recording internals")

if LIB == "minigrad":
    from minigrad.autograd import record as recording
    from minigrad.autograd.saved import entries as saved_entries
    from minigrad.autograd.saved import saved_values


def _array(value: Any) -> Any:
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    return repr(value)


def _node(node: Any, args: list[Any]) -> Any:
    """A node as comparable data: name, edges' names, needs, saved values and versions."""
    if node is None:
        return None
    saved = []
    for index, value, counter, version, origin in (
        saved_values(node) if hasattr(node, "_saved") else ()
    ):
        if isinstance(origin, minigrad.Tensor):
            # an argument by position; an intermediate tensor (hardtanh_'s copy) by its data
            positions = [i for i, a in enumerate(args) if a is origin]
            origin = ("input", positions) if positions else ("tensor", _array(origin._array))
        saved.append((index, _array(value), counter is None, version, repr(origin)))
    edges = tuple(None if n is None else n.name() for n in node._next_nodes)
    # (CopySlices, AccumulateGrad: nodes that are not a Function's have fewer of these)
    needs = getattr(node, "needs_input_grad", None)
    # per saved value, what ``saved_values`` does not show: whether it had history when saved,
    # and its argument position (the entries the recording functions write out themselves)
    entries = (saved_entries(node) if hasattr(node, "_saved") else None) or ()
    flags = (entries[4::6], entries[5::6])
    return (node.name(), edges, getattr(node, "_next_nrs", None),
            None if needs is None else tuple(needs), saved, flags,
            getattr(node, "_input_meta", None))


def _check_cached_metadata(values: Any) -> None:
    """Each tensor's kept shape (if read) and dtype are its buffer's (TensorBase's)."""
    for value in values:
        if isinstance(value, minigrad.Tensor):
            kept = value._shape
            assert kept is None or kept == value._array.shape, (kept, value._array.shape)
            kept = value._dtype
            assert kept is None or kept is value._array.dtype, (kept, value._array.dtype)


def _run(row: OpInfo, sample: Sample, fast: bool, monkeypatch: pytest.MonkeyPatch,
         grad_mode: bool = True) -> Any:
    """Forward, then backward of a weighted sum of the float outputs: everything observable."""
    general_calls = [0]  # calls that went the general way, fast branch or not
    original = recording._general

    def counting(function: Any, args: Any, target: Any) -> Any:
        general_calls[0] += 1
        return original(function, args, target)

    with monkeypatch.context() as patch:
        patch.setattr(recording, "FAST_BRANCH", fast)
        patch.setattr(recording, "_general", counting)
        minigrad.manual_seed(0)
        args, kwargs, positions = build_args(minigrad, row, sample, "float32")
        seen: list[Any] = []
        with warnings.catch_warnings(), minigrad.set_grad_enabled(grad_mode):
            warnings.simplefilter("ignore")
            try:
                result = row.call(minigrad, *args, **kwargs)
            except Exception as error:  # noqa: BLE001 (the error itself is compared)
                return [("error", type(error).__name__, str(error))], False
            # (not counting the weighted sum below)
            taken_by_the_op = fast and general_calls[0] == 0
            outputs = result if isinstance(result, tuple) else (result,)
            _check_cached_metadata([*outputs, *args])  # (in-place ops change their input)
            total = None
            for output in outputs:
                if not isinstance(output, minigrad.Tensor):
                    seen.append(("value", repr(output)))
                    continue
                seen.append(("output", _array(output.detach().numpy()), output.requires_grad,
                             output._version, _node(output.grad_fn, args)))
                if output.grad_fn is not None:
                    weight = minigrad.full(output.shape, 0.5, dtype=output.dtype)
                    term = (output * weight).sum()
                    total = term if total is None else total + term
            if total is not None:
                try:
                    total.backward()
                except RuntimeError as error:
                    seen.append(("backward error", str(error)))
            for position in positions:
                grad = args[position].grad
                _check_cached_metadata([grad])
                seen.append(("grad", position, None if grad is None else _array(grad.numpy())))
    return seen, taken_by_the_op


# Rows whose "same"-shape sample must take the fast branch: the test can fail if it never runs.
MUST_TAKE = {"add", "add_operator", "mul", "exp", "sigmoid", "tanh", "relu", "neg", "sin", "log",
             "sqrt", "rsqrt", "erf", "sum", "mean"}


def _grad_modes(row: OpInfo, sample: Sample) -> list[tuple[str, tuple[Sample, bool]]]:
    """Each sample in grad mode and under no_grad (checks labelled ``<sample>-grad``)."""
    return [("grad", (sample, True)), ("no_grad", (sample, False))]


# One test per row, running all of the row's samples in both grad modes (tests/row_cases.py).
@pytest.mark.parametrize("case", row_cases(ALL_OPS, expand=_grad_modes))
def test_fast_branch_agrees_with_the_general_path(
    case: RowCase, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = case.row

    def check(value: tuple[Sample, bool]) -> None:
        sample, grad_mode = value
        general, _ = _run(row, sample, False, monkeypatch, grad_mode)
        fast, taken = _run(row, sample, True, monkeypatch, grad_mode)
        assert fast == general
        if row.name in MUST_TAKE and sample.name in ("same", "1d", "2d", "3d"):
            assert taken, f"{row.name} did not take the fast branch"

    check_each(case, check)


# --- the per-op recording functions (``function._record``) in the cases the table does not make


def _observe(make: Any, monkeypatch: pytest.MonkeyPatch, fast: bool) -> tuple[Any, int]:
    """``make()``'s outputs and gradients as data, and how many calls went the general way."""
    general_calls = [0]
    original = recording._general

    def counting(function: Any, args: Any, target: Any) -> Any:
        general_calls[0] += 1
        return original(function, args, target)

    with monkeypatch.context() as patch:
        patch.setattr(recording, "FAST_BRANCH", fast)
        patch.setattr(recording, "_general", counting)
        minigrad.manual_seed(0)
        try:
            inputs, outputs = make()
        except Exception as error:  # noqa: BLE001 (the error itself is compared)
            return ("error", type(error).__name__, str(error)), general_calls[0]
        calls = general_calls[0]
        seen = []
        total = None
        for output in outputs:
            inference = output.is_inference()  # (which have no version to read)
            seen.append((_array(output.detach().numpy()), output.requires_grad, inference,
                         None if inference else output._version, _node(output.grad_fn, inputs)))
            if output.grad_fn is not None:
                term = output.sum()
                total = term if total is None else total + term
        if total is not None:
            total.backward()
        seen += [None if t.grad is None else _array(t.grad.numpy()) for t in inputs]
    return seen, calls


def _leaf(*shape: int, requires_grad: bool = True) -> Any:
    return minigrad.randn(*shape, requires_grad=requires_grad)


_UNARY_METHODS = ("sigmoid", "exp", "log", "sqrt", "tanh", "relu", "abs")


def _float_leaves() -> list[Any]:
    """A float16, a float32 and a float64 leaf, with values far enough out to overflow exp."""
    return [minigrad.tensor(np.linspace(-30.0, 30.0, 7), dtype=dtype, requires_grad=True)
            for dtype in (minigrad.float16, minigrad.float32, minigrad.float64)]


def _same(make: Any, monkeypatch: pytest.MonkeyPatch) -> int:
    """Assert ``make`` gives the same everything both ways; return the fast run's general calls."""
    general, _ = _observe(make, monkeypatch, fast=False)
    fast, calls = _observe(make, monkeypatch, fast=True)
    assert fast == general
    return calls


def test_every_op_of_one_or_two_inputs_has_its_own_recording_function() -> None:
    from minigrad.ops import arithmetic, linalg, reduction, unary

    for op, arity in ((arithmetic.Add, 2), (arithmetic.Mul, 2), (linalg.Mm, 2),
                      (unary.Sigmoid, 1), (unary.Exp, 1), (reduction.Sum, 1)):
        assert op._record is not None and op._fast_inputs == arity
        assert op._record.__name__ == f"record_{op.__name__}"
    assert arithmetic.Add._record is not arithmetic.Sub._record


def test_a_forward_kernel_notes_forward_s_defaults_either_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from minigrad.ops import arithmetic

    assert arithmetic.Add.forward_kernel is not None  # (else this test proves nothing)
    for fast in (True, False):
        monkeypatch.setattr(recording, "FAST_BRANCH", fast)
        a, b = _leaf(3), _leaf(3)
        node = (a + b).grad_fn
        assert (node._saved_alpha, node.alpha) == (1, 1)


def test_a_forward_kernel_needs_a_default_for_each_field_forward_notes() -> None:
    from minigrad.autograd.function import Op

    with pytest.raises(TypeError, match="no default for its field 'scale'"):

        class Scaled(Op):  # noqa: F841 - made to be refused
            num_inputs = 2
            fields = ("scale",)
            forward_kernel = np.add

            @staticmethod
            def forward(ctx: Any, x: Any, y: Any, scale: Any) -> Any:
                ctx.scale = scale
                return x + scale * y


def test_the_unary_families_declare_their_kernel_as_forward_kernel() -> None:
    # An op whose forward is its family's (kernel, then the declared value saved) is recorded
    # by calling the kernel and saving that value: both must be what forward does.
    from minigrad.ops import trigonometric, unary

    def family(cls: type) -> list[type]:
        return [cls] + [op for sub in cls.__subclasses__() for op in family(sub)]

    ops = [op for op in family(unary.UnaryOp) if hasattr(op, "kernel")]
    assert {unary.Exp, unary.Sigmoid, unary.Relu, unary.Log, trigonometric.Sin} <= set(ops)
    x = np.array([-2.0, -0.0, 0.5, 3.0], np.float32)
    for op in ops:
        assert op.forward_kernel is op.kernel, op.__name__
        ctx = op._Node()  # (its slots: BackwardNode declares none)
        with np.errstate(all="ignore"):  # (log(-2): nan)
            y = op.forward(ctx, x)
            np.testing.assert_array_equal(y, op.forward_kernel(x))
        (saved,) = ctx._saved
        assert saved is (x if op.saves == ("self",) else y), op.__name__
    for op in (unary.Neg, unary.Clone, unary.Sign):  # forwards of their own: no kernel declared
        assert op.forward_kernel is None


def test_a_no_grad_kernel_computes_what_forward_computes() -> None:
    # The no-grad path of an op that declares ``no_grad_kernel`` (the reductions of all
    # elements) calls it in forward's place: the same array bit for bit, in every float dtype,
    # on 0-d, empty, strided and large inputs (a mean over more than 2048 elements divides in
    # float64), and np.mean's value for the mean (its forward called np.mean before).
    from minigrad.autograd.function import Op
    from minigrad.ops import reduction

    def family(cls: type) -> list[type]:
        return [cls] + [op for sub in cls.__subclasses__() for op in family(sub)]

    declared = {op for op in family(Op) if op.no_grad_kernel is not None}
    assert {reduction.Sum, reduction.Mean, reduction.Max, reduction.Min} <= declared
    rng = np.random.default_rng(0)
    for dtype in (np.float16, np.float32, np.float64):
        inputs = [rng.standard_normal(()), np.zeros(0), rng.standard_normal(8),
                  rng.standard_normal((3, 4)).T, rng.standard_normal((5, 6))[::2, 1::2],
                  rng.standard_normal(3001) * 10, np.array([np.inf, -np.inf, 1.0])]
        for x in (value.astype(dtype) for value in inputs):
            for op in declared:
                if op.forward_kernel is not None or op.num_inputs != 1:
                    continue  # (recorded through its kernel too: checked above; mm: below)
                with np.errstate(all="ignore"):
                    try:
                        expected = op.forward(op._Node(), x)
                    except ValueError as error:  # (max and min of nothing: numpy's error,
                        with pytest.raises(ValueError, match=str(error)):  # checked before)
                            op.no_grad_kernel(x)
                        continue
                    got = op.no_grad_kernel(x)
                    mean = np.mean(x, dtype=x.dtype) if x.size else np.float64("nan")
                assert type(got) is np.ndarray, op.__name__
                assert (got.dtype, got.shape) == (expected.dtype, expected.shape), op.__name__
                assert got.tobytes() == expected.tobytes(), (op.__name__, dtype, x.shape)
                if op is reduction.Mean:
                    np.testing.assert_array_equal(got, np.asarray(mean, dtype))


def test_a_two_input_no_grad_kernel_computes_what_forward_computes() -> None:
    # mm's no-grad path calls its ``no_grad_kernel`` in forward's place: the same array bit for
    # bit, dtype and strides, in every float dtype, on transposed and strided matrices, 1x1
    # operands (where ``dot`` would scale and turn 0 * inf into 0: PyTorch's product gives
    # nan), empty ones, and inf and nan among the values.
    from minigrad.autograd.function import Op
    from minigrad.ops import linalg

    def family(cls: type) -> list[type]:
        return [cls] + [op for sub in cls.__subclasses__() for op in family(sub)]

    declared = {op for op in family(Op) if op.no_grad_kernel is not None and op.num_inputs == 2}
    assert linalg.Mm in declared
    rng = np.random.default_rng(0)
    special = rng.standard_normal((4, 3))
    special[0, 0], special[1, 1], special[2, 2] = np.inf, np.nan, 0.0
    pairs = [
        (rng.standard_normal((4, 3)), rng.standard_normal((3, 5))),
        (rng.standard_normal((3, 4)).T, rng.standard_normal((5, 3)).T),
        (rng.standard_normal((8, 6))[::2, ::2], rng.standard_normal((3, 2))),
        (np.zeros((1, 1)), np.full((1, 4), np.inf)),
        (np.full((3, 1), np.inf), np.zeros((1, 1))),
        (np.zeros((0, 3)), rng.standard_normal((3, 2))),
        (special, np.ones((3, 2))),
    ]
    for dtype in (np.float16, np.float32, np.float64):
        for x, y in ((a.astype(dtype), b.astype(dtype)) for a, b in pairs):
            for op in declared:
                with np.errstate(all="ignore"):
                    expected = op.forward(op._Node(), x, y)
                    got = op.no_grad_kernel(x, y)
                assert type(got) is np.ndarray, op.__name__
                assert (got.dtype, got.shape, got.strides) == (
                    expected.dtype, expected.shape, expected.strides), op.__name__
                assert got.tobytes() == expected.tobytes(), (op.__name__, dtype, x.shape)


def test_a_mean_over_dims_is_np_means_value_bit_for_bit() -> None:
    # MeanDim computes its mean with Mean's steps over its axes (it called np.mean before):
    # np.mean's value, dtype and shape in every float dtype, over every set of axes, with and
    # without keepdim, on transposed, strided and empty inputs, and counts above 2048 (which
    # divide in float64); inf, nan and -0.0 among the values. An empty slice is nan, silently.
    # A float16 mean is np.mean's in float32, rounded once (PyTorch's: sum and divide in
    # float32; tests_torch/test_half_opmath_torch.py).
    import itertools

    from minigrad.ops import reduction

    rng = np.random.default_rng(0)
    shapes = [(4, 6), (3, 4, 5), (0, 3), (3, 0), (2049, 2), (1,)]
    for dtype, shape in itertools.product((np.float16, np.float32, np.float64), shapes):
        base = (rng.standard_normal(shape) * 100).astype(dtype)
        if base.size > 3:
            base.flat[:3] = (np.inf, -0.0, np.nan)
        for x in (base, base.T, base[::2]):
            for count in range(1, x.ndim + 1):
                for axes, keepdim in itertools.product(
                    itertools.combinations(range(x.ndim), count), (False, True)
                ):
                    for mean_dtype in (None, np.dtype(np.float64)):
                        with np.errstate(all="ignore"), warnings.catch_warnings():
                            warnings.simplefilter("ignore")  # ("Mean of empty slice")
                            wide = np.float32 if dtype is np.float16 else x.dtype
                            expected = np.asarray(np.mean(
                                x, axis=axes, keepdims=keepdim,
                                dtype=wide if mean_dtype is None else mean_dtype))
                            if mean_dtype is None:
                                expected = expected.astype(x.dtype)
                        with warnings.catch_warnings():
                            warnings.simplefilter("error")
                            with np.errstate(all="ignore"):
                                got = reduction._mean_all(x, mean_dtype, axes, keepdim)
                        assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
                        assert got.tobytes() == expected.tobytes(), (dtype, x.shape, axes)


@pytest.mark.parametrize("method", ["sum", "mean"])
@pytest.mark.parametrize("grad_enabled", [True, False])
def test_a_reduction_over_one_int_dim_skips_the_checks_and_gives_what_they_give(
    method: str, grad_enabled: bool
) -> None:
    # ``x.sum(1)`` goes straight to the op's function (``tensor._reduction_shortcut``);
    # ``x.sum(dim=1)`` through the argument checks: the same value, history, saved dim,
    # gradient and (a dim out of range) error, with grad mode on and off, on a view too.
    over_dim = {"sum": minigrad.ops.reduction.sum, "mean": minigrad.ops.reduction.mean}[method]
    shortcut = vars(minigrad.Tensor)[method]  # (Tensor.sum: its check of self, _unbound_methods)
    assert over_dim in [cell.cell_contents for cell in shortcut.__closure__ or ()]
    rng = np.random.default_rng(0)
    for dtype in (np.float32, np.float64):
        for dim in (-3, -2, -1, 0, 1, 2):
            runs = []
            for by_keyword in (False, True):
                x = minigrad.tensor(rng.standard_normal((2, 3)).astype(dtype)
                                    if not runs else runs[0][0]._array.copy(),
                                    requires_grad=True)
                source = x[:, ::2] if dim % 2 else x  # (a view: recorded from its base)
                with minigrad.set_grad_enabled(grad_enabled):
                    try:
                        y = (getattr(source, method)(dim=dim) if by_keyword
                             else getattr(source, method)(dim))
                    except IndexError as error:
                        runs.append((x, str(error)))
                        continue
                if y.requires_grad:
                    y.backward(minigrad.ones_like(y))
                runs.append((x, y))
            (x0, y0), (x1, y1) = runs
            if isinstance(y0, str) or isinstance(y1, str):
                assert y0 == y1, (dtype, dim)
                continue
            assert y0._array.tobytes() == y1._array.tobytes()
            assert (y0.dtype, y0.shape, y0.requires_grad) == (y1.dtype, y1.shape,
                                                                 y1.requires_grad)
            assert type(y0.grad_fn).__name__ == type(y1.grad_fn).__name__
            if grad_enabled:
                assert y0.grad_fn._saved_dim == y1.grad_fn._saved_dim
                np.testing.assert_array_equal(x0.grad._array, x1.grad._array)
            else:
                assert y0.grad_fn is None and x0.grad is None


def test_each_op_packs_what_it_saves_with_the_packing_chosen_for_it() -> None:
    from minigrad.autograd import saved
    from minigrad.ops import arithmetic, linalg, reduction, unary

    # (the recording function's closure holds the packing chosen when the op was declared)
    def packing(op: Any) -> Any:
        cells = op._record.__closure__ or ()
        return next(c.cell_contents for c in cells if c.cell_contents in PACKINGS)

    PACKINGS = (saved.pack_fast, saved.pack_inputs, saved.pack_result, saved.pack_input)
    assert packing(arithmetic.Mul) is packing(linalg.Mm) is saved.pack_inputs
    assert packing(unary.Exp) is packing(unary.Sigmoid) is saved.pack_result
    assert packing(unary.Log) is saved.pack_input
    assert packing(reduction.Sum) is saved.pack_fast


CASES = {
    # name: (inputs and outputs of one run, whether the fast run must take no general step)
    "binary, leaves": (lambda: ((a := _leaf(3), b := _leaf(3)), (a * b, a + b, a @ b)), True),
    "binary, one input needs no grad": (
        lambda: ((a := _leaf(3), b := _leaf(3, requires_grad=False)), (a * b, b * a)), True),
    "binary, non-leaf inputs": (
        lambda: ((a := _leaf(3, 3), b := _leaf(3, 3)), ((e := a.exp()) * e, (a @ b).sigmoid())),
        True),
    "unary, leaf and non-leaf": (
        lambda: ((a := _leaf(4),), (a.sigmoid(), a.exp().log(), a.tanh().relu(), -a, a.sum())),
        True),
    # the methods that are recording functions themselves (record.unary_method): a kernel
    # per floating dtype, the op's public function for integers
    "unary methods, every float dtype": (
        lambda: (tuple(xs := _float_leaves()),
                 tuple(getattr(x.mul(4.0), name)() for x in xs for name in _UNARY_METHODS)),
        True),
    "unary methods, every float dtype, grad mode off": (
        lambda: ((),
                 tuple(minigrad.no_grad()(lambda: [
                     getattr(x.mul(4.0), name)() for x in _float_leaves()
                     for name in _UNARY_METHODS])())),
        True),
    "unary methods, integer and bool tensors": (
        lambda: ((),
                 tuple(getattr(minigrad.tensor(values), name)()
                       for values in ([1, -2, 3], [True, False])
                       for name in _UNARY_METHODS if name != "relu")),
        False),
    "no grad needed": (
        lambda: ((a := _leaf(3, requires_grad=False), b := _leaf(3, requires_grad=False)),
                 (a + b, a * b, a.sigmoid(), a.sum())), True),
    "grad mode off": (
        lambda: ((a := _leaf(3), b := _leaf(3)),
                 tuple(minigrad.no_grad()(lambda: (a * b, a.exp(), a.sum()))())), True),
    "a number among the inputs": (
        lambda: ((a := _leaf(3),), (arithmetic_op("Mul").apply(a, 2.0),)), True),
    # a tensor and a number: the options recorder (record.py's ``_options_recorder``)
    "a float tensor and a number: operators, methods, options": (
        lambda: ((a := _leaf(3), q := _leaf(3, 3),
                  h := _leaf(2, 3).half().detach().requires_grad_()),
                 (a * 2.0, 2 * a, a + 1, 1 + a, a - 0.5, a / 2, a.mul(0.5), a.add(1, alpha=2),
                  a.sub(3, alpha=0.5), a.div(4), (e := q.exp()) * 3, e - 1, e / 0.5,
                  minigrad.linalg.slogdet(q)[1] * 2.0, h * 2.5, h + 1, 3 * h.double(),
                  a * 0, a / 0, h * 1e6)), True),
    "a float tensor and a number, laid out or promoted": (
        lambda: ((q := _leaf(3, 4), i := minigrad.tensor([1, 2, 3])),
                 ((t := q.t().exp()) * 2.0, t - 1, t / 3, t.add(2, alpha=3), q.t() * 2.0,
                  i * 2.5, i + 1, 2 * i, i / 2, q[0] * True, q[1] * np.float64(2.0))),
        False),
    "a tensor and a number with grad mode off": (
        lambda: ((a := _leaf(3),),
                 tuple(minigrad.no_grad()(lambda: (a * 2.0, a - 1, a / 2, a.add(1, alpha=2)))())),
        True),
    "broadcasting": (
        lambda: ((a := _leaf(3, 1), b := _leaf(1, 4), c := _leaf(4, requires_grad=False)),
                 (a + b, a * b, b * a, a * c, c + a)), True),
    "matrix products of other shapes": (
        lambda: ((a := _leaf(2, 3), b := _leaf(3, 4), c := _leaf(3, 4, requires_grad=False),
                  d := _leaf(4, requires_grad=False)),
                 (a @ b, a @ c, (a @ b).sigmoid() * d)), True),
    "views as inputs": (
        lambda: ((a := _leaf(4, 4), b := _leaf(4)), (a[0] * b, a.t() @ a, a[1].sigmoid())),
        False),
    "a second output as input": (
        lambda: ((a := _leaf(3, 3), b := _leaf(3, 3)),
                 ((s := minigrad.linalg.slogdet(a @ b))[1].exp(), s[1] * s[1])), True),
    "several outputs and another dtype": (
        lambda: ((a := _leaf(3, 3), b := _leaf(3, 3)),
                 (*minigrad.linalg.slogdet(a), (a < b).float())), True),
    "a subclass of Tensor": (
        lambda: ((w := minigrad.nn.Parameter(minigrad.randn(3)), b := _leaf(3)),
                 (w * b, w.sigmoid(), b + w)), True),
    "operators on integer tensors": (
        lambda: ((i := minigrad.tensor([3, -4]), j := minigrad.tensor([2, 2])),
                 (i + j, i * j, i - j, i / j, i + 1.5, -i)), False),
    "operators on a float tensor and a number or another dtype": (
        lambda: ((a := _leaf(3), i := minigrad.tensor([1, 2, 3])),
                 (a + 1, 2 * a, a - 0.5, a / 2, a * i, i + a, a + a.double())), False),
    "a broadcasting error": (
        lambda: ((a := _leaf(2), b := _leaf(3)), (a + b,)), True),
    # the saving specialised per op (saved.pack_inputs, pack_result) and its fallbacks
    "inputs written before: saved at versions above 0": (
        lambda: ((a := _leaf(3), b := _leaf(3)),
                 (_written(a) * _written(b), (e := _written(b.exp() * 1)) * a, e.exp(),
                  _written(a.exp() * 1).sigmoid())), False),  # (the writes are general)
    "one-input ops saving their input, with and without a counter": (
        lambda: ((a := _leaf(3),),
                 (a.abs().log(), (s := a.sigmoid()).log(), _written(a.exp() * 1).log(),
                  s.sin(), a.sin())), False),  # (the writes are general)
    "bilinear ops (saves_for_the_other) with each input needing a gradient or not": (
        lambda: ((a := _leaf(3), b := _leaf(3), c := _leaf(3, requires_grad=False),
                  m := _leaf(3, 3), k := _leaf(2, 3, 3), n := _leaf(2, 3, 3, requires_grad=False)),
                 (a.dot(b), a.dot(c), c.dot(a), m.mv(a), m.mv(c), k.bmm(n), n.bmm(k), a * a,
                  (e := a.exp()) * c, c * e, m @ m)), True),
    "two-input ops that save something else than their inputs in place": (
        lambda: ((a := _leaf(3), b := _leaf(3)),
                 (a / b, a.atan2(b), a.pow(b.abs()), b / a)), False),  # (pow: general)
}


def _written(tensor: Any) -> Any:
    """``tensor`` after two in-place writes outside the graph: its counter is at 2."""
    with minigrad.no_grad():
        tensor.add_(1.0).mul_(0.5)
    return tensor


def arithmetic_op(name: str) -> Any:
    from minigrad.ops import arithmetic

    return getattr(arithmetic, name)


def test_an_operand_that_is_not_a_number_gets_not_implemented() -> None:
    a = _leaf(2)
    for method in ("__add__", "__radd__", "__mul__", "__rmul__", "__sub__", "__truediv__"):
        assert getattr(minigrad.Tensor, method)(a, "x") is NotImplemented
    with pytest.raises(TypeError, match="unsupported operand"):
        a + [1.0]  # noqa: RUF005 (the operator itself is tested)


@pytest.mark.parametrize("name", list(CASES))
def test_recording_functions_agree_with_the_general_path(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    make, all_fast = CASES[name]
    calls = _same(make, monkeypatch)
    if all_fast:
        assert calls == 0, f"{name}: {calls} calls went the general way"


def test_anomaly_mode_records_the_forward_stack_either_way(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    def make() -> Any:
        a, b = _leaf(3), _leaf(3)
        with warnings.catch_warnings(), minigrad.autograd.detect_anomaly():
            warnings.simplefilter("ignore")  # (anomaly mode announces itself)
            outputs = (a * b, a.sigmoid(), a + b)
        assert all(o.grad_fn._forward_stack for o in outputs)
        return (a, b), outputs

    _same(make, monkeypatch)


def test_inference_mode_counters_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    def make() -> Any:
        a, b = _leaf(3), _leaf(3)
        with minigrad.inference_mode():
            inside = (a * b, a.exp(), a.sum())
        assert all(o.is_inference() for o in inside)
        normal = a * b  # made outside: a normal tensor, that can be saved
        return (a, b), (*inside, normal, normal * a)

    _same(make, monkeypatch)


def test_saving_an_inference_tensor_raises_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    def make() -> Any:
        with minigrad.inference_mode():
            c = minigrad.ones(3)
        a = _leaf(3)
        return (a,), (a * c,)

    general, _ = _observe(make, monkeypatch, fast=False)
    fast, _ = _observe(make, monkeypatch, fast=True)
    assert fast == general and general[0] == "error"


def test_saved_tensor_hooks_see_the_same_values_either_way(
    monkeypatch: pytest.MonkeyPatch
) -> None:
    def run(fast: bool) -> Any:
        packed: list[Any] = []

        def pack(tensor: Any) -> Any:
            packed.append(_array(tensor.detach().numpy()))
            return tensor

        def make() -> Any:
            a, b = _leaf(3), _leaf(3)
            with minigrad.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
                outputs = (a * b, a.sigmoid(), a.exp())
            return (a, b), outputs

        seen, calls = _observe(make, monkeypatch, fast)
        return seen, packed, calls

    general = run(False)
    fast = run(True)
    # (the saved values themselves are the hooks' objects: compared by what was packed)
    assert fast[1] == general[1] and len(fast[1]) == 4
    assert _without_saved(fast[0]) == _without_saved(general[0])
    assert fast[2] == 0


def _without_saved(seen: list[Any]) -> list[Any]:
    """What ``_observe`` saw, with each node's saved values left out."""
    outputs = [entry for entry in seen if len(entry) == 5 and entry[-1] is not None]
    return [(*entry[:-1], (*entry[-1][:4], entry[-1][5])) if entry in outputs else entry
            for entry in seen]


# --- F.linear's two nodes recorded in one pass (ops/linear.py's ``_affine``)


def _linear_graph(kind: str, bias_grad: bool, x_shape: tuple[int, ...],
                  w_shape: tuple[int, ...], inference_input: bool = False) -> tuple[Any, Any]:
    """``F.linear``'s Addmm and T nodes as data (and what they saved), then the gradients."""
    import minigrad.nn.functional as F

    with minigrad.inference_mode(inference_input):
        x = minigrad.randn(*x_shape, requires_grad=kind == "leaf")
    w, b = _leaf(*w_shape), _leaf(w_shape[0], requires_grad=bias_grad)
    source = x * 2 if kind == "result" else x
    try:
        y = F.linear(source, w, b)
    except RuntimeError as error:  # (saving an inference tensor: the same error either way)
        return [str(error)]
    addmm = y.grad_fn
    t_node = addmm._next_nodes[2]
    view = addmm._saved_mat2
    seen = [_node(addmm, [b, source, view]), _node(t_node, [w]),
            addmm._sequence_nr - t_node._sequence_nr, _array(y.detach().numpy()),
            addmm.beta, addmm.alpha, addmm.mat2_transposed, addmm.layouts, t_node.dims]
    if view is not None:
        info = view._view
        seen += [view._base is w, view._version_counter() is w._version_counter(),
                 (info.steps, info.synced_version, info.created_in_no_grad,
                  info.multi_output_name, info.created_in_inference)]
    y.sum().backward()
    seen += [None if t.grad is None else _array(t.grad.numpy()) for t in (x, w, b)]
    return seen


def _on_both_paths(monkeypatch: pytest.MonkeyPatch, build: Any) -> list[tuple[Any, int]]:
    """``build()`` with recording's fast branches off, then on: each result, with how many
    calls took the general path (``recording._general``)."""
    sides = []
    for fast in (False, True):
        general_calls = [0]
        original = recording._general

        def counting(function: Any, args: Any, target: Any, calls: list[int] = general_calls,
                     original: Any = original) -> Any:
            calls[0] += 1
            return original(function, args, target)

        with monkeypatch.context() as patch:
            patch.setattr(recording, "FAST_BRANCH", fast)
            patch.setattr(recording, "_general", counting)
            minigrad.manual_seed(0)
            sides.append((build(), general_calls[0]))
    return sides


@pytest.mark.parametrize(("x_shape", "w_shape"), [((2, 4), (3, 4)), ((4, 4), (4, 4)),
                                                  ((3, 4), (3, 4)), ((4, 3), (3, 3))])
@pytest.mark.parametrize("kind", ["plain", "leaf", "result", "inference"])
@pytest.mark.parametrize("bias_grad", [True, False])
def test_linear_in_one_pass_records_the_general_path_s_graph(
    x_shape: tuple[int, ...], w_shape: tuple[int, ...], kind: str, bias_grad: bool,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (general, _), (fast, general_calls) = _on_both_paths(
        monkeypatch,
        lambda: _linear_graph(kind, bias_grad, x_shape, w_shape, kind == "inference"))
    # the one pass takes every call but the inference input's (whose saving raises the
    # general path's error); ``x * 2`` too (a tensor and a number: their recording function)
    if kind != "inference":
        assert general_calls == 0
    assert general == fast
    assert (len(general) == 1) == (kind == "inference")


# --- cross_entropy's two nodes recorded in one pass (ops/cross_entropy.py's
# ``_log_softmax_nll``)


def _cross_entropy_graph(kind: str, target: Any, reduction: str, ignore_index: int) -> Any:
    """cross_entropy's NllLoss and LogSoftmax nodes as data (and their saved values), the
    loss, then the gradient; or the error."""
    import minigrad.nn.functional as F

    x = _leaf(len(target), 4, requires_grad=kind != "plain")
    source = x * 2 if kind == "result" else x
    with minigrad.inference_mode(kind == "inference target"):
        labels = minigrad.tensor(target)
    try:
        loss = F.cross_entropy(source, labels, reduction=reduction, ignore_index=ignore_index)
    except (RuntimeError, IndexError) as error:
        return [type(error).__name__, str(error)]
    if loss.grad_fn is None:
        return [_array(loss.detach().numpy())]
    nll = loss.grad_fn
    log_softmax = nll._next_nodes[0]
    logp = nll._saved_self
    seen = [_node(nll, [logp, labels]), _node(log_softmax, [source]),
            nll._sequence_nr - log_softmax._sequence_nr, _array(loss.detach().numpy()),
            nll.reduction, nll.ignore_index, nll.axis, log_softmax.dim, log_softmax.axis,
            logp._version, logp.grad_fn is log_softmax]
    loss.sum().backward()
    return [*seen, _array(x.grad.numpy())]


@pytest.mark.parametrize(("target", "ignore_index"), [
    (np.array([0, 3, 1]), -100), (np.array([0, 3, 1]), 1), (np.array([0, 3, 0]), 1),
    (np.array([0, 3, 1], dtype=np.uint8), -100), (np.array([0, 4, 1]), -100),
    (np.array([0, -1, 1]), -100), (np.array([1, 1]), 1), (np.zeros(0, dtype=np.int64), -100),
    (np.array([0.0, 1.0, 2.0]), -100),
])
@pytest.mark.parametrize("kind", ["plain", "leaf", "result", "inference target"])
@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_cross_entropy_in_one_pass_records_the_general_path_s_graph(
    target: Any, ignore_index: int, kind: str, reduction: str, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (general, _), (fast, general_calls) = _on_both_paths(
        monkeypatch, lambda: _cross_entropy_graph(kind, target, reduction, ignore_index))
    if kind in ("leaf", "result") and target.dtype.kind in "iu":
        # the one pass takes the call, and ``x * 2`` its recording function for a number
        assert general_calls == 0
    assert general == fast


# --- cross_entropy's and F.linear's one pass with nothing to record


def _untracked_results(mode: str, x_shape: tuple[int, ...], target: Any) -> list[Any]:
    """``F.linear`` and ``F.cross_entropy`` where nothing records (``mode``: grad mode off with
    leaves requiring grad, or grad mode on with none requiring grad): each result's values,
    history, layout and version, or the error."""
    import minigrad.nn.functional as F

    needs = mode == "no_grad"
    x = _leaf(*x_shape, requires_grad=needs)
    w, b = _leaf(3, x_shape[1], requires_grad=needs), _leaf(3, requires_grad=needs)
    seen = []
    with minigrad.set_grad_enabled(mode != "no_grad"):
        for make in (lambda: F.linear(x, w, b),
                     lambda: F.cross_entropy(x, minigrad.tensor(target)),
                     lambda: F.cross_entropy(x, minigrad.tensor(target), reduction="none")):
            try:
                out = make()
            except (RuntimeError, IndexError) as error:
                seen.append([type(error).__name__, str(error)])
                continue
            seen.append([_array(out.numpy()), out.grad_fn, out.requires_grad, out.stride(),
                         out._version, out._base])
    return seen


@pytest.mark.parametrize("mode", ["no_grad", "nothing requires grad"])
@pytest.mark.parametrize(("x_shape", "target"), [
    ((4, 5), np.array([0, 4, 1, 2])), ((4, 5), np.array([0, 5, 1, 2])),
    ((2, 3), np.array([1, 2], dtype=np.uint8)), ((0, 3), np.zeros(0, dtype=np.int64)),
])
def test_nothing_recorded_in_one_pass_gives_the_general_path_s_results(
    mode: str, x_shape: tuple[int, ...], target: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    (general, _), (fast, general_calls) = _on_both_paths(
        monkeypatch, lambda: _untracked_results(mode, x_shape, target))
    assert general == fast
    assert general_calls == 0  # (the general path would call ``_general`` for each)


DTYPES = ("float16", "float32", "float64", "int64", "int32", "int16", "int8", "uint8", "bool")


def _declaring_keeps_dtype() -> list[Any]:
    from minigrad.autograd.function import Op

    found, stack = [], list(Op.__subclasses__())
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.keeps_dtype:
            found.append(cls)
    return found


def test_an_op_that_keeps_the_dtype_keeps_it_for_every_dtype_and_shape() -> None:
    # ``keeps_dtype`` lets the binary recorder give the result its inputs' dtype unread: the
    # declaration must hold for every dtype a tensor may have, and the kept dtype be the
    # array's own object, 0-d and broadcast results included.
    ops = _declaring_keeps_dtype()
    assert {op.__name__ for op in ops} >= {"Add", "Mul"}
    for op in ops:

        def kernel(x: Any, y: Any, op: Any = op) -> Any:
            return op.forward(recording.NO_GRAD_CTX, x, y)

        for name in DTYPES:
            for shapes in [((3,), (3,)), ((2, 3), (3,)), ((), ())]:
                x, y = (np.ones(shape, dtype=name) for shape in shapes)
                with warnings.catch_warnings():  # (an int overflow's warning is not the point)
                    warnings.simplefilter("ignore")
                    assert np.asarray(kernel(x, y)).dtype == x.dtype, (op.__name__, name)
            if name.startswith("float"):  # (recorded: it needs a tensor that requires grad)
                dtype = getattr(minigrad, name)
                for shapes in [((3,), (3,)), ((2, 3), (3,)), ((), ())]:
                    a, b = (
                        minigrad.ones(shape, dtype=dtype, requires_grad=True) for shape in shapes
                    )
                    result = op._record(a, b)
                    assert result._dtype is None or result._dtype is result._array.dtype
                    assert result.dtype == dtype


def test_a_unary_method_runs_the_kernel_its_op_declares_for_the_input_s_dtype(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``a.sigmoid()`` runs expit itself on float32 and float64, sigmoid_array on float16.

    float16 has no loop of its own in expit (numpy would pick the float64 one): a table that
    gave float16 the ufunc would make a float64 result. The values are PyTorch's either way
    (tests_torch), and the same as the op's general path (the cases above).
    """
    from minigrad.ops import unary

    calls = []
    original = recording._run_quietly

    def watching(function: Any, *args: Any) -> Any:
        calls.append(function)
        return original(function, *args)

    unary.sigmoid_array(np.zeros(1, np.float32))  # (SciPy's expit loaded in the stub's place)
    expit = unary._expit
    monkeypatch.setattr(recording, "_run_quietly", watching)
    for dtype in (minigrad.float16, minigrad.float32, minigrad.float64):
        x = minigrad.tensor([-100.0, 0.0, 2.0], dtype=dtype, requires_grad=True)
        for grad in (True, False):
            calls.clear()
            with minigrad.set_grad_enabled(grad):
                y = x.sigmoid()
            assert y.dtype == dtype
            assert calls == [unary.sigmoid_array if dtype == minigrad.float16 else expit]
    assert minigrad.tensor([1, 2]).sigmoid().dtype == minigrad.float32  # (unary.sigmoid casts)
