"""The ``poundbot`` command line.

Why it is long: the arguments of every subcommand, and the start-up of the server."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.support.languages import LANGUAGES

# Only what builds the parser is imported here: `poundbot --help`, `--version` and
# `config check` must answer without loading the stack (PTB, twilio, SQLAlchemy, Alembic);
# each command imports what it uses when it runs, only the command named is built and
# `config check` and `config init`, which log nothing, do not load logging; a bare
# `config check [FILE]` or `--version` builds no parser at all (bench/cli_start.py
# measures this).

if TYPE_CHECKING:
    import logging

    from bot.config import Config
    from bot.store.schema import SchemaRefused

__all__ = ["build_parser", "main"]


def _serve(args: argparse.Namespace) -> int:
    import asyncio
    import logging

    import uvicorn

    from bot.bootstrap import open_app
    from bot.channels.telegram.webhook import TelegramOptions
    from bot.config.settings import Settings
    from bot.entry.app import build_app, log_report, report_lines
    from bot.entry.cli_admin import CommandError, check_url
    from bot.store.engine import database_url, parse_url
    from bot.store.writable import database_fault, shown

    log = logging.getLogger("poundbot")
    if args.config:  # --config PATH: as POUNDBOT_CONFIG=PATH
        os.environ["POUNDBOT_CONFIG"] = args.config
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        log.error("refusing to start: %s", exc)
        return 2
    refusal = settings.sms_refusal()
    if refusal:  # a provider named and not configured: not "SMS: off", a refusal
        log.error("refusing to start: %s", refusal)
        return 2
    url = database_url()
    try:
        check_url(url)
    except CommandError as exc:  # a URL poundbot cannot run on (mysql://, bare postgresql://)
        log.error("refusing to start: %s", exc)
        return 2
    unusable = asyncio.run(database_fault(url))
    if unusable:
        log.error("refusing to start: database %s: %s", shown(url), unusable)
        return 2
    refused = asyncio.run(_schema_fault(url))
    if refused is not None:  # a schema this version will not migrate, or not migrated
        log.error("refusing to start: database %s: %s", shown(url), refused.summary)
        for line in refused.differences:
            log.error("  %s", line)
        return 2
    config = _starts_on(log)
    if config is None:
        return 2

    # The first lines: what is on and off, before uvicorn or a migration logs anything.
    options = TelegramOptions(polling=args.polling)
    log.info(
        "Logs: level %s, format %s (--log-level, POUNDBOT_LOG_FORMAT)",
        args.log_level,
        args.log_format,
    )
    log_report(report_lines(config, parse_url(url), polling=options.polling, settings=settings))
    app = build_app(lambda: open_app(), settings, telegram=options, report=False)
    # log_config=None: uvicorn's loggers (the access log too) write through the root
    # handlers, where bot.observe.logsafe redacts (query strings and signatures of request
    # paths, telephone numbers).
    # proxy_headers=False: the app reads X-Forwarded-For itself, from the proxies of
    # POUNDBOT_TRUSTED_PROXIES; uvicorn's own reading would trust FORWARDED_ALLOW_IPS too.
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        log_config=None,
        proxy_headers=False,
    )
    return 0


def _starts_on(log: logging.Logger) -> Config | None:
    """The configuration ``serve`` starts on: the database's version in force, else (none
    yet) the configuration file, which the first start imports. A file with faults, or
    one that cannot be read, refuses the start only when the database has no version to
    run on (None, said in the log); beside a version, it is warned of as the app opens
    (``bot.bootstrap.from_database``)."""
    from bot.bootstrap import config_path, load
    from bot.config import ConfigError
    from bot.entry.config_store import database_version
    from bot.services.config_versions import config_of

    try:
        found = database_version()
    except Exception:  # not readable: as a database without a version (the file is read)
        found = None
    try:
        return config_of(found) if found is not None else load()
    except (ConfigError, OSError) as exc:
        name = f"version {found.id} of the database" if found is not None else config_path()
        log.error("refusing to start: the configuration %s is not valid", name)
        if isinstance(exc, ConfigError):
            for fault in exc.faults:
                log.error("  %s:%d: %s", exc.name, fault.line, fault.message)
        else:
            log.error("  %s", exc)
        return None


async def _schema_fault(url: str) -> SchemaRefused | None:
    """Why ``serve`` may not start on the database at ``url`` (``bot.store.migrate``):
    the embedded database is migrated as the server starts; PostgreSQL must be already."""
    from bot.bootstrap import is_embedded
    from bot.store.engine import make_engine
    from bot.store.migrate import schema_fault

    engine = make_engine(url)
    try:
        return await schema_fault(engine, migrates=is_embedded(url))
    finally:
        await engine.dispose()


def _telegram_set_webhook(args: argparse.Namespace) -> int:
    """Register the webhook with Telegram: POUNDBOT_PUBLIC_URL/telegram, with the secret."""
    from telegram.error import TelegramError

    from bot.channels.telegram.connect import set_webhook

    try:
        import asyncio

        from bot.config.settings import Settings

        print(asyncio.run(set_webhook(Settings.from_env(), drop_pending=args.drop_pending)))
    except (ValueError, TelegramError) as exc:
        print(f"poundbot: error: {exc}", file=sys.stderr)
        return 1
    return 0


def _config_init(args: argparse.Namespace) -> int:
    """Write the sample configuration to a new file."""
    from bot.config import sample_config_path

    target = Path(args.path)
    if target.exists():
        print(f"poundbot: error: {target} exists: write the sample to a new file", file=sys.stderr)
        return 1
    if not target.parent.is_dir():
        print(f"poundbot: error: no folder {target.parent}: make it first", file=sys.stderr)
        return 1
    target.write_text(sample_config_path().read_text(encoding="utf-8"), encoding="utf-8")
    print(
        f"wrote {target}: the sample configuration, commented. Edit it, check it with "
        f"poundbot config check {target}, then run with POUNDBOT_CONFIG={target} "
        f"(or poundbot serve --config {target})"
    )
    return 0


def _config_check(args: argparse.Namespace) -> int:
    """Check a configuration file, or (no FILE) the database's version in force, else
    the file in use: "NAME: OK (...)" with the Act each authority applies and the notes
    of what to confirm of it, or each fault as "NAME:LINE: message"."""
    from bot.config import config_path, load_config

    strict = getattr(args, "strict", False)
    if args.file is None:
        from bot.entry.cli_config import check_in_force

        done = check_in_force(strict)
        if done is not None:
            return done
        args.file = config_path()
    from bot.entry.cli_check import check_loaded

    return check_loaded(args.file, lambda: load_config(args.file), strict=strict)


# -- the administrative commands ------------------------------------------------------


#: The commands that only read the database: without one, they say so (not make one).
READERS = frozenset(
    {"users_list", "users_history", "export", "deadlines", "backup", "outbox_failed"}
)


def _admin(name: str) -> Callable[[argparse.Namespace], int]:
    """Run the command ``name`` of ``bot.entry.cli_admin`` (on its own event loop when it is
    async), imported when it runs; print a refusal as ``poundbot: error: ...`` on stderr
    and return 1."""

    def run(args: argparse.Namespace) -> int:
        import inspect

        from bot.entry.cli_refusals import one_line, refusals

        cli_admin = importlib.import_module("bot.entry.cli_admin")
        command = getattr(cli_admin, name)
        try:
            from bot.store.engine import database_url

            cli_admin.check_url(database_url())
            if name in READERS:
                cli_admin.require_database(database_url())
            from bot.config.settings import Settings
            from bot.i18n.sms_keyword import keyword_in_sms

            try:  # the reminders it queues tell what to send as the server's SMS do
                keyword = Settings.from_env().instruction_keyword()
            except ValueError:
                keyword = ""  # a bad setting: the command that reads it says so
            with keyword_in_sms(keyword):
                if inspect.iscoroutinefunction(command):
                    import asyncio

                    return int(asyncio.run(command(args)))
                return int(command(args))
        except refusals() as exc:
            print(f"poundbot: error: {one_line(exc)}", file=sys.stderr)
            return 1

    return run


class _Version(argparse.Action):
    """``--version``: the installed version, read from the package metadata only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        _print_version()
        parser.exit()


