"""The administrative commands of ``poundbot``: migrate, users, invite, backup, export,
remind, deadlines, outbox failed.

Each command opens the app, calls a use case as the system, and prints plain results on
stdout; it raises what it refuses, and ``bot.entry.cli`` prints that as one line on stderr.

Why it is long: every administrative command.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from alembic.script import ScriptDirectory

from bot.adapters.backups import BackupError, backups_dir, copy_database
from bot.adapters.case_numbers import Places
from bot.adapters.export import changed_by, read_table
from bot.bootstrap import config_path, load, open_app
from bot.reminders.dispatch import remind_once
from bot.reminders.listing import deadline_lines
from bot.services.admin import (
    add_user,
    create_invite,
    disable_user,
    edit_user,
    enable_user,
    list_users,
    reinvite_user,
    remove_user,
    set_offices,
    user_history,
)
from bot.services.base import act_in_force
from bot.services.runtime import App
from bot.services.web_signin import LINK_VALID, issue_link_for
from bot.store.engine import BadDatabaseUrl, database_file, database_url, make_engine, parse_url
from bot.store.instances import worker_id
from bot.store.migrate import SchemaRefused, alembic_config, inspect_database, upgrade
from bot.store.models import Invite, User
from bot.support.caller import ADMIN, KEEPER, OFFICER, Caller
from bot.support.csv_sheet import Table, write_csv
from bot.support.errors import BadInputError
from bot.support.links import signin_path
from bot.support.offices import declared_offices, held_offices
from domain.calendar import LOCAL_TZ
from domain.profiles import Office, Power

if TYPE_CHECKING:
    from bot.adapters.restore import Restored

__all__ = [
    "DRIVERS",
    "CommandError",
    "backup",
    "check_url",
    "deadlines",
    "export",
    "invite",
    "messages_purge",
    "migrate",
    "outbox_failed",
    "remind",
    "require_database",
    "restore",
    "users_add",
    "users_disable",
    "users_edit",
    "users_enable",
    "users_history",
    "users_import",
    "users_list",
    "users_offices",
    "users_reinvite",
    "users_remove",
    "web_link",
]


class CommandError(Exception):
    """A command refused for a reason of its own (a backup of PostgreSQL, a file that exists)."""


@asynccontextmanager
async def _open() -> AsyncIterator[App]:
    """``open_app`` on the configuration in force (the database's version; the file's
    on a database that has none yet), saying which file cannot be read."""
    async with AsyncExitStack() as stack:
        try:
            app = await stack.enter_async_context(open_app())
        except OSError as exc:
            if exc.filename is None:  # the database's, not the file's
                raise
            raise CommandError(
                f"cannot read the configuration {config_path()}: {exc.strerror or exc}"
            ) from None
        yield app


#: The database URLs poundbot runs on: the embedded SQLite, and PostgreSQL by either driver.
DRIVERS = ("sqlite+aiosqlite", "postgresql+asyncpg", "postgresql+psycopg")


def check_url(url: str) -> None:
    """Refuse, in one line, a URL poundbot cannot run on (SQLAlchemy 2.1 would take a bare
    ``postgresql://`` for psycopg; ``mysql://`` and the like are not supported)."""
    try:
        driver = parse_url(url).drivername
    except BadDatabaseUrl:
        raise CommandError("POUNDBOT_DATABASE_URL is not a database URL") from None
    if driver == "postgresql":
        raise CommandError(
            "POUNDBOT_DATABASE_URL: say postgresql+asyncpg:// or postgresql+psycopg:// explicitly"
        )
    if driver not in DRIVERS:
        raise CommandError(
            f"POUNDBOT_DATABASE_URL: {driver}:// is not supported; use "
            + " or ".join(f"{name}://" for name in DRIVERS)
        )


def require_database(url: str) -> None:
    """Refuse a command that reads the embedded database when there is none: opening it
    would make a new, empty one (a command started from another folder, a wrong
    ``POUNDBOT_DATA_DIR``) and answer as if nothing had been recorded."""
    path = database_file(url)
    if path is not None and not path.is_file():
        raise CommandError(
            f"no database at {path}: run poundbot migrate to make one, "
            "or set POUNDBOT_DATA_DIR to the folder that holds it"
        )


def _shown(url: str) -> str:
    return parse_url(url).render_as_string(hide_password=True)


def _post(role: str, pound: str | None, authority: str | None) -> str:
    """ "keeper of pound KNM (KNM-GP)", "officer of KNM-GP", "admin of KNM-GP" (an
    authority admin), "state admin" (an admin of every authority)."""
    if role == KEEPER:
        return f"keeper of pound {pound} ({authority})"
    if role in (OFFICER, ADMIN) and authority is not None:
        return f"{role} of {authority}"
    if role == ADMIN:
        return "state admin"
    return role


def _who(user: User, *, named: bool = False) -> str:
    """A user's post (``_post``), and their name after it when ``named`` and they have one."""
    post = _post(user.role, user.pound_code, user.authority_code)
    return f"{post}, {user.name}" if named and user.name else post


_Done = TypeVar("_Done")


async def _change_user(
    change: Callable[..., Awaitable[_Done]], user_id: int, *given: object, **options: object
) -> _Done:
    """The use case ``change`` of the user ``user_id``, as the command line (the system),
    in a transaction of its own: what it returns."""
    async with _open() as app, app.store.transaction() as tx:
        return await change(tx, app.deps, Caller.system(), user_id, *given, **options)


def _offices(role: str, offices: str | None) -> str:
    """The offices a user holds, as ``--office`` names them: "police_station",
    "local_authority,secretary,specified_officer (none declared)"."""
    declared = declared_offices(offices)
    held = ",".join(o.value for o in Office if o in held_offices(role, declared))
    return f"{held} (none declared)" if role == OFFICER and not declared else held


def _unheld(app: App, users: list[User]) -> list[str]:
    """For each authority some officer of which holds a declared office: the offices its
    Act in force today gives powers to that no active officer of it holds, with those
    powers (what is for such an office goes to every officer, and any officer takes its
    steps)."""
    notes = []
    for authority in sorted({u.authority_code or "" for u in users if u.role == OFFICER}):
        officers = [u for u in users if u.role == OFFICER and u.authority_code == authority]
        if not any(declared_offices(u.offices) for u in officers):
            continue  # none declared: every officer stands for the local authority
        held = frozenset().union(
            *(held_offices(OFFICER, declared_offices(u.offices)) for u in officers)
        )
        act = act_in_force(app.config, authority, app.deps.today())
        powers: dict[Office, list[str]] = {}
        for power in Power:
            office = act.office_for(power)
            if office not in held and office is not Office.POUND_KEEPER:
                powers.setdefault(office, []).append(power.value)
        for office, names in powers.items():
            notes.append(
                f"note: no active officer of {authority} holds {office.value} under the "
                f"{act.key} profile ({', '.join(names)}): what is for it goes to every "
                "officer, and any officer may take its steps"
            )
    return notes


def _cell(value: object) -> str:
    text = "-" if value is None or value == "" else str(value)
    return " ".join(text.split())  # no tab or line break inside a column


# -- migrate ---------------------------------------------------------------------------


def _revisions() -> list[tuple[str, str]]:
    """Every migration, oldest first: (revision, its message)."""
    script = ScriptDirectory.from_config(alembic_config())
    return [
        (r.revision, (r.doc or "").strip().split("\n", 1)[0])
        for r in reversed(list(script.walk_revisions()))
    ]


def _refused(url: str, exc: SchemaRefused) -> int:
    """A database migrate will not touch: what is wrong, each difference on a line."""
    print(f"poundbot: error: database {_shown(url)}: {exc.summary}", file=sys.stderr)
    for line in exc.differences:
        print(f"  {line}", file=sys.stderr)
    print("nothing was changed (docs/operator/upgrade.md)", file=sys.stderr)
    return 1


async def migrate(args: argparse.Namespace) -> int:
    """Upgrade the database to the newest revision; ``--status``: the revision it is at and
    those still to apply, changing nothing; ``--history``: every migration. A database
    whose schema is not the one its revision gives is refused, with the differences."""
    url = database_url()
    if getattr(args, "history", False):
        for revision, message in _revisions():
            print(f"{revision}  {message}")
        return 0
    engine = make_engine(url)
    try:
        if getattr(args, "status", False):
            found = await inspect_database(engine)
            print(f"database {_shown(url)}: at revision {found.describe()}")
            if found.pending:
                print(
                    f"pending: {len(found.pending)} ({', '.join(found.pending)}); "
                    "poundbot migrate applies them"
                )
            else:
                print("pending: none (at head)")
            return 0
        done = await upgrade(engine)
    except SchemaRefused as exc:
        return _refused(url, exc)
    finally:
        await engine.dispose()
    head = done.before.head
    at = f"{done.after} (head)" if done.after == head else f"{done.after} (head is {head})"
    state = done.before.state
    if not done.before.pending and not (state and state.is_past):
        print(f"database {_shown(url)}: already at revision {at}")
    else:
        before = done.before.describe() if state else "an empty database"
        print(f"database {_shown(url)}: upgraded from {before} to {at}")
    return 0


# -- users -----------------------------------------------------------------------------


async def users_add(args: argparse.Namespace) -> int:
    """Register a keeper, an officer or an admin."""
    async with _open() as app, app.store.transaction() as tx:
        user = await add_user(
            tx,
            app.deps,
            Caller.system(),
            role=args.role,
            pound=args.pound,
            authority=args.authority,
            phone=args.phone,
            telegram_id=args.telegram_id,
            name=args.name,
            lang=args.lang,
            offices=args.office,
            reason=args.reason,
        )
    post = _who(user)
    extras = [
        f"phone {user.phone}" if user.phone else "",
        f"Telegram id {user.telegram_id}" if user.telegram_id is not None else "",
        f"name {user.name}" if user.name else "",
        f"language {user.lang}" if user.lang else "",
        f"offices {user.offices}" if user.offices else "",
    ]
    print(", ".join([f"added user {user.id}: {post}", *filter(None, extras)]))
    return 0


async def users_list(args: argparse.Namespace) -> int:
    """One tab-separated line per active user, with the offices they hold; on stderr,
    the offices an authority's Act needs that none of its officers holds, where some
    officer of it holds a declared office."""
    async with _open() as app:
        async with app.store.transaction() as tx:
            users = await list_users(tx, app.deps, Caller.system())
        notes = _unheld(app, users)
    header = ("id", "role", "pound/authority", "phone", "telegram id", "name", "lang", "offices")
    if users:
        print("\t".join(header))
    for user in users:
        place = user.pound_code if user.role == KEEPER else user.authority_code
        columns = (user.id, user.role, place, user.phone, user.telegram_id, user.name, user.lang)
        offices = _offices(user.role, user.offices)
        print("\t".join(_cell(value) for value in (*columns, offices)))
    if not users:
        print("no active users", file=sys.stderr)
    for note in notes:
        print(note, file=sys.stderr)
    return 0


async def users_offices(args: argparse.Namespace) -> int:
    """Declare the offices a user holds (``--none``: none declared)."""
    user = await _change_user(set_offices, args.id, args.office, reason=args.reason)
    print(f"user {user.id} ({_who(user)}) holds: {_offices(user.role, user.offices)}")
    return 0


async def users_edit(args: argparse.Namespace) -> int:
    """Change a user's name, phone, language, pound or authority, for a reason."""
    async with _open() as app, app.store.transaction() as tx:
        done = await edit_user(
            tx,
            app.deps,
            Caller.system(),
            args.id,
            reason=args.reason,
            name=args.name,
            phone=args.phone,
            lang=args.lang,
            pound=args.pound,
            authority=args.authority,
            state=args.state,
        )
        user = await tx.user_by_id(args.id)
    assert user is not None  # (edited just now)
    print(f"edited user {user.id} ({_who(user)}):")
    for change in done:
        print(f"  {change.field}: {change.old or '-'} -> {change.new or '-'}")
    return 0


async def users_disable(args: argparse.Namespace) -> int:
    """Disable a user at once (their web sessions end), for a reason."""
    user = await _change_user(disable_user, args.id, reason=args.reason)
    print(
        f"disabled user {user.id} ({_who(user, named=True)}): their web sessions are ended; "
        "their phone and Telegram id are free again (the audit keeps them)"
    )
    return 0


async def users_enable(args: argparse.Namespace) -> int:
    """Enable a disabled user again, for a reason."""
    user = await _change_user(enable_user, args.id, reason=args.reason)
    print(
        f"enabled user {user.id} ({_who(user)}): give them a phone (users edit {user.id} "
        f"--phone) or a Telegram account (users reinvite {user.id})"
    )
    return 0


async def users_history(args: argparse.Namespace) -> int:
    """The audit of the changes to a user (or to every user, or to an authority's), one
    tab-separated line each, oldest first."""
    async with _open() as app, app.store.transaction() as tx:
        changes = await user_history(
            tx, app.deps, Caller.system(), user_id=args.id, authority=args.authority
        )
    if not changes:
        print("no changes recorded", file=sys.stderr)
        return 0
    print("\t".join(("at", "user", "by", "field", "old", "new", "reason")))
    for change in changes:
        at = change.at.astimezone(LOCAL_TZ).strftime("%Y-%m-%d %H:%M:%S")
        columns = (at, change.user_id, changed_by(change), change.field, change.old)
        print("\t".join(_cell(value) for value in (*columns, change.new, change.reason)))
    return 0


async def users_reinvite(args: argparse.Namespace) -> int:
    """A new single-use invite code for an existing user; the older unused ones expire."""
    made = await _change_user(reinvite_user, args.id, reason=args.reason, days=args.days)
    _print_invite(made, f"user {args.id}, ")
    return 0


async def users_remove(args: argparse.Namespace) -> int:
    """Disable a user (``users disable``); the audit log keeps them."""
    user = await _change_user(remove_user, args.id, reason=args.reason)
    print(
        f"removed user {user.id} ({_who(user, named=True)}): kept for the audit log; "
        "their phone and Telegram id are free again"
    )
    return 0


async def users_import(args: argparse.Namespace) -> int:
    """Users in bulk from a CSV file (``bot.services.user_import``, as the web desk's
    ``/web/users/import``): what each line does, then (unless ``--dry-run``) the import
    of exactly that, in one transaction, and the new users' invites; a refused line
    imports nothing."""
    from bot.i18n import translator
    from bot.i18n.chrome import user_import as words
    from bot.services.user_import import REFUSED, apply_import, plan_import
    from bot.support.errors import SheetRefusedError

    tr = translator("en")
    try:
        data = await asyncio.to_thread(Path(args.file).read_bytes)
    except OSError as exc:
        raise CommandError(f"{args.file}: cannot read: {exc.strerror or exc}") from None
    async with _open() as app:
        try:
            plan = await plan_import(
                app.store,
                app.deps,
                Caller.system(),
                data,
                reason=args.reason,
                words=words.vocabulary(),
            )
        except SheetRefusedError as exc:
            raise CommandError(f"{args.file}: {words.sheet_refused(exc, tr)}") from None
        for line in plan.lines:
            said = (
                [words.line_refused(line.refusal, tr)]
                if line.refusal is not None
                else [words.change_line(c, tr) for c in line.changes]
            )
            who = " ".join(filter(None, (line.name, line.phone)))
            print(f"line {line.line}\t{line.kind}\t{who}\t{'; '.join(said)}")
        if plan.ignored:
            print(f"columns not read: {', '.join(plan.ignored)}", file=sys.stderr)
        counts = ", ".join(f"{plan.count(k)} {k}" for k in ("new", "changed", "unchanged", REFUSED))
        print(counts)
        if plan.refused:
            print("nothing imported: correct the refused lines", file=sys.stderr)
            return 1
        if args.dry_run or not plan.changes:
            print("dry run: nothing changed" if args.dry_run else "nothing to change")
            return 0
        done = await apply_import(
            app.store,
            app.deps,
            Caller.system(),
            data,
            reason=args.reason,
            expected=plan.digest,
            words=words.vocabulary(),
        )
    print(f"imported: {counts}")
    bot_name = os.environ.get("TELEGRAM_BOT_USERNAME", "").strip().lstrip("@")
    for invited in done.invites:
        expires = invited.expires_at.astimezone(LOCAL_TZ).strftime("%Y-%m-%d %H:%M %Z")
        link = f"https://t.me/{bot_name}?start={invited.code}" if bot_name else invited.code
        print(f"invite line {invited.line}, user {invited.user_id}: {link} (until {expires})")
    return 0


async def contacts_channel(args: argparse.Namespace) -> int:
    """Choose the channel a number is written to on (``auto``: the one it last wrote on)."""
    from bot.adapters.whatsapp_route import set_channel
    from bot.store.contacts import contact as contact_of
    from bot.support.phones import PhoneError, normalize_phone

    async with _open() as app:
        try:
            phone = normalize_phone(args.phone, app.config.phone_region)
        except PhoneError as exc:
            raise CommandError(f"not a mobile number: {args.phone!r}") from exc
        chosen = None if args.channel == "auto" else args.channel
        async with app.store.transaction() as tx:
            await set_channel(tx, phone, chosen)
            contact = await contact_of(tx, phone)
            last = contact.last_channel if contact else None
    how = f"by {chosen} (chosen)" if chosen else f"by {last or 'sms'}, the channel it last wrote on"
    print(f"{phone}: messages go {how}")
    return 0


# -- invite ----------------------------------------------------------------------------


async def invite(args: argparse.Namespace) -> int:
    """A single-use code that binds a Telegram account to a role."""
    async with _open() as app, app.store.transaction() as tx:
        made = await create_invite(
            tx,
            app.deps,
            Caller.system(),
            role=args.role,
            pound=args.pound,
            authority=args.authority,
            name=args.name,
            days=args.days,
            offices=args.office,
        )
    _print_invite(made)
    return 0


def _print_invite(made: Invite, user: str = "") -> None:
    """The code of an invite, whom it is for (``user``: "user N, " of an existing one),
    when it expires, and how to give it."""
    expires = made.expires_at.astimezone(LOCAL_TZ).strftime("%Y-%m-%d %H:%M %Z")
    name = f", name {made.name}" if made.name else ""
    print(f"invite code: {made.code}")
    print(f"for: {user}{_post(made.role, made.pound_code, made.authority_code)}{name}")
    if made.offices:
        print(f"offices: {made.offices}")
    print(f"expires: {expires} (single use)")
    bot_name = os.environ.get("TELEGRAM_BOT_USERNAME", "").strip().lstrip("@")
    if bot_name:
        print(f"link: https://t.me/{bot_name}?start={made.code}")
    else:
        print(
            f"give the code: in Telegram, open the bot and send /start {made.code} "
            "(set TELEGRAM_BOT_USERNAME to print a link)"
        )


# -- web-link --------------------------------------------------------------------------


async def web_link(args: argparse.Namespace) -> int:
    """A single-use sign-in link of the web desk for user ``--user`` (valid 15 minutes)."""
    async with _open() as app, app.store.transaction() as tx:
        token = await issue_link_for(tx, args.user)
    base = os.environ.get("POUNDBOT_PUBLIC_URL", "").strip().rstrip("/")
    print(f"{base or 'http://127.0.0.1:8080'}{signin_path(token)}")
    print(f"valid {int(LINK_VALID.total_seconds() // 60)} minutes, once")
    if not base:
        print("(POUNDBOT_PUBLIC_URL is not set: the address of `poundbot serve` on this machine)")
    return 0


# -- backup ----------------------------------------------------------------------------


def backup(args: argparse.Namespace) -> int:
    """Copy the embedded SQLite database to FILE, safely while the server runs."""
    url = parse_url(database_url())
    if url.get_backend_name() != "sqlite":
        raise CommandError(
            f"backup copies the embedded SQLite database; {_shown(database_url())} is "
            f"{url.get_backend_name()}: use pg_dump (e.g. pg_dump -Fc -f FILE DBNAME)"
        )
    if not url.database or url.database == ":memory:":
        raise CommandError("an in-memory database has nothing to back up")
    source_path = Path(url.database)
    if args.file:
        target = Path(args.file)
    else:  # into the backups folder beside the database, made if need be
        folder = backups_dir(source_path)
        folder.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(LOCAL_TZ).strftime("%Y-%m-%d-%H%M%S")
        target = folder / f"{source_path.stem}-{stamp}.sqlite3"
    if target.exists():
        raise CommandError(f"{target} exists: back up to a new file")
    if not target.parent.is_dir():
        raise CommandError(f"no folder {target.parent}: make it first, or back up elsewhere")
    try:
        copy_database(source_path, target)
    except BackupError as exc:
        raise CommandError(str(exc)) from None
    print(f"backed up {source_path} to {target} ({target.stat().st_size} bytes, quick_check ok)")
    return 0


def restore(args: argparse.Namespace) -> int:
    """Replace the embedded SQLite database with the checked backup FILE (``bot.adapters.restore``);
    the database replaced is kept beside it, and so are the case numbers it issued."""
    from bot.adapters.case_numbers import CaseNumberError, parse_next_numbers
    from bot.adapters.restore import RestoreError
    from bot.adapters.restore import restore as put_back

    url = database_url()
    database = database_file(url)
    if parse_url(url).get_backend_name() != "sqlite":
        raise CommandError(
            f"restore replaces the embedded SQLite database; {_shown(url)} is "
            f"{parse_url(url).get_backend_name()}: use pg_restore (e.g. pg_restore --clean "
            "--if-exists -d DBNAME FILE) and keep the case numbers issued after the backup "
            "as the operator's guide says (Backups)"
        )
    if database is None:
        raise CommandError("an in-memory database cannot be restored")
    try:
        given = parse_next_numbers(args.next_number)
        done = put_back(
            Path(args.file),
            database,
            datetime.now(LOCAL_TZ),
            force=args.force,
            next_numbers=given,
            places=_places,
        )
    except (RestoreError, CaseNumberError) as exc:
        raise CommandError(str(exc)) from None
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    later = "" if done.revision == head else f"; upgraded to {head} when poundbot next opens it"
    print(f"restored {args.file} into {database} (migration revision {done.revision}{later})")
    print(
        f"kept the database it replaced as {done.kept}"
        if done.kept
        else "there was no database before"
    )
    for line in _case_numbers(done):
        print(line)
    if done.forced:
        print("a server was using the database: restart it now (e.g. systemctl restart poundbot)")
    return 0


def _places(in_force: str | None) -> Places:
    """The authorities and pounds of the configuration in force: ``in_force``, the text
    of the version in force of the database replaced, else (it holds none, or cannot be
    read) the configuration file's."""
    from bot.config import ConfigError, parse_config

    try:
        config = parse_config(in_force, "the database's version in force") if in_force else load()
    except ConfigError as exc:
        if not in_force:
            raise
        raise CommandError(
            f"the configuration in force in the database replaced has {len(exc.faults)} "
            "fault(s): poundbot config check"
        ) from None
    except OSError as exc:
        raise CommandError(
            f"cannot read the configuration {config_path()}: {exc.strerror or exc}"
        ) from None
    return Places(
        {code: a.name for code, a in config.authorities.items()},
        {code: (p.authority, p.name) for code, p in config.pounds.items()},
    )


def _case_numbers(done: Restored) -> list[str]:
    """What a restore did to the case numbers, and the cases to enter again."""
    lines = [f"{done.unread}: the next case numbers are those given"] if done.unread else []
    for counter in done.counters:
        pound, last = counter.pound, counter.last
        how = (
            "as --next-number says" if counter.given else "the last number of the database replaced"
        )
        if counter.backup is None:
            before = f"the backup has no pound {pound}"
        elif counter.backup == 0:
            before = f"the backup has no case of {pound}"
        else:
            before = f"the backup's last is {pound}-{counter.backup}"
        lines.append(f"case numbers: {pound} goes on from {pound}-{last}, {how} ({before})")
    if not done.counters:
        lines.append(
            "case numbers: as in the backup"
            + (", as given" if done.unread else " (the database replaced has no higher number)")
        )
    if done.unread:
        lines.append(
            "the cases numbered after the backup are not known: ask the keepers for the SMS "
            "poundbot sent them since, and enter those cases again"
        )
    elif done.after:
        count = len(done.after)
        lines.append(
            f"{count} cases were numbered after the backup and are not in it: enter them "
            "again (they get new numbers)"
            if count != 1
            else "1 case was numbered after the backup and is not in it: enter it again "
            "(it gets a new number)"
        )
        lines.append("\t".join(("case", "pound", "impounded on", "recorded by")))
        lines += [
            "\t".join((case.number, case.pound, case.impounded_on, case.keeper or "not known"))
            for case in done.after
        ]
    return lines


# -- export ----------------------------------------------------------------------------


async def _read_export(args: argparse.Namespace) -> Table:
    async with _open() as app:
        if args.authority is not None and args.authority not in app.config.authorities:
            raise BadInputError("unknown authority", authority=args.authority)
        async with app.store.transaction() as tx:
            return await read_table(tx, args.what, authority=args.authority)


def export(args: argparse.Namespace) -> int:
    """The cases, the ledger or the audit of users as CSV, to stdout or FILE (written once
    all is read)."""
    check_url(database_url())
    table = asyncio.run(_read_export(args))
    if args.out is None:
        write_csv(sys.stdout, table)
        return 0
    with open(args.out, "w", encoding="utf-8", newline="") as out:
        write_csv(out, table)
    count = len(table.records)
    noun = {
        "cases": ("case", "cases"),
        "ledger": ("ledger row", "ledger rows"),
        "audit": ("change", "changes"),
    }[args.what]
    print(f"wrote {count} {noun[count != 1]} to {args.out}")
    return 0


# -- reminders -------------------------------------------------------------------------


async def remind(args: argparse.Namespace) -> int:
    """One pass of the reminder engine (for cron): plan, then queue every due reminder.

    The messages go into the outbox; ``poundbot serve`` delivers them.
    """
    async with _open() as app:
        done = await remind_once(app.store, app.config, worker_id())
    print(
        f"reminders: {done.reminders} sent ({done.messages} messages queued in the outbox), "
        f"{done.failed} failed; {done.planned} deadlines planned"
    )
    return 0


async def deadlines(args: argparse.Namespace) -> int:
    """The open deadlines and the reminders due, sent and failed (tab-separated)."""
    async with _open() as app:
        if args.authority is not None and args.authority not in app.config.authorities:
            raise BadInputError("unknown authority", authority=args.authority)
        async with app.store.transaction() as tx:
            lines = await deadline_lines(tx, app.config, authority=args.authority, days=args.days)
    for line in lines:
        print(line)
    return 0


async def outbox_failed(args: argparse.Namespace) -> int:
    """One tab-separated line per message given up in the last ``--days`` days: id,
    channel, recipient, when queued, the DLT template (if found) and the reason."""
    from bot.store.outbox import failed_since

    async with _open() as app, app.store.transaction() as tx:
        since = tx.now - timedelta(days=args.days)
        rows = await failed_since(tx, since)
        lines = [
            (r.id, r.channel, r.recipient, r.created_at, r.template, r.last_error) for r in rows
        ]
    if lines:
        print("\t".join(("id", "channel", "recipient", "queued", "template", "reason")))
    for line in lines:
        print("\t".join(_cell(value) for value in line))
    if not lines:
        print(f"no message failed in the last {args.days} days", file=sys.stderr)
    return 0


async def messages_purge(args: argparse.Namespace) -> int:
    """Purge the text and number of the messages older than ``[retention]
    messages_days`` (``bot.services.retention``), in batches; ``--dry-run``: say how many
    would be purged and change nothing."""
    from bot.services.retention import purge_messages

    async with _open() as app:
        days = app.config.retention.messages_days
        purged = await purge_messages(app.store, days, app.store.clock.now(), dry_run=args.dry_run)
    verb = "would be purged" if purged.dry_run else "purged"
    print(
        f"{purged.total} messages older than {days} days {verb} "
        f"({purged.inbox} in, {purged.outbox} out; before {purged.before:%Y-%m-%d %H:%M} UTC)"
    )
    return 0
