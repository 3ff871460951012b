"""A property: however a sale goes (on the owner's refusal, s.15(1), or unclaimed,
s.13(3); any lots sold or offered unsold, at any price; any expenses of sale), each SMS
of the answer to SOLD, UNSOLD and SETTLE is a registered DLT template, within the slot
limit and the staff budget: the payees a settlement has, the dues met or not, heads
remaining or none, change which templates go, never make a text no template matches."""

from __future__ import annotations

from functools import cache

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bot.i18n import translator
from bot.i18n.dlt_probe import rendering_sms
from bot.i18n.officers.sale import lot_recorded, settled_reply
from bot.i18n.public.sms_fit import STAFF_SMS_SEGMENTS, fits_sms, sms_parts
from bot.support.dlt import DEFAULT_SLOT_LIMIT, registry
from domain.case import Case
from domain.errors import DomainError
from domain.money import Money
from domain.s07_seizure import Person
from domain.s15_3_account import account_for
from domain.s15_sale import close_sale, offer_lot, sale_progress
from domain.statement import statement
from domain.tariff import Tariff
from i18n_tools.worst_case import STARTS, Stop, longest_kinds, places, timeline, worst_tariff

LANGS = ("en", "ml", "ta", "kn")


@cache
def auctions(lang: str) -> tuple[Tariff, dict[str, Stop]]:
    tr = translator(lang)
    stops = timeline(tr, STARTS[0], places())
    fixed = {
        k: v for k, v in stops.items() if k in ("s.13(3) auction fixed", "s.15(1) auction fixed")
    }
    return worst_tariff(longest_kinds(tr)), fixed


def _check(text: str, lang: str) -> None:
    for part in sms_parts(text):
        template = registry().find(part, lang) or registry().find(part)
        assert template is not None, part
        assert template.problem(part, DEFAULT_SLOT_LIMIT) is None, part
        assert fits_sms(part, lang, STAFF_SMS_SEGMENTS), part


lots = st.lists(
    st.tuples(
        st.integers(0, 2),  # the lot
        st.integers(1, 30),  # heads
        st.one_of(st.none(), st.integers(0, 5_000_000_00)),  # unsold, or the price in paise
    ),
    min_size=1,
    max_size=4,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    lang=st.sampled_from(LANGS),
    route=st.sampled_from(["s.13(3) auction fixed", "s.15(1) auction fixed"]),
    offered=lots,
    expenses=st.integers(0, 50_000_000_00),
)
def test_every_sms_of_a_sale_is_a_registered_template_however_it_goes(
    lang: str, route: str, offered: list[tuple[int, int, int | None]], expenses: int
) -> None:
    tariff, fixed = auctions(lang)
    stop = fixed[route]
    tr = translator(lang)
    case: Case = stop.case
    day = case.scheduled_auction.auction_on if case.scheduled_auction else stop.day
    with rendering_sms():
        for lot, count, paise in offered:
            try:
                case = offer_lot(
                    case,
                    lot=lot,
                    count=count,
                    price=None if paise is None else Money(paise),
                    buyer=None if paise is None else Person("Mammu", "Kunnamangalam"),
                    buyer_role=None,
                    declared_not_barred=paise is not None,
                    on=day,
                    today=day,
                    tariff=tariff,
                )
            except DomainError:
                continue  # refused: nothing recorded, nothing to say but the refusal
            _check(
                lot_recorded(statement(case, tariff, day), sale_progress(case, tariff, day), tr),
                lang,
            )
        assume(case.proceeds.paise > 0 or case.heads_remaining == 0)
        try:
            closed, settlement = close_sale(
                case, tariff, on=day, expenses=Money(expenses), today=day
            )
        except (DomainError, ValueError):
            return
        _check(settled_reply(settlement, account_for(closed, settlement, day), tr), lang)
