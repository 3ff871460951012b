"""The web desk's forms of the configuration's places and kinds, in words: what was
saved, why a change was refused, the lines of a CSV of pounds checked, and the audit of
the changes (which entity, which field) (``bot.web.config_places``)."""

from __future__ import annotations

import json
from typing import Any

from bot.i18n.catalogs import Translator
from bot.support.languages import LANGUAGES

__all__ = [
    "LANGUAGE_NAMES",
    "audit_entity",
    "audit_field",
    "audit_value",
    "changes_labels",
    "import_line",
    "saved",
    "why_refused",
]

#: Each language named in itself (as the desk's language switch names them).
LANGUAGE_NAMES = {"ml": "മലയാളം", "en": "English", "ta": "தமிழ்", "kn": "ಕನ್ನಡ"}


def saved(version: int, tr: Translator) -> str:
    """What a form's change did."""
    # TRANSLATORS: web desk, the configuration — a change was saved as version %(id)s
    # of the configuration; every server of poundbot takes it up within seconds.
    return tr.gettext(
        "Saved as version %(id)s of the configuration. Every part of poundbot uses it "
        "within a few seconds."
    ) % {"id": version}


def why_refused(why: str, tr: Translator, **facts: str) -> str:
    """Why a change to the configuration was refused, by ``why``."""
    if why == "config_changed":
        # TRANSLATORS: web desk, the configuration — someone else saved a change since
        # the form was opened: nothing was saved; the form shows the new values.
        return tr.gettext(
            "The configuration was changed by someone else meanwhile, and nothing was "
            "saved. Here is the form again on the new version: make the change again."
        )
    if why == "nothing_changed":
        # TRANSLATORS: web desk, the configuration — the form was sent with every value
        # as it was.
        return tr.gettext("Nothing was changed: every value is as it was.")
    if why == "reason":
        # TRANSLATORS: web desk, the configuration — a change sent without its reason.
        return tr.gettext("Give the reason for the change: it is kept in the audit.")
    if why == "config_refused":
        # TRANSLATORS: web desk, the configuration — before the list of the faults the
        # configuration's checks found (they are in English, as poundbot config check
        # gives them).
        return tr.gettext(
            "Nothing was saved: the configuration would fail its checks. The checks say:"
        )
    if why == "code_taken":
        # TRANSLATORS: web desk, the configuration — a new authority, pound or kind of
        # cattle given a code another one has already.
        return tr.gettext("The code %(code)s is taken already: choose another.") % facts
    if why == "authority_code":
        # TRANSLATORS: web desk, the configuration — the rule of an authority's code.
        return tr.gettext(
            "The code of a local authority is 2 to 16 capital letters, digits and "
            "hyphens, starting with a letter (KNM-GP)."
        )
    if why == "pound_code":
        # TRANSLATORS: web desk, the configuration — the rule of a pound's code.
        return tr.gettext("The code of a pound is 2 to 6 capital letters (KNM).")
    if why == "kind_code":
        # TRANSLATORS: web desk, the configuration — the rule of a kind of cattle's code.
        return tr.gettext(
            "The code of a kind of cattle is small English letters, digits and _, "
            "starting with a letter (buffalo_calf)."
        )
    if why == "no_market":
        # TRANSLATORS: web desk, the configuration — a village typed without the market
        # place nearest to it (s.13(2)); %(village)s its name.
        return tr.gettext("Give the market place of %(village)s, or clear the village.") % facts
    if why == "authority":
        # TRANSLATORS: web desk, the configuration — a new pound without its local
        # authority, or of one the administrator does not administer.
        return tr.gettext("Choose the local authority of the pound.")
    if why == "rates":
        # TRANSLATORS: web desk, the configuration — the first fines and feeding rates of
        # a new kind of cattle typed without the day they apply from or their source.
        return tr.gettext(
            "Give the day the rates apply from (dd-mm-yyyy) and the notification they come from."
        )
    if why == "not_found":
        # TRANSLATORS: web desk, the configuration — no authority, pound or kind of that
        # code in the configuration in force.
        return tr.gettext("There is no such entry in the configuration in force.")
    # TRANSLATORS: web desk, the configuration — a change the administrator may not make
    # (another authority's, or the state's for an authority's administrator).
    return tr.gettext("Only an administrator of this local authority may change this.")


def changes_labels(tr: Translator) -> dict[str, str]:
    """The headings of the audit of the configuration's changes."""
    return {
        # TRANSLATORS: web desk, the configuration — the heading of the latest values
        # changed on the web desk, newest first.
        "title": tr.gettext("Recent changes"),
        # TRANSLATORS: web desk, the configuration — column heads of the changes.
        "when": tr.gettext("When"),
        "who": tr.gettext("Changed by"),
        "what": tr.gettext("What"),
        "field": tr.gettext("Field"),
        "old": tr.gettext("Old value"),
        "new": tr.gettext("New value"),
        "reason": tr.gettext("Reason"),
        "version": tr.gettext("Version"),
        # TRANSLATORS: web desk, the configuration — no value was changed on the web yet.
        "none": tr.gettext("No change has been made on the web desk yet."),
        # TRANSLATORS: web desk, the configuration — the link to the changes as a CSV file.
        "csv": tr.gettext("Download as CSV"),
        "authority": tr.gettext("Local authority"),
        "all": tr.gettext("All local authorities"),
    }


