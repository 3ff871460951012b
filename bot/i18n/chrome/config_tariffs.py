"""The web desk's pages of the tariffs and the DLT template ids, in words: why a change
was refused (``bot.services.tariff_edit``, ``bot.services.dlt_edit``,
``bot.services.config_edit``) and what a change did."""

from __future__ import annotations

from bot.i18n.catalogs import Translator
from bot.i18n.refusals.errors import app_error
from bot.support.errors import AppError

__all__ = ["bad_amount", "bad_date", "change_refused", "closed_kept", "done_note"]


def bad_date(tr: Translator) -> str:
    # TRANSLATORS: web desk, a tariff — the day a new rate applies from was not read.
    return tr.gettext("Write the day the rate applies from as dd-mm-yyyy, e.g. 01-04-2026.")


def bad_amount(kind: str, tr: Translator) -> str:
    # TRANSLATORS: web desk, a tariff — an amount typed for a kind of cattle (its name)
    # is not an amount of rupees more than nothing, with at most two decimals (paise).
    text = tr.gettext("The amount for %(kind)s is not an amount of rupees such as 500 or 37.50.")
    return text % {"kind": kind}


def closed_kept(count: int, tr: Translator) -> str:
    """Beside a rate dated back: how many closed cases it is not applied to ("": none)."""
    if not count:
        return ""
    # TRANSLATORS: web desk, a tariff — a rate dated back is not applied to the cases
    # closed before it was added: they keep the figures they were settled on.
    text = tr.ngettext(
        "%(count)d closed case keeps its settled figures",
        "%(count)d closed cases keep their settled figures",
        count,
    )
    return text % {"count": count}


def done_note(done: str, version: int, tr: Translator) -> str:
    """What a change did, and when it takes effect."""
    if done == "withdrawn":
        # TRANSLATORS: web desk, a tariff — a rate not yet in force was withdrawn;
        # %(version)d is the number of the new version of the configuration.
        text = tr.gettext("The rate was withdrawn: version %(version)d is in force.")
    elif done == "dlt":
        # TRANSLATORS: web desk, the DLT template ids — an id was saved.
        text = tr.gettext("Saved: version %(version)d is in force.")
    else:
        # TRANSLATORS: web desk, a tariff — new dated rates were added.
        text = tr.gettext("The rates were added: version %(version)d is in force.")
    # TRANSLATORS: web desk — after a change to the configuration: the other running
    # servers take it up by themselves, no restart needed.
    after = tr.gettext("Every server takes it up within seconds.")
    return f"{text % {'version': version}} {after}"


def change_refused(exc: AppError, tr: Translator, kinds: dict[str, str]) -> str:
    """Why a change to a tariff or a DLT id was refused, and what to do instead;
    ``kinds``: the names of the kinds of cattle, by code."""
    what = exc.facts.get("what")
    kind = kinds.get(str(exc.facts.get("kind", "")), str(exc.facts.get("kind", "")))
    if exc.code == "not_allowed":
        # TRANSLATORS: web desk — a change to the configuration of another authority,
        # or of the state's (a state administrator's).
        return tr.gettext("Only an administrator of its authority may change this.")
    if exc.code == "config_changed":
        # TRANSLATORS: web desk — the configuration was changed by someone else after
        # the form was opened; nothing was saved, the form is shown on the new version.
        return tr.gettext(
            "The configuration was changed since this form was opened. Nothing was saved: "
            "check the page again and send the form once more."
        )
    if exc.code == "nothing_changed":
        # TRANSLATORS: web desk — the form changes no value.
        return tr.gettext("Nothing to change: the values are those already in force.")
    if exc.code == "config_refused":
        faults = exc.facts.get("faults")
        listed = "; ".join(str(f) for f in faults) if isinstance(faults, list) else ""
        # TRANSLATORS: web desk — the change would leave the configuration failing its
        # checks; the faults follow, in English, as the command line gives them.
        return tr.gettext("The configuration would fail its checks; nothing was saved.") + (
            f" {listed}" if listed else ""
        )
    if exc.code == "cases_to_confirm":
        # TRANSLATORS: web desk, a tariff — a rate applying from before today changes
        # the dues of the open cases listed below the form; each is to be ticked.
        return tr.gettext(
            "This rate applies from before today: it changes the dues of the open cases "
            "below. Tick each of them to confirm, then add the rate again."
        )
    if exc.code == "rate_in_force":
        # TRANSLATORS: web desk, a tariff — a rate in force may have counted money: it
        # is never removed; a new rate is added from the day it changes.
        return tr.gettext(
            "A rate in force since today or before is never withdrawn: add a new rate "
            "from the day it changes."
        )
    if exc.code == "unknown_tariff":
        # TRANSLATORS: web desk — no pound applies a tariff of that name.
        return tr.gettext("There is no such tariff.")
    if what == "reason" or (exc.code == "bad_input" and str(exc) == "a reason is required"):
        # TRANSLATORS: web desk — every change to the configuration says why.
        return tr.gettext("Write the reason for the change.")
    if what == "source":
        # TRANSLATORS: web desk, a tariff — the notification or resolution that fixed
        # the rate is required (s.4, s.11).
        return tr.gettext("Write the notification or resolution that fixed the rate.")
    if what == "amount" and kind:
        return bad_amount(kind, tr)
    if what == "amount":
        # TRANSLATORS: web desk, a tariff — no amount was typed for any kind of cattle.
        return tr.gettext("Write the amount for one kind of cattle at least.")
    if what == "from":
        # TRANSLATORS: web desk, a tariff — a rate of this kind (its name) from that
        # day exists already: a rate is never changed in place.
        text = tr.gettext("%(kind)s has a rate from that day already; choose another day.")
        return text % {"kind": kind}
    if what == "template":
        # TRANSLATORS: web desk, the DLT template ids — not a template poundbot sends.
        return tr.gettext("There is no such SMS template.")
    if what == "id":
        # TRANSLATORS: web desk, the DLT template ids — an id the DLT portal gave is
        # digits only (19 on the portals).
        return tr.gettext("Write the id as the DLT portal gives it: digits only, up to 30.")
    return app_error(exc, tr)
