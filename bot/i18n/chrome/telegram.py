"""The texts only the Telegram channel needs: onboarding, the language buttons, the
command menus, and the prompts and buttons of the guided seizure report.

Pure functions of (facts, Translator) -> str, like ``render``. Buttons are looked up
by a stable key (``label("skip", tr)``); the channel matches presses by their callback
ids, never by these labels.

Why it is long: every question, button and answer of the guided seizure report is here,
beside the onboarding and menu texts, so that the channel's modules hold no text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from bot.config.names import local
from bot.i18n.catalogs import Translator
from bot.i18n.common import credited_to, reported_to
from domain.errors import UnknownKindError
from domain.kinds import Kind

__all__ = [
    "LANGUAGE_NAMES",
    "ask_count",
    "ask_description",
    "ask_fix",
    "ask_kind",
    "ask_lot_owner",
    "ask_more",
    "ask_owner",
    "ask_photos",
    "ask_place",
    "ask_place_name",
    "ask_seized",
    "ask_seizer",
    "ask_when",
    "bad_seized",
    "bad_when",
    "cancelled",
    "choose_language",
    "command_description",
    "in_progress",
    "invite_refused",
    "kind_name",
    "label",
    "lot_owner_without_name",
    "not_given",
    "nothing_to_cancel",
    "owner_of_lot",
    "photos_received",
    "registered",
    "same_owner",
    "stale_button",
    "stranger",
    "summary",
    "use_buttons",
    "welcome",
]

_Text = Callable[[Translator], str]

#: Each language by its own name, on the /lang buttons. The same in every language (a
#: reader looks for their own language's name), so these are not in the catalogs.
LANGUAGE_NAMES: Final[Mapping[str, str]] = {
    "ml": "മലയാളം",
    "en": "English",
    "ta": "தமிழ்",
    "kn": "ಕನ್ನಡ",
}

# --- onboarding --------------------------------------------------------------------


def stranger(telegram_id: int, tr: Translator) -> str:
    """To someone not registered: what the bot is, and their Telegram id for the admin."""
    # TRANSLATORS: to a Telegram user who is not registered; "poundbot" is the bot's
    # name and "/help" a command: keep both as they are.
    intro = tr.gettext(
        "This is poundbot, the bot of the cattle pounds of Kerala's local authorities. "
        "Anyone can send /help to learn what is owed on a case or to find impounded cattle."
    )
    # TRANSLATORS: %(id)s is the person's Telegram id (a number) to give the administrator.
    give = tr.gettext(
        "Pound-keepers and officers are registered by the administrator: "
        "give them your Telegram id, %(id)s."
    )
    return f"{intro}\n\n{give % {'id': telegram_id}}"


def registered(role: str, place: str, tr: Translator) -> str:
    """To a registered user who sends /start: who they are to poundbot."""
    if role == "keeper":
        # TRANSLATORS: %(pound)s is the name of a pound.
        text = tr.gettext("You are registered as the pound-keeper of %(pound)s.")
        text = text % {"pound": place}
    elif role == "officer":
        # TRANSLATORS: %(authority)s is the name of a local authority (a panchayat, ...).
        text = tr.gettext("You are registered as an officer of %(authority)s.")
        text = text % {"authority": place}
    else:
        text = tr.gettext("You are registered as an administrator of poundbot.")
    # TRANSLATORS: "/help" is a command: keep it as it is.
    more = tr.gettext("Send /help to see what you can do.")
    return f"{text} {more}"


def welcome(role: str, name: str, place: str, tr: Translator) -> str:
    """To someone whose invite was just accepted."""
    if role == "keeper":
        # TRANSLATORS: after an invite is accepted; %(pound)s is the name of a pound;
        # "/seize" and "/help" are commands: keep them as they are.
        text = tr.gettext(
            "Welcome, %(name)s: you are now the pound-keeper of %(pound)s. "
            "Report cattle brought in with /seize; /help lists the rest."
        )
        return text % {"name": name, "pound": place}
    if role == "officer":
        # TRANSLATORS: after an invite is accepted; %(authority)s is a local authority.
        text = tr.gettext(
            "Welcome, %(name)s: you are now an officer of %(authority)s. Reports of "
            "unclaimed cattle will reach you here; /help lists what you can do."
        )
        return text % {"name": name, "authority": place}
    text = tr.gettext("Welcome, %(name)s: you are now an administrator of poundbot.")
    return text % {"name": name}


def invite_refused(telegram_id: int, tr: Translator) -> str:
    """An invite code that is unknown, used or expired."""
    # TRANSLATORS: %(id)s is the person's Telegram id (a number).
    text = tr.gettext(
        "This invite is unknown, already used or expired. Ask the administrator for a "
        "new one, and give them your Telegram id, %(id)s."
    )
    return text % {"id": telegram_id}


def choose_language(tr: Translator) -> str:
    """Above the four language buttons."""
    return tr.gettext("Choose your language.")


# --- command menus -------------------------------------------------------------------

_COMMANDS: Final[dict[str, _Text]] = {
    # TRANSLATORS: the descriptions of the commands in Telegram's menu: a few words
    # each; the command itself (/help, /seize, ...) is shown beside it in English.
    "help": lambda tr: tr.gettext("What you can do here"),
    "dues": lambda tr: tr.gettext("What is owed on a case today"),
    "deposit": lambda tr: tr.gettext("The deposit to take cattle back under protest"),
    "case": lambda tr: tr.gettext("Where a case stands"),
    "find": lambda tr: tr.gettext("Find impounded cattle"),
    "lang": lambda tr: tr.gettext("Choose the language"),
    "start": lambda tr: tr.gettext("Start, or use an invite"),
    "seize": lambda tr: tr.gettext("Report cattle brought in"),
    "photo": lambda tr: tr.gettext("Add photos of the cattle to a case"),
    "cancel": lambda tr: tr.gettext("Cancel the report being written"),
    "cases": lambda tr: tr.gettext("Open cases of your pound"),
    "paid": lambda tr: tr.gettext("The owner paid and took the cattle"),
    "deposited": lambda tr: tr.gettext("The owner deposited under protest"),
    "report": lambda tr: _report(tr),
    "refused": lambda tr: tr.gettext("The owner refused to pay"),
    "notice": lambda tr: tr.gettext("The notice of a case, or record it posted"),
    "auction": lambda tr: tr.gettext("Fix the day and place of the auction"),
    "sold": lambda tr: tr.gettext("Record a lot sold at the auction"),
    "unsold": lambda tr: tr.gettext("Record a lot not sold"),
    "settle": lambda tr: tr.gettext("Settle the money of a sale"),
    "receipt": lambda tr: tr.gettext("The owner received the account"),
    "noreceipt": lambda tr: tr.gettext("The owner refused the account"),
    "dispose": lambda tr: tr.gettext("Record cattle disposed of otherwise by order"),
    "outcome": lambda tr: tr.gettext("What became of a deposit under protest"),
    "claimed": lambda tr: tr.gettext("A claim to a deposit preferred"),
    "reject": lambda tr: tr.gettext("A claim to a deposit rejected"),
    "claim": lambda tr: tr.gettext("Pay out a claim on a deposit"),
    "fund": lambda tr: (
        # TRANSLATORS: the menu line of /fund; %(to_fund)s is where, as "to the fund" (or
        # "to State revenue") is translated.
        tr.gettext("Credit a deposit %(to_fund)s") % {"to_fund": credited_to(tr, short=True)}
    ),
    "due": lambda tr: tr.gettext("Deadlines due today and overdue"),
    "register": lambda tr: tr.gettext("The deposit register"),
    "correct": lambda tr: tr.gettext("Correct a seizure report, with the reason"),
    "void": lambda tr: tr.gettext("Void a case entered by mistake"),
    # TRANSLATORS: the Telegram menu line of /web: a link to sign in to the web desk.
    "web": lambda tr: tr.gettext("A link to sign in to the web desk"),
}


def _report(tr: Translator) -> str:
    """The keeper's menu line of /report: whom the report goes to under their Act."""
    # TRANSLATORS: s.13(1) — the keeper's menu line of /report; %(to_office)s is whom
    # the report is made to under the keeper's Act, as "to the local authority" (or "to
    # the officer in charge of the nearest police station") is translated.
    return tr.gettext("Report unclaimed cattle %(to_office)s") % {"to_office": reported_to(tr)}


