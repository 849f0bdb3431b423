"""A stand-in for Triton's autotuning API (no GPU, no real Triton here) for python_api_test.py.

Config has the attributes of triton.Config that gemm_advisor.triton reads (kwargs, num_warps,
num_stages); autotune calls prune_configs_by["early_config_prune"](configs, named_args, **kwargs)
once per new key, as triton.runtime.autotuner.Autotuner.prune_configs does, and records what it
would benchmark in `benchmarked`.
"""

FAKE = True


class Config:
    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def __repr__(self):
        return f"Config({self.kwargs}, num_warps={self.num_warps}, num_stages={self.num_stages})"


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, warmup=None, rep=None):
    def decorator(fn):
        import inspect

        arg_names = list(inspect.signature(fn).parameters)
        cache = {}

        def launch(*args, **kwargs):
            named_args = dict(zip(arg_names, args))
            named_args.update(kwargs)
            k = tuple(named_args[name] for name in key)
            if k not in cache:
                pruned = list(configs)
                if prune_configs_by and "early_config_prune" in prune_configs_by:
                    pruned = prune_configs_by["early_config_prune"](configs, named_args, **kwargs)
                launch.benchmarked[k] = list(pruned)
                cache[k] = pruned[0] if pruned else None
            return fn(*args, **kwargs)

        launch.benchmarked = {}
        return launch

    return decorator