def _print_version() -> None:
    """Print ``poundbot VERSION``: the installed version, from the package metadata."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("poundbot")
    except PackageNotFoundError:  # run from a checkout that was never installed
        found = "unknown (not installed)"
    print(f"poundbot {found}")


def _days(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of days")
    return value


def _role_and_place(parser: argparse.ArgumentParser) -> None:
    from bot.support.caller import ROLES

    parser.add_argument("--role", required=True, choices=ROLES, help="what they may do")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--pound", metavar="CODE", help="the pound of a keeper")
    where.add_argument(
        "--authority",
        metavar="CODE",
        help="the local authority of an officer; of an admin, the one authority they "
        "administer (without it, an admin administers every authority: a state admin)",
    )


def _office_option(parser: argparse._ActionsContainer, what: str) -> None:
    """``--office``, repeated: offices of ``domain.profiles.Office``, by value."""
    from domain.profiles import Office

    parser.add_argument(
        "--office",
        action="append",
        default=[],
        choices=[office.value for office in Office],
        metavar="OFFICE",
        help=f"an office {what} (repeat for more): "
        + ", ".join(office.value for office in Office)
        + "; an officer with none stands for the local authority",
    )


def _reason_option(parser: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``--reason``: why a user is changed, kept in the audit with the change."""
    parser.add_argument(
        "--reason",
        required=required,
        default="",
        metavar="TEXT",
        help="why, kept in the audit with the change" + ("" if required else " (optional)"),
    )