def command_description(command: str, tr: Translator) -> str:
    """The menu line of ``command``."""
    return _COMMANDS[command](tr)


# --- buttons -------------------------------------------------------------------------

_LABELS: Final[dict[str, _Text]] = {
    # TRANSLATORS: a button of the seizure report: add cattle of another kind.
    "another": lambda tr: tr.gettext("Another kind"),
    # TRANSLATORS: a button: go on to the next question.
    "go_on": lambda tr: tr.gettext("Go on"),
    "cancel": lambda tr: tr.gettext("Cancel"),
    # TRANSLATORS: a button: leave this question unanswered.
    "skip": lambda tr: tr.gettext("Skip"),
    "done": lambda tr: tr.gettext("Done"),
    # TRANSLATORS: a button: the cattle were brought in just now.
    "now": lambda tr: tr.gettext("Now"),
    "confirm": lambda tr: tr.gettext("Confirm"),
    # TRANSLATORS: a button: change something in the report before confirming it.
    "fix": lambda tr: tr.gettext("Fix"),
    "back": lambda tr: tr.gettext("Back"),
    # TRANSLATORS: a button that sends the phone's location.
    "location": lambda tr: tr.gettext("Share location"),
    # TRANSLATORS: the parts of a seizure report (s.7), as buttons and in its summary.
    "cattle": lambda tr: tr.gettext("Cattle"),
    "description": lambda tr: tr.gettext("Description"),
    "place": lambda tr: tr.gettext("Place seized"),
    "photos": lambda tr: tr.gettext("Photos"),
    "seizer": lambda tr: tr.gettext("Seized by"),
    "owner": lambda tr: tr.gettext("Owner"),
    "when": lambda tr: tr.gettext("Brought in"),
    # TRANSLATORS: s.19 — the summary line and the Fix button of the day of seizure.
    "seized": lambda tr: tr.gettext("Seized on"),
    # TRANSLATORS: a button: the cattle were seized on the day they were brought in.
    "same_day": lambda tr: tr.gettext("Same day"),
    # TRANSLATORS: s.7 — a button under the question of the owner, when the cattle are of
    # more than one lot: the owner of each lot is asked in turn.
    "owners": lambda tr: tr.gettext("A different owner for each lot"),
    # TRANSLATORS: s.7 — a button under the question of a lot's owner: nobody knows
    # whose that lot is.
    "no_owner": lambda tr: tr.gettext("Owner not known"),
}


