"""Owners are understood as they write, by SMS: their spellings (Malayalam in Latin
letters too), quotes copied from our replies, the case number first or alone or in
Malayalam letters, the Mobile Seva keyword without its space, a word one letter off
an owner's word (and never STOP or a staff word), FIND in one language finding a
description written in another, and HELP with an example on the sender's own case.

Every message is a real HTTP request to the SMS webhook (Twilio's, signed; Mobile
Seva's pull), on SQLite and on PostgreSQL."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.bootstrap import open_app
from bot.services.admin import add_user
from bot.store.models import Contact, OutboxRow
from bot.support.caller import Caller
from bot.support.dlt import DltPolicy, registry
from tests.conftest import ENGINES
from tests.e2e.india_harness import database, india_rig
from tests.e2e.sms_harness import KEEPER_PHONE, SmsRig, sms_rig

SEIZE = (
    "SEIZE 2 cow 1 buffalo AT Kunnamangalam market OWNER Kunhammed 9847099999; "
    "black, white forehead"
)
OWNER = "+919847099999"
MALAYALAM = re.compile("[\u0d00-\u0d7f]")
TAMIL = re.compile("[\u0b80-\u0bff]")
KANNADA = re.compile("[\u0c80-\u0cff]")
_SCRIPTS = {"ml": MALAYALAM, "ta": TAMIL, "kn": KANNADA}
#: The answer names case KNM-1 (not the KNM-17 of a refusal's example).
THE_CASE = re.compile(r"KNM-1(?!\d)")


def language_of(text: str) -> str:
    found = [lang for lang, script in _SCRIPTS.items() if script.search(text)]
    return found[0] if len(found) == 1 else ("en" if not found else "mixed")


def message_of(response_text: str) -> str:
    parts = re.findall(r"<Message>(.*?)</Message>", response_text, re.S)
    assert parts, response_text
    return html.unescape("\n".join(parts))


@pytest.fixture(params=ENGINES)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database on each engine."""
    with database(request.param, tmp_path) as found:
        yield found


@pytest.fixture
async def rig(tmp_path: Path, url: str):  # type: ignore[no-untyped-def]
    async with open_app(url=url, migrate=True):
        pass
    async with sms_rig(tmp_path, url) as rig:
        seized = message_of((await rig.sms(KEEPER_PHONE, SEIZE, "SM-words-seize")).text)
        assert "KNM-1" in seized, seized
        yield rig


class Numbers:
    """A new number of the public for each message (each its own language, its own
    limit of answers)."""

    def __init__(self) -> None:
        self.n = 0

    def __call__(self) -> str:
        self.n += 1
        return f"+9198471{self.n:05d}"


async def ask(rig: SmsRig, sender: str, text: str) -> str:
    ask.n = getattr(ask, "n", 0) + 1  # type: ignore[attr-defined]
    sid = f"SM-words-{ask.n}"  # type: ignore[attr-defined]
    return message_of((await rig.sms(sender, text, sid)).text)


# What an owner types, the command it must be read as, and the language of the answer.
REFUSED_BEFORE = [
    ("pizha KNM-1", "dues", "ml"),
    ("kudishika KNM-1", "dues", "ml"),
    ("കുടിശിക KNM-1", "dues", "ml"),
    ("പിഴ KNM-1", "dues", "ml"),
    ("കെട്ടിവെപ്പ് KNM-1", "deposit", "ml"),
    ("“കുടിശ്ശിക” KNM-1", "dues", "ml"),
    ("KNM-1 കുടിശ്ശിക", "dues", "ml"),
    ("കുടിശ്ശിക <KNM-1>", "dues", "ml"),
    ("കുടിശ്ശിക? KNM-1", "dues", "ml"),
    ("കുടിശ്ശിക KNM-1?", "dues", "ml"),
    ("കെഎൻഎം-1", "dues", "ml"),
    ("കുടിശ്ശിക കെ.എൻ.എം-൧", "dues", "ml"),
    ("KNM-1", "dues", "en"),
    ("knm 1", "dues", "en"),
    ("fine KNM-1", "dues", "en"),
    ("'DUES' KNM-1", "dues", "en"),
    ("«STATUS» KNM-1", "status", "en"),
    ("KNM-1 STATUS", "status", "en"),
    ("vivaram KNM-1", "status", "ml"),
    ("kettiveppu KNM-1", "deposit", "ml"),
    ("நிலுவை KNM-1", "dues", "ta"),
    ("niluvai KNM-1", "dues", "ta"),
    ("ದಂಡ KNM-1", "dues", "kn"),
    ("danda KNM-1", "dues", "kn"),
]