def _add_admin_commands(sub: Any) -> None:
    from bot.support.caller import ROLES  # (a dataclass module: only where a parser is built)

    migrate = sub.add_parser(
        "migrate",
        help="upgrade the database to the newest schema",
        description="Upgrade the database to the newest schema (Alembic), or say where it stands.",
    )
    shown = migrate.add_mutually_exclusive_group()
    shown.add_argument(
        "--status", action="store_true", help="the revision the database is at, and what is pending"
    )
    shown.add_argument("--history", action="store_true", help="every migration, oldest first")
    migrate.set_defaults(func=_admin("migrate"))

    users = sub.add_parser(
        "users", help="register, list, edit, disable and enable users; their history"
    ).add_subparsers(dest="users_command", required=True)
    add = users.add_parser("add", help=f"register a {', '.join(ROLES)}")
    _role_and_place(add)
    add.add_argument("--phone", metavar="E164", help="e.g. +919847012345")
    add.add_argument("--telegram-id", type=int, metavar="N", help="their numeric Telegram id")
    add.add_argument("--name", default="", help="their name, as colleagues know it")
    add.add_argument("--lang", choices=LANGUAGES, help="the language poundbot writes to them in")
    _office_option(add, "they hold")
    _reason_option(add, required=False)
    add.set_defaults(func=_admin("users_add"))
    listing = users.add_parser(
        "list", help="the active users, one tab-separated line each, with the offices they hold"
    )
    listing.set_defaults(func=_admin("users_list"))
    offices = users.add_parser(
        "offices", help="declare the offices a user holds, in place of those declared before"
    )
    offices.add_argument("id", type=int, metavar="ID", help="the id that `users list` shows")
    held = offices.add_mutually_exclusive_group(required=True)
    _office_option(held, "they hold")
    held.add_argument(
        "--none",
        action="store_true",
        help="none declared: an officer stands for the local authority",
    )
    _reason_option(offices, required=False)
    offices.set_defaults(func=_admin("users_offices"))
    edit = users.add_parser(
        "edit",
        help="change a user's name, phone, language, pound or authority (not their role: "
        "disable them and add a user in the new role)",
    )
    edit.add_argument("id", type=int, metavar="ID", help="the id that `users list` shows")
    edit.add_argument("--name", help="their name, as colleagues know it")
    edit.add_argument("--phone", metavar="E164", help="e.g. +919847012345 (no other user's)")
    edit.add_argument("--lang", choices=LANGUAGES, help="the language poundbot writes to them in")
    where = edit.add_mutually_exclusive_group()
    where.add_argument("--pound", metavar="CODE", help="the pound of a keeper")
    where.add_argument(
        "--authority",
        metavar="CODE",
        help="the local authority of an officer, or the one an admin administers",
    )
    where.add_argument(
        "--state", action="store_true", help="make an admin a state admin (every authority)"
    )
    _reason_option(edit)
    edit.set_defaults(func=_admin("users_edit"))
    for verb, text in (
        ("disable", "disable a user at once: their web sessions end, they are the public"),
        ("enable", "enable a disabled user again, in the role and place they had"),
    ):
        command = users.add_parser(verb, help=text)
        command.add_argument("id", type=int, metavar="ID", help="the id of the user")
        _reason_option(command)
        command.set_defaults(func=_admin(f"users_{verb}"))
    remove = users.add_parser("remove", help="disable a user (as `users disable`)")
    remove.add_argument("id", type=int, metavar="ID", help="the id that `users list` shows")
    remove.add_argument(
        "--reason", default="removed", metavar="TEXT", help='why (default: "removed")'
    )
    remove.set_defaults(func=_admin("users_remove"))
    reinvite = users.add_parser(
        "reinvite",
        help="a new single-use Telegram invite code for an existing user (a new phone or "
        "account); their older unused codes expire",
    )
    reinvite.add_argument("id", type=int, metavar="ID", help="the id that `users list` shows")
    reinvite.add_argument("--days", type=_days, default=7, metavar="N", help="valid N days (7)")
    _reason_option(reinvite)
    reinvite.set_defaults(func=_admin("users_reinvite"))
    history = users.add_parser(
        "history", help="the audit of the changes to a user, or to every user, oldest first"
    )
    history.add_argument("id", type=int, metavar="ID", nargs="?", help="only this user")
    history.add_argument("--authority", metavar="CODE", help="only the users of this authority")
    history.set_defaults(func=_admin("users_history"))
    imported = users.add_parser(
        "import",
        help="add and change users in bulk from a CSV file (name, phone, role, language, "
        "pound, authority, offices, reason): what each line does, then all of it or nothing",
    )
    imported.add_argument("file", metavar="FILE", help="the CSV file (UTF-8), one user a line")
    imported.add_argument(
        "--dry-run", action="store_true", help="say what each line would do, change nothing"
    )
    _reason_option(imported)
    imported.set_defaults(func=_admin("users_import"))

    contacts = sub.add_parser(
        "contacts", help="the channel a telephone number is written to on"
    ).add_subparsers(dest="contacts_command", required=True)
    channel = contacts.add_parser(
        "channel",
        help="write to a number by SMS or WhatsApp; auto: the channel it last wrote on",
    )
    channel.add_argument("phone", metavar="PHONE", help="e.g. +919847012345")
    channel.add_argument(
        "channel", choices=("sms", "whatsapp", "auto"), help="auto: the channel it last wrote on"
    )
    channel.set_defaults(func=_admin("contacts_channel"))

    invite = sub.add_parser("invite", help="make a single-use Telegram invite code")
    _role_and_place(invite)
    invite.add_argument("--name", default="", help="the name of the person invited")
    invite.add_argument("--days", type=_days, default=7, metavar="N", help="valid N days (7)")
    _office_option(invite, "the user it makes holds")
    invite.set_defaults(func=_admin("invite"))

    web_link = sub.add_parser(
        "web-link", help="print a single-use sign-in link of the web desk (15 minutes)"
    )
    web_link.add_argument(
        "--user", type=int, required=True, metavar="N", help="the id that `users list` shows"
    )
    web_link.set_defaults(func=_admin("web_link"))

    backup = sub.add_parser(
        "backup",
        help="copy the embedded SQLite database to FILE (default: into its backups folder)",
    )
    backup.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        default="",
        help="a new file in an existing folder; none: backups/ beside the database, made if "
        "need be, in a file named by the date and time",
    )
    backup.set_defaults(func=_admin("backup"))
    restore = sub.add_parser(
        "restore",
        help="replace the embedded SQLite database with a checked backup (the old one is kept)",
    )
    restore.add_argument("file", metavar="FILE", help="a backup made by poundbot")
    restore.add_argument(
        "--force",
        action="store_true",
        help="restore even while a server uses the database (restart it after)",
    )
    restore.add_argument(
        "--next-number",
        action="append",
        default=[],
        metavar="POUND=N",
        help="the next case number of POUND is POUND-N (again for each pound): needed for "
        "every pound when the database in place is missing or cannot be read; never below "
        "the backup's next or the database in place's",
    )
    restore.set_defaults(func=_admin("restore"))

    export = sub.add_parser("export", help="export the cases or the ledger").add_subparsers(
        dest="what", required=True
    )
    for what, text in (
        ("cases", "every case"),
        ("ledger", "the ledger, oldest first"),
        ("audit", "the audit of the changes to users (who, when, old and new, why), oldest first"),
    ):
        table = export.add_parser(what, help=f"{text}, as CSV")
        table.add_argument("--csv", action="store_true", help="CSV (RFC 4180; the only format)")
        if what != "cases":
            table.add_argument("--authority", metavar="CODE", help="only this authority")
        table.add_argument("--out", metavar="FILE", help="write to FILE, not stdout")
        table.set_defaults(func=_admin("export"), authority=None)