def label(key: str, tr: Translator) -> str:
    """The label of the button (or summary line) ``key``."""
    return _LABELS[key](tr)


# One entry per kind in domain.kinds.DEFAULT_KINDS, as in the glossary.
_KINDS: Final[dict[str, _Text]] = {
    # TRANSLATORS: a button: a kind of cattle (s.2(1)), singular, as in the glossary.
    "cow": lambda tr: tr.gettext("cow"),
    "ox": lambda tr: tr.gettext("ox"),
    "bull": lambda tr: tr.gettext("bull"),
    "calf": lambda tr: tr.gettext("calf"),
    "buffalo": lambda tr: tr.gettext("buffalo"),
    "buffalo_calf": lambda tr: tr.gettext("buffalo calf"),
    "goat": lambda tr: tr.gettext("goat"),
    "kid": lambda tr: tr.gettext("kid"),
    "sheep": lambda tr: tr.gettext("sheep"),
    "lamb": lambda tr: tr.gettext("lamb"),
    "pig": lambda tr: tr.gettext("pig"),
    "horse": lambda tr: tr.gettext("horse"),
    "pony": lambda tr: tr.gettext("pony"),
    "colt": lambda tr: tr.gettext("colt"),
    "mule": lambda tr: tr.gettext("mule"),
    "ass": lambda tr: tr.gettext("ass"),
    "camel": lambda tr: tr.gettext("camel"),
    "elephant": lambda tr: tr.gettext("elephant"),
}


def kind_name(kind: str, tr: Translator, kinds: Mapping[str, Kind] | None = None) -> str:
    """A kind of cattle by name: translated for the default kinds, else as configured."""
    text = _KINDS.get(kind)
    if text is not None:
        return text(tr)
    try:
        return local(kinds[kind].name, tr.lang) if kinds is not None else kind
    except (KeyError, UnknownKindError):
        return kind


# --- the guided seizure report (s.7) --------------------------------------------------


def ask_kind(tr: Translator) -> str:
    # TRANSLATORS: the first question of the seizure report, above the kinds of cattle.
    return tr.gettext("Which kind of cattle?")


def ask_count(kind: str, tr: Translator) -> str:
    # TRANSLATORS: %(kind)s is a kind of cattle (singular, as on its button).
    return tr.gettext("%(kind)s: how many? Choose or type the number.") % {"kind": kind}


def ask_more(cattle: str, tr: Translator) -> str:
    # TRANSLATORS: %(cattle)s lists the cattle so far, as in "2 cows, 1 goat".
    text = tr.gettext("So far: %(cattle)s. Cattle of another kind, or go on?")
    return text % {"cattle": cattle}


def ask_description(tr: Translator) -> str:
    return tr.gettext("Describe the cattle: colour, marks, horns, age. Or press Skip.")


def ask_place(tr: Translator) -> str:
    return tr.gettext("Where were they seized? Share a location or type the place.")


def ask_place_name(tr: Translator) -> str:
    return tr.gettext("Location received. Type the name of the place too, or press Skip.")


def ask_photos(tr: Translator) -> str:
    return tr.gettext("Send photos of the cattle if you have any, then press Done.")


