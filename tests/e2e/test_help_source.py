"""HELP in chat ends by offering poundbot's source (AGPL-3.0 section 13) at the server's
own /source, in the reader's language; an SMS leaves it to the web desk's footer."""

from __future__ import annotations

from pathlib import Path

from bot.fakes.telegram_api import Updates
from bot.i18n import render, translator
from tests.e2e.telegram_rig import (
    KEEPER,
    PUBLIC_URL,
    db_url,
    fake_bot_api,
    poundbot_on,
    seed_users,
    sent,
    start_clock,
)


async def test_help_in_chat_ends_with_the_source_link_of_this_server(tmp_path: Path) -> None:
    clock, url = start_clock(), db_url(tmp_path)
    await seed_users(url, clock)
    async with (
        fake_bot_api() as (fake, fake_url),
        poundbot_on(fake, fake_url, url, clock, Updates()) as rig,
    ):
        answers = sent(await rig.say(KEEPER, "/help"))
    last = answers[-1].text.splitlines()[-1]
    assert last == f"poundbot is free software (AGPL-3.0); its source code: {PUBLIC_URL}/source"


def test_the_source_line_is_translated_and_left_out_of_an_sms() -> None:
    url = "https://pound.example.org/source"
    malayalam = render.help_text("public", translator("ml"), False, source_url=url)
    assert malayalam.endswith(f"സോഴ്സ് കോഡ്: {url}")
    assert url not in render.help_text("public", translator("ml"), True, source_url=url)
    assert url not in render.help_text("keeper", translator("en"), True, source_url=url)
    # No public address, no link to give.
    assert "AGPL" not in render.help_text("keeper", translator("en"), False)