def _add_dlt_commands(sub: Any) -> None:
    from bot.entry.cli_dlt import add_dlt_commands

    add_dlt_commands(sub)
    outbox = sub.add_parser("outbox", help="the outbound messages")
    outbox_sub = outbox.add_subparsers(dest="outbox_command", required=True)
    failed = outbox_sub.add_parser(
        "failed", help="the messages given up, with the reason (a DLT refusal among them)"
    )
    failed.add_argument(
        "--days", type=_days, default=7, metavar="N", help="queued in the last N days (7)"
    )
    failed.set_defaults(func=_admin("outbox_failed"))
    messages = sub.add_parser("messages", help="the messages in and out")
    messages_sub = messages.add_subparsers(dest="messages_command", required=True)
    purge = messages_sub.add_parser(
        "purge",
        help="purge the text and number of the messages older than [retention] "
        "messages_days (the rows and their counts stay)",
    )
    purge.add_argument("--dry-run", action="store_true", help="only say how many would be purged")
    purge.set_defaults(func=_admin("messages_purge"))


def _add_reminder_commands(sub: Any) -> None:
    remind = sub.add_parser("remind", help="plan and queue the reminders that are due")
    remind.add_argument(
        "--once", action="store_true", help="one pass, then exit (the default; for cron)"
    )
    remind.set_defaults(func=_admin("remind"))
    listing = sub.add_parser(
        "deadlines", help="the open deadlines and the reminders due, sent and failed"
    )
    listing.add_argument("--authority", metavar="CODE", help="only this authority")
    listing.add_argument(
        "--days", type=_days, default=7, metavar="N", help="reminders of the last N days (7)"
    )
    listing.set_defaults(func=_admin("deadlines"))


