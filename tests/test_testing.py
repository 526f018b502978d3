"""``minigrad.testing``: PyTorch's ``assert_close`` messages and ``make_tensor`` rules, as literals.

Every expected text here is PyTorch 2.13's (recorded from ``torch.testing``; with
MINIGRAD_TEST_REFERENCE=torch these tests run against PyTorch itself). The full side-by-side
sweep is tests_torch/test_testing_torch.py.
"""
import collections
import math
import re
import warnings

import numpy as np
import pytest
from _backend import LIB, mg, text


def failure(actual, expected, **kwargs):
    """The exception ``assert_close`` raises (its type and text)."""
    try:
        mg.testing.assert_close(actual, expected, **kwargs)
    except Exception as error:
        return type(error), str(error)
    raise AssertionError("assert_close passed")


def test_close_tensors_pass():
    expected = mg.tensor([1e0, 1e-1, 1e-2])
    mg.testing.assert_close(mg.acos(mg.cos(expected)), expected)
    mg.testing.assert_close(mg.tensor([1.0, 2.0]) + 1e-6, mg.tensor([1.0, 2.0]))
    mg.testing.assert_close(mg.zeros(0), mg.zeros(0))
    mg.testing.assert_close(mg.tensor(float("nan")), mg.tensor(float("nan")), equal_nan=True)
    mg.testing.assert_close(mg.tensor([-0.0]), mg.tensor([0.0]), rtol=0, atol=0)
    mg.testing.assert_close(mg.tensor([math.inf]), mg.tensor([math.inf]))


def test_float32_tensors_not_close():
    assert failure(mg.tensor([1.0, 2.0, 3.0]), mg.tensor([1.0, 2.5, 3.0])) == (
        AssertionError,
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 0.5 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.20000000298023224 at index (1,) (up to 1.3e-06 allowed)",
    )
    assert failure(mg.tensor([1.0, 2.5, 3.0]), mg.tensor([1.0, 2.0, 3.0]))[1].endswith(
        "Greatest relative difference: 0.25 at index (1,) (up to 1.3e-06 allowed)"
    )


def test_float32_differences_print_as_float32_items():
    """The numbers are the float32 results' exact values (0.1 is 0.10000000149011612)."""
    _, message = failure(mg.tensor([[0.0, 0.1], [0.3, 0.0]]), mg.tensor([[0.0, 0.2], [0.0, 0.0]]))
    assert message == (
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 2 / 4 (50.0%)\n"
        "Greatest absolute difference: 0.30000001192092896 at index (1, 0) (up to 1e-05 allowed)\n"
        "Greatest relative difference: inf at index (1, 0) (up to 1.3e-06 allowed)"
    )


def test_float16_and_float64_tolerances():
    _, message = failure(mg.tensor([1.0, 2.0], dtype=mg.float16),
                         mg.tensor([1.0, 2.1], dtype=mg.float16))
    assert message == (
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 0.099609375 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.047454833984375 at index (1,) (up to 0.001 allowed)"
    )
    _, message = failure(mg.tensor([1.0], dtype=mg.float64), mg.tensor([1.001], dtype=mg.float64))
    assert message.endswith("(up to 1e-07 allowed)\n"
                            "Greatest relative difference: 0.000999000999000889 at index (0,) "
                            "(up to 1e-07 allowed)")


def test_nan_and_inf_in_the_report():
    _, message = failure(mg.tensor([1.0, math.nan]), mg.tensor([1.0, 2.0]))
    assert message == (
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: nan at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: nan at index (1,) (up to 1.3e-06 allowed)"
    )
    _, message = failure(mg.tensor([math.inf]), mg.tensor([-math.inf]))
    assert message.splitlines()[-2:] == [
        "Greatest absolute difference: inf at index (0,) (up to 1e-05 allowed)",
        "Greatest relative difference: nan at index (0,) (up to 1.3e-06 allowed)",
    ]


def test_integer_and_bool_tensors_must_be_equal():
    assert failure(mg.tensor([1, 2, 3]), mg.tensor([1, 4, 3])) == (
        AssertionError,
        "Tensor-likes are not equal!\n\n"
        "Mismatched elements: 1 / 3 (33.3%)\n"
        "Greatest absolute difference: 2 at index (1,)\n"
        "Greatest relative difference: 0.5 at index (1,)",
    )
    assert failure(mg.tensor([True, False]), mg.tensor([True, True]))[1] == (
        "Tensor-likes are not equal!\n\n"
        "Mismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 1 at index (1,)\n"
        "Greatest relative difference: 1.0 at index (1,)"
    )
    # (differences in int64: no uint8 wrap-around; relative ones in float32)
    assert failure(mg.tensor([0, 1], dtype=mg.uint8), mg.tensor([255, 3], dtype=mg.uint8))[1] == (
        "Tensor-likes are not equal!\n\n"
        "Mismatched elements: 2 / 2 (100.0%)\n"
        "Greatest absolute difference: 255 at index (0,)\n"
        "Greatest relative difference: 1.0 at index (0,)"
    )
    assert failure(mg.tensor([1, 2]), mg.tensor([3, 2]))[1].endswith(
        "Greatest relative difference: 0.6666666865348816 at index (0,)"
    )


