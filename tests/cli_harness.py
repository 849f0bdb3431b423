"""Shared pieces of the end-to-end test scripts (cli_test.py, batch_test.py, calibrate_test.py, moe_cli_test.py): running the binary,
counting checks, and the closing 'N passed, N failed' line that CI reads."""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile

results = {"passed": 0, "failed": 0}


def run(binary, *args, stdin=None, timeout=300, cwd=None):
    """Runs the binary (in `cwd` where given; then give it by absolute path); returns (exit code,
    stdout, stderr) as text."""
    p = subprocess.run([binary, *args], input=stdin, capture_output=True, text=True, timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def temp_dir(prefix):
    """A fresh directory under the system's temporary one, removed when the script exits (the scripts'
    own were left behind, a few hundred after a day of test runs)."""
    path = tempfile.mkdtemp(prefix=prefix)
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def write_file(directory, name, text):
    """Writes `text` to directory/name; returns the path."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def check(name, cond, detail=""):
    """Counts one assertion; prints the failing ones with (up to 600 characters of) detail."""
    if cond:
        results["passed"] += 1
    else:
        results["failed"] += 1
        print(f"FAIL: {name} {str(detail)[:600]}")


def finish():
    """Prints the summary line and exits non-zero when any check failed."""
    print(f"{results['passed']} passed, {results['failed']} failed")
    sys.exit(1 if results["failed"] else 0)
