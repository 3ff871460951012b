"""Benchmark: how fast ``poundbot --help``, ``--version`` and ``config check`` answer.

Each is started as a new process (as a person at a terminal starts it), alternating with
a bare ``python -c pass`` in the same run, and the medians are compared. Python may write
its bytecode cache (``PYTHONDONTWRITEBYTECODE`` is dropped, and each command runs once
before the timing), as on a server, where the installed wheel is byte-compiled.
Target (PASS or FAIL; exit 1 on a FAIL): each within 3 x the bare interpreter's start.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

from targets import verdict

ROUNDS = 15
TARGET = 3.0
COMMANDS = {
    "poundbot --help": ["-m", "bot.entry.cli", "--help"],
    "poundbot --version": ["-m", "bot.entry.cli", "--version"],
    "poundbot config check": ["-m", "bot.entry.cli", "config", "check"],
}


ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def _seconds(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], check=True, capture_output=True, env=ENV)
    return time.perf_counter() - start


def main() -> int:
    bare: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for args in COMMANDS.values():  # the bytecode written, as pip writes it at install
        _seconds(args)
    for _ in range(ROUNDS):  # interleaved, so a busy moment weighs on both alike
        for name, args in COMMANDS.items():
            bare.append(_seconds(["-c", "pass"]))
            times[name].append(_seconds(args))
    base = statistics.median(bare)
    print(f"python -c pass: {base * 1e3:.0f} ms (median of {len(bare)})")
    met = True
    for name, samples in times.items():
        took = statistics.median(samples)
        print(f"{name}: {took * 1e3:.0f} ms")
        met &= verdict(f"{name} / bare interpreter", took / base, "<=", TARGET)
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
