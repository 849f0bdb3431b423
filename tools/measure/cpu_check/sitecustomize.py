"""CPU check only: with this folder on PYTHONPATH and MEASURE_DEVICE=cpu, every Python process (the
harness, its compile workers, smoke.py, run_targets.sh's commands) gets emu_site.patch() at start-up.
Never on the path in a real run."""
import os

if os.environ.get("MEASURE_DEVICE") == "cpu":
    try:
        import emu_site
        emu_site.patch()
    except ImportError:
        pass
