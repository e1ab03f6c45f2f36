"""Ctrl-C (SIGINT) stops a long search with KeyboardInterrupt, and the interpreter
goes on. (How fast is measured by benchmarks/ctrl_c.py, not asserted here.)"""

import signal
import subprocess
import sys

import pytest

CHILD = r"""
import alldiff
m = alldiff.Model()
q = m.int_vars(17, 0, 16)
m.all_different(q)
m.all_different([v + i for i, v in enumerate(q)])
m.all_different([v - i for i, v in enumerate(q)])
try:
    print("ready", flush=True)
    m.count()
    print("finished", flush=True)
except KeyboardInterrupt:
    print("interrupted", flush=True)
# The model still works after the interruption.
small = alldiff.Model()
xs = small.int_vars(3, 0, 2)
small.all_different(xs)
print("after", small.count(), flush=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_sigint_interrupts_a_long_count():
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "ready"
        child.send_signal(signal.SIGINT)
        out, _ = child.communicate(timeout=60)
    finally:
        child.kill()
    assert out.split("\n")[:2] == ["interrupted", "after 6"]
