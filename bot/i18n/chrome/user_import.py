"""Users in bulk from a CSV sheet, in words (``bot.services.user_import``): the words a
sheet may use for its headings and roles in each language (the desk's own), why a file
or a line is refused, what the import does with a line."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final

from bot.i18n.catalogs import LANGUAGES, Translator, translator
from bot.i18n.chrome.users import audit_field, audit_value, change_refused
from bot.i18n.chrome.web_names import role_name
from bot.services.user_import import CHANGED, NEW, REFUSED, UNCHANGED, Change, Vocabulary
from bot.support.errors import AppError
from bot.support.user_sheet import MAX_BYTES, MAX_ROWS

__all__ = ["change_line", "kind_name", "line_refused", "sheet_refused", "vocabulary"]

#: The desk's name of each field's column (the msgids of the page of users).
_HEADINGS: Final[dict[str, Callable[[Translator], str]]] = {
    "name": lambda tr: tr.gettext("Name"),
    "phone": lambda tr: tr.gettext("Phone number"),
    "role": lambda tr: tr.gettext("Role"),
    "lang": lambda tr: tr.gettext("Language"),
    "pound": lambda tr: tr.gettext("Pound"),
    "authority": lambda tr: tr.gettext("Local authority"),
    "offices": lambda tr: tr.gettext("Offices"),
    "reason": lambda tr: tr.gettext("Reason"),
}


@functools.cache
def vocabulary() -> Vocabulary:
    """The headings and the role words a sheet may use besides poundbot's codes: the
    desk's, in each of its languages (a sheet made from the Malayalam page reads too)."""
    headings: dict[str, tuple[str, ...]] = {}
    roles: dict[str, str] = {}
    for lang in LANGUAGES:
        tr = translator(lang)
        for field, heading in _HEADINGS.items():
            headings[field] = (*headings.get(field, ()), heading(tr))
        for role in ("keeper", "officer", "admin"):
            roles[role_name(role, tr).casefold()] = role
    return Vocabulary(headings=headings, roles=roles)


def sheet_refused(exc: AppError, tr: Translator) -> str:
    """Why a file is not read at all (``bot.support.user_sheet.read``); nothing changed."""
    why = exc.facts.get("why")
    if why == "too_big":
        # TRANSLATORS: web desk, users from a CSV file — the file is larger than the
        # limit; %(size)s is e.g. "1 MB".
        return tr.gettext("The file is too big: at most %(size)s.") % {
            "size": f"{MAX_BYTES // 1_000_000} MB"
        }
    if why == "too_many_rows":
        # TRANSLATORS: web desk, users from a CSV file — too many lines in one file.
        return tr.gettext("The file has too many lines: at most %(count)d users a file.") % {
            "count": MAX_ROWS
        }
    if why == "workbook":
        # TRANSLATORS: web desk, users from a CSV file — an Excel or LibreOffice workbook
        # was chosen instead of a CSV file; "CSV UTF-8" is how Excel names the format.
        return tr.gettext(
            "This is a spreadsheet workbook, not a CSV file: in the spreadsheet, save it "
            "as \u201cCSV UTF-8\u201d and choose that file."
        )
    if why == "not_utf8":
        # TRANSLATORS: web desk, users from a CSV file — the file's text encoding is not
        # UTF-8 (Malayalam letters would be garbled).
        return tr.gettext(
            "The file is not in UTF-8: in the spreadsheet, save it as \u201cCSV UTF-8\u201d."
        )
    if why == "not_csv":
        # TRANSLATORS: web desk, users from a CSV file — the file cannot be read as CSV
        # (e.g. a quote left open).
        return tr.gettext("The file is not a CSV file that can be read (a quote left open?).")
    if why == "empty":
        # TRANSLATORS: web desk, users from a CSV file — the file has no users in it.
        return tr.gettext("The file has no users: a heading row, then one line a user.")
    if why == "missing_column":
        column = str(exc.facts.get("column", ""))
        heading = _HEADINGS[column](tr) if column in _HEADINGS else column
        # TRANSLATORS: web desk, users from a CSV file — a required column is missing;
        # %(column)s its heading (Phone number, Role).
        return tr.gettext("The file has no column \u201c%(column)s\u201d.") % {"column": heading}
    if why == "column_twice":
        # TRANSLATORS: web desk, users from a CSV file — two columns name the same thing.
        return tr.gettext("The column \u201c%(column)s\u201d is given twice.") % {
            "column": str(exc.facts.get("column", ""))
        }
    return change_refused(exc, tr)


