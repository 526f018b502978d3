"""minigrad.autograd: the reverse-mode engine and its public API (PyTorch's names)."""

from typing import Any

from minigrad import _out_of_scope
from minigrad.autograd import functional
from minigrad.autograd.anomaly import (
    detect_anomaly,
    is_anomaly_check_nan_enabled,
    is_anomaly_enabled,
    set_detect_anomaly,
)
from minigrad.autograd.engine import backward, grad
from minigrad.autograd.explain import SavedBy, explain, who_saved
from minigrad.autograd.function import Function, once_differentiable
from minigrad.autograd.grad_mode import enable_grad, is_grad_enabled, no_grad, set_grad_enabled
from minigrad.autograd.gradcheck import GradcheckError, gradcheck, gradgradcheck
from minigrad.autograd.guard import guard_saved_tensors, is_guarding_saved_tensors
from minigrad.autograd.inference import inference_mode, is_inference_mode_enabled
from minigrad.autograd.legacy import Variable
from minigrad.autograd.write_tracking import is_track_writes_enabled, set_track_writes


def __getattr__(name: str) -> Any:
    """PyTorch names minigrad leaves out (``forward_ad``) raise ``OutOfScopeError``."""
    raise _out_of_scope.missing(__name__, name, _out_of_scope.AUTOGRAD)


__all__ = [
    "Function",
    "GradcheckError",
    "Variable",
    "backward",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "inference_mode",
    "is_inference_mode_enabled",
    "detect_anomaly",
    "enable_grad",
    "is_anomaly_check_nan_enabled",
    "is_anomaly_enabled",
    "is_grad_enabled",
    "no_grad",
    "once_differentiable",
    "set_detect_anomaly",
    "set_grad_enabled",
    # minigrad's debugging aids (not in PyTorch)
    "SavedBy",
    "explain",
    "guard_saved_tensors",
    "is_guarding_saved_tensors",
    "is_track_writes_enabled",
    "set_track_writes",
    "who_saved",
]
