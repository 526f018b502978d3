"""Issue 10's defects, each as a program that misuses the library, with PyTorch 2.13's outcome.

The programs are in ``misuse_scenarios.py``; ``EXPECTED`` is what each returned when run with
PyTorch 2.13 (``MINIGRAD_TEST_REFERENCE=torch`` runs them against PyTorch again, and
tests_torch/test_misuse_torch.py compares the two libraries live).
"""

from _backend import mg
from _cases import parametrize_in_one
from misuse_scenarios import SCENARIOS

EXPECTED = \
{'own_grad': (('RuntimeError', "can't assign Variable as its own grad"),
              ['1.0', '1.0', '1.0'],
              None),
 'grad_of_another_dtype': [(('RuntimeError',
                             "attempting to assign a gradient with dtype 'long int' to a tensor "
                             "with grad_dtype 'Float'. The gradient must match the tensor's "
                             "grad_dtype (defaults to the tensor's dtype). You can set the "
                             "tensor's grad_dtype attribute with a specific dtype, or None to "
                             'allow any dtype. Set grad_dtype with caution. Diverging the dtypes '
                             'of a tensor and its gradient may break downstream systems that '
                             'assume they match.'),
                            None),
                           (('RuntimeError',
                             "attempting to assign a gradient with dtype 'double' to a tensor with "
                             "grad_dtype 'Float'. The gradient must match the tensor's grad_dtype "
                             "(defaults to the tensor's dtype). You can set the tensor's "
                             'grad_dtype attribute with a specific dtype, or None to allow any '
                             'dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor '
                             'and its gradient may break downstream systems that assume they '
                             'match.'),
                            None),
                           (('RuntimeError',
                             "attempting to assign a gradient with dtype 'c10::Half' to a tensor "
                             "with grad_dtype 'Float'. The gradient must match the tensor's "
                             "grad_dtype (defaults to the tensor's dtype). You can set the "
                             "tensor's grad_dtype attribute with a specific dtype, or None to "
                             'allow any dtype. Set grad_dtype with caution. Diverging the dtypes '
                             'of a tensor and its gradient may break downstream systems that '
                             'assume they match.'),
                            None),
                           (('RuntimeError',
                             "attempting to assign a gradient with dtype 'bool' to a tensor with "
                             "grad_dtype 'Float'. The gradient must match the tensor's grad_dtype "
                             "(defaults to the tensor's dtype). You can set the tensor's "
                             'grad_dtype attribute with a specific dtype, or None to allow any '
                             'dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor '
                             'and its gradient may break downstream systems that assume they '
                             'match.'),
                            None)],
 'expanded_grad': (('RuntimeError',
                    'unsupported operation: more than one element of the written-to tensor refers '
                    'to a single memory location. Please clone() the tensor before performing the '
                    'operation.'),
                   ['0.0', '0.0', '0.0'],
                   ['1.0', '1.0', '1.0']),
 'retain_grad_then_inplace': (['5.0'], ['30.0']),
 'retain_grad_then_inplace_through_a_view': ((['5.0', '5.0', '5.0', '5.0'],
                                              ['5.0', '15.0', '15.0', '5.0']),
                                             (['5.0', '5.0'], ['0.0', '15.0', '15.0', '0.0'])),
 'deepcopy_of_a_result': (('RuntimeError',
                           'Only Tensors created explicitly by the user (graph leaves) support the '
                           'deepcopy protocol at the moment.  If you were attempting to deepcopy a '
                           'module, this may be because of a minigrad.nn.utils.weight_norm usage, '
                           'see https://github.com/pytorch/pytorch/pull/103001'),
                          None),
 'deepcopy_of_a_leaf': (['2.0', '2.0'],
                        ['5.0', '5.0'],
                        1,
                        ['3.0', '3.0'],
                        ['8.0', '8.0'],
                        2,
                        True,
                        True),
 'hook_changes_the_dtype': (('RuntimeError',
                             "hook '<lambda>' has changed the type of value (was "
                             'minigrad.FloatTensor got minigrad.DoubleTensor)'),
                            None),
 'leaf_hook_changes_the_dtype': (('RuntimeError',
                                  "hook 'to_int' has changed the type of value (was "
                                  'minigrad.FloatTensor got minigrad.IntTensor)'),
                                 None),
 'cumsum_of_a_million_float32': ('100000.0', 'float32'),
 'tensor_of_huge_numbers': {'2**70': ('ValueError', 'Overflow when unpacking long long'),
                            '[-2**63-1]': ('ValueError', 'Overflow when unpacking long long'),
                            '[1, 2**63]': ('ValueError', 'Overflow when unpacking long long'),
                            '2**63': ('ValueError', 'Overflow when unpacking long long'),
                            '[1.0, 2**70]': (['1.0', '1.1805916207174113e+21'], 'float32'),
                            '[2**40] as int32': ('RuntimeError',
                                                 'value cannot be converted to type int32 without '
                                                 'overflow'),
                            '[-1] as uint8': [255],
                            '[nan] as int64': ('RuntimeError',
                                               'value cannot be converted to type int64 without '
                                               'overflow'),
                            '[1.0, 2**1030]': ('OverflowError',
                                               'int too large to convert to float')},
 'tensor_of_odd_elements': {"'abc'": ('TypeError', "new(): invalid data type 'str'"),
                            "['a']": ('ValueError', "too many dimensions 'str'"),
                            "[1, 'a']": ('TypeError', "new(): invalid data type 'str'"),
                            'None': ('RuntimeError', 'Could not infer dtype of NoneType'),
                            '[1, None]': ('RuntimeError', 'Could not infer dtype of NoneType'),
                            '[np.float64(1.0)]': 'float64',
                            '[np.int32(1)]': 'int32',
                            '[np.float64(1.0), 2]': 'float64',
                            '[np.int32(1), 2.5]': 'float32',
                            '[np.uint8(1), np.int8(2)]': 'int16',
                            '[np.float16(1), 2]': 'float16',
                            '[True, 2]': 'int64',
                            '[0-d float64 tensor, 2]': 'float64'},
 'pickle_a_used_leaf': (['1.0', '1.0'], True, True, None, 1, ['3.0', '3.0'], True, True),
 'logical_and_with_none': 'TypeError',
 'hook_returns_a_list': (('TypeError', "expected Variable, but hook returned 'list'"), None),
 'custom_backward_returns_a_str': (('RuntimeError', 'expected Variable or None (got str)'), None),
 'operators_with_non_tensors': {'t @ 2': ('TypeError',
                                           "unsupported operand type(s) for @: 'Tensor' and 'int'"),
                                '2 @ t': ('TypeError',
                                          "unsupported operand type(s) for @: 'int' and 'Tensor'"),
                                't @ 2.5': ('TypeError',
                                            "unsupported operand type(s) for @: 'Tensor' and "
                                            "'float'"),
                                '[1., 1.] @ t': ('TypeError',
                                                 "unsupported operand type(s) for @: 'list' and "
                                                 "'Tensor'"),
                                't @ list': ('TypeError',
                                             "unsupported operand type(s) for @: 'Tensor' and "
                                             "'list'"),
                                "t + 'a'": ('TypeError',
                                            "unsupported operand type(s) for +: 'Tensor' and "
                                            "'str'"),
                                't + None': ('TypeError',
                                             "unsupported operand type(s) for +: 'Tensor' and "
                                             "'NoneType'"),
                                'None - t': ('TypeError',
                                             "unsupported operand type(s) for -: 'NoneType' and "
                                             "'Tensor'"),
                                't * object': ('TypeError',
                                               "unsupported operand type(s) for *: 'Tensor' and "
                                               "'object'"),
                                't < None': ('TypeError',
                                             "'<' not supported between instances of 'Tensor' and "
                                             "'NoneType'"),
                                't == None': ('no error', 'False')},
 'functions_with_non_tensors': {"exp('a')": 'TypeError',
                                "add(t, 'a')": 'TypeError',
                                't.add(None)': 'TypeError',
                                't.mul_(None)': 'TypeError',
                                'matmul(t, None)': 'TypeError',
                                't.pow(None)': 'TypeError'},
 'masked_fill_with_a_mask_that_does_not_broadcast': (('RuntimeError',
                                                      'The size of tensor a (4) must match the '
                                                      'size of tensor b (3) at non-singleton '
                                                      'dimension 1'),
                                                     [['1.0', '1.0', '1.0'],
                                                      ['1.0', '1.0', '1.0']]),
 'small_integers_wrap': ([-23, 76], [-23, 76], [213], [-23]),
 'dims_of_the_wrong_type': {'sum(dim=0.0)': 'TypeError',
                            "sum(dim='a')": 'TypeError',
                            'sum(True)': 'TypeError',
                            'prod(None)': 'TypeError',
                            'prod(dim=None)': 'TypeError',
                            'flip(None)': 'TypeError',
                            'flip(0.0)': 'TypeError',
                            'cumsum(None)': 'TypeError',
                            'softmax(dim=None)': 'TypeError',
                            'unsqueeze(0.0)': 'TypeError',
                            'cumsum(True)': 'TypeError',
                            'sum(None)': '2.0',
                            'prod()': '1.0'},
 'no_grad_generator_close_and_throw': (False, False, [('caught', False), ('finally', False)], True),
 'autograd_with_non_tensors': (('AssertionError', 'Expected output to be a minigrad.Tensor'),
                               ('RuntimeError', 'got 2 tensors and 1 gradients'),
                               ('AssertionError', 'Expected output to be a minigrad.Tensor'),
                               ('RuntimeError',
                                'all inputs have to be Tensors or GradientEdges, but got str'),
                               ('RuntimeError',
                                'all inputs have to be Tensors or GradientEdges, but got str'),
                               None),
 'random_numbers_of_an_integer_dtype': (('NotImplementedError',
                                         '"check_uniform_bounds" not implemented for \'Long\''),
                                        ('NotImplementedError',
                                         '"normal_kernel_cpu" not implemented for \'Bool\''),
                                        ('NotImplementedError',
                                         '"check_uniform_bounds" not implemented for \'Int\''),
                                        'float64'),
 'backward_with_empty_inputs': (('RuntimeError',
                                 '`inputs` argument to `backward()` cannot be empty.'),
                                None),
 'number_conversions_of_many_elements': (('ValueError',
                                          'only one element tensors can be converted to Python '
                                          'scalars'),
                                         ('ValueError',
                                          'only one element tensors can be converted to Python '
                                          'scalars'),
                                         ('RuntimeError',
                                          'a Tensor with 2 elements cannot be converted to Scalar'),
                                         1.0,
                                         3),
 'special_values': {'sign': (['0.0', '0.0', '0.0', '-1.0', '1.0'],
                             ['0.0', '0.0', '0.0', '0.0', '0.0']),
                    'abs': (['nan', '0.0', '0.0', 'inf'], ['0.0', '0.0', '0.0', '-1.0']),
                    'relu': (['nan', '0.0', '-0.0', '1.0'], ['1.0', '0.0', '0.0', '1.0']),
                    'x**0.5': (['-0.0', '0.0', 'inf', 'nan'], ['-inf', 'inf', '0.0', 'nan']),
                    'x**-0.5': (['-inf', 'nan', 'inf', '0.0'], ['-inf', '-0.0', '-inf', '-0.0']),
                    'sqrt': (['-0.0', '0.0'], ['-inf', 'inf']),
                    'rsqrt': (['-inf', 'nan'], ['inf', 'nan'])},
 'prod_backward_at_special_values': {'[0.0, 2.0, 3.0]': (('0.0', ['6.0', '0.0', '0.0']),
                                                         (['0.0'], ['6.0', '0.0', '0.0'])),
                                     '[0.0, 0.0, 3.0]': (('0.0', ['0.0', '0.0', '0.0']),
                                                         (['0.0'], ['0.0', '0.0', '0.0'])),
                                     '[inf, 2.0, 3.0]': (('inf', ['nan', 'inf', 'inf']),
                                                         (['inf'], ['nan', 'inf', 'inf'])),
                                     '[nan, 2.0, 3.0]': (('nan', ['nan', 'nan', 'nan']),
                                                         (['nan'], ['nan', 'nan', 'nan'])),
                                     '[inf, 0.0, 3.0]': (('nan', ['0.0', 'inf', 'nan']),
                                                         (['nan'], ['0.0', 'inf', 'nan'])),
                                     '[nan, 0.0, 1.0]': (('nan', ['0.0', 'nan', 'nan']),
                                                         (['nan'], ['0.0', 'nan', 'nan'])),
                                     '[-0.0, 2.0, 3.0]': (('-0.0', ['6.0', '-0.0', '-0.0']),
                                                          (['-0.0'], ['6.0', '-0.0', '-0.0']))}}


def test_every_scenario_has_a_recorded_outcome():
    assert set(EXPECTED) == set(SCENARIOS)


@parametrize_in_one("name", sorted(SCENARIOS))
def test_scenario_as_in_pytorch(name):
    assert SCENARIOS[name](mg) == EXPECTED[name]
