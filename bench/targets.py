"""What every benchmark shares: a target printed with PASS or FAIL, and a fresh PG database.

Not a benchmark itself (``make bench`` runs ``bench/bench_*.py`` and the others by name);
imported by the scripts beside it, which run with ``bench/`` on ``sys.path``.
"""

from __future__ import annotations

import operator
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

__all__ = ["fresh_pg_database", "verdict"]

_OPS = {">=": operator.ge, "<=": operator.le}


def verdict(name: str, value: float, op: str, target: float, fmt: str = "{:.2f}") -> bool:
    """Print ``name: value (target op target) PASS|FAIL`` and say whether it passed."""
    met = _OPS[op](value, target)
    shown = fmt.format(value)
    print(f"target {name}: {shown} (target {op} {fmt.format(target)}) {'PASS' if met else 'FAIL'}")
    return bool(met)


@asynccontextmanager
async def fresh_pg_database(url: str, prefix: str) -> AsyncIterator[str]:
    """A new, empty PostgreSQL database beside the one ``url`` names; dropped afterwards."""
    import asyncpg
    from sqlalchemy.engine import make_url

    base = make_url(url)
    name = f"{prefix}_{os.getpid()}"
    admin = base.set(drivername="postgresql").render_as_string(hide_password=False)

    async def run(sql: str) -> None:
        conn = await asyncpg.connect(admin)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    await run(f'DROP DATABASE IF EXISTS "{name}"')
    await run(f'CREATE DATABASE "{name}"')
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        await run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
