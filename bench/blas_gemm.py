#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""OpenBLAS (through numpy) on the dense layers' shapes, the peer of attnlab_model_bench --gemm:
   OPENBLAS_NUM_THREADS=2 bench/blas_gemm.py   GFLOP/s, best and median of 9 after a warm-up."""
import os, time, sys
import numpy as np
shapes=[(512,768,3072,False),(512,3072,768,False),(128,768,2304,False),(128,768,3072,False),(512,768,768,True)]
rng=np.random.default_rng(1)
for n,k,m,t in shapes:
    a=rng.standard_normal((n,k),dtype=np.float32)
    b=rng.standard_normal((m,k) if t else (k,m),dtype=np.float32)
    bb=b.T if t else b
    c=np.empty((n,m),dtype=np.float32)
    np.matmul(a,bb,out=c)
    ts=[]
    for r in range(9):
        t0=time.perf_counter(); np.matmul(a,bb,out=c); ts.append(time.perf_counter()-t0)
    ts.sort()
    fl=2*n*k*m
    print(f"{n}x{k}x{m} {'[out,in]' if t else '[in,out]'} threads {os.environ.get('OPENBLAS_NUM_THREADS')}: best {fl/ts[0]/1e9:.1f} median {fl/ts[4]/1e9:.1f} GFLOP/s")
