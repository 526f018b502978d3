"""Pin PyTorch's CPU code paths, so that the reference is the same on every machine.

PyTorch picks its kernels by the CPU it finds: its own vectorised kernels (AVX2 or AVX-512,
``ATEN_CPU_CAPABILITY``), and the libraries it hands some ops to, which choose by themselves:
MKL's vector math (``sqrt``, ...) and oneDNN (``gelu``, ...). On a CPU with AVX-512 these round
otherwise than with AVX2 (seen on a Xeon with AVX-512 FP16, torch 2.13.0: MKL's float64 and
float32 ``sqrt`` one ulp below the correctly rounded root for 0.7 % of inputs; oneDNN's
float32 ``gelu(inf)`` nan and ``gelu(3e38)`` inf; float16 ``elu``'s and ``hardswish``'s
backward of nan as their scalar path). minigrad follows PyTorch's results on AVX2, the ones
every x86-64 machine of the last decade can reproduce: the differential tests pin all three
there. Import this module before ``torch``; variables the user set are kept.
"""

import os

# PyTorch's own kernels: the AVX2 ones.
os.environ.setdefault("ATEN_CPU_CAPABILITY", "avx2")
# MKL's Conditional Numerical Reproducibility: the AVX2 code path on any newer CPU.
os.environ.setdefault("MKL_CBWR", "AVX2")
# oneDNN's JIT kernels: at most AVX2 instructions.
os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX2")