class _Unbuilt:
    """The parser of a command the command line does not name: whatever is added to it
    is dropped (argparse would spend more on thirty parsers than ``config check`` spends
    on its work)."""

    def __getattr__(self, name: str) -> Callable[..., _Unbuilt]:
        return lambda *args, **kwargs: self


class _Commands:
    """``poundbot``'s subcommands, each built only when wanted: all of them (for
    ``--help``, or a word that is no command), or the one the command line names."""

    def __init__(self, sub: Any, only: str | None) -> None:
        self._sub, self._only, self.built = sub, only, False

    def wants(self, name: str) -> bool:
        return self._only is None or name == self._only

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if not self.wants(name):
            return _Unbuilt()
        self.built = True
        return self._sub.add_parser(name, **kwargs)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or (``only``) of the top level and that command."""
    parser = argparse.ArgumentParser(
        prog="poundbot",
        description="poundbot: the cattle pounds of a local authority under the Kerala "
        "Cattle Trespass Act, 1961, by Telegram, SMS and WhatsApp, with a web desk.",
        epilog="Credentials and addresses come from environment variables: poundbot env "
        "lists them (and what each is set to). The configuration in force: poundbot "
        "config show. Each command's --help has an example.",
    )
    parser.add_argument("--version", action=_Version, help="print poundbot's version and exit")
    parser.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        help="what is logged, on stderr (default: POUNDBOT_LOG_LEVEL, else info for serve "
        "and warning for the other commands); POUNDBOT_LOG_FORMAT=json writes one JSON "
        "object a line",
    )
    sub = _Commands(parser.add_subparsers(dest="command", required=True), only)
    serve = sub.add_parser("serve", help="serve the webhooks and run the reminder engine")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port to listen on (8080)")
    serve.add_argument(
        "--polling",
        action="store_true",
        help="take Telegram updates by long polling (development: no public URL needed)",
    )
    serve.add_argument(
        "--config",
        metavar="PATH",
        help="the configuration file (as POUNDBOT_CONFIG; default: that, else the sample)",
    )
    serve.set_defaults(func=_serve)
    telegram = sub.add_parser("telegram", help="connect the Telegram bot")
    telegram_sub = telegram.add_subparsers(dest="telegram_command", required=True)
    hook = telegram_sub.add_parser(
        "set-webhook",
        help="register POUNDBOT_PUBLIC_URL/telegram with TELEGRAM_WEBHOOK_SECRET",
    )
    hook.add_argument(
        "--drop-pending", action="store_true", help="drop the updates Telegram is holding"
    )
    hook.set_defaults(func=_telegram_set_webhook)
    config = sub.add_parser(
        "config", help="work with the configuration: the file, and its versions in the database"
    )
    config_sub = config.add_subparsers(dest="config_command", required=True)
    check = config_sub.add_parser("check", help="check a configuration file and list its faults")
    check.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        help="the file to check (default: the database's version in force, else the file "
        "in use: POUNDBOT_CONFIG, else the sample)",
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit status 1) on a warning too, such as tariffs still marked as the "
        "sample's figures",
    )
    check.set_defaults(func=_config_check, logs=False)
    init = config_sub.add_parser(
        "init",
        help="write the commented sample configuration to PATH, to edit",
        description="Write the commented sample configuration to PATH (no checkout needed), "
        "then edit it and check it.",
    )
    init.add_argument(
        "path", metavar="PATH", nargs="?", default="poundbot.toml", help="(poundbot.toml)"
    )
    init.set_defaults(func=_config_init, logs=False)
    if sub.wants("config"):
        from bot.entry.cli_config import add_config_commands

        add_config_commands(config_sub)
    if sub.wants("config") or sub.wants("env") or sub.wants("env-run"):
        from bot.entry.cli_settings import add_settings_commands

        add_settings_commands(config_sub, sub)
    _add_admin_commands(sub)
    _add_reminder_commands(sub)
    _add_dlt_commands(sub)
    if sub.wants("console"):
        from bot.entry.console import add_console_command

        add_console_command(sub)
    if sub.wants("demo"):
        from bot.demo import add_demo_command

        add_demo_command(sub)
    if not sub.built:  # no such command: the whole parser, to list the commands there are
        return build_parser()
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The command a command line names, when only ``--log-level`` comes before it."""
    words = iter(argv)
    for word in words:
        if word == "--log-level":
            next(words, None)
        elif not word.startswith("--log-level="):
            return None if word.startswith("-") else word
    return None


