"""Pin PyTorch's CPU code paths, so that the reference is the same on every machine.

PyTorch picks its kernels by the CPU it finds: its own vectorised kernels (AVX2 or AVX-512,
``ATEN_CPU_CAPABILITY``), and oneDNN's (``gelu``, ...), which choose by themselves. On a CPU
with AVX-512 these compute otherwise than with AVX2 (seen on a Xeon with AVX-512 FP16, torch
2.13.0: oneDNN's float32 ``gelu(inf)`` nan and ``gelu(3e38)`` inf; float16 ``elu``'s and
``hardswish``'s backward of nan as their scalar path). minigrad follows PyTorch's results on
AVX2, which every x86-64 machine of the last decade can reproduce: the differential tests pin
both there. (MKL is left alone: each of its paths rounds somewhere, and the tests steer clear
of that instead. Its float32 Cholesky scales by a reciprocal an ulp low on every path but
AVX-512's (``MKL_ENABLE_INSTRUCTIONS=AVX2`` or ``SSE4_2``, ``MKL_CBWR``): a singular input
there is one whose zero pivot no rounding moves, or float64, exact on every path. Its vector
``sqrt`` is an ulp off the correctly rounded root for some inputs on every path (AVX-512: 0.7 %
of float32 and float64; AVX2: 1.3 % of float64; SSE4.2: 17 % of float32): allowed that ulp
where tests compare bits.) Import this module before ``torch``; variables the user set are
kept.
"""

import os

# PyTorch's own kernels: the AVX2 ones.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
# oneDNN's JIT kernels: at most AVX2 instructions.
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
