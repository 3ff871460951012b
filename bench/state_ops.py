"""The operations on a state's database, timed (``bench/state.py`` runs them after its
measurements; ``--no-ops`` leaves them out): figures, not targets.

1. **migrate.** The database taken back a few revisions by the migrations' own
   downgrades (Alembic), then ``poundbot migrate`` (the command line, a process of its
   own) taking it to the head; then ``poundbot migrate`` again on the database at the
   head, the check an instance's start pays.
2. **pg_dump and pg_restore.** ``pg_dump -Fc`` as the Backups page writes it (time, size
   of the file); cases recorded after the dump, through the keeper's SEIZE; then the
   restore of the Backups page's "PostgreSQL" section, its three steps run as the page
   writes them (the shell block read from ``docs/operator/backup.md``), each timed: what
   the database in place has issued, from the state's database; the dump restored into a
   fresh database; each pound's counter raised and the cases the dump does not have
   listed. Checked (the one verdict here): no pound's counter lower than the database
   in place had, and the cases listed exactly those recorded after the dump.
3. **start.** ``poundbot serve`` on the state's database (a configuration file of the
   state's authorities and pounds, SMS and Telegram off), from the spawn until
   ``/healthz`` answers 200, three times; then stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shlex
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import httpx
from alembic import command
from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url
from state_data import authority_code, pounds_of

from bot.bootstrap import open_app
from bot.config import Config
from bot.config.load import parse_config, sample_config_path
from bot.conversation.reply import handle_text
from bot.store.engine import make_engine
from bot.store.migrate import alembic_config, line
from bot.support.caller import KEEPER, Caller
from bot.support.clock import FixedClock
from domain.calendar import LOCAL_TZ

__all__ = [
    "BIG_TABLES",
    "Migrated",
    "Restored",
    "documented_restore",
    "run_ops",
    "state_toml",
]

ROOT = Path(__file__).resolve().parents[1]
BACKUP_DOC = ROOT / "docs" / "operator" / "backup.md"
#: The tables whose rows are counted beside the database's size.
BIG_TABLES = (
    "cases",
    "case_lots",
    "case_events",
    "payments",
    "ledger_entries",
    "deadlines",
    "reminder_jobs",
    "inbox",
    "outbox",
)
#: How many revisions back ``poundbot migrate`` starts from.
BACK = 3
#: Cases recorded after the dump (the keeper's SEIZE), for the case-number rule.
AFTER_DUMP = 3
STARTS = 3
NOW = datetime(2026, 3, 2, 10, 0, tzinfo=LOCAL_TZ)


def _libpq(url: str) -> str:
    """The libpq address (``postgresql://...``) of a SQLAlchemy URL."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _pg_env(url: str) -> dict[str, str]:
    """The environment of a libpq tool pointed at the server of ``url``."""
    address = make_url(url)
    return {
        **os.environ,
        "PGHOST": address.host or "127.0.0.1",
        "PGPORT": str(address.port or 5432),
        "PGUSER": address.username or "postgres",
        "PGPASSWORD": address.password or "",
    }


def _poundbot_env(url: str, work: Path, **more: str) -> dict[str, str]:
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(work),
        "PYTHONPATH": str(ROOT),
        "POUNDBOT_DATABASE_URL": url,
        "POUNDBOT_DATA_DIR": str(work),
        **more,
    }


def _run(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[str, float]:
    """Run ``argv``; its stdout and the seconds it took (raises when it fails)."""
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=False)
    took = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"{argv[:3]} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return str(done.stdout), took


async def sizes(url: str) -> tuple[int, dict[str, int]]:
    """The database's size (pg_database_size) and the rows of its big tables."""
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            size = (await conn.execute(text("SELECT pg_database_size(current_database())"))).one()
            rows = {
                t: int((await conn.execute(text(f"SELECT count(*) FROM {t}"))).scalar_one())
                for t in BIG_TABLES
            }
    finally:
        await engine.dispose()
    return int(size[0]), rows


def _mb(n: float) -> str:
    return f"{n / 2**20:,.1f} MB"


# -- 1. migrate ---------------------------------------------------------------------


@dataclass(frozen=True)
class Migrated:
    start: str  # the revision downgraded to
    head: str
    reached: str  # the revision after ``poundbot migrate``
    downgrade: float
    upgrade: float
    noop: float


async def _revision(url: str) -> str:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            found = await conn.execute(text("SELECT version_num FROM alembic_version"))
            return str(found.scalar_one())
    finally:
        await engine.dispose()