_LINE_REFUSALS: Final[dict[str, Callable[[AppError, Translator], str]]] = {
    # TRANSLATORS: web desk, users from a CSV file — a line's role is none of poundbot's.
    "import_role": lambda exc, tr: tr.gettext("Unknown role: write keeper, officer or admin."),
    # TRANSLATORS: web desk, users from a CSV file — a line's language is none of the four.
    "import_language": lambda exc, tr: tr.gettext("Unknown language: write ml, en, ta or kn."),
    # TRANSLATORS: web desk, users from a CSV file — no pound has the code (or name) given.
    "unknown_pound": lambda exc, tr: (
        tr.gettext("No pound is called %(pound)s.") % {"pound": exc.facts.get("pound", "")}
    ),
    # TRANSLATORS: web desk, users from a CSV file — no local authority has the code (or
    # name) given.
    "unknown_authority": lambda exc, tr: (
        tr.gettext("No local authority is called %(authority)s.")
        % {"authority": exc.facts.get("authority", "")}
    ),
    # TRANSLATORS: web desk, users from a CSV file — a line without a phone number (the
    # number is how a user is found again by the next import).
    "import_phone": lambda exc, tr: tr.gettext(
        "Give the phone number: a user is found again by it."
    ),
    # TRANSLATORS: web desk, users from a CSV file — the same phone number is on an
    # earlier line of the file, %(line)s its number.
    "import_twice": lambda exc, tr: (
        tr.gettext("This phone number is on line %(line)s already: give each user once.")
        % {"line": exc.facts.get("line", "")}
    ),
    # TRANSLATORS: web desk, users from a CSV file — the phone number is a user's in
    # another role; a role is never changed (what a keeper did stays a keeper's).
    "import_role_differs": lambda exc, tr: (
        tr.gettext(
            "This phone number is a %(role)s's: a role is not changed. Disable that user on "
            "their page and import the line again."
        )
        % {"role": role_name(str(exc.facts.get("role", "")), tr)}
    ),
    # TRANSLATORS: web desk, users from a CSV file — a line with more cells than the
    # heading row has columns.
    "import_cells": lambda exc, tr: tr.gettext(
        "This line has more cells than the heading row: a stray comma?"
    ),
    # TRANSLATORS: web desk, users from a CSV file — a pound-keeper without a pound.
    "keeper_pound": lambda exc, tr: tr.gettext(
        "A pound-keeper needs the pound's code in the Pound column."
    ),
    # TRANSLATORS: web desk, users from a CSV file — an officer without a local authority.
    "officer_authority": lambda exc, tr: tr.gettext(
        "An officer needs the local authority's code in the Local authority column."
    ),
}


def line_refused(exc: AppError, tr: Translator) -> str:
    """Why a line of the sheet is refused, and what to do instead."""
    text = _LINE_REFUSALS.get(exc.reason or "")
    if text is not None:
        return text(exc, tr)
    return change_refused(exc, tr)


def kind_name(kind: str, tr: Translator) -> str:
    """What the import does with a line, in a word or two."""
    if kind == NEW:
        # TRANSLATORS: web desk, users from a CSV file — the line is a user to be added.
        return tr.gettext("new user")
    if kind == CHANGED:
        # TRANSLATORS: web desk, users from a CSV file — the user is there; some of their
        # details are to be changed.
        return tr.gettext("changed")
    if kind == UNCHANGED:
        # TRANSLATORS: web desk, users from a CSV file — the user is there as the line
        # says: nothing to do.
        return tr.gettext("already there, unchanged")
    if kind == REFUSED:
        # TRANSLATORS: web desk, users from a CSV file — the line cannot be imported.
        return tr.gettext("refused")
    return kind


def change_line(change: Change, tr: Translator) -> str:
    """A value a user is given or changed: ``Name: Latha → Latha K``."""
    field = audit_field(change.field, tr)
    new = audit_value(change.field, change.new, tr)
    if change.old is None:
        return f"{field}: {new}"
    return f"{field}: {audit_value(change.field, change.old, tr)} \u2192 {new}"
