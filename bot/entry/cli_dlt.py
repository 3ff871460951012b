"""The ``poundbot dlt`` commands and what ``config check`` says of DLT.

- ``dlt templates [--csv] [--all]``: the templates to register, for the languages the
  configuration's SMS go out in (``Config.sms_languages``: English and those of its
  authorities and pounds), or all of them;
- ``dlt import FILE [--columns ...] [--dry-run]``: the portal's export of approved
  templates, matched to poundbot's by their text (``bot.support.dlt_import``), the ids
  written into ``[dlt.templates]`` of the configuration file (``bot.config.dlt_ids``);
- ``dlt test-send TEMPLATE --to NUMBER``: one template with sample values, through the
  SMS provider in use, to the operator's own phone;
- ``dlt_report``: ``config check``'s lines, and the SMS that will not be sent.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from bot.config import Config
    from bot.config.settings import Settings
    from bot.services.dlt_ids import DltPlan
    from bot.support.dlt import DltStamp, Registry, Template

__all__ = ["SHOWN", "add_dlt_commands", "dlt_report", "sample_text"]

#: How many of the messages that will not be sent ``config check`` names.
SHOWN: Final = 8


def _load(file: str | None) -> tuple[str, Config] | None:
    """The configuration named (or in use), or None after saying why it cannot be read."""
    from bot.config import ConfigError, config_path, load_config

    path = file or config_path()
    try:
        return path, load_config(path)
    except ConfigError as exc:
        for fault in exc.faults:
            print(f"{path}:{fault.line}: {fault.message}", file=sys.stderr)
    except OSError as exc:
        print(f"{path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
    return None


def _configured(config: Config) -> Registry:
    from bot.support.dlt import registry

    return registry().only(config.sms_languages)


def dlt_report(config: Config) -> tuple[list[str], list[str]]:
    """What ``config check`` says of DLT: its lines, and (a fault) the messages of the
    configured languages that have no approved template id and so will not be sent."""
    policy = config.dlt
    if not policy.enforced:
        return ["DLT off ([dlt] entity_id not set): SMS are sent without a template id"], []
    from bot.support.dlt import registry

    templates = _configured(config)
    missing = policy.missing(templates)
    langs = ", ".join(config.sms_languages)
    lines = [
        f"DLT entity {policy.entity_id}: {len(templates) - len(missing)} of {len(templates)} "
        f"SMS templates ({langs}) have an approved id"
    ]
    if not missing:
        return lines, []
    everything = registry()
    by_kind: dict[str, list[str]] = {}
    for name in missing:
        kind, _, lang = name.rpartition(".")
        by_kind.setdefault(kind, []).append(lang)
    named = [
        f"  {everything.about(kind)} in {', '.join(langs)} ({kind})"
        for kind, langs in list(by_kind.items())[:SHOWN]
    ]
    more = len(by_kind) - len(named)
    fault = [
        f"DLT: {len(missing)} SMS templates have no approved id: these messages will not be sent:",
        *named,
    ]
    if more:
        fault.append(f"  and {more} more (poundbot dlt import --dry-run lists them)")
    fault.append(
        "  Register them (poundbot dlt templates --csv), then import the portal's export "
        "(poundbot dlt import FILE): docs/sms-india.md"
    )
    return lines, fault


# -- dlt templates ---------------------------------------------------------------------


def _templates(args: argparse.Namespace) -> int:
    """The DLT templates: the portals' bulk-upload sheet (``--csv``), or one per line."""
    from bot.support.dlt import registry, upload_csv, upload_rows

    if args.all:
        templates = registry()
    else:
        loaded = _load(args.config)
        if loaded is None:
            return 1
        templates = _configured(loaded[1])
    if args.csv:
        sys.stdout.write(upload_csv(templates))
        return 0
    for name, _type, category, content, text in upload_rows(templates):
        print(f"{name}\t{category}\t{content}\t{text}".replace("\n", "\\n"))
    return 0


# -- dlt import ------------------------------------------------------------------------