async def _downgrade(url: str, revision: str) -> float:
    """The database taken back to ``revision`` by the migrations' downgrades (seconds)."""

    def down(connection: Connection) -> None:
        cfg = alembic_config()
        cfg.attributes["connection"] = connection
        command.downgrade(cfg, revision)

    engine = make_engine(url)
    try:
        started = time.perf_counter()
        async with engine.begin() as conn:
            await conn.run_sync(down)
        return time.perf_counter() - started
    finally:
        await engine.dispose()


async def migrate_ops(url: str, work: Path) -> Migrated:
    """Back ``BACK`` revisions, then ``poundbot migrate`` to the head; then again at it."""
    revisions = line()
    head, start = revisions[-1], revisions[-1 - BACK]
    downgrade = await _downgrade(url, start)
    assert await _revision(url) == start
    env = _poundbot_env(url, work)
    cli = [sys.executable, "-m", "bot.entry.cli", "migrate"]
    _, upgrade = _run(cli, env, ROOT)
    reached = await _revision(url)
    said, noop = _run(cli, env, ROOT)
    assert head in said, said
    return Migrated(start, head, reached, downgrade, upgrade, noop)


# -- 2. pg_dump and pg_restore ------------------------------------------------------


def _documented_block(containing: str) -> str:
    """The shell block of the Backups page's PostgreSQL section holding ``containing``."""
    page = BACKUP_DOC.read_text(encoding="utf-8")
    section = page.split("\n## PostgreSQL\n", 1)[1]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    (block,) = (b for b in blocks if containing in b)
    return str(block)


def documented_restore() -> tuple[str, str, str]:
    """The three steps of the documented restore, as the page writes them, each a shell
    command: the ``psql`` of step 1 (with its SQL), the ``pg_restore`` of step 2, the
    ``psql`` of step 3. What is around them (systemctl, cd, comments) is left out."""
    steps: list[str] = []
    lines = iter(_documented_block("pg_restore --clean").splitlines())
    for line_ in lines:
        if line_.startswith(("psql ", "pg_restore ")):
            command_ = [line_]
            if line_.endswith("<<'SQL'"):
                for body in lines:
                    command_.append(body)
                    if body == "SQL":
                        break
            steps.append("\n".join(command_) + "\n")
    first, second, third = steps
    assert first.startswith("psql "), first
    assert "\\copy (SELECT" in first, first
    assert second.startswith("pg_restore "), second
    assert third.startswith("psql "), third
    assert "replaced_pounds" in third, third
    return first, second, third


def documented_dump() -> str:
    """The page's ``pg_dump`` line."""
    (dump,) = (
        line_ for line_ in _documented_block("pg_dump").splitlines() if line_.startswith("pg_dump ")
    )
    return dump


def _dump_here(url: str, dump: Path) -> str:
    """The page's ``pg_dump`` of ``url`` into ``dump``."""
    documented = documented_dump()
    file = "/var/backups/poundbot-$(date +%F).dump"
    assert documented.startswith("pg_dump -Fc -f "), documented
    assert documented.endswith(" poundbot"), documented
    assert file in documented, documented
    here = documented.replace(file, shlex.quote(str(dump)))
    return here.removesuffix(" poundbot") + " " + shlex.quote(_libpq(url))


def _here(step: str, database: str, dump: Path | None = None) -> str:
    """A documented step on ``database`` (and ``dump``) instead of the page's."""
    assert "-d poundbot " in step, step
    step = step.replace("-d poundbot ", f"-d {shlex.quote(database)} ")
    if dump is not None:
        documented = re.search(r"/var/backups/poundbot-[^ \n]+\.dump", step)
        assert documented is not None, step
        step = step.replace(documented.group(0), shlex.quote(str(dump)))
    return step


def _table(out: str, heading: str) -> list[list[str]]:
    """The rows of the table psql printed under the column ``heading``."""
    lines = out.splitlines()
    (at,) = (i for i, line_ in enumerate(lines) if heading in line_ and "|" in line_)
    rows: list[list[str]] = []
    for line_ in lines[at + 2 :]:
        if re.fullmatch(r"\(\d+ rows?\)", line_.strip()):
            return rows
        rows.append([cell.strip() for cell in line_.split("|")])
    raise AssertionError(f"no end of the table {heading!r}:\n{out}")