def test_integers_with_tolerances_are_close_or_not_close():
    mg.testing.assert_close(mg.tensor([1, 2], dtype=mg.uint8), mg.tensor([2, 2], dtype=mg.uint8),
                            rtol=0, atol=1)
    assert failure(mg.tensor([1, 2]), mg.tensor([0, 2]), rtol=0.5, atol=0)[1] == (
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 2 (50.0%)\n"
        "Greatest absolute difference: 1 at index (0,) (up to 0 allowed)\n"
        "Greatest relative difference: inf at index (0,) (up to 0.5 allowed)"
    )


def test_scalars_and_0d_tensors():
    assert failure(mg.tensor(1.0), mg.tensor(2.0)) == (
        AssertionError,
        "Scalars are not close!\n\n"
        "Expected 2.0 but got 1.0.\n"
        "Absolute difference: 1.0 (up to 1e-05 allowed)\n"
        "Relative difference: 0.5 (up to 1.3e-06 allowed)",
    )
    assert failure(mg.tensor(True), mg.tensor(False))[1] == (
        "Scalars are not equal!\n\n"
        "Expected False but got True.\n"
        "Absolute difference: 1\n"
        "Relative difference: inf"
    )
    assert failure(mg.tensor(float("nan")), mg.tensor(float("nan")))[1] == (
        "Scalars are not close!\n\n"
        "Expected nan but got nan.\n"
        "Absolute difference: nan (up to 1e-05 allowed)\n"
        "Relative difference: nan (up to 1.3e-06 allowed)"
    )
    assert failure(1e-9, 1e-10, rtol=0, atol=0)[1] == (
        "Scalars are not equal!\n\n"
        "Expected 1e-10 but got 1e-09.\n"
        "Absolute difference: 9.000000000000001e-10\n"
        "Relative difference: 9.0"
    )
    assert failure(1.5, 2, check_dtype=False)[1] == (
        "Scalars are not close!\n\n"
        "Expected 2 but got 1.5.\n"
        "Absolute difference: 0.5 (up to 1e-07 allowed)\n"
        "Relative difference: 0.25 (up to 1e-07 allowed)"
    )


def test_python_numbers_bools_and_none():
    mg.testing.assert_close(2.0 / math.sqrt(2.0), math.sqrt(2.0))
    mg.testing.assert_close(1.0, 1, check_dtype=False)
    mg.testing.assert_close(np.float32(0.5), 0.5)
    mg.testing.assert_close(True, np.bool_(True))
    mg.testing.assert_close(None, None)
    assert failure(1, 1.0) == (
        AssertionError, "The (d)types do not match: <class 'int'> != <class 'float'>."
    )
    assert failure(True, False) == (AssertionError, "Booleans mismatch: True is not False")
    assert failure(None, 1) == (AssertionError, "None mismatch: None is not 1")
    kind, message = failure(True, 1)  # (PyTorch's NumberPair has no dtype for bool)
    assert kind is RuntimeError
    assert message.startswith("Originating a NumberPair() at item  with\n\nbool(): True\n\nand"
                              "\n\nint(): 1\n\nresulted in the unexpected exception above.")


def test_unrelated_inputs_are_a_type_error():
    assert failure(mg.tensor([1.0]).numpy(), mg.tensor([1.0])) == (
        TypeError,
        text("No comparison pair was able to handle inputs of type <class 'numpy.ndarray'> "
             "and <class 'minigrad.Tensor'>."),
    )
    assert failure(mg.tensor(1.0), 1.0)[0] is TypeError
    assert failure("a", "a") == (
        TypeError,
        "No comparison pair was able to handle inputs of type <class 'str'> and <class 'str'>.",
    )
    parameter = mg.nn.Parameter(mg.ones(2))
    mg.testing.assert_close(parameter, mg.ones(2))
    assert failure(parameter, mg.ones(2), allow_subclasses=False) == (
        TypeError,
        text("No comparison pair was able to handle inputs of type "
             "<class 'minigrad.nn.parameter.Parameter'> and <class 'minigrad.Tensor'>."),
    )


