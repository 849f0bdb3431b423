"""Compile worker of harness.py's process pool (spawned processes, nice 10).

A task is (kernel, payload) from plan_spec.compile_spec. The worker calls the kernel's JITFunction.warmup
with the real problem's integers (and torch dtypes standing for the pointers), which compiles the kernel
into the shared on-disk Triton cache under the same specialisation key as the real launch; the main
process then finds it there. Returns (ok, error, shared_bytes, seconds), like gemm_kernels.compile_task.
"""
import importlib
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)

MODULES = {"triton-tutorial": "tutorial_kernel", "vllm-fp8-block": "fp8_block_kernel",
           "vllm-fused-moe": "fused_moe_kernel"}


def worker_init(nice=10):
    try:
        os.nice(nice)
    except OSError:
        pass
    import torch  # noqa: F401  (the CUDA context is created lazily by Triton)


def compile_task(task):
    kernel, payload = task
    t0 = time.time()
    try:
        if kernel == "triton":
            import gemm_kernels
            return gemm_kernels.compile_task(payload)
        mod = importlib.import_module(MODULES[kernel])
        return mod.compile_task(payload)
    except Exception as e:  # a compile failure is data, not a crash
        msg = f"{type(e).__name__}: {e}".replace("\n", " ")[:300]
        return (False, msg, 0, time.time() - t0)