async def _counters(url: str) -> dict[str, int]:
    engine = make_engine(url)
    try:
        async with engine.connect() as conn:
            found = await conn.execute(text("SELECT code, last_case_seq FROM pounds"))
            return {str(code): int(seq) for code, seq in found}
    finally:
        await engine.dispose()


async def record_after_dump(url: str, config: Config, n: int) -> list[str]:
    """``n`` cases recorded by a keeper's SEIZE (the keeper's line of every channel)."""
    async with open_app(config=config, url=url, clock=FixedClock(NOW)) as app:
        async with app.store.transaction() as tx:
            kept = (
                await tx.session.execute(
                    text(
                        "SELECT u.id, u.pound_code FROM users u WHERE u.role='keeper' "
                        "AND u.pound_code IS NOT NULL ORDER BY u.id"
                    )
                )
            ).first()
            assert kept is not None
            before = (
                await tx.session.execute(text("SELECT COALESCE(MAX(id), 0) FROM cases"))
            ).scalar_one()
        keeper = Caller(role=KEEPER, channel="telegram", user_id=kept[0], pound=kept[1], lang="en")
        for _ in range(n):
            async with app.store.transaction() as tx:
                reply = await handle_text(
                    tx, app.deps, keeper, "SEIZE 1 cow AT Kunnamangalam market", sms=False
                )
            assert not reply.refused, reply.text
        async with app.store.transaction() as tx:
            added = await tx.session.execute(
                text("SELECT number FROM cases WHERE id > :b ORDER BY id"), {"b": before}
            )
            return [str(number) for (number,) in added]


@dataclass
class Restored:
    dump: float = 0.0
    dump_size: int = 0
    steps: list[float] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    listed: list[str] = field(default_factory=list)
    raised: list[str] = field(default_factory=list)
    lower: list[str] = field(default_factory=list)  # pounds whose counter went lower
    restored_size: int = 0

    @property
    def kept(self) -> bool:
        """The case-number rule held."""
        return bool(self.added) and not self.lower and sorted(self.listed) == sorted(self.added)


async def dump_restore_ops(url: str, into: str, config: Config, work: Path) -> Restored:
    """``pg_dump`` of ``url``; cases recorded after it; the documented restore: step 1 on
    ``url`` (the database in place), steps 2 and 3 on ``into`` (a fresh database)."""
    found = Restored()
    dump = work / "state.dump"
    env = _pg_env(url)
    _, found.dump = _run(["bash", "-e", "-c", _dump_here(url, dump)], env, work)
    found.dump_size = dump.stat().st_size
    found.added = await record_after_dump(url, config, AFTER_DUMP)
    in_place = await _counters(url)
    first, second, third = documented_restore()
    outs = []
    for step, database, file in (
        (first, _libpq(url), None),
        (second, _libpq(into), dump),
        (third, _libpq(into), None),
    ):
        out, took = _run(["bash", "-e", "-c", _here(step, database, file)], env, work)
        outs.append(out)
        found.steps.append(took)
    found.listed = [row[0] for row in _table(outs[2], "numbered after the dump: enter again")]
    found.raised = [row[0] for row in _table(outs[2], "goes on from")]
    restored = await _counters(into)
    found.lower = sorted(p for p, seq in in_place.items() if restored.get(p, -1) < seq)
    found.restored_size, _ = await sizes(into)
    return found


# -- 3. start -----------------------------------------------------------------------


