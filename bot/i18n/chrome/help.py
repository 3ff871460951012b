"""HELP: the command words of a role, in English and in the user's language, with
what each does and the provision it applies.

Both keywords work in every language (``bot.support.words``). The grammar of each command is
shown with the English connecting words (AT, ON, BY, TO, REF), which also work in
every language; ``bot.i18n.refusals.parse.examples`` shows the same lines in the user's words.
Given a case number of the sender's pound (``example``), HELP ends with a DUES line on it
in the sender's words (``കുടിശ്ശിക KNM-1``): an example an owner can copy.

Why it is long: one table of every command of every role, each with its arguments and
what it does in the words of the Act (the proclamation by beat of drum or without it,
the office unclaimed cattle are reported to), read in one place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.common import credited_to, keys, keyword, reported_to
from bot.i18n.dlt_probe import literal
from bot.i18n.public.sms_fit import STAFF_SMS_SEGMENTS, join, shortest_fit
from bot.i18n.sms_keyword import to_send

__all__ = ["ROLES", "help_text"]

_Text = Callable[[Translator], str]

# command -> (arguments, what it does, what it does in a few words for an SMS)
_PUBLIC: Final[dict[str, tuple[_Text, _Text, _Text]]] = {
    "dues": (
        # TRANSLATORS: HELP — what follows a command: a case number. Keep the brackets.
        lambda tr: tr.gettext("<case>"),
        # TRANSLATORS: HELP — s.11, s.4, s.12: DUES gives the fines and charges today.
        lambda tr: tr.gettext("what is owed today, and what happens next (s.11, s.4, s.12)"),
        # TRANSLATORS: HELP in an SMS — DUES, in two or three words.
        lambda tr: tr.gettext("amount owed"),
    ),
    "deposit": (
        lambda tr: tr.gettext("<case>"),
        # TRANSLATORS: HELP — s.14: the deposit that delivers the cattle to an owner who
        # disputes the seizure.
        lambda tr: tr.gettext("the deposit to take the cattle while disputing the seizure (s.14)"),
        # TRANSLATORS: HELP in an SMS — DEPOSIT, in two or three words.
        lambda tr: tr.gettext("deposit to dispute"),
    ),
    "status": (
        lambda tr: tr.gettext("<case>"),
        # TRANSLATORS: HELP — STATUS tells what became of a case.
        lambda tr: tr.gettext("what became of a case"),
        # TRANSLATORS: HELP in an SMS — STATUS, in two or three words.
        lambda tr: tr.gettext("what became of it"),
    ),
    "find": (
        # TRANSLATORS: HELP — what follows FIND: words to look for. Keep the brackets.
        lambda tr: tr.gettext("<words>"),
        # TRANSLATORS: HELP — FIND looks through the open cases.
        lambda tr: tr.gettext("find open cases by kind, mark or place seized"),
        # TRANSLATORS: HELP in an SMS — FIND, in two or three words.
        lambda tr: tr.gettext("search"),
    ),
    "lang": (
        lambda tr: "ml|en|ta|kn",
        # TRANSLATORS: HELP — LANG chooses the language of the replies.
        lambda tr: tr.gettext("the language of the replies"),
        lambda tr: "",
    ),
    "stop": (
        lambda tr: "",
        # TRANSLATORS: HELP — STOP: no more messages except replies; START: again.
        lambda tr: tr.gettext("no more messages except replies / messages again"),
        lambda tr: "",
    ),
    "help": (
        lambda tr: "",
        # TRANSLATORS: HELP — HELP shows this list.
        lambda tr: tr.gettext("this list"),
        lambda tr: "",
    ),
}

# command -> (arguments, what it does)
_KEEPER: Final[dict[str, tuple[_Text, _Text]]] = {
    "seize": (
        # TRANSLATORS: HELP — s.7: the grammar of SEIZE. Keep AT, ON, BY, the figures,
        # dd-mm-yyyy, hh:mm, the brackets and ";"; translate the kinds with words the
        # pounds accept in your language, and the words in angle brackets.
        lambda tr: tr.gettext(
            "2 cow (description) 1 buffalo (description) AT <place> [ON dd-mm-yyyy [hh:mm]] "
            "[SEIZED dd-mm-yyyy] [BY <name, place>] [OWNER <name, place> <phone>]"
        ),
        # TRANSLATORS: HELP — s.7: SEIZE records cattle brought to the pound.
        lambda tr: tr.gettext("record cattle brought to the pound (s.7)"),
    ),
    "photo": (
        # TRANSLATORS: HELP — a case number, an optional lot number, and a picture sent
        # in the same message. Keep the brackets.
        lambda tr: tr.gettext("<case> [<lot>] + a picture"),
        # TRANSLATORS: HELP — PHOTO adds photos of the cattle to a case (kept without
        # their location data); on Telegram, as the caption of the photo.
        lambda tr: tr.gettext(
            "add photos of the cattle to a case, in the same message (on Telegram, as the "
            "caption of the photo)"
        ),
    ),
    "paid": (
        # TRANSLATORS: HELP — a case number and an optional date; keep ON and dd-mm-yyyy.
        lambda tr: tr.gettext("<case> [ON dd-mm-yyyy]"),
        # TRANSLATORS: HELP — s.12: PAID records payment and release.
        lambda tr: tr.gettext("the owner paid the dues; cattle released (s.12)"),
    ),
    "deposited": (
        lambda tr: tr.gettext("<case> [ON dd-mm-yyyy]"),
        # TRANSLATORS: HELP — s.14: DEPOSITED records a deposit under protest.
        lambda tr: tr.gettext(
            "the owner, disputing the seizure, deposited the dues; cattle delivered (s.14)"
        ),
    ),
    "report": (
        lambda tr: tr.gettext("<case>"),
        lambda tr: (
            # TRANSLATORS: HELP — s.13(1): REPORT reports unclaimed cattle; %(to_office)s
            # is whom, with its ending ("to the local authority"; under the
            # Cattle-trespass Act, 1871 "to the officer in charge of the nearest police
            # station").
            tr.gettext("report unclaimed cattle %(to_office)s (s.13(1))")
            % {"to_office": reported_to(tr)}
        ),
    ),
    "refused": (
        lambda tr: tr.gettext("<case>"),
        # TRANSLATORS: HELP — s.15(1): REFUSED records the owner's refusal to pay.
        lambda tr: tr.gettext("the owner appeared and refused or omitted to pay (s.15(1))"),
    ),
    "cases": (
        lambda tr: "",
        # TRANSLATORS: HELP — CASES lists the open cases of the keeper's pound.
        lambda tr: tr.gettext("the open cases of your pound"),
    ),
}


def _notice_help(tr: Translator) -> str:
    """NOTICE: the notice, and its proclamation (by beat of drum where the Act says so)."""
    if tr.act.drum:
        # TRANSLATORS: HELP — s.13(2): NOTICE alone prints the notice; with AT or ON it
        # records the notice and the proclamation in the village and the market place
        # (the configured ones when not named).
        return tr.gettext(
            "the notice to print; with AT or ON: posted, and proclaimed by beat of drum in "
            "the village and the market place (s.13(2))"
        )
    # TRANSLATORS: HELP — s.13(2) as amended: the same, under an Act whose proclamation has
    # no beat of drum (the Kerala Act as amended): do not name a drum.
    return tr.gettext(
        "the notice to print; with AT or ON: posted, and proclaimed in the village and the "
        "market place (s.13(2))"
    )


_OFFICER: Final[dict[str, tuple[_Text, _Text]]] = {
    "notice": (
        # TRANSLATORS: HELP — keep AT, ON and the brackets; translate the words in <>.
        lambda tr: tr.gettext("<case> [AT <village>, <market place>] [ON <date>]"),
        _notice_help,
    ),
    "auction": (
        # TRANSLATORS: HELP — keep ON and AT; translate the words in <>.
        lambda tr: tr.gettext("<case> ON <date> AT <place> [EXPENSES <rupees>]"),
        # TRANSLATORS: HELP — s.13(3), s.15(1), s.15(2): AUCTION fixes the public auction
        # and the expenses of sale expected.
        lambda tr: tr.gettext(
            "fix the day and place of the public auction and the expected expenses of sale "
            "(s.13(3), s.15(1), s.15(2))"
        ),
    ),
    "sold": (
        # TRANSLATORS: HELP — keep TO and DECLARED; translate the words in <>.
        lambda tr: tr.gettext("<case> <lot> <heads> <price> TO <buyer>, <place> DECLARED"),
        # TRANSLATORS: HELP — s.13(3), s.15(1), s.18: SOLD records heads of a lot sold on
        # the auction day; DECLARED records the buyer's declaration.
        lambda tr: tr.gettext(
            "heads of a lot sold on the auction day; DECLARED: the buyer declared they are "
            "not a police officer, an officer or member of the local authority, or a "
            "pound-keeper (s.18)"
        ),
    ),
    "unsold": (
        lambda tr: tr.gettext("<case> <lot> <heads>"),
        # TRANSLATORS: HELP — s.13(3): UNSOLD records heads offered and not sold.
        lambda tr: tr.gettext("heads of a lot offered and not sold (s.13(3))"),
    ),
    "dispose": (
        # TRANSLATORS: HELP — keep BY, REF, HOW, ON and the brackets; translate the words
        # in <>.
        lambda tr: tr.gettext(
            "<case> <lot> <heads> [<proceeds>] BY <who ordered> REF <order> [HOW <manner>]"
        ),
        # TRANSLATORS: HELP — s.13(3) proviso: DISPOSE records another manner of disposal
        # by the Director's order.
        lambda tr: tr.gettext("heads disposed of otherwise, by order (s.13(3) proviso)"),
    ),
    "settle": (
        lambda tr: tr.gettext("<case> <expenses>"),
        # TRANSLATORS: HELP — s.15(2), s.16: SETTLE closes the sale and its money.
        lambda tr: tr.gettext(
            "close the sale with its expenses and settle the money (s.15(2), s.16)"
        ),
    ),
    "receipt": (
        # TRANSLATORS: HELP — keep BY; translate the words in <>.
        lambda tr: tr.gettext("<case> BY <name>"),
        # TRANSLATORS: HELP — s.15(4): RECEIPT records the owner's receipt.
        lambda tr: tr.gettext("the owner took the cattle and the balance, and signed (s.15(4))"),
    ),
    "account_refused": (
        lambda tr: tr.gettext("<case>"),
        # TRANSLATORS: HELP — s.15(5): NORECEIPT records the owner's refusal.
        lambda tr: tr.gettext("the owner refused the cattle and the balance (s.15(5))"),
    ),
    "outcome": (
        # TRANSLATORS: HELP — keep UPHELD, ILLEGAL, REF and ON; translate the words in <>.
        lambda tr: tr.gettext("<case> UPHELD|ILLEGAL REF <reference> [ON dd-mm-yyyy]"),
        # TRANSLATORS: HELP — s.14, s.19: OUTCOME records what became of a deposit.
        lambda tr: tr.gettext(
            "the seizure upheld (deposit applied to the dues) or illegal (refunded) (s.14, s.19)"
        ),
    ),
    "refunded": (
        # TRANSLATORS: HELP — keep ON and dd-mm-yyyy; translate the words in <>.
        lambda tr: tr.gettext("<case> [ON dd-mm-yyyy]"),
        # TRANSLATORS: HELP — s.19: REFUNDED records that the deposit ordered refunded
        # was paid back to the owner.
        lambda tr: tr.gettext("the deposit ordered refunded was paid back to the owner (s.19)"),
    ),
    "claimed": (
        # TRANSLATORS: HELP — keep BY, ON and dd-mm-yyyy; translate the words in <>.
        lambda tr: tr.gettext("<case> BY <name> [ON dd-mm-yyyy]"),
        lambda tr: (
            # TRANSLATORS: HELP — s.16(3): CLAIMED records a claim preferred, not yet decided.
            # %(to_fund)s is where the deposit goes, as "to the fund" (or "to State revenue")
            # is translated.
            tr.gettext(
                "a claim to the deposit preferred: no credit %(to_fund)s until decided (s.16(3))"
            )
            % {"to_fund": credited_to(tr, short=True)}
        ),
    ),
    "reject": (
        # TRANSLATORS: HELP — keep BY and REF; translate the words in <>.
        lambda tr: tr.gettext("<case> [BY <name>] REF <reference>"),
        # TRANSLATORS: HELP — s.16(3): REJECT records a claim not established.
        lambda tr: tr.gettext("the claim pending was not established (s.16(3))"),
    ),
    "claim": (
        # TRANSLATORS: HELP — keep BY, REF, PREFERRED, ON and dd-mm-yyyy; translate the
        # words in <>.
        lambda tr: tr.gettext(
            "<case> BY <name> REF <reference> [PREFERRED dd-mm-yyyy] [ON dd-mm-yyyy]"
        ),
        # TRANSLATORS: HELP — s.16(3): CLAIM records a claim to the deposit established;
        # PREFERRED is the day it was preferred (else the pending claim's), ON the day it
        # was established (else today). Keep PREFERRED and ON.
        lambda tr: tr.gettext(
            "a claim to the deposit, established (s.16(3)): PREFERRED the day it was "
            "preferred (else the pending claim's), ON the day established (else today)"
        ),
    ),
    "fund": (
        lambda tr: tr.gettext("<case>"),
        lambda tr: (
            # TRANSLATORS: HELP — s.17(1): FUND credits the unclaimed deposit to the fund;
            # %(to_fund)s is where, as "to the fund" (or "to State revenue") is translated.
            tr.gettext("credit the unclaimed deposit %(to_fund)s (s.17(1))")
            % {"to_fund": credited_to(tr, short=True)}
        ),
    ),
    "due": (
        lambda tr: "",
        # TRANSLATORS: HELP — DEADLINES lists what is due today and overdue.
        lambda tr: tr.gettext("what is due today and what is overdue"),
    ),
    "register": (
        lambda tr: "",
        # TRANSLATORS: HELP — s.16(3): REGISTER shows the deposit register.
        lambda tr: tr.gettext("the deposit register (s.16(3))"),
    ),
}

#: The keeper who recorded a case (the pound's keeper, when an officer recorded it), or an
#: officer of its authority (s.7).
_RECORD: Final[dict[str, tuple[_Text, _Text]]] = {
    "correct": (
        # TRANSLATORS: HELP — s.7: the grammar of CORRECT. Keep the capital words (they
        # are the fields) and BECAUSE; translate the words in <>.
        lambda tr: tr.gettext(
            "<case> CATTLE|PLACE|BROUGHT|SEIZED|SEIZER|OWNER <value> BECAUSE <reason>"
        ),
        # TRANSLATORS: HELP — s.7: CORRECT corrects the seizure report; deadlines move.
        lambda tr: tr.gettext("correct the seizure report; the deadlines move with it (s.7)"),
    ),
    "void": (
        # TRANSLATORS: HELP — keep BECAUSE; translate the words in <>.
        lambda tr: tr.gettext("<case> BECAUSE <reason>"),
        # TRANSLATORS: HELP — VOID withdraws a case entered by mistake.
        lambda tr: tr.gettext("withdraw a case entered by mistake, while no money has moved"),
    ),
}

#: Every registered keeper, officer and admin.
_STAFF: Final[dict[str, tuple[_Text, _Text]]] = {
    "web": (
        lambda tr: "",
        # TRANSLATORS: HELP — WEB sends a single-use link that signs in to the web desk.
        lambda tr: tr.gettext("a link to sign in to the web desk (once, within 15 minutes)"),
    ),
}

#: The roles HELP knows, and the commands each adds to the public ones.
ROLES: Final = {
    "public": (),
    "keeper": ("keeper", "record", "staff"),
    "officer": ("officer", "record", "staff"),
    "admin": ("keeper", "officer", "record", "staff"),
}


def _names(command: str, lang: str, both: bool) -> str:
    if command == "stop":
        start = (keys if both else keyword)("start", lang)
        return f"{(keys if both else keyword)('stop', lang)}, {start}"
    return (keys if both else keyword)(command, lang)


def _line(command: str, args: str, what: str, lang: str, both: bool = True) -> str:
    head = " ".join(p for p in (_names(command, lang, both), args) if p)
    return f"{head}: {what}" if what else head


_TABLES: Final = {"keeper": _KEEPER, "officer": _OFFICER, "record": _RECORD, "staff": _STAFF}


def _role_lines(role: str, tr: Translator, both: bool, with_what: bool) -> list[str]:
    tables = _TABLES
    return [
        _line(name, args(tr), what(tr) if with_what else "", tr.lang, both)
        for section in ROLES[role]
        for name, (args, what) in tables[section].items()
    ]


def _example(tr: Translator, case: str) -> str:
    """A DUES line on ``case`` in the words of ``tr``'s language; "" without a case."""
    if not case:
        return ""
    # TRANSLATORS: HELP — the last line: an example to copy. %(dues)s is the DUES word
    # of your language, %(case)s a case number of the sender's pound.
    text = tr.gettext("Example: %(dues)s %(case)s")
    # On Mobile Seva the keyword goes first, as in every SMS to poundbot.
    return text % {"dues": to_send(tr, literal(tr, keyword("dues", tr.lang))), "case": case}


