"""The desk during a sale on the owner's refusal (s.15(1)): the money shows what the
proceeds met and what remains owed; SETTLE is refused while the dues are unmet and
heads remain; the keeper takes the payment of the rest through the PAID form."""

from __future__ import annotations

from pathlib import Path

from domain.stages import Stage
from tests.web.rig import rig
from tests.web.test_desk import _step

SEIZE = "SEIZE 3 cow (brown) AT Kunnamangalam market OWNER Ravi 9847012345"


async def test_the_desk_refuses_settle_short_of_the_dues_and_takes_the_rest_paid(
    tmp_path: Path,
) -> None:
    async with rig(tmp_path) as r:
        keeper = await r.user("keeper", pound="KNM", phone="+919847000010", name="Suresh")
        officer = await r.user("officer", authority="KNM-GP", name="Latha")
        await r.say(keeper, SEIZE)
        r.clock.advance(days=2)  # 3 March: the owner refuses to pay (s.15(1))
        await r.say(keeper, "REFUSED KNM-1")
        await r.say(officer, "AUCTION KNM-1 ON 06-03-2026 AT Kunnamangalam market EXPENSES 500")
        r.clock.advance(days=3)  # 6 March, the auction day
        await r.say(officer, "SOLD KNM-1 1 1 2999.99 TO Mammu, Chathamangalam DECLARED")
        await r.say(officer, "UNSOLD KNM-1 1 2")
        await r.sign_in(officer)
        refused = await _step(r, "KNM-1", "settle", status=409, amount="500")
        assert "Not settled" in refused, refused
        assert "₹1,919.01" in refused, refused
        assert "AUCTION" not in refused, refused  # the desk's words, not chat syntax
        assert "PAID" not in refused, refused
        assert "the form “Fix the auction (s.15(1))” below" in refused, refused
        assert "(the form “The owner paid: release (s.12)”)" in refused, refused  # the keeper's
        r.client.cookies.clear()
        await r.sign_in(keeper)
        page = (await r.client.get("/web/cases/KNM-1")).text
        assert "Met from the proceeds" in page
        assert "₹1,919.01" in page  # owed today: the dues and expenses less the proceeds
        paid = await _step(r, "KNM-1", "paid")
        assert "₹1,919.01" in paid, paid
        assert "s.15(4)" in paid, paid
        async with r.app.store.transaction() as tx:
            case = (await tx.load_case("KNM-1")).case
        assert case.stage is Stage.RELEASED
        after = (await r.client.get("/web/cases/KNM-1")).text
        assert "Account of case KNM-1" in after  # the s.15(3) account, with the payment
        assert "₹1,919.01" in after
        printed = await r.client.get("/web/documents/account/KNM-1")
        assert printed.status_code == 200
        assert "₹1,919.01" in printed.text  # the printable account gives the payment
        register = await r.client.get("/web/documents/cases.csv?month=2026-03")
        assert register.status_code == 200
        assert "KNM-1" in register.text
