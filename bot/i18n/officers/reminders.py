"""Reminders of the Act's deadlines (``domain.deadlines``): one message per deadline,
worded as overdue once its day has passed (as ended, for the last day of a period the
Act gives someone else), and the morning digest of a person's deadlines due today and
overdue.

Why it is long: every deadline's reminder, due and overdue, in the words of the case's
Act (the office unclaimed cattle are reported to, the proclamation with or without the
beat of drum), and the digest of them, full or compact for an SMS under DLT."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import date
from typing import Final

from bot.i18n.catalogs import Translator
from bot.i18n.common import (
    CATTLE_WIDTH,
    NAME_LIMIT,
    cite,
    credited_to,
    day,
    keyword,
    reported_to,
    shorten,
)
from bot.i18n.dlt_probe import in_sms, leaf, literal, probing
from bot.i18n.public.sms_fit import STAFF_SMS_SEGMENTS, fits_sms, in_parts, join
from bot.i18n.sms_keyword import to_send
from domain.deadlines import PERIOD_ENDS, Deadline, DeadlineKind
from domain.profiles import Profile

__all__ = ["digest", "reminder", "reminders_troubled"]

_Pair = tuple[Callable[[Translator], str], Callable[[Translator], str]]


def _notice_due(tr: Translator) -> str:
    """s.13(2): the notice and its proclamation are due (by beat of drum where the
    case's Act says so)."""
    if tr.act.drum:
        # TRANSLATORS: s.13(2) — reminder to the officer: post the notice and have it
        # proclaimed by beat of drum ("thereupon", on the day of the report).
        return tr.gettext(
            "Case %(case)s: affix the notice and have it proclaimed by beat of drum on "
            "%(date)s (s.13(2)). Then send %(command)s."
        )
    # TRANSLATORS: s.13(2) as amended — the same, under an Act whose proclamation is made
    # in the village and the market place with no beat of drum (the Kerala Act as
    # amended): do not name a drum.
    return tr.gettext(
        "Case %(case)s: affix the notice and have it proclaimed in the village and the "
        "nearest market place on %(date)s (s.13(2)). Then send %(command)s."
    )


def _notice_overdue(tr: Translator) -> str:
    """s.13(2): the notice and its proclamation were due and are not recorded."""
    if tr.act.drum:
        # TRANSLATORS: s.13(2) — the same, the day has passed.
        return tr.gettext(
            "OVERDUE: case %(case)s: the notice and the beat of drum were due on %(date)s "
            "(s.13(2)). Do them today and send %(command)s."
        )
    # TRANSLATORS: s.13(2) as amended — the same, the day has passed, under an Act with no
    # beat of drum (the Kerala Act as amended): do not name a drum.
    return tr.gettext(
        "OVERDUE: case %(case)s: the notice and the proclamation were due on %(date)s "
        "(s.13(2)). Do them today and send %(command)s."
    )


# kind -> (due, overdue). %(case)s the case, %(date)s the day, %(command)s a command;
# %(to_office)s whom the case's Act has unclaimed cattle reported to.
_REMINDERS: Final[dict[DeadlineKind, _Pair]] = {
    DeadlineKind.REPORT_DUE: (
        # TRANSLATORS: s.13(1) — reminder to the pound-keeper: the report of unclaimed
        # cattle is due on the date; %(to_office)s is whom it is made to, with its ending
        # ("to the local authority"; under the Cattle-trespass Act, 1871 "to the officer
        # in charge of the nearest police station").
        lambda tr: tr.gettext(
            "Case %(case)s: report the unclaimed cattle %(to_office)s on %(date)s "
            "(s.13(1)). Send %(command)s."
        ),
        # TRANSLATORS: s.13(1) — the same, the day has passed.
        lambda tr: tr.gettext(
            "OVERDUE: case %(case)s: the report of the unclaimed cattle was due on %(date)s "
            "(s.13(1)). Send %(command)s today."
        ),
    ),
    DeadlineKind.NOTICE_DUE: (_notice_due, _notice_overdue),
    DeadlineKind.AUCTION_LAWFUL: (
        # TRANSLATORS: s.13(3) — reminder to the officer: the first day the public
        # auction of unclaimed cattle is lawful.
        lambda tr: tr.gettext(
            "Case %(case)s: if the cattle are still unclaimed, the public auction is lawful "
            "from %(date)s (s.13(3)). Fix it with %(command)s."
        ),
        # TRANSLATORS: s.13(3) — the same, the auction lawful for some days, not fixed.
        lambda tr: tr.gettext(
            "OVERDUE: case %(case)s: the public auction has been lawful since %(date)s "
            "(s.13(3)) and is not fixed. Fix it with %(command)s."
        ),
    ),
    DeadlineKind.AUCTION_DAY: (
        # TRANSLATORS: s.13(3), s.15(1) — reminder to the officer: the auction day.
        lambda tr: tr.gettext(
            "Case %(case)s: the public auction is on %(date)s (s.13(3), s.15(1)). Record "
            "each lot with %(command)s."
        ),
        # TRANSLATORS: s.13(3), s.15(1) — the auction day passed with no lot recorded.
        lambda tr: tr.gettext(
            "OVERDUE: case %(case)s: the public auction fixed for %(date)s is not recorded "
            "(s.13(3), s.15(1)). Record the lots with %(command)s or fix a new day."
        ),
    ),
    DeadlineKind.COMPLAINT_WINDOW_ENDS: (
        # TRANSLATORS: s.19 — the last day to complain of an illegal seizure.
        lambda tr: tr.gettext(
            "Case %(case)s: the last day to complain of the seizure is %(date)s (s.19)."
        ),
        # TRANSLATORS: s.19, s.14 — the owner's time to complain is over (the owner's
        # limit, not a duty missed): record what became of the deposit; %(command)s is
        # the OUTCOME command.
        lambda tr: tr.gettext(
            "Case %(case)s: the owner's time to complain of the seizure ended on %(date)s "
            "(s.19). Record what became of the deposit (s.14): %(command)s."
        ),
    ),
    DeadlineKind.DEPOSIT_WINDOW_ENDS: (
        # TRANSLATORS: s.16(3) — the last day a claim to the deposit may be preferred.
        lambda tr: tr.gettext(
            "Case %(case)s: a claim to the deposit may be preferred until %(date)s (s.16(3))."
        ),
        # TRANSLATORS: s.16(3), s.17(1) — the three months for claims are over (a
        # limit of the claimants, not a duty missed); %(to_fund_short)s is where the
        # deposit goes, as "to the fund" (or "to State revenue") is translated.
        lambda tr: tr.gettext(
            "Case %(case)s: the time for claims to the deposit ended on %(date)s "
            "(s.16(3)). Record a claim established, or credit it %(to_fund_short)s (s.17(1))."
        ),
    ),
    DeadlineKind.CREDIT_TO_FUND: (
        # TRANSLATORS: s.17(1) — from this day the unclaimed deposit goes to the fund of
        # the local authority (or, under the Cattle-trespass Act, 1871, to State
        # revenue); %(to_fund)s is where, as "to the fund of the local authority" is
        # translated.
        lambda tr: tr.gettext(
            "Case %(case)s: from %(date)s credit the unclaimed deposit %(to_fund)s "
            "(s.17(1)). Send %(command)s."
        ),
        # TRANSLATORS: s.17(1) — the same, the day has passed; %(to_fund_short)s is
        # where, as "to the fund" (or "to State revenue") is translated.
        lambda tr: tr.gettext(
            "OVERDUE: case %(case)s: the unclaimed deposit was to be credited "
            "%(to_fund_short)s from %(date)s (s.17(1)). Send %(command)s."
        ),
    ),
    DeadlineKind.CLAIM_PENDING: (
        # TRANSLATORS: s.16(3) — a claim to the deposit was preferred in time and is not
        # decided; the three months are over. %(command)s: the CLAIM and REJECT words.
        lambda tr: tr.gettext(
            "Case %(case)s: a claim to the deposit is pending; from %(date)s record it "
            "established or rejected (s.16(3)): %(command)s."
        ),
        # TRANSLATORS: s.16(3) — the same, the day has passed.
        lambda tr: tr.gettext(
            "OVERDUE: case %(case)s: the claim to the deposit pending since before %(date)s "
            "is not decided (s.16(3)). Send %(command)s."
        ),
    ),
}

# The command a reminder tells the person to send.
_COMMAND: Final = {
    DeadlineKind.REPORT_DUE: "report",
    DeadlineKind.NOTICE_DUE: "notice",
    DeadlineKind.AUCTION_LAWFUL: "auction",
    DeadlineKind.AUCTION_DAY: "sold",
    DeadlineKind.COMPLAINT_WINDOW_ENDS: "outcome",
    DeadlineKind.DEPOSIT_WINDOW_ENDS: "claim",
    DeadlineKind.CREDIT_TO_FUND: "fund",
    DeadlineKind.CLAIM_PENDING: "claim",
}

_WITH_CASE: Final = frozenset({"report", "notice", "fund", "outcome"})


def _command(kind: DeadlineKind, case_number: str, tr: Translator) -> str:
    """The command to send: the language's words (fixed text of the template) and the
    case number (a slot)."""
    lang = tr.lang
    name = _COMMAND[kind]
    word = keyword(name, lang)
    case = leaf(tr, case_number, "case")
    if kind is DeadlineKind.AUCTION_DAY:
        return literal(tr, f"{word} / {keyword('unsold', lang)}")
    if kind is DeadlineKind.CLAIM_PENDING:
        return f"{literal(tr, word + ' / ' + keyword('reject', lang))} {case}"
    return f"{literal(tr, word)} {case}" if name in _WITH_CASE else literal(tr, word)


def reminder(
    kind: DeadlineKind,
    case_number: str,
    due_on: date,
    today: date,
    tr: Translator,
    *,
    to_officer: bool = False,
) -> str:
    """The reminder of one deadline: the case, what to do, by when, the provision;
    worded as overdue when ``due_on`` is before ``today``. An overdue keeper's report
    escalated to the officers (``to_officer``) says who has not acted."""
    if kind is DeadlineKind.REPORT_DUE and to_officer:
        # TRANSLATORS: s.13(1) — to the officers of the local authority, when the
        # pound-keeper has not made the report of unclaimed cattle on time.
        text = tr.gettext(
            "%(case)s: the pound-keeper has not yet reported these unclaimed cattle; "
            "the report was due on %(date)s (s.13(1))."
        )
        return text % {"case": case_number, "date": day(due_on, tr)}
    due, overdue = _REMINDERS[kind]
    values = {
        "case": case_number,
        "date": day(due_on, tr),
        "command": to_send(tr, _command(kind, case_number, tr)),
        "to_office": reported_to(tr),
        "to_fund": credited_to(tr),
        "to_fund_short": credited_to(tr, short=True),
    }
    return (overdue if due_on < today else due)(tr) % values


def _report_label(tr: Translator, act: Profile) -> str:
    # TRANSLATORS: s.13(1) — a line of the morning digest: what is due; %(to_office)s is
    # whom the report is made to, with its ending ("to the local authority"; under the
    # Cattle-trespass Act, 1871 "to the officer in charge of the nearest police station").
    return tr.gettext("report %(to_office)s") % {"to_office": reported_to(tr, act)}


def _notice_label(tr: Translator, act: Profile) -> str:
    if act.drum:
        # TRANSLATORS: s.13(2) — a line of the morning digest.
        return tr.gettext("notice and beat of drum")
    # TRANSLATORS: s.13(2) as amended — a line of the morning digest, under an Act with no
    # beat of drum (the Kerala Act as amended): do not name a drum.
    return tr.gettext("notice and proclamation")


# kind -> what is due, in the words of the case's Act (a digest lists cases under
# several Acts: each line its own case's).
_LABELS: Final[dict[DeadlineKind, Callable[[Translator, Profile], str]]] = {
    DeadlineKind.REPORT_DUE: _report_label,
    DeadlineKind.NOTICE_DUE: _notice_label,
    # TRANSLATORS: s.13(3) — a line of the morning digest.
    DeadlineKind.AUCTION_LAWFUL: lambda tr, act: tr.gettext(
        "first day the public auction is lawful"
    ),
    # TRANSLATORS: s.13(3), s.15(1) — a line of the morning digest.
    DeadlineKind.AUCTION_DAY: lambda tr, act: tr.gettext("public auction"),
    # TRANSLATORS: s.19 — a line of the morning digest.
    DeadlineKind.COMPLAINT_WINDOW_ENDS: lambda tr, act: tr.gettext("last day to complain"),
    # TRANSLATORS: s.16(3) — a line of the morning digest.
    DeadlineKind.DEPOSIT_WINDOW_ENDS: lambda tr, act: tr.gettext(
        "last day for claims to the deposit"
    ),
    DeadlineKind.CREDIT_TO_FUND: lambda tr, act: (
        # TRANSLATORS: s.17(1) — a line of the morning digest; %(to_fund)s is where, as "to
        # the fund" (or "to State revenue") is translated.
        tr.gettext("credit %(to_fund)s") % {"to_fund": credited_to(tr, act, short=True)}
    ),
    # TRANSLATORS: s.16(3) — a line of the morning digest: a claim to decide.
    DeadlineKind.CLAIM_PENDING: lambda tr, act: tr.gettext("claim to the deposit to decide"),
}


# kind -> the line of the digest once the last day of a period given to someone else
# has passed (``PERIOD_ENDS``): ended, not overdue. %(days)d days ago, on %(date)s.
_ENDED: Final[dict[DeadlineKind, Callable[[Translator, int], str]]] = {
    # TRANSLATORS: s.19 — a line of the digest: the owner's ten days to complain of the
    # seizure ended some days ago; the owner's limit, not a duty missed.
    DeadlineKind.COMPLAINT_WINDOW_ENDS: lambda tr, n: tr.ngettext(
        "%(case)s: the owner's time to complain ended %(days)d day ago, on %(date)s "
        "(%(provision)s)",
        "%(case)s: the owner's time to complain ended %(days)d days ago, on %(date)s "
        "(%(provision)s)",
        n,
    ),
    # TRANSLATORS: s.16(3) — a line of the digest: the three months for claims to the
    # deposit ended some days ago; the claimants' limit, not a duty missed.
    DeadlineKind.DEPOSIT_WINDOW_ENDS: lambda tr, n: tr.ngettext(
        "%(case)s: the time for claims to the deposit ended %(days)d day ago, on %(date)s "
        "(%(provision)s)",
        "%(case)s: the time for claims to the deposit ended %(days)d days ago, on %(date)s "
        "(%(provision)s)",
        n,
    ),
}


def _digest_line(
    case_number: str, deadline: Deadline, today: date, tr: Translator, act: Profile
) -> str:
    tr = tr.under(act)  # the line in the words of its case's Act
    late = (today - deadline.due_on).days
    values = {
        "case": case_number,
        "what": _LABELS[deadline.kind](tr, act),
        "date": day(deadline.due_on, tr),
        "provision": cite(deadline.provision, tr),
        "days": late,
    }
    ended = _ENDED.get(deadline.kind)
    if deadline.due_on < today and ended is not None:
        text = ended(tr, late)
    elif deadline.due_on < today:
        # TRANSLATORS: a line of the digest: a deadline passed some days ago.
        text = tr.ngettext(
            "%(case)s: %(what)s, %(date)s (%(provision)s), %(days)d day overdue",
            "%(case)s: %(what)s, %(date)s (%(provision)s), %(days)d days overdue",
            late,
        )
    else:
        # TRANSLATORS: a line of the digest: a deadline that falls today.
        text = tr.gettext("%(case)s: %(what)s (%(provision)s)")
    return "- " + text % values


def digest(
    items: Sequence[tuple[str, Deadline]],
    today: date,
    tr: Translator,
    *,
    compact: bool = False,
    acts: Mapping[str, Profile] | None = None,
) -> str:
    """One morning message: the deadlines overdue, then those due today (later ones
    are left for their day). ``compact`` (an SMS under DLT, where a message must be one
    of a few templates), and by SMS when the full digest does not fit the staff budget:
    under each heading only the case numbers, as data. ``acts``: the Act of each case by
    its number, in whose words its line is (a case not in it: the translator's Act)."""
    past = sorted((i for i in items if i[1].due_on < today), key=lambda i: i[1].due_on)
    overdue = [i for i in past if i[1].kind not in PERIOD_ENDS]
    ended = [i for i in past if i[1].kind in PERIOD_ENDS]  # someone else's limit
    due = [i for i in items if i[1].due_on == today]
    if compact or probing():  # the templates: only the few compact ones
        return _compact_digest(overdue, due, ended, today, tr)
    full = _full_digest(overdue, due, ended, today, tr, acts or {})
    if in_sms() and not fits_sms(full, tr.lang, STAFF_SMS_SEGMENTS):
        return _compact_digest(overdue, due, ended, today, tr)  # within the staff budget
    return full


def _full_digest(
    overdue: Sequence[tuple[str, Deadline]],
    due: Sequence[tuple[str, Deadline]],
    ended: Sequence[tuple[str, Deadline]],
    today: date,
    tr: Translator,
    acts: Mapping[str, Profile],
) -> str:
    """Each deadline on a line of its own under its heading, citing its case's Act."""
    return _digest_of(
        overdue,
        due,
        ended,
        today,
        tr,
        lambda found: [_digest_line(n, d, today, tr, acts.get(n, tr.act)) for n, d in found],
    )


def _compact_digest(
    overdue: Sequence[tuple[str, Deadline]],
    due: Sequence[tuple[str, Deadline]],
    ended: Sequence[tuple[str, Deadline]],
    today: date,
    tr: Translator,
) -> str:
    """Under each heading only the case numbers, as one variable of the template."""

    def numbers(found: Sequence[tuple[str, Deadline]]) -> list[str]:
        listed = shorten(", ".join(dict.fromkeys(n for n, _ in found)), CATTLE_WIDTH * NAME_LIMIT)
        return [leaf(tr, listed, "cases" + "+" * (CATTLE_WIDTH - 1))]

    return _digest_of(overdue, due, ended, today, tr, numbers)


def _digest_of(
    overdue: Sequence[tuple[str, Deadline]],
    due: Sequence[tuple[str, Deadline]],
    ended: Sequence[tuple[str, Deadline]],
    today: date,
    tr: Translator,
    lines_of: Callable[[Sequence[tuple[str, Deadline]]], list[str]],
) -> str:
    """The morning message: its heading, then the overdue, the due today and the periods
    of others that have ended, each under its heading with the lines ``lines_of`` gives
    them."""
    # TRANSLATORS: heading of the morning message of deadlines.
    lines = [tr.gettext("Deadlines on %(date)s:") % {"date": day(today, tr)}]
    if not overdue and not due and not ended:
        # TRANSLATORS: the morning message when nothing is due or overdue.
        lines.append(tr.gettext("Nothing is due today or overdue."))
    if overdue:
        # TRANSLATORS: heading of the deadlines that have passed.
        lines += [tr.gettext("OVERDUE:"), *lines_of(overdue)]
    if due:
        # TRANSLATORS: heading of the deadlines that fall today.
        lines += [tr.gettext("Due today:"), *lines_of(due)]
    if ended:
        # TRANSLATORS: heading of the periods the Act gives others (the owner to complain,
        # s.19; claimants to claim a deposit, s.16(3)) that have ended: not overdue.
        lines += [tr.gettext("Periods ended:"), *lines_of(ended)]
    return join(lines, sms=False)


def reminders_troubled(tr: Translator) -> str:
    """To the officers and admins, once a day: reminders of deadlines could not be sent
    and are being tried again (``bot.reminders.dispatch``: a troubled job)."""
    # TRANSLATORS: to the officers of the local authority and the admins, at most once
    # a day: the server stopped (or failed) several times while sending some reminders
    # of the Act's deadlines; poundbot goes on trying them. The deadlines still run.
    warning = tr.gettext(
        "Warning: some reminders of the Act's deadlines could not be sent: the server "
        "stopped or failed several times while sending them."
    )
    # TRANSLATORS: after the warning that reminders could not be sent (the next SMS).
    then = tr.gettext(
        "poundbot keeps trying them; the deadlines still run. Please ask the operator to "
        "look at the server's log."
    )
    return in_parts([warning, then])  # by SMS: two SMS
