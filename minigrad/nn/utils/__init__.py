"""``nn.utils``: gradient clipping, parameters <-> vector, and reparametrizations.

Also ``rnn`` (padding sequences), ``parametrize`` and ``parametrizations`` (weight norm,
spectral norm, orthogonal), ``stateless.functional_call`` and the legacy hook-based
``weight_norm`` / ``spectral_norm``.
"""

from minigrad.nn.utils import parametrizations, parametrize, rnn, stateless
from minigrad.nn.utils.clip_grad import clip_grad_norm_, clip_grad_value_
from minigrad.nn.utils.convert_parameters import parameters_to_vector, vector_to_parameters
from minigrad.nn.utils.spectral_norm import remove_spectral_norm, spectral_norm
from minigrad.nn.utils.weight_norm import remove_weight_norm, weight_norm

__all__ = [
    "clip_grad_norm_",
    "clip_grad_value_",
    "parameters_to_vector",
    "parametrizations",
    "parametrize",
    "remove_spectral_norm",
    "remove_weight_norm",
    "rnn",
    "spectral_norm",
    "stateless",
    "vector_to_parameters",
    "weight_norm",
]