def _import(args: argparse.Namespace) -> int:
    from bot.config import ConfigError
    from bot.config.dlt_ids import IdsRefused, write_ids
    from bot.entry.cli_refusals import one_line, refusals
    from bot.entry.config_store import database_version
    from bot.services.dlt_ids import plan_ids
    from bot.support.dlt import registry
    from bot.support.dlt_import import ExportError, parse_columns, read_export

    try:  # the database holds the configuration: the ids go there
        in_force = database_version()
    except refusals() as exc:
        print(f"poundbot: error: {one_line(exc)}", file=sys.stderr)
        return 1
    if in_force is not None:
        path = f"configuration version {in_force.id}"
        text = in_force.text
        if args.config:
            print(f"note: the database holds the configuration: {args.config} is not read")
    else:
        loaded = _load(args.config)
        if loaded is None:
            return 1
        path = loaded[0]
        text = Path(path).read_text(encoding="utf-8")
    from bot.config.load import sample_config_path

    if (
        in_force is None
        and not args.dry_run
        and Path(path).resolve() == Path(str(sample_config_path())).resolve()
    ):
        print(
            f"poundbot: error: {path} is the sample shipped with poundbot: name your "
            "configuration with --config FILE (or POUNDBOT_CONFIG)",
            file=sys.stderr,
        )
        return 1
    try:
        rows = read_export(Path(args.file), parse_columns(args.columns))
    except ExportError as exc:
        print(f"poundbot: error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"poundbot: error: {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        plan = plan_ids(text, path, rows, version=in_force.id if in_force else None)
    except IdsRefused as exc:
        print(f"poundbot: error: {path}: {exc}", file=sys.stderr)
        return 1
    except ConfigError as exc:
        for fault in exc.faults:
            print(f"{path}:{fault.line}: {fault.message}", file=sys.stderr)
        return 1
    found, everything = plan.found, registry()
    for row, names in found.matched:
        print(f"matched   line {row.line}: {row.template_id} -> {', '.join(names)}")
    for row, why in found.unmatched:
        label = row.name or row.content[:40]
        print(f"unmatched line {row.line}: {row.template_id} {label}: {why}")
    for row in found.rejected:
        print(f"rejected  line {row.line}: {row.template_id} {row.name} ({row.status})")
    for row in found.pending:
        print(f"pending   line {row.line}: {row.template_id} {row.name} ({row.status})")
    for name in plan.lacking:
        print(f"no id     {name}: {everything.about(name.rpartition('.')[0])}")
    languages = ", ".join(plan.languages)
    print(
        f"{len(found.ids)} templates matched from {len(rows)} rows ({len(found.rejected)} "
        f"rejected, {len(found.pending)} pending, {len(found.unmatched)} unmatched); "
        f"{len(plan.lacking)} of poundbot's templates ({languages}) still "
        "lack an approved id"
    )
    if args.dry_run:
        print(f"dry run: {path} not changed")
        return 0
    if in_force is not None:
        return _new_version(plan, path, args.file)
    try:
        write_ids(Path(path), found.ids)
    except IdsRefused as exc:
        print(f"poundbot: error: {path}: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"poundbot: error: {path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {len(found.ids)} template ids into [dlt.templates] of {path}")
    if not plan.enforced:
        print(f"note: [dlt] entity_id is not set in {path}: SMS go without the ids until it is")
    return 0


def _new_version(plan: DltPlan, name: str, export: str) -> int:
    """The configuration after the import (``plan``), stored as a new version (source
    ``dlt``) when that changes it."""
    from bot.entry.config_store import store_version

    if not plan.changes:
        print(f"{name} has these template ids already: nothing stored")
        return 0
    ids = plan.found.ids
    reason = f"dlt import {export}: {len(ids)} template ids"
    version_id, _ = store_version(plan.text, source="dlt", reason=reason)
    print(
        f"wrote {len(ids)} template ids into [dlt.templates] of the configuration: version "
        f"{version_id}, in force on every instance within seconds"
    )
    if not plan.enforced:
        print("note: [dlt] entity_id is not set: SMS go without the ids until it is")
    return 0


# -- dlt test-send ---------------------------------------------------------------------

#: The sample value of a variable, by the slot's name (any other: a digit).
_SAMPLES: Final = {
    "case": "KNM-1",
    "cases": "KNM-1",
    "pound": "KNM",
    "date": "2 Mar 2026",
    "since": "1 Mar 2026",
    "until": "9 Mar 2026",
    "name": "Test",
    "names": "Test",
    "place": "Test",
    "cattle": "1 cow",
    "section": "s.13(1)",
    "number": "13(1)",
    "next": "Send DUES and the case number.",
}


def sample_text(template: Template, slot_limit: int, public_url: str) -> str:
    """The template's text with a sample value (within ``slot_limit``) in each variable."""
    from bot.support.dlt import URL_VAR, VAR

    out = template.text
    for slot in template.slots:
        at_var, at_url = out.find(VAR), out.find(URL_VAR)
        if at_url != -1 and (at_var == -1 or at_url < at_var):
            link = (public_url or "https://pound.example.org").rstrip("/") + "/"
            out = out.replace(URL_VAR, link, 1)
            continue
        run = VAR
        while out.startswith(VAR, at_var + len(run)):
            run += VAR  # variables written together: one slot
        out = out.replace(run, _SAMPLES.get(slot, "1")[:slot_limit], 1)
    return out


def _test_send(args: argparse.Namespace) -> int:
    import asyncio

    from bot.config.settings import Settings
    from bot.support.dlt import DltRefusal, registry
    from bot.support.phones import normalize_phone

    loaded = _load(args.config)
    if loaded is None:
        return 1
    _, config = loaded
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"environment: {exc}", file=sys.stderr)
        return 1
    off = settings.sms_off_reason()
    if off:
        print(f"poundbot: error: SMS is off: {off}", file=sys.stderr)
        return 1
    template = registry().get(args.template)
    if template is None:
        print(
            f"poundbot: error: no template {args.template}: give its kind.language as "
            "poundbot dlt templates lists it",
            file=sys.stderr,
        )
        return 1
    try:
        number = normalize_phone(args.to, config.phone_region)
    except ValueError as exc:
        print(f"poundbot: error: --to {args.to}: {exc}", file=sys.stderr)
        return 1
    policy = config.dlt
    text = sample_text(template, policy.slot_limit, settings.public_url)
    stamp = None
    if policy.enforced:
        try:
            _, stamp = policy.stamp(text, registry(), kind=template.name)
        except DltRefusal as exc:
            print(f"poundbot: error: not sent: {exc}", file=sys.stderr)
            return 1
    try:
        sid = asyncio.run(_send(settings, number, text, stamp))
    except Exception as exc:
        print(f"poundbot: error: {settings.provider()} refused it: {exc}", file=sys.stderr)
        return 1
    ids = f" (entity {stamp.entity_id}, template {stamp.template_id})" if stamp else ""
    print(f"sent {template.name} to {number} through {settings.provider()}{ids}: {sid}")
    print(text)
    return 0


async def _send(settings: Settings, number: str, text: str, stamp: DltStamp | None) -> str:
    from bot.channels.sms.providers import sms_sender

    async with sms_sender(settings) as sender:
        return await sender.send(number, text, "dlt-test-send", dlt=stamp)


def add_dlt_commands(sub: Any) -> None:
    dlt = sub.add_parser("dlt", help="the DLT content templates of poundbot's SMS (India)")
    dlt_sub = dlt.add_subparsers(dest="dlt_command", required=True)
    config_help = "the configuration (POUNDBOT_CONFIG unless given)"
    templates = dlt_sub.add_parser(
        "templates",
        help="the SMS templates (kind.lang, category, text with {#var#}) to register, in "
        "English and the languages of the configured authorities and pounds",
    )
    templates.add_argument(
        "--csv",
        action="store_true",
        help="the bulk-upload sheet of the DLT portals: Template Name, Template Type, "
        "Category, Content Type, Template Content",
    )
    templates.add_argument("--all", action="store_true", help="every language's templates")
    templates.add_argument("--config", metavar="FILE", help=config_help)
    templates.set_defaults(func=_templates, logs=False)
    imports = dlt_sub.add_parser(
        "import",
        help="read the DLT portal's export of templates (CSV or XLSX), match each approved "
        "one to poundbot's by its text and write its id into [dlt.templates]",
    )
    imports.add_argument("file", metavar="FILE", help="the export, .csv or .xlsx")
    imports.add_argument(
        "--columns",
        action="append",
        default=[],
        metavar="FIELD=HEADING,...",
        help="the sheet's headings for id, name, content, type, status when they are not "
        "Template ID, Template Name, Template Content (or Message), Template Type, Status",
    )
    imports.add_argument(
        "--dry-run", action="store_true", help="say what would be written, write nothing"
    )
    imports.add_argument("--config", metavar="FILE", help=f"the file to write: {config_help}")
    imports.set_defaults(func=_import, logs=False)
    test = dlt_sub.add_parser(
        "test-send",
        help="send one template, with sample values, to your own phone through the SMS "
        "provider in use",
    )
    test.add_argument(
        "template", metavar="TEMPLATE", help="its kind.language, e.g. is-not-a-c52e67.ml"
    )
    test.add_argument("--to", required=True, metavar="NUMBER", help="e.g. +919847012345")
    test.add_argument("--config", metavar="FILE", help=config_help)
    test.set_defaults(func=_test_send)