def test_attribute_checks():
    assert failure(mg.zeros(2), mg.zeros(3)) == (
        AssertionError,
        text("The values for attribute 'shape' do not match: "
             "minigrad.Size([2]) != minigrad.Size([3])."),
    )
    assert failure(mg.zeros(2), mg.zeros(2, dtype=mg.float64))[1] == text(
        "The values for attribute 'dtype' do not match: minigrad.float32 != minigrad.float64."
    )
    mg.testing.assert_close(mg.zeros(2, 3), mg.zeros(3, 2).t())
    assert failure(mg.zeros(2, 3), mg.zeros(3, 2).t(), check_stride=True)[1] == (
        "The values for attribute 'stride()' do not match: (3, 1) != (1, 2)."
    )
    mg.testing.assert_close(mg.tensor([1, 2]), mg.tensor([1.0, 2.0]), check_dtype=False)


def test_tolerances_come_in_pairs():
    assert failure(mg.ones(1), mg.ones(1), rtol=1e-3) == (
        ValueError, "Both 'rtol' and 'atol' must be either specified or omitted, but got no atol."
    )
    assert failure([mg.ones(1)], [mg.ones(1)], atol=1e-3) == (
        ValueError,
        "Both 'rtol' and 'atol' must be either specified or omitted, but got no rtol.\n\n"
        "The failure occurred for item [0]",
    )


def test_sequences_and_mappings():
    expected = [mg.tensor([1.0]), 2.0, np.array(3.0)]
    mg.testing.assert_close(tuple(expected), expected)
    foo, bar, baz = mg.tensor(1.0), 2.0, np.array(3.0)
    mg.testing.assert_close({"baz": baz, "bar": bar, "foo": foo},
                            collections.OrderedDict([("foo", foo), ("bar", bar), ("baz", baz)]))
    assert failure([1, 2], [1, 2, 3]) == (
        AssertionError, "The length of the sequences mismatch: 2 != 3"
    )
    assert failure({"a": 1}, {"b": 1}) == (
        AssertionError,
        "The keys of the mappings do not match:\n"
        "Missing keys in the actual mapping: ['b']\n"
        "Additional keys in the actual mapping: ['a']",
    )
    assert failure([{"a": mg.tensor([1.0])}], [{"a": mg.tensor([2.0])}])[1] == (
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 1 / 1 (100.0%)\n"
        "Greatest absolute difference: 1.0 at index (0,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 0.5 at index (0,) (up to 1.3e-06 allowed)\n\n"
        "The failure occurred for item [0]['a']"
    )


def test_msg_replaces_or_rewrites_the_message():
    actual, expected = mg.tensor([1.0, 4.0, 5.0]), mg.tensor([1.0, 2.0, 3.0])
    assert failure(actual, expected, msg="Argh, the tensors are not close!") == (
        AssertionError, "Argh, the tensors are not close!"
    )
    assert failure(actual, expected, msg=lambda msg: f"Header\n\n{msg}\n\nFooter")[1] == (
        "Header\n\n"
        "Tensor-likes are not close!\n\n"
        "Mismatched elements: 2 / 3 (66.7%)\n"
        "Greatest absolute difference: 2.0 at index (1,) (up to 1e-05 allowed)\n"
        "Greatest relative difference: 1.0 at index (1,) (up to 1.3e-06 allowed)\n\n"
        "Footer"
    )
    assert failure([1, 2], [1, 3], msg=lambda m: f"X{m}Y")[1] == (
        "XScalars are not equal!\n\nExpected 3 but got 2.\nAbsolute difference: 1\n"
        "Relative difference: 0.3333333333333333\n\nThe failure occurred for item [1]Y"
    )
    # (an error in the inputs' structure keeps its own message)
    assert failure([1, 2], [1], msg="boom")[1] == "The length of the sequences mismatch: 2 != 1"


