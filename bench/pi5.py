"""How much slower a Raspberry Pi 5 is than this machine, measured in the same run.

The benchmarks run on an x86 development machine; the kiosk runs on a Pi 5. Their figures
for the Pi are this machine's scaled by one factor: this machine's single-core speed, measured
now with ``sysbench cpu --threads=1`` (a CPU-bound prime-number loop, the same command a
published Pi 5 figure used), over that Pi 5 figure. Measuring it in the same run matters on a
shared machine whose speed changes with what else runs. It is a proxy (integer work, not
NumPy or OpenCV's vector code), and says so wherever it is printed.
"""

from __future__ import annotations

import shutil
import subprocess

#: ``sysbench cpu --threads=1`` events per second on a Raspberry Pi 5 (Bookworm, sysbench
#: 1.0.20; published at leoncode.co.uk/articles/raspberry-pi-benchmarks).
PI5_SYSBENCH = 2737.5

BASIS = ("this machine's `sysbench cpu --threads=1` events/s measured in this run over a "
         "published Pi 5 figure for the same command (a CPU-bound proxy, not a measurement on a Pi)")


def this_machine() -> float | None:
    """This machine's single-core speed now (sysbench events/s), or None without sysbench."""
    if not shutil.which("sysbench"):
        return None
    out = subprocess.run(["sysbench", "cpu", "--threads=1", "--time=5", "run"], capture_output=True,
                         text=True, check=False)
    for line in out.stdout.splitlines():
        if "events per second" in line:
            return float(line.split(":")[1])
    return None


def slowdown() -> float | None:
    """How many times longer the same single-threaded work takes on a Pi 5 than here (None
    without sysbench: install it with `apt-get install sysbench`)."""
    here = this_machine()
    return None if here is None else here / PI5_SYSBENCH