#: An example of each command, shown at the end of its ``--help``.
EXAMPLES: dict[str, str] = {
    "serve": "poundbot serve --config /etc/poundbot/poundbot.toml",
    "telegram set-webhook": "poundbot telegram set-webhook --drop-pending",
    "config check": "poundbot config check /etc/poundbot/poundbot.toml",
    "config init": "poundbot config init /etc/poundbot/poundbot.toml",
    "config show": "poundbot config show /etc/poundbot/poundbot.toml",
    "config import": 'poundbot config import /etc/poundbot/poundbot.toml --reason "new rates"',
    "config export": "poundbot config export --out poundbot.toml",
    "config history": "poundbot config history",
    "config diff": "poundbot config diff 3 4",
    "env": "poundbot env",
    "env-run": "poundbot env-run --default POUNDBOT_DATA_DIR=/var/lib/poundbot /etc/poundbot/env "
    "-- poundbot users list",
    "migrate": "poundbot migrate --status",
    "users add": "poundbot users add --role keeper --pound KNM --name Velayudhan "
    "--phone +919847012345",
    "users list": "poundbot users list",
    "users offices": "poundbot users offices 4 --office police_station",
    "users edit": 'poundbot users edit 3 --phone +919847012346 --reason "new number"',
    "users disable": 'poundbot users disable 3 --reason "left the post"',
    "users enable": 'poundbot users enable 3 --reason "back from leave"',
    "users reinvite": 'poundbot users reinvite 3 --reason "new phone"',
    "users history": "poundbot users history 3",
    "users import": 'poundbot users import users.csv --reason "spring roll-out" --dry-run',
    "users remove": "poundbot users remove 3",
    "contacts channel": "poundbot contacts channel +919847012345 whatsapp",
    "invite": 'poundbot invite --role keeper --pound KNM --name "Velayudhan"',
    "web-link": "poundbot web-link --user 2",
    "backup": "poundbot backup",
    "restore": "poundbot restore /var/lib/poundbot/backups/poundbot-2026-11-29.sqlite3",
    "export cases": "poundbot export cases --out cases.csv",
    "export ledger": "poundbot export ledger --authority KNM-GP --out ledger.csv",
    "export audit": "poundbot export audit --authority KNM-GP --out audit.csv",
    "remind": "poundbot remind --once",
    "deadlines": "poundbot deadlines --days 7",
    "dlt templates": "poundbot dlt templates --csv > dlt-templates.csv",
    "dlt import": "poundbot dlt import approved-templates.xlsx --dry-run",
    "dlt test-send": "poundbot dlt test-send is-not-a-c52e67.ml --to +919847012345",
    "outbox failed": "poundbot outbox failed --days 3",
    "messages purge": "poundbot messages purge --dry-run",
    "console": "poundbot console --as keeper --lang ml",
    "demo": "poundbot demo --lang ml",
}


