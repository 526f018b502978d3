"""``nn.utils``: gradient clipping, parameter/vector conversion and ``rnn`` (padding sequences)."""

from minigrad.nn.utils import rnn
from minigrad.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_
from minigrad.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters

__all__ = [
    "clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "rnn", "vector_to_parameters",
]