#: Words each answer of a command carries in English (the others: the case number).
_ENGLISH_MARK = {"dues": "due", "deposit": "deposit", "status": "Case KNM-1"}


async def test_every_spelling_owners_use_is_answered_in_the_language_of_the_table(
    rig: SmsRig,
) -> None:
    number = Numbers()
    wrong = []
    for text, command, lang in REFUSED_BEFORE:
        answer = await ask(rig, number(), text)
        if not THE_CASE.search(answer) or language_of(answer) != lang:
            wrong.append(f"{text!r} -> {answer!r}")
        elif lang == "en" and _ENGLISH_MARK[command].lower() not in answer.lower():
            wrong.append(f"{text!r} was not read as {command}: {answer!r}")
    assert not wrong, "\n".join(wrong)


async def test_a_shared_word_keeps_the_language_the_number_chose(rig: SmsRig) -> None:
    sender = Numbers()()
    assert language_of(await ask(rig, sender, "LANG ta")) == "ta"
    for word in ("baaki", "baki", "fine"):
        answer = await ask(rig, sender, f"{word} KNM-1")
        assert THE_CASE.search(answer), (word, answer)
        assert language_of(answer) == "ta", (word, answer)


async def test_the_first_manglish_answer_sets_malayalam_and_says_how_to_get_english(
    rig: SmsRig,
) -> None:
    sender = Numbers()()
    first = await ask(rig, sender, "pizha KNM-1")
    assert language_of(first) == "ml", first
    assert THE_CASE.search(first), first
    assert "LANG" in first, first
    assert " en" in first, first
    second = await ask(rig, sender, "pizha KNM-1")
    assert THE_CASE.search(second), second
    assert "LANG" not in second, second
    async with rig.app.store.transaction() as tx:
        chosen = await tx.session.scalar(select(Contact.lang).where(Contact.phone == sender))
    assert chosen == "ml"
    # Told so, the owner gets English by LANG en, even in the quotes the hint puts it in.
    assert "English" in await ask(rig, sender, "“LANG” en")
    assert language_of(await ask(rig, sender, "pizha KNM-1")) == "en"


async def test_the_mobile_seva_keyword_without_its_space_is_taken_off(
    tmp_path: Path, url: str
) -> None:
    async with india_rig(tmp_path, "mseva", url) as rig:
        await rig.say(KEEPER_PHONE, SEIZE, "2026-03-01 10:00:01")
        await rig.deliver(2)
        for n, message in enumerate(("KLPOUND DUES KNM-1", "klpound കുടിശിക KNM-1")):
            response = await rig.mseva_pull(OWNER[3:], message, stamp=f"t{n}")
            assert response.status_code == 200
        await rig.deliver(4)
        answers = [rig.text_of(m) for m in rig.sent() if rig.to(m) == OWNER][1:]
        assert len(answers) == 2, answers
        english, malayalam = answers
        assert THE_CASE.search(english), english
        assert language_of(english) == "en", english
        assert THE_CASE.search(malayalam), malayalam
        assert language_of(malayalam) == "ml", malayalam


async def test_a_word_one_letter_off_an_owners_word_is_read_and_the_answer_says_so(
    rig: SmsRig,
) -> None:
    number = Numbers()
    answer = await ask(rig, number(), "STATSU KNM-1")
    assert "STATSU" in answer, answer
    assert "STATUS" in answer, answer
    assert THE_CASE.search(answer), answer
    answer = await ask(rig, number(), "കുടിശ്ശിക്ക KNM-1")  # one letter more
    assert "കുടിശ്ശിക" in answer, answer
    assert THE_CASE.search(answer), answer
    assert language_of(answer) == "ml"


