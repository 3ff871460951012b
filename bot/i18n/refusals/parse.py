"""What to send instead when a line is not a command poundbot understands.

``bot.conversation.commands.parse`` raises ``ParseError`` with a stable code; ``parse_error`` says
what is wrong and gives an example in the user's language, made of the command words
of ``bot.support.words`` in that language (so an example always parses; tested against the
sample configuration). Each fits one SMS budget on worst-case input.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.common import ECHO_LIMIT, connective, field_word, keyword, outcome_word
from bot.i18n.dlt_probe import literal
from bot.i18n.sms_keyword import to_send
from bot.support.phones import DEFAULT_REGION, PHONE_CODES, example_mobile
from bot.support.words import FIELDS

__all__ = ["PARSE_CODES", "examples", "parse_error"]

#: An example case number (a pound code and a number, as ``bot.config`` makes them).
_CASE: Final = "KNM-17"


def examples(tr: Translator) -> dict[str, str]:
    """Example command lines in the language of ``tr``, by name."""
    lang = tr.lang
    words = {
        "seize": keyword("seize", lang),
        "find": keyword("find", lang),
        "sold": keyword("sold", lang),
        "receipt": keyword("receipt", lang),
        "claim": keyword("claim", lang),
        "at": connective("at", lang),
        "to": connective("to", lang),
        "ref": connective("ref", lang),
        "declared": connective("declared", lang),
        # "by" in Malayalam, Tamil and Kannada is "seized by"; a claimant is named with BY.
        "by": connective("by", "en"),
        "correct": keyword("correct", lang),
        "void": keyword("void", lang),
        "place": field_word("place", lang),
        "because": connective("because", lang),
    }
    on = connective("on", lang)
    # TRANSLATORS: s.7 — an example SEIZE line. Translate the kinds of cattle with words
    # the pounds accept in your language (bot/sample_config.toml, words.<lang>) and the
    # place; keep the placeholders and the figures.
    seize = tr.gettext("%(seize)s 2 cow 1 buffalo %(at)s Chowwannur junction")
    # TRANSLATORS: an example FIND line: words of a description and a place.
    find = tr.gettext("%(find)s black cow Chowwannur")
    # TRANSLATORS: s.13(3), s.18 — an example SOLD line: case, lot 1, 2 head, Rs 15000,
    # to a buyer (name, residence) who declared they are not barred. Translate the
    # buyer's name and place into your script; keep the figures and the comma.
    sold = tr.gettext("%(sold)s KNM-17 1 2 15000 %(to)s Joseph Mathew, Chowwannur %(declared)s")
    # TRANSLATORS: s.15(4) — an example RECEIPT line with the name of who received.
    receipt = tr.gettext("%(receipt)s KNM-17 Suresh Kumar")
    # TRANSLATORS: s.16(3) — an example CLAIM line: claimant and the order's reference.
    claim = tr.gettext("%(claim)s KNM-17 %(by)s Suresh Kumar %(ref)s 12/2026")
    # TRANSLATORS: s.7 — an example CORRECT line: the place of seizure corrected, and
    # the reason. Translate the place and the reason; keep the placeholders.
    correct = tr.gettext(
        "%(correct)s KNM-17 %(place)s Chowwannur junction %(because)s written wrongly"
    )
    # TRANSLATORS: an example VOID line: a case entered twice by mistake.
    void = tr.gettext("%(void)s KNM-17 %(because)s entered twice")
    made = {
        "correct": correct % words,
        "void": void % words,
        "dispose": (
            f"{keyword('dispose', lang)} {_CASE} 1 1 {connective('by', 'en')} Director "
            f"{connective('ref', lang)} DO-4/2026"
        ),
        "outcome": (
            f"{keyword('outcome', lang)} {_CASE} {outcome_word('upheld', lang)} "
            f"{connective('ref', lang)} CC-12/2026"
        ),
        "reject": f"{keyword('reject', lang)} {_CASE} {connective('ref', lang)} 14/2026",
        "dues": f"{keyword('dues', lang)} {_CASE}",
        "paid": f"{keyword('paid', lang)} {_CASE} 1250",
        "help": keyword("help", lang),
        "lang": f"{keyword('lang', lang)} ml",
        "seize": seize % words,
        "find": find % words,
        "sold": sold % words,
        "receipt": receipt % words,
        "claim": claim % words,
        "date": f"{keyword('auction', lang)} {_CASE} {on} 20-11-2026",
        "time": f"{seize % words} {on} 20-11-2026 14:30",
    }
    # The same in every message of the language: fixed text of a DLT template.
    return {name: literal(tr, line) for name, line in made.items()}


_Message = Callable[[Translator], str]

_MESSAGES: Final[dict[str, _Message]] = {
    # TRANSLATORS: an empty message. %(example)s is a command line, %(help)s the HELP word.
    "empty": lambda tr: tr.gettext(
        "The message is empty. Send a command, like %(example)s, or %(help)s for the list."
    ),
    # TRANSLATORS: a message longer than ten SMS.
    "too_long": lambda tr: tr.gettext(
        "The message is too long. Send one command at a time, like %(example)s."
    ),
    # TRANSLATORS: %(word)s is the first word sent, which is not a command word.
    "unknown_command": lambda tr: tr.gettext(
        "'%(word)s' is not a command. Send %(help)s for the list, or a command like %(example)s."
    ),
    # TRANSLATORS: a command that needs a case number was sent without one.
    "missing_case": lambda tr: tr.gettext(
        "Give the case number after the command, like %(example)s."
    ),
    # TRANSLATORS: a count of cattle (or a lot, or a lot's heads) that is not a number.
    "bad_count": lambda tr: tr.gettext(
        "'%(text)s' is not a count. Write the number in figures, like %(example)s."
    ),
    # TRANSLATORS: s.2(1) — a word that is not a kind of cattle on the pound's list.
    "unknown_kind": lambda tr: tr.gettext(
        "'%(word)s' is not a kind of cattle on this pound's list (s.2(1)). Write the "
        "number, then the kind, like %(example)s."
    ),
    # TRANSLATORS: s.7 — a SEIZE line without the place of seizure.
    "missing_place": lambda tr: tr.gettext(
        "Say where the cattle were seized, after %(at)s, like %(example)s (s.7)."
    ),
    # TRANSLATORS: s.7 — a SEIZE line without the number and kind of the cattle.
    "missing_cattle": lambda tr: tr.gettext(
        "Say how many cattle of which kind, like %(example)s (s.7)."
    ),
    # TRANSLATORS: a date that is missing or not a date; dd-mm-yyyy in figures.
    "bad_date": lambda tr: tr.gettext(
        "Give the date as day-month-year in figures, like %(example)s."
    ),
    # TRANSLATORS: a time that is not a time; hh:mm on the 24-hour clock.
    "bad_time": lambda tr: tr.gettext(
        "Give the time as hours:minutes on the 24-hour clock, like %(example)s."
    ),
    # TRANSLATORS: LANG with a language poundbot does not speak; name the four
    # languages in your language, keeping the codes ml, en, ta, kn.
    "unknown_lang": lambda tr: tr.gettext(
        "Send %(example)s for Malayalam, or en for English, ta for Tamil, kn for Kannada."
    ),
    # TRANSLATORS: FIND without words to look for.
    "missing_words": lambda tr: tr.gettext(
        "Say what to look for: the kind, a mark or the place, like %(example)s."
    ),
    # TRANSLATORS: s.13(3), s.15(2) — an amount (a price, the expenses of sale) that is
    # missing or not an amount of rupees.
    "bad_amount": lambda tr: tr.gettext(
        "Write the amount in rupees, in figures, like %(example)s (s.13(3), s.15(2))."
    ),
    # TRANSLATORS: s.12, s.14 — PAID or DEPOSITED with something after the case number
    # that is not an amount of rupees (the amount may also be left out).
    "bad_paid_amount": lambda tr: tr.gettext(
        "'%(text)s' is not an amount. Write the amount paid in rupees, in figures, like "
        "%(example)s, or leave it out (s.12, s.14)."
    ),
    # TRANSLATORS: s.18 — a SOLD line without the buyer's name and residence.
    "missing_buyer": lambda tr: tr.gettext(
        "Name the buyer and where they live after %(to)s, like %(example)s (s.18)."
    ),
    # TRANSLATORS: s.15(4), s.16(3) — RECEIPT or CLAIM without the person's name (and,
    # for a claim, the reference).
    "missing_person": lambda tr: tr.gettext(
        "Name the person, like %(example)s or %(example2)s (s.15(4), s.16(3))."
    ),
    # TRANSLATORS: the owner's telephone number (after OWNER) has letters or no digits.
    # %(example)s is a mobile number.
    "phone_not_number": lambda tr: tr.gettext(
        "'%(text)s' is not a telephone number. Write the owner's mobile number in figures, "
        "like %(example)s."
    ),
    # TRANSLATORS: a telephone number with too few digits. %(example)s is a mobile number.
    "phone_too_short": lambda tr: tr.gettext(
        "'%(text)s' has too few digits for a mobile number. Write the whole number, "
        "like %(example)s."
    ),
    # TRANSLATORS: a telephone number with too many digits. %(example)s is a mobile number.
    "phone_too_long": lambda tr: tr.gettext(
        "'%(text)s' has too many digits for a mobile number. Write it like %(example)s."
    ),
    # TRANSLATORS: a number starting with + and no known country code after it.
    "phone_bad_country": lambda tr: tr.gettext(
        "'%(text)s' has no known country code after the +. Write the mobile number "
        "without it, like %(example)s."
    ),
    # TRANSLATORS: a number of the right length that no mobile number can be.
    "phone_invalid": lambda tr: tr.gettext(
        "'%(text)s' is not a valid mobile number. Check the digits, and write it like %(example)s."
    ),
    # TRANSLATORS: a landline or a service (toll-free) number: an SMS cannot reach it.
    "phone_not_mobile": lambda tr: tr.gettext(
        "'%(text)s' is a landline or a service number: an SMS cannot reach it. Give a "
        "mobile number, like %(example)s."
    ),
    # TRANSLATORS: more than one telephone number after OWNER.
    "phone_two_numbers": lambda tr: tr.gettext(
        "Give one mobile number for the owner, not '%(text)s'."
    ),
    # TRANSLATORS: s.7 — SEIZE with an owner's word (%(owner)s, OWNER) and no name after
    # it: the name of the owner of the lots written before it.
    "owner_without_name": lambda tr: tr.gettext(
        "Write the owner's name after %(owner)s: the owner of the cattle written before it, "
        "like %(example)s."
    ),
    # TRANSLATORS: s.7 — SEIZE with the owner's word (%(owner)s, OWNER) both after all the
    # lots and again later in the line: one owner of all the cattle is written once.
    "two_owners_of_all": lambda tr: tr.gettext(
        "Write %(owner)s once after all the cattle for one owner of them all, or once after "
        "each owner's cattle."
    ),
    # TRANSLATORS: s.7 — CORRECT or VOID without a reason after BECAUSE.
    "missing_reason": lambda tr: tr.gettext(
        "Give the reason after %(because)s, like %(example)s or %(example2)s."
    ),
    # TRANSLATORS: s.7 — CORRECT names something that is not a fact of the seizure
    # report; %(fields)s lists the words that are.
    "unknown_field": lambda tr: tr.gettext(
        "'%(word)s' is not a fact of the seizure report. Correct one of: %(fields)s (s.7)."
    ),
    # TRANSLATORS: s.13(3) proviso — DISPOSE without who ordered it (BY) or the order's
    # reference (REF).
    "missing_order": lambda tr: tr.gettext(
        "Name who ordered the disposal and the order's reference, like %(example)s "
        "(s.13(3) proviso)."
    ),
    # TRANSLATORS: s.14, s.19 — OUTCOME without UPHELD or ILLEGAL, or without REF.
    "missing_outcome": lambda tr: tr.gettext(
        "Say whether the seizure was upheld or found illegal, with the reference, like "
        "%(example)s (s.14, s.19)."
    ),
    # TRANSLATORS: s.16(3) — REJECT without the reference of the decision.
    "missing_reference": lambda tr: tr.gettext(
        "Give the reference of the decision, like %(example)s (s.16(3))."
    ),
}

#: The codes ``bot.conversation.commands.ParseError`` raises.
PARSE_CODES: Final = frozenset(_MESSAGES)

# The example each code shows (a name in ``examples``), and a second one where needed.
_EXAMPLE: Final = {
    "empty": "dues",
    "too_long": "dues",
    "unknown_command": "dues",
    "missing_case": "dues",
    "bad_count": "seize",
    "unknown_kind": "seize",
    "missing_place": "seize",
    "owner_without_name": "seize",
    "missing_cattle": "seize",
    "bad_date": "date",
    "bad_time": "time",
    "unknown_lang": "lang",
    "missing_words": "find",
    "bad_amount": "sold",
    "bad_paid_amount": "paid",
    "missing_buyer": "sold",
    "missing_person": "receipt",
    "missing_reason": "correct",
    "unknown_field": "correct",
    "missing_order": "dispose",
    "missing_outcome": "outcome",
    "missing_reference": "reject",
}

#: The codes of a telephone number that is not a valid mobile number (``bot.support.phones``).
_PHONE_CODES: Final = frozenset(PHONE_CODES) | {"phone_two_numbers"}
#: The second example each code shows, where it is not the CLAIM line.
_EXAMPLE2: Final = {"missing_reason": "void"}


def parse_error(code: str, facts: Mapping[str, object], tr: Translator) -> str:
    """What is wrong with the line and an example of what to send instead."""
    render = _MESSAGES.get(code)
    ex = examples(tr)
    region = str(facts.get("region") or DEFAULT_REGION)
    values = {
        "example": example_mobile(region)
        if code in _PHONE_CODES
        else to_send(tr, ex[_EXAMPLE.get(code, "dues")]),
        "example2": to_send(tr, ex[_EXAMPLE2.get(code, "claim")]),
        "because": literal(tr, connective("because", tr.lang)),
        "fields": literal(tr, ", ".join(field_word(name, tr.lang) for name in FIELDS)),
        "help": to_send(tr, ex["help"]),
        "at": literal(tr, connective("at", tr.lang)),
        "to": literal(tr, connective("to", tr.lang)),
        "owner": literal(tr, connective("owner", tr.lang)),
        "word": str(facts.get("word", ""))[:ECHO_LIMIT],
        "text": str(facts.get("text", ""))[:ECHO_LIMIT],
    }
    if render is None:
        # TRANSLATORS: a line that could not be understood, for a reason not listed.
        text = tr.gettext("The message was not understood. Send %(help)s for the commands.")
        return text % values
    return render(tr) % values
