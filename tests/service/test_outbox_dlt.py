"""Each outbound SMS goes under its DLT template (``bot.support.dlt``): with an entity
configured, the outbox finds the template the text matches, records it on the row and
calls the provider with ``dlt=DltStamp(entity, template id)``; a text that matches no
template, has a variable over the limit, or whose template has no id is not sent: it is
marked failed with the reason, counted and listed. Without an entity nothing changes."""

from __future__ import annotations

import asyncio
from datetime import date

from sqlalchemy import select

from bot.adapters.outbox import deliver_once
from bot.i18n import translator
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.public.owner import auction_sms
from bot.observe.metrics import OUTBOX_DLT_REFUSED, OUTBOX_FAILED
from bot.store.messages import enqueue
from bot.store.models import OutboxRow
from bot.store.tx import Store
from bot.support.dlt import DltPolicy, DltStamp, registry

ENTITY = "1201160000000000000"


class DltSender:
    """An SMS provider that records the stamp of each message it is given."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, str, DltStamp | None]] = []

    async def send(
        self, recipient: str, body: str, key: str, *, dlt: DltStamp | None = None
    ) -> str:
        await asyncio.sleep(0)
        self.sent.append((recipient, body, dlt))
        return f"SM{len(self.sent):04d}"


class PlainSender:
    """A sender that knows nothing of DLT (WhatsApp, Telegram, or SMS abroad)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, recipient: str, body: str, key: str) -> str:
        self.sent.append(body)
        return "SM1"


def auction(lang: str, place: str = "Panchayat office") -> str:
    return auction_sms("KNM-1", date(2026, 3, 18), place, translator(lang))


def template_of(text: str) -> str:
    found = registry().find(text)
    assert found is not None
    return found.name


async def _queue(store: Store, *bodies: str) -> None:
    async with store.transaction() as tx:
        for i, body in enumerate(bodies):
            await enqueue(tx, key=f"k{i}", channel="sms", recipient=f"+91984700{i:04d}", body=body)


async def _rows(store: Store) -> list[OutboxRow]:
    async with store.transaction() as tx:
        return list((await tx.session.execute(select(OutboxRow).order_by(OutboxRow.id))).scalars())


async def test_an_sms_goes_with_the_entity_and_its_templates_id_in_each_language(
    store: Store,
) -> None:
    english, malayalam = auction("en"), auction("ml")
    ids = {
        template_of(english): "1207000000000000001",
        template_of(malayalam): "1207000000000000002",
    }
    await _queue(store, english, malayalam)
    sender = DltSender()
    policy = DltPolicy(ENTITY, ids)
    assert await deliver_once(store, {"sms": sender}, "w", dlt=policy) == 2
    assert sender.sent == [
        ("+919847000000", english, DltStamp(ENTITY, "1207000000000000001")),
        ("+919847000001", malayalam, DltStamp(ENTITY, "1207000000000000002")),
    ]
    rows = await _rows(store)
    assert [r.template for r in rows] == [template_of(english), template_of(malayalam)]
    assert template_of(malayalam).endswith(".ml")
    assert all(r.status == "sent" for r in rows)


async def test_a_text_no_template_matches_is_not_sent_and_is_marked_failed_with_why(
    store: Store,
) -> None:
    await _queue(store, "Hello, this text was never registered.")
    sender = DltSender()
    failed = OUTBOX_FAILED.labels("sms")._value.get()
    refused = OUTBOX_DLT_REFUSED.labels("no_template")._value.get()
    policy = DltPolicy(ENTITY, {t.name: "1" for t in registry()})
    assert await deliver_once(store, {"sms": sender}, "w", dlt=policy) == 0
    assert sender.sent == []
    (row,) = await _rows(store)
    assert (row.status, row.last_error) == ("failed", "dlt: no DLT template matches the text")
    assert OUTBOX_FAILED.labels("sms")._value.get() == failed + 1
    assert OUTBOX_DLT_REFUSED.labels("no_template")._value.get() == refused + 1
    assert await deliver_once(store, {"sms": sender}, "w", dlt=policy) == 0  # never again


async def test_a_template_without_an_id_is_not_sent(store: Store) -> None:
    text = auction("ml")
    await _queue(store, text)
    sender = DltSender()
    assert await deliver_once(store, {"sms": sender}, "w", dlt=DltPolicy(ENTITY, {})) == 0
    (row,) = await _rows(store)
    assert sender.sent == []
    assert row.status == "failed"
    assert row.last_error == f"dlt: no DLT template id configured for {template_of(text)}"
    assert row.template is None


async def test_a_variable_over_the_portals_limit_is_not_sent(store: Store) -> None:
    text = auction("en")
    await _queue(store, text.replace("Panchayat office", "P" * 40))
    sender = DltSender()
    policy = DltPolicy(ENTITY, {t.name: "1" for t in registry()})
    assert await deliver_once(store, {"sms": sender}, "w", dlt=policy) == 0
    (row,) = await _rows(store)
    assert row.status == "failed"
    assert "has 40 characters (limit 30)" in (row.last_error or "")


async def test_without_an_entity_sms_go_as_before_to_a_sender_that_knows_no_dlt(
    store: Store,
) -> None:
    await _queue(store, "Hello, this text was never registered.")
    sender = PlainSender()
    assert await deliver_once(store, {"sms": sender}, "w", dlt=DltPolicy()) == 1
    assert sender.sent == ["Hello, this text was never registered."]
    (row,) = await _rows(store)
    assert (row.status, row.template) == ("sent", None)


async def test_other_channels_are_not_checked(store: Store) -> None:
    async with store.transaction() as tx:
        await enqueue(tx, key="t", channel="telegram", recipient="42", body="free text")
    sender = PlainSender()
    policy = DltPolicy(ENTITY, {})
    assert await deliver_once(store, {"telegram": sender}, "w", dlt=policy) == 1
    assert sender.sent == ["free text"]


async def test_the_follow_up_on_a_keeper_s_pictures_goes_under_its_templates_in_each_language(
    store: Store,
) -> None:
    """Each SMS of the follow-up once an MMS's pictures are fetched (how many were kept,
    why each other was not) is a template of its own, in every language, and is sent
    stamped with its id."""
    from bot.i18n import LANGUAGES
    from bot.i18n.keepers.photos import photos_fetched

    cases = (
        ([""], 0),
        (["", ""], 2),
        (["", "too_large", "too_many_pixels", "not_image", "unreachable"], 0),
        (["unreachable"] * 10, 0),
    )
    with rendering_sms():  # as the fetcher renders them for an SMS (English in GSM-7)
        bodies = [
            line
            for lang in LANGUAGES
            for refused, already in cases
            for line in photos_fetched(
                "KNM-1234",
                refused,
                translator(lang),
                max_mb=10,
                max_megapixels=25,
                already=already,
            )
        ]
    names = {template_of(body) for body in bodies}
    assert len(names) == 7 * len(LANGUAGES)
    ids = {name: f"12070000000000{n:05d}" for n, name in enumerate(sorted(names))}
    await _queue(store, *bodies)
    sender = DltSender()
    policy = DltPolicy(ENTITY, ids)
    while await deliver_once(store, {"sms": sender}, "w", dlt=policy):
        pass
    assert sorted(body for _, body, _ in sender.sent) == sorted(bodies)
    for _, body, stamp in sender.sent:
        assert stamp == DltStamp(ENTITY, ids[template_of(body)])
