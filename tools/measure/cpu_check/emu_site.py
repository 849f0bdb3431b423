"""CPU check only (cpu_check.py, and sitecustomize.py beside this for whole processes): torch.cuda
stand-ins (events on the host clock, no-op synchronize) and a small L2-flush buffer."""
import os
import sys
import time
import types


def patch():
    import torch

    class Event:
        def __init__(self, enable_timing=False):
            self.t = None

        def record(self):
            self.t = time.perf_counter()

        def elapsed_time(self, other):
            return (other.t - self.t) * 1e3
    torch.cuda.Event = Event
    torch.cuda.synchronize = lambda *a, **k: None
    torch.cuda.empty_cache = lambda: None
    torch.cuda.get_device_properties = lambda i: types.SimpleNamespace(name="cpu-emulator", multi_processor_count=1,
                                                                        L2_cache_size=0)
    measure = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if measure not in sys.path:
        sys.path.append(measure)
    import sweep
    sweep.FLUSH_BYTES = 1 << 16