def photos_received(n: int, tr: Translator) -> str:
    text = tr.ngettext(
        "%(n)d photo received. Send more, or press Done.",
        "%(n)d photos received. Send more, or press Done.",
        n,
    )
    return text % {"n": n}


def ask_seizer(tr: Translator) -> str:
    # TRANSLATORS: the person who seized the cattle (s.7); keep the example's comma.
    return tr.gettext(
        "Who seized them? Type the name and where they live, like: Ravi, Kunnamangalam. "
        "Or press Skip."
    )


def ask_owner(tr: Translator) -> str:
    # TRANSLATORS: the owner of the cattle, if known; keep the example's commas and number.
    return tr.gettext(
        "Whose are they, if known? Type the owner's name, where they live and phone, "
        "like: Suresh, Chathamangalam, 9847012345. Or press Skip."
    )


def ask_lot_owner(lot: int, cattle: str, tr: Translator) -> str:
    # TRANSLATORS: s.7 — the owner of one lot, when the lots are of different owners;
    # %(lot)d is the lot's number, %(cattle)s its cattle as in "1 goat". Keep the
    # example's commas and number.
    text = tr.gettext(
        "Whose is lot %(lot)d, %(cattle)s? Type the owner's name, where they live and "
        "phone, like: Ayisha, Mavoor, 9847012346."
    )
    return text % {"lot": lot, "cattle": cattle}


def lot_owner_without_name(lot: int, tr: Translator) -> str:
    # TRANSLATORS: s.7 — a phone number was given for the owner of lot %(lot)d (its
    # number in the report) but no name.
    text = tr.gettext("Give the name of the owner of lot %(lot)d too, not only the phone number.")
    return text % {"lot": lot}


def same_owner(lot: int, tr: Translator) -> str:
    # TRANSLATORS: s.7 — a button under the question of a lot's owner: the owner already
    # given for lot %(lot)d owns this lot too.
    return tr.gettext("Same owner as lot %(lot)d") % {"lot": lot}


def owner_of_lot(lot: int, cattle: str, tr: Translator) -> str:
    # TRANSLATORS: s.7 — a line of the summary of a report whose lots are of different
    # owners; %(lot)d is the lot's number, %(cattle)s its cattle as in "1 goat".
    return tr.gettext("Owner of lot %(lot)d, %(cattle)s") % {"lot": lot, "cattle": cattle}


def ask_when(tr: Translator) -> str:
    # TRANSLATORS: keep the example date and time as they are (day-month-year hour:minute).
    return tr.gettext(
        "When were they brought to the pound? Press Now, or type the date and time, "
        "like 20-11-2026 14:30."
    )


def ask_seized(tr: Translator) -> str:
    # TRANSLATORS: s.19 — the ten days to complain count from the day of seizure, which
    # may be before the day brought in. Keep the example date as it is.
    return tr.gettext(
        "On which day were they seized? Press Same day if it was the day they were "
        "brought in, or type the date, like 18-11-2026 (s.19)."
    )


def bad_seized(text: str, tr: Translator) -> str:
    # TRANSLATORS: %(text)s is what the person typed (shortened).
    template = tr.gettext("'%(text)s' is not a date. Type it like 18-11-2026.")
    return template % {"text": text[:20]}


def bad_when(text: str, tr: Translator) -> str:
    # TRANSLATORS: %(text)s is what the person typed (shortened).
    template = tr.gettext("'%(text)s' is not a date and time. Type it like 20-11-2026 14:30.")
    return template % {"text": text[:20]}


def not_given(tr: Translator) -> str:
    # TRANSLATORS: in the summary of a report, for a question that was skipped.
    return tr.gettext("not given")


def summary(lines: list[tuple[str, str]], tr: Translator) -> str:
    """The report to confirm: one ``label: value`` a line (labels from ``label``)."""
    # TRANSLATORS: above the summary of a seizure report, before it is recorded.
    head = tr.gettext("Check the report, then press Confirm to record it or Fix to change it.")
    return "\n".join([head, "", *(f"{name}: {value}" for name, value in lines)])


def ask_fix(tr: Translator) -> str:
    return tr.gettext("What needs fixing?")


def cancelled(tr: Translator) -> str:
    return tr.gettext("Report cancelled; nothing was recorded.")


def nothing_to_cancel(tr: Translator) -> str:
    return tr.gettext("There is no report being written.")


def in_progress(tr: Translator) -> str:
    # TRANSLATORS: "/cancel" is a command: keep it as it is.
    return tr.gettext("You are writing a report: answer the question below, or send /cancel.")


def stale_button(tr: Translator) -> str:
    # TRANSLATORS: a toast when an old button (of an earlier question) is pressed.
    return tr.gettext("That button is no longer current.")


def use_buttons(tr: Translator) -> str:
    return tr.gettext("Please answer with the buttons.")