@pytest.mark.parametrize(
    "text",
    [
        "DEPOSITD KNM-1",  # one letter from DEPOSIT and from DEPOSITED (a staff word)
        "CASEZ KNM-1",  # one letter from CASE and from CASES
        "PAIDD KNM-1",  # a staff word
        "REPORTT KNM-1",
        "STOPP",
        "SOTP",
        "STARTT",
        "UNSUBSCRIBEE",
    ],
)
async def test_a_word_one_letter_off_is_not_read_when_it_is_ambiguous_staffs_or_stop(
    rig: SmsRig, text: str
) -> None:
    sender = Numbers()()
    answer = await ask(rig, sender, text)
    assert "is not a command" in answer, answer
    async with rig.app.store.transaction() as tx:
        contact = await tx.session.get(Contact, sender)
    assert contact is None or contact.opted_out_at is None


async def test_cases_is_not_read_as_case(rig: SmsRig) -> None:
    number = Numbers()
    status = await ask(rig, number(), "case KNM-1")
    assert THE_CASE.search(status), status
    cases = await ask(rig, number(), "cases KNM-1")
    assert not THE_CASE.search(cases), cases  # CASES is the keepers' list, not STATUS


async def test_find_in_malayalam_finds_a_description_the_keeper_wrote_in_english(
    rig: SmsRig,
) -> None:
    number = Numbers()
    for text in (
        "തിരയുക കറുത്ത എരുമ",
        "തിരയുക കറുത്ത പശു കുന്ദമംഗലം",
        "thirayuka karutha",
        "தேடு கருப்பு எருமை",
        "ಹುಡುಕು ಕಪ್ಪು ಎಮ್ಮೆ",
        "FIND netti",
    ):
        answer = await ask(rig, number(), text)
        assert THE_CASE.search(answer), (text, answer)
    nothing = await ask(rig, number(), "തിരയുക വെളുത്ത ആട്")  # a white goat: none
    assert not THE_CASE.search(nothing), nothing


async def test_help_shows_an_example_on_the_senders_own_pound(rig: SmsRig) -> None:
    owner = await ask(rig, OWNER, "സഹായം")
    assert "കുടിശ്ശിക KNM-1" in owner, owner  # the owner's own case
    stranger = await ask(rig, Numbers()(), "HELP")
    assert "DUES KNM-17" in stranger, stranger  # the first pound configured
    async with rig.app.store.transaction() as tx:
        await add_user(
            tx,
            rig.app.deps,
            Caller.system(),
            role="keeper",
            pound="ENM",
            phone="+919847000030",
            name="Ramesh",
            lang="kn",
        )
    keeper = await ask(rig, "+919847000030", "HELP")
    assert "ENM-17" in keeper, keeper
    assert "KNM-17" not in keeper, keeper


ENTITY = "1201160000000000000"
#: A different id for every registered template, so that the id sent names the match.
IDS = {t.name: f"1207{n:015d}" for n, t in enumerate(sorted(registry(), key=lambda t: t.name))}


async def test_under_dlt_every_answer_matches_a_registered_template(
    tmp_path: Path, url: str
) -> None:
    """With DLT on, the new words add no text that matches no template: the Manglish
    answer and its word on LANG, HELP with its example, a word read one letter off
    (its note left out) all go out, each SMS under a registered template."""
    async with india_rig(tmp_path, "exotel", url, dlt=DltPolicy(ENTITY, IDS)) as rig:
        await rig.say(KEEPER_PHONE, SEIZE, "dlt-seize")
        owner = "09847099999"
        for n, text in enumerate(("pizha KNM-1", "HELP", "STATSU KNM-1", "KNM-1", "sahayam")):
            assert (await rig.exotel_sms(owner, text, f"dlt-{n}")).status_code == 200
        for _ in range(400):
            async with rig.app.store.transaction() as tx:
                rows = list((await tx.session.scalars(select(OutboxRow))).all())
            # Each sent or failed: one the server's own delivery loop is sending (status
            # "sending") is waited for, as one still queued is.
            if rows and all(r.status not in ("queued", "sending") for r in rows):
                break
            await rig.deliver(len(rows), seconds=0.1)
        assert [(r.body, r.last_error) for r in rows if r.status != "sent"] == []
        answers = {
            r.idempotency_key: r.body for r in rows if r.idempotency_key.startswith("sms-reply:")
        }
        first = "sms-reply:exotel:dlt-0"
        assert THE_CASE.search(answers[first]), answers
        assert "LANG" in answers[f"{first}#2"], answers  # an SMS of its own
        assert "KNM-1" in answers["sms-reply:exotel:dlt-1"], answers  # HELP's example
        read = answers["sms-reply:exotel:dlt-2"]
        assert THE_CASE.search(read), read
        assert "STATSU" not in read, read  # no registered text carries the note
        for row in rows:
            template = registry().get(row.template or "")
            assert template is not None, row.body
            assert template.problem(row.body, 30) is None