def help_text(role: str, tr: Translator, sms: bool, source_url: str = "", example: str = "") -> str:
    """The commands of ``role`` (public, keeper, officer, admin), each with what it does.

    The public SMS fits the owner's SMS budget; a keeper's or officer's SMS lists the
    commands of the role in up to four segments and leaves the explanations to chat.
    In chat, with ``source_url``, it ends by offering the source (AGPL-3.0 section 13);
    an SMS leaves that to the web desk's footer (the owner's budget has no room for it).
    With ``example``, a case number, it ends with a DUES line on it (``_example``).
    """
    text = _commands(role, tr, sms, _example(tr, example))
    if source_url and not sms:
        # TRANSLATORS: the last line of HELP in chat; {url} is where the code can be had.
        source = tr.gettext("poundbot is free software (AGPL-3.0); its source code: {url}")
        text = f"{text}\n\n{source.format(url=source_url)}"
    return text


def _commands(role: str, tr: Translator, sms: bool, example: str) -> str:
    if role not in ROLES:
        role = "public"
    public = [_line(n, a(tr), w(tr), tr.lang) for n, (a, w, _) in _PUBLIC.items()]
    if not sms:
        # TRANSLATORS: HELP — heading: one command a message; either word works.
        heading = tr.gettext("Commands (one a message; either word works):")
        text = join([heading, *public, example], sms=False)
        if ROLES[role]:
            # TRANSLATORS: HELP — heading of the commands of pound-keepers and officers.
            work = [tr.gettext("For your work:"), *_role_lines(role, tr, True, True)]
            text = f"{text}\n\n{join(work, sms=False)}"
        return text
    if not ROLES[role]:
        candidates: list[Sequence[str]] = []
        for both, gloss in ((True, True), (False, True), (False, False)):
            items = [
                _line(n, a(tr), s(tr) if gloss else "", tr.lang, both)
                for n, (a, _, s) in _PUBLIC.items()
            ]
            candidates.append([to_send(tr, "; ".join(items)) + ("." if example else ""), example])
        if example:  # the example is the first thing left out
            candidates.append([to_send(tr, "; ".join(items))])
        return shortest_fit(tr, candidates)
    everyone = ", ".join(keyword(n, "en") for n in _PUBLIC if n != "stop")
    candidates = [
        [
            to_send(tr, "; ".join([*_role_lines(role, tr, both, False), everyone]))
            + ("." if example else ""),
            example,
        ]
        for both in (True, False)
    ]
    words = [keyword(n, "en") for section in ROLES[role] for n in _TABLES[section]]
    listed = to_send(tr, "; ".join([", ".join(words), everyone]))
    candidates.append([listed + ("." if example else ""), example])
    if example:  # the example is the first thing left out
        candidates.append([listed])
    return shortest_fit(tr, candidates, STAFF_SMS_SEGMENTS)