def state_toml(authorities: int, pounds: int) -> str:
    """The configuration file of ``state_data.state_config``'s places: the sample's, with
    a copy of its first authority and of its first pound for each of the state's (the
    pounds on the first authority's tariff)."""
    sample = sample_config_path().read_text(encoding="utf-8")

    def block(header: str, code: str) -> str:
        found = re.search(
            rf"^\[\[{header}\]\]\ncode = \"{re.escape(code)}\"\n.*?(?=^\[)", sample, re.S | re.M
        )
        assert found is not None, (header, code)
        return re.sub(r"(?m)^#.*\n", "", found.group(0)).rstrip() + "\n"

    authority, pound = block("authorities", "KNM-GP"), block("pounds", "KNM")
    added = []
    for i, codes in enumerate(pounds_of(authorities, pounds)):
        code = authority_code(i)
        added.append(
            re.sub(r"(?m)^name = .*$", f'name = "Grama Panchayat {i}"', authority).replace(
                'code = "KNM-GP"', f'code = "{code}"'
            )
        )
        for p in codes:
            copy = re.sub(r"(?m)^name = .*$", f'name = "Cattle pound {p}"', pound)
            copy = copy.replace('code = "KNM"', f'code = "{p}"').replace(
                'authority = "KNM-GP"', f'authority = "{code}"'
            )
            added.append(re.sub(r"(?m)^tariff = .*\n", "", copy) + 'tariff = "KNM-GP"\n')
    return sample.rstrip() + "\n\n" + "\n".join(added)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _start_once(env: dict[str, str], log: Path) -> float:
    """Seconds from the spawn of ``poundbot serve`` until /healthz answers 200; stopped."""
    port = _free_port()
    command_ = [sys.executable, "-m", "bot.entry.cli", "serve", "--port", str(port)]
    with log.open("wb") as out:
        started = time.perf_counter()
        proc = await asyncio.create_subprocess_exec(
            *command_, cwd=ROOT, env=env, stdout=out, stderr=out
        )
    took: float | None = None
    try:
        async with httpx.AsyncClient(timeout=5) as http:
            while time.perf_counter() - started < 600 and proc.returncode is None:
                with contextlib.suppress(httpx.HTTPError):
                    answer = await http.get(f"http://127.0.0.1:{port}/healthz")
                    if answer.status_code == 200:
                        took = time.perf_counter() - started
                        break
                await asyncio.sleep(0.02)
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), 60)
            except TimeoutError:
                proc.kill()
                await proc.wait()
    if took is None:
        tail = log.read_bytes()[-3000:].decode(errors="replace")  # noqa: ASYNC240 (failing)
        raise RuntimeError(f"poundbot serve did not answer /healthz:\n{tail}")
    return took


async def start_ops(url: str, authorities: int, pounds: int, work: Path) -> list[float]:
    """``STARTS`` starts of ``poundbot serve`` on ``url``, each timed to /healthz 200."""
    config = work / "state.toml"
    config.write_text(state_toml(authorities, pounds), encoding="utf-8")
    parse_config(config.read_text(encoding="utf-8"), str(config))  # a file serve can start on
    env = _poundbot_env(url, work, POUNDBOT_CONFIG=str(config), POUNDBOT_LOG_LEVEL="warning")
    return [await _start_once(env, work / f"serve-{i}.log") for i in range(1, STARTS + 1)]


# -- all three ----------------------------------------------------------------------


async def run_ops(
    url: str,
    fresh: Callable[[str], contextlib.AbstractAsyncContextManager[str]],
    config: Config,
    authorities: int,
    pounds: int,
    work: Path,
) -> bool:
    """The three operations on the state's database at ``url``, printed; whether the
    case-number rule held. ``fresh(prefix)``: a new database (dropped after)."""
    print("operations")
    size, rows = await sizes(url)
    print(
        f"  the state's database: {_mb(size)} (pg_database_size); rows: "
        + ", ".join(f"{t} {n:,}" for t, n in rows.items())
    )
    m = await migrate_ops(url, work)
    print(f"  alembic downgrade {m.head} -> {m.start} (to start from): {m.downgrade:.2f} s")
    print(f"  poundbot migrate {m.start} -> {m.reached}: {m.upgrade:.2f} s")
    print(f"  poundbot migrate at the head (nothing to do): {m.noop:.2f} s")
    assert m.reached == m.head, m
    async with fresh("bench_ops_restore") as into:
        r = await dump_restore_ops(url, into, config, work)
    print(f"  pg_dump -Fc: {r.dump:.2f} s, {_mb(r.dump_size)}")
    step1, step2, step3 = r.steps
    print(f"  restore step 1 (psql \\copy what the database in place issued): {step1:.2f} s")
    print(
        f"  restore step 2 (pg_restore --clean --if-exists --no-owner into a fresh database): "
        f"{step2:.2f} s; restored {_mb(r.restored_size)}"
    )
    print(f"  restore step 3 (psql: counters raised, cases listed): {step3:.2f} s")
    print(
        f"  case numbers: {len(r.added)} cases recorded after the dump, {len(r.listed)} listed "
        f"({', '.join(r.listed)}); pounds going on from the database in place: "
        f"{', '.join(r.raised) or 'none'}; pounds lower than the database in place: "
        f"{', '.join(r.lower) or 'none'}; {'PASS' if r.kept else 'FAIL'}"
    )
    starts = await start_ops(url, authorities, pounds, work)
    print(
        "  poundbot serve to /healthz 200: "
        + ", ".join(f"{s:.2f} s" for s in starts)
        + f"; median {statistics.median(starts):.2f} s"
    )
    return r.kept