def test_a_comparison_leaves_grads_and_versions_alone():
    x = mg.ones(3, requires_grad=True)
    y = x * 2
    with pytest.raises(AssertionError):
        mg.testing.assert_close(y, mg.zeros(3))
    mg.testing.assert_close(y, mg.full((3,), 2.0))
    assert (x._version, y._version, x.grad) == (0, 0, None)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_assert_allclose_is_deprecated_and_looser():
    with pytest.warns(FutureWarning, match=re.escape(
        text("`minigrad.testing.assert_allclose()` is deprecated since 1.12")
    )):
        mg.testing.assert_allclose(mg.ones(2), mg.ones(2) + 5e-5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        mg.testing.assert_allclose([math.nan, 1.0], mg.tensor([math.nan, 1.0]))
        with pytest.raises(AssertionError, match="Tensor-likes are not close!"):
            mg.testing.assert_allclose(mg.ones(2), mg.zeros(2))


DTYPE_RANGES = {  # PyTorch's default [low, high) per dtype
    "bool": (0, 2), "uint8": (0, 10), "int8": (-9, 10), "int16": (-9, 10), "int32": (-9, 10),
    "int64": (-9, 10), "float16": (-9, 9), "float32": (-9, 9), "float64": (-9, 9),
}


@pytest.mark.parametrize("name", list(DTYPE_RANGES))
def test_make_tensor_default_ranges(name):
    dtype = getattr(mg, name)
    t = mg.testing.make_tensor(200, dtype=dtype, device="cpu")
    low, high = DTYPE_RANGES[name]
    assert (t.dtype, tuple(t.shape), t.is_contiguous(), t.requires_grad) == (dtype, (200,), True,
                                                                            False)
    values = t.to(mg.float64)
    assert bool(((values >= low) & (values < high)).all())
    assert len(set(t.tolist())) > 1


def test_make_tensor_shapes_layouts_and_grads():
    make = mg.testing.make_tensor
    assert make((2, 3), dtype=mg.float32, device="cpu").shape == (2, 3)
    assert make([2, 3], dtype=mg.float32, device="cpu").shape == (2, 3)
    assert make(dtype=mg.float32, device="cpu").shape == ()
    t = make(3, 4, dtype=mg.float32, device="cpu", noncontiguous=True, requires_grad=True)
    assert (tuple(t.shape), t.stride(), t.is_contiguous(), t.is_leaf, t.requires_grad) == (
        (3, 4), (8, 2), False, True, True)
    assert make(1, 1, dtype=mg.int64, device="cpu", noncontiguous=True).is_contiguous()
    t = make(2, 3, 4, 5, dtype=mg.float32, device="cpu", memory_format=mg.channels_last)
    assert t.stride() == (60, 1, 15, 3)
    t = make(500, dtype=mg.float32, device="cpu", low=-1e-30, high=1e-30, exclude_zero=True)
    assert bool((t != 0).all())
    t = make(500, dtype=mg.int8, device="cpu", low=0, high=2, exclude_zero=True)
    assert set(t.tolist()) == {1}
    t = make(100, dtype=mg.int8, device="cpu", low=-1000, high=1000)
    assert (min(t.tolist()) >= -128, max(t.tolist()) <= 127) == (True, True)


def test_make_tensor_errors():
    def error(**kwargs):
        with pytest.raises(Exception) as info:
            mg.testing.make_tensor(3, device="cpu", **kwargs)
        return info.type, str(info.value)

    assert error(dtype=mg.float32, low=2, high=1) == (
        ValueError, "`low` must be less than `high`, but got 2 >= 1"
    )
    assert error(dtype=mg.int64, low=3, high=3) == (
        ValueError, "`low` must be less than `high`, but got 3 >= 3"
    )
    assert error(dtype=mg.int8, low=300, high=400) == (
        ValueError,
        text("The value interval specified by `low` and `high` is [300, 400), "
             "but minigrad.int8 only supports [-128, 128)"),
    )
    assert error(dtype=mg.float32, low=math.nan) == (
        ValueError, "`low` and `high` cannot be NaN, but got low=nan and high=9"
    )
    assert error(dtype=mg.int32, requires_grad=True) == (
        ValueError,
        text("`requires_grad=True` is not supported for boolean and integral dtypes, "
             "but got dtype=minigrad.int32"),
    )
    assert error(dtype=mg.float32, noncontiguous=True, memory_format=mg.channels_last) == (
        ValueError,
        text("The parameters `noncontiguous` and `memory_format` are mutually exclusive, but got "
             "noncontiguous=True and memory_format=minigrad.channels_last"),
    )
    with pytest.warns(FutureWarning, match="Passing `low==high`"):
        t = mg.testing.make_tensor(3, dtype=mg.float32, device="cpu", low=2, high=2)
    assert t.tolist() == [2.0, 2.0, 2.0]


def test_the_module_is_importable_as_pytorch_s():
    import importlib

    testing = importlib.import_module(f"{LIB}.testing")
    assert testing is mg.testing
    from_import = importlib.import_module(f"{LIB}.testing").assert_close
    assert from_import is mg.testing.assert_close