def audit_entity(entity: str, key: str, tr: Translator) -> str:
    """What a change was made to: ``Pound KNM``, ``Local authority KNM-GP``, ..."""
    names = {
        # TRANSLATORS: web desk, the audit of the configuration — what a change was made
        # to, with its code.
        "authority": tr.gettext("Local authority %(code)s"),
        "pound": tr.gettext("Pound %(code)s"),
        "kind": tr.gettext("Kind of cattle %(code)s"),
        # TRANSLATORS: web desk, the audit of the configuration — the fines (s.11) or the
        # feeding rates (s.4) of the tariff named %(code)s.
        "fine": tr.gettext("Fines of tariff %(code)s"),
        "feeding": tr.gettext("Feeding rates of tariff %(code)s"),
    }
    form = names.get(entity)
    return form % {"code": key} if form is not None else f"{entity} {key}"


def _field_names(tr: Translator) -> dict[str, str]:
    return {
        "code": tr.gettext("Code"),
        "name": tr.gettext("Name"),
        "kind": tr.gettext("Kind"),
        # TRANSLATORS: web desk, the configuration — the fields of a local authority.
        "district": tr.gettext("District"),
        # TRANSLATORS: web desk, the configuration — the office where the s.13(2) notice
        # is affixed.
        "office_address": tr.gettext("Office address (s.13(2) notice)"),
        # TRANSLATORS: s.13(2): the notice is proclaimed by beat of drum in the village.
        "village": tr.gettext("Village (s.13(2) proclamation)"),
        # TRANSLATORS: s.13(2): ... and in the market place nearest the place of seizure.
        "market_place": tr.gettext("Market place (s.13(2) proclamation)"),
        "default_language": tr.gettext("Language of its messages"),
        "expected_sale_expenses": tr.gettext("Expected expenses of a sale (₹)"),
        # TRANSLATORS: s.18: members of the local authority may not buy at its sales.
        "members": tr.gettext("Members (may not buy at its sales, s.18)"),
        "markets": tr.gettext("Villages and their market places"),
        # TRANSLATORS: web desk, the configuration — the fields of a pound.
        "authority": tr.gettext("Local authority"),
        "address": tr.gettext("Address"),
        "phone": tr.gettext("Phone number"),
        "hours": tr.gettext("Opening hours"),
        "languages": tr.gettext("Languages of its notices"),
        "tariff": tr.gettext("Tariff"),
        # TRANSLATORS: web desk, the configuration — the fields of a kind of cattle.
        "adult": tr.gettext("Young of"),
        "words": tr.gettext("Words for it"),
    }


def audit_field(field: str, tr: Translator) -> str:
    """A field changed, in words: ``markets.Pathimangalam`` is the village's market."""
    head, _, rest = field.partition(".")
    name = _field_names(tr).get(head)
    if name is None:
        return field
    if rest and head == "words":
        return f"{name} ({LANGUAGE_NAMES.get(rest, rest)})"
    return f"{name}: {rest}" if rest else name


def audit_value(value: str | None, tr: Translator) -> str:
    """A value as the audit keeps it, for reading: a text per language as
    ``en: …; ml: …``, a list joined by commas; none as a dash."""
    if value is None:
        return "—"
    try:
        read: Any = json.loads(value)
    except ValueError:
        return value
    if isinstance(read, list):
        return ", ".join(_said(item) for item in read)
    if isinstance(read, dict):
        return "; ".join(f"{k}: {_said(v)}" for k, v in read.items())
    return value


def _said(value: Any) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items())
    return str(value)


def import_line(status: str, tr: Translator, **facts: str) -> str:
    """A line of a CSV of pounds as checked (``added``, ``changed``, ``unchanged``,
    ``refused``) and why."""
    if status == "added":
        # TRANSLATORS: web desk, pounds from a CSV file — the line adds a new pound.
        return tr.gettext("to be added")
    if status == "changed":
        # TRANSLATORS: web desk, pounds from a CSV file — the line changes these fields
        # of a pound (%(fields)s: their names).
        return tr.gettext("to be changed: %(fields)s") % facts
    if status == "unchanged":
        # TRANSLATORS: web desk, pounds from a CSV file — the line changes nothing.
        return tr.gettext("unchanged")
    return tr.gettext("refused: %(why)s") % {"why": _import_why(facts.get("why", ""), tr, facts)}


def _import_why(why: str, tr: Translator, facts: dict[str, str]) -> str:
    if why == "code":
        return why_refused("pound_code", tr)
    if why == "twice":
        # TRANSLATORS: web desk, pounds from a CSV file — a pound's code on two lines.
        return tr.gettext("the code is on another line of the file too")
    if why == "authority":
        # TRANSLATORS: web desk, pounds from a CSV file — a new pound's authority is not a
        # configured local authority (%(authority)s: as typed).
        return tr.gettext("no local authority has the code %(authority)s") % facts
    if why == "moved":
        # TRANSLATORS: web desk, pounds from a CSV file — the line names another local
        # authority for a pound that exists: a pound never changes its authority.
        return tr.gettext("a pound's local authority is never changed")
    if why == "missing":
        # TRANSLATORS: web desk, pounds from a CSV file — a new pound without a value
        # it needs (%(fields)s: the columns).
        return tr.gettext("a new pound needs %(fields)s") % facts
    if why == "languages":
        # TRANSLATORS: web desk, pounds from a CSV file — the languages column: codes
        # among ml, en, ta, kn, each once, in the order its notices print them.
        return tr.gettext("languages are ml, en, ta or kn, each once (ml en)")
    return why


def language_choices() -> list[tuple[str, str]]:
    """The languages as a form offers them, each named in itself."""
    return [(code, LANGUAGE_NAMES[code]) for code in LANGUAGES]