def leaves(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> list[tuple[str, argparse.ArgumentParser, str]]:
    """Every command that runs (``users add``, not ``users``), its parser and its help."""
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
            for name, sub in action.choices.items():
                deeper = leaves(sub, (*path, name))
                found += deeper or [(" ".join((*path, name)), sub, helps.get(name, ""))]
    return found


def _described(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Each command's ``--help`` opens with what it does and ends with an example."""
    for name, sub, summary in leaves(parser):
        if not sub.description and summary:
            sub.description = summary[0].upper() + summary[1:] + "."
        example = EXAMPLES.get(name)
        if example:
            sub.epilog = f"Example: {example}"
            sub.formatter_class = argparse.RawDescriptionHelpFormatter  # the example whole
    return parser


def _bare_config_check(argv: Sequence[str]) -> argparse.Namespace | None:
    """The arguments of ``config check [FILE]`` when the command line is that and nothing
    else, as its parser would read them, without building a parser (argparse's parsers
    and help formatter cost a tenth of the command's start, and it runs after every edit
    of the configuration); None for any other command line (options such as ``--help``
    or ``--log-level``, a FILE that starts with ``-``), which the parser reads."""
    if len(argv) not in (2, 3) or list(argv[:2]) != ["config", "check"]:
        return None
    file = argv[2] if len(argv) == 3 else None
    if file is not None and file.startswith("-"):
        return None
    return argparse.Namespace(
        version=None,
        log_level=None,
        command="config",
        config_command="check",
        file=file,
        strict=False,
        func=_config_check,
        logs=False,
    )


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    bare = _bare_config_check(argv)
    if bare is not None:  # it logs nothing (as the parser's ``logs=False`` says)
        return _config_check(bare)
    if list(argv) == ["--version"]:  # as its action answers, without the thirty parsers
        _print_version()
        sys.exit(0)
    args = _described(build_parser(_command_named(argv))).parse_args(argv)
    if not getattr(args, "logs", True):  # it prints what it has to say, and logs nothing
        return int(args.func(args))
    import logging

    from bot.observe.logformat import configure, log_format, log_level

    try:
        fmt, level = log_format(), args.log_level or log_level()
    except ValueError as exc:
        print(f"poundbot: error: {exc}", file=sys.stderr)
        return 2
    # The server logs what it does; an administrative command prints its result and
    # logs only warnings (not Alembic's "Context impl ..." on every run).
    args.log_level = level or ("info" if args.command == "serve" else "warning")
    args.log_format = fmt
    configure(args.log_level, fmt)
    if args.log_level != "debug":
        logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    from bot.config.settings import Settings
    from bot.observe import logsafe

    try:
        secrets = Settings.from_env().secrets()
    except ValueError:  # a bad setting: the command that reads it refuses in one line
        secrets = ()  # (token- and SID-shaped text is still redacted by its shape)
    logsafe.install(secrets)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
