"""Pin PyTorch's CPU code paths, so that the reference is the same on every machine.

PyTorch picks its kernels by the CPU it finds: its own vectorised kernels (AVX2 or AVX-512,
``ATEN_CPU_CAPABILITY``), and oneDNN's (``gelu``, ...), which choose by themselves. On a CPU
with AVX-512 these compute otherwise than with AVX2 (seen on a Xeon with AVX-512 FP16, torch
2.13.0: oneDNN's float32 ``gelu(inf)`` nan and ``gelu(3e38)`` inf; float16 ``elu``'s and
``hardswish``'s backward of nan as their scalar path). minigrad follows PyTorch's results on
AVX2, which every x86-64 machine of the last decade can reproduce: the differential tests pin
both there. (MKL is left alone: pinned to AVX2 (``MKL_CBWR``), its float32 Cholesky factor of a
singular matrix is no longer the exact one PyTorch gives elsewhere; its vector ``sqrt`` on
AVX-512, an ulp below the correctly rounded root for 0.7 % of inputs, is allowed that ulp
where tests compare bits.) Import this module before ``torch``; variables the user set are
kept.
"""

import os

# PyTorch's own kernels: the AVX2 ones.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
# oneDNN's JIT kernels: at most AVX2 instructions.
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