async def test_under_dlt_lang_offers_only_the_languages_registered_here(
    tmp_path: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under DLT only the languages of the installation's authorities have templates: a
    LANG for another is answered with those there are (and changes nothing), so that no
    later answer falls silent for want of a template; LANG for one of them is taken."""
    from tests.e2e import india_harness

    sample = india_harness.load()
    here = sample._replace(
        authorities={
            code: a._replace(default_language="ml") for code, a in sample.authorities.items()
        },
        pounds={code: p._replace(languages=("ml", "en")) for code, p in sample.pounds.items()},
    )
    assert here.sms_languages == ("ml", "en")  # in LANGUAGES order
    monkeypatch.setattr(india_harness, "load", lambda: here)
    ids = {name: id_ for name, id_ in IDS.items() if name.endswith((".ml", ".en"))}
    async with india_rig(tmp_path, "exotel", url, dlt=DltPolicy(ENTITY, ids)) as rig:
        owner = "09847099999"
        for n, text in enumerate(("LANG ta", "LANG kn", "LANG ml")):
            assert (await rig.exotel_sms(owner, text, f"lang-{n}")).status_code == 200
        for _ in range(400):
            async with rig.app.store.transaction() as tx:
                rows = list((await tx.session.scalars(select(OutboxRow))).all())
                chosen = await tx.session.scalar(select(Contact.lang))
            if len(rows) >= 3 and all(r.status not in ("queued", "sending") for r in rows):
                break
            await rig.deliver(len(rows), seconds=0.1)
        assert [(r.body, r.last_error) for r in rows if r.status != "sent"] == []
        answers = {r.idempotency_key: r.body for r in rows}
        for n in (0, 1):
            refused = answers[f"sms-reply:exotel:lang-{n}"]
            assert "Malayalam, English" in refused, refused
            assert "(ml, en)" in refused, refused
        assert MALAYALAM.search(answers["sms-reply:exotel:lang-2"]), answers
        assert chosen == "ml"


# An owner whose number a case names asks without its number, as owners do.
WITHOUT_NUMBER = [
    ("കുടിശ്ശിക?", "ml"),
    ("കുടിശ്ശിക", "ml"),
    ("kudishika", "ml"),
    ("DUES", "en"),
    ("dues?", "en"),
    ("STATUS", "en"),
    ("vivaram", "ml"),
    ("DEPOSIT", "en"),
]


@pytest.mark.parametrize(("text", "lang"), WITHOUT_NUMBER)
async def test_the_owner_asking_without_a_case_number_is_answered_on_their_case(
    rig: SmsRig, text: str, lang: str
) -> None:
    answer = await ask(rig, OWNER, text)
    assert THE_CASE.search(answer), answer
    assert language_of(answer) == lang, answer
    assert "KNM-17" not in answer, answer  # not the refusal's example


async def test_without_a_case_number_a_number_no_case_names_is_told_how_to_ask(
    rig: SmsRig,
) -> None:
    answer = await ask(rig, Numbers()(), "DUES")
    assert "No open case names this number" in answer, answer
    assert "STATUS KNM-1" in answer, answer


async def test_without_a_case_number_the_newest_case_is_answered_and_the_others_counted(
    rig: SmsRig,
) -> None:
    second = message_of((await rig.sms(KEEPER_PHONE, SEIZE, "SM-words-seize-2")).text)
    assert "KNM-2" in second, second
    answer = await ask(rig, OWNER, "DUES")
    assert re.search(r"KNM-2(?!\d)", answer), answer
    assert "1 more open case names this number" in answer, answer


async def test_a_keeper_without_a_case_number_is_still_asked_for_one(rig: SmsRig) -> None:
    answer = await ask(rig, KEEPER_PHONE, "DUES")
    assert "Give the case number after the command" in answer, answer
