"""``python -m chaos [--small] [--only NAME]``: run the scenarios, print the table, exit 1
on a fail. PostgreSQL for the two-instance scenarios comes from ``POUNDBOT_CHAOS_PG_URL``
or ``POUNDBOT_TEST_PG_URL`` (a database of its own is made and dropped); without either
they run on one SQLite file; the three instances behind nginx need it (and nginx), else
they are left out, and say so. The PostgreSQL restart makes a cluster of its own (the
server programs must be installed; without them it is left out, and says so)."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

from chaos import flood, outbox, pg_restart, settle, sms, state
from chaos.report import Outcome, table

FULL = {
    "kill": {"burst": 200, "runs": 4},
    "lock": {"requests": 320, "hold": 30.0, "budget": 8.0},
    "outbox": {"rows": 60, "delay": 3.5, "lease": 120.0},
    # Eight pictures of 8 KB dripping (a minute each: cut at 20 s, the message at 60 s).
    "media": {"senders": 20, "drips": 8, "drip_bytes": 8192, "kept_side": 5000},
    # 150 missed calls from 150 numbers at once; the hour's ceiling at 100.
    "flood": {"callers": 150, "per_hour": 100},
    "settle": {"cases": 60},
    # 300 SMS at 10 a second; PostgreSQL down 10 s, stopped as 40 come at once.
    "restart": {"messages": 300, "down": 10.0, "pace": 0.1, "burst": 40},
    # 120 s of an SMS and a Telegram seizure every 0.25 s (40 of each at once as one of the
    # three instances is killed), the desk, reminders falling due.
    "state": {
        "seconds": 120.0,
        "owners": 60,
        "keepers": 6,
        "desk": 30,
        "pace": 0.25,
        "burst": 40,
    },
}
SMALL = {
    "kill": {"burst": 40, "runs": 1},
    "lock": {"requests": 24, "hold": 2.5, "budget": 0.8, "limit": 1.5},
    "outbox": {"rows": 30, "delay": 0.1, "lease": 1.0},
    # Two pictures of 400 bytes dripping (about 3 s each: kept).
    "media": {"senders": 6, "drips": 2, "drip_bytes": 400, "kept_side": 2000},
    "flood": {"callers": 30, "per_hour": 12},
    "settle": {"cases": 6},
    "restart": {"messages": 40, "down": 3.0, "pace": 0.2, "burst": 10},
    "state": {
        "seconds": 25.0,
        "owners": 12,
        "keepers": 3,
        "desk": 6,
        "pace": 0.4,
        "burst": 12,
    },
}


async def main(small: bool, only: list[str]) -> list[Outcome]:
    scale = SMALL if small else FULL
    pg = os.environ.get("POUNDBOT_CHAOS_PG_URL") or os.environ.get("POUNDBOT_TEST_PG_URL")
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="poundbot-chaos-") as tmp:
        if "kill" in only:
            print("== kill -9 during an SMS burst", file=sys.stderr, flush=True)
            outcomes.append(await sms.killed(Path(tmp) / "kill", **scale["kill"]))  # type: ignore[arg-type]
        if "lock" in only:
            print("== SQLite locked by another process", file=sys.stderr, flush=True)
            outcomes.append(await sms.locked(Path(tmp) / "lock", **scale["lock"]))  # type: ignore[arg-type]
        if "outbox" in only:
            print("== two instances, a slow Telegram API", file=sys.stderr, flush=True)
            outcomes.append(
                await outbox.two_instances(Path(tmp) / "outbox", pg_url=pg, **scale["outbox"])  # type: ignore[arg-type]
            )
        if "media" in only:
            print("== slow media and a 7000x7000 picture in one MMS", file=sys.stderr, flush=True)
            outcomes.append(await sms.slow_media(Path(tmp) / "media", **scale["media"]))  # type: ignore[arg-type]
        if "flood" in only:
            print("== a flood of missed calls from many numbers", file=sys.stderr, flush=True)
            outcomes.append(await flood.missed_calls(Path(tmp) / "flood", **scale["flood"]))  # type: ignore[arg-type]
        if "settle" in only:
            print("== two officers settle one sale at once", file=sys.stderr, flush=True)
            outcomes.append(
                await settle.concurrent_settle(Path(tmp) / "settle", pg_url=pg, **scale["settle"])  # type: ignore[arg-type]
            )
        if "restart" in only:
            print("== PostgreSQL restarted under SMS traffic", file=sys.stderr, flush=True)
            try:
                outcomes.append(
                    await pg_restart.restarted(Path(tmp) / "restart", **scale["restart"])  # type: ignore[arg-type]
                )
            except pg_restart.NoPostgres as exc:
                print(f"  .. left out: {exc}", file=sys.stderr, flush=True)
        if "state" in only:
            print("== three instances behind nginx, one killed", file=sys.stderr, flush=True)
            if not pg:
                print("  .. left out: no PostgreSQL URL given", file=sys.stderr, flush=True)
            else:
                try:
                    outcomes.append(
                        await state.three_instances(Path(tmp) / "state", pg, **scale["state"])  # type: ignore[arg-type]
                    )
                except state.NoNginx as exc:
                    print(f"  .. left out: {exc}", file=sys.stderr, flush=True)
    return outcomes


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m chaos", description=__doc__)
    parser.add_argument("--small", action="store_true", help="the scale of make test (seconds)")
    parser.add_argument(
        "--only",
        action="append",
        choices=["kill", "lock", "outbox", "media", "flood", "settle", "restart", "state"],
        help="run only these",
    )
    args = parser.parse_args()
    everything = ["kill", "lock", "outbox", "media", "flood", "settle", "restart", "state"]
    results = asyncio.run(main(args.small, args.only or everything))
    print(table(results))
    sys.exit(0 if all(o.passed for o in results) else 1)
