"""``poundbot serve`` checks its database before it starts, then closes the event loop
the check ran on. A SQLite file that cannot be opened must leave no thread of the
driver behind: aiosqlite stops such a connection's thread without waiting for it, and a
thread that outlives the loop hands its result to a closed loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from bot.store.writable import database_fault


def test_a_database_that_cannot_be_opened_leaves_no_thread_behind_when_the_check_ends(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "pound.db"
    folder.mkdir()  # the database's path is a folder: SQLite cannot open it
    url = f"sqlite+aiosqlite:///{folder}"
    for _ in range(10):  # the driver's thread ends on its own time: try it often
        before = threading.active_count()
        fault = asyncio.run(database_fault(url))
        assert fault == "unable to open database file"
        assert threading.active_count() == before
