"""Ctrl-C latency: how long after SIGINT a long `count()` raises KeyboardInterrupt.

    python python/benchmarks/ctrl_c.py [runs]

Each run starts a child Python that counts 16-queens (minutes of search), sends it
SIGINT after 1 s, and reads the time between the signal and the child catching
KeyboardInterrupt (both stamped with time.monotonic in the child itself).
"""

import os
import signal
import subprocess
import sys
import time

CHILD = r"""
import signal, sys, time, alldiff
m = alldiff.Model()
q = m.int_vars(16, 0, 15)
m.all_different(q)
m.all_different([v + i for i, v in enumerate(q)])
m.all_different([v - i for i, v in enumerate(q)])
sent = [None]
def handler(signum, frame):
    sent[0] = time.monotonic()
    raise KeyboardInterrupt
signal.signal(signal.SIGINT, handler)
print("ready", flush=True)
try:
    m.count()
    print("finished", flush=True)
except KeyboardInterrupt:
    print(f"latency {time.monotonic() - sent[0]:.6f}", flush=True)
"""


def one() -> float:
    child = subprocess.Popen([sys.executable, "-c", CHILD], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "ready"
    time.sleep(1.0)
    signalled = time.monotonic()
    child.send_signal(signal.SIGINT)
    line = child.stdout.readline().strip()
    child.wait()
    total = time.monotonic() - signalled
    if not line.startswith("latency"):
        raise SystemExit(f"unexpected: {line!r}")
    # The handler runs once Python gets control back: `total` is signal to exception
    # as seen from outside (process wake-up included), an upper bound.
    return total


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    latencies = [one() for _ in range(runs)]
    print(f"Ctrl-C to KeyboardInterrupt over {runs} runs: max {max(latencies) * 1000:.1f} ms, "
          f"median {sorted(latencies)[runs // 2] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
