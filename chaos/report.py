"""One line of the chaos table per scenario, and the pass line."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field

__all__ = ["Outcome", "p99", "progress", "table"]

TWILIO_TIMEOUT = 15.0


def progress(text: str) -> None:
    """A line of progress on stderr (the table goes to stdout)."""
    print(f"  .. {text}", file=sys.stderr, flush=True)


def p99(latencies: list[float]) -> float:
    """The 99th percentile (nearest rank) of ``latencies``, 0 for none."""
    if not latencies:
        return 0.0
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, max(0, round(0.99 * len(ordered)) - 1))]


@dataclass
class Outcome:
    """What one scenario measured.

    ``requests``: the messages sent (SMS) or queued (outbox); ``answered``: those whose
    sender got an answer; ``lost``: stored or acted on but never answered; ``duplicated``:
    acted on or answered more than once; ``cut``: cut by a kill before anything was
    stored (the provider sees a failed webhook; nothing exists to answer);
    ``late``: webhook answers that came after ``limit`` seconds (Twilio's 15 s: Twilio
    drops them; a small run scales it down).
    """

    scenario: str
    requests: int
    answered: int
    lost: int
    duplicated: int
    latencies: list[float] = field(default_factory=list)
    cut: int = 0
    late: int = 0
    note: str = ""
    limit: float = TWILIO_TIMEOUT
    #: What else a scenario requires and did not get (a target missed), one line each.
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return self.lost == 0 and self.duplicated == 0 and self.late == 0 and not self.failures


def table(outcomes: list[Outcome]) -> str:
    """The table, one line a scenario, with PASS or FAIL."""
    head = (
        f"{'scenario':<62} {'requests':>8} {'answered':>8} {'lost':>5} {'dupl.':>5} "
        f"{'cut':>4} {'late':>5} {'p99':>8}  result"
    )
    lines = [head, "-" * len(head)]
    for o in outcomes:
        lines.append(
            f"{o.scenario:<62} {o.requests:>8} {o.answered:>8} {o.lost:>5} {o.duplicated:>5} "
            f"{o.cut:>4} {o.late:>5} {p99(o.latencies):>7.2f}s  {'PASS' if o.passed else 'FAIL'}"
        )
        if o.note:
            lines.append(f"    {o.note}")
        for failure in o.failures:
            lines.append(f"    FAILED: {failure}")
    lines.append("pass line: 0 lost, 0 duplicated, 0 late (a webhook answered after Twilio's 15 s)")
    return "\n".join(lines)
