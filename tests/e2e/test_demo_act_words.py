"""``poundbot demo`` under the Cattle-trespass Act, 1871, in each language: nothing
poundbot says (a reply, an owner's SMS, a reminder, the report to the officer, the
printable notice it serves) carries a Kerala citation that Act writes otherwise; its
own citations are there instead."""

from __future__ import annotations

import io
import re
from typing import Any

import httpx
import pytest

from bot.demo.story import run
from bot.i18n import LANGUAGES, translator
from bot.i18n.common import cite
from domain.profiles import CATTLE_TRESPASS_1871
from tests.act_forms import kerala_left, page_text

#: A line of the transcript in which poundbot speaks.
_SAYS = re.compile(r"^\[[^]]+\] poundbot → ")


def said(output: str) -> list[str]:
    """What poundbot sent in the transcript: each of its messages, with the lines that
    continue it (not the steps, the checks, the buttons or what others sent)."""
    lines: list[str] = []
    inside = False
    for line in output.splitlines():
        if _SAYS.match(line):
            inside = True
            lines.append(line)
        elif line.startswith(("[", "──")) or line.lstrip().startswith(("✓", "✗", "[")):
            inside = False
        elif inside:
            lines.append(line)
    return lines


@pytest.mark.parametrize("lang", LANGUAGES)
async def test_under_the_1871_act_nothing_poundbot_sends_cites_a_kerala_section(
    lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pages: list[str] = []
    get = httpx.AsyncClient.get

    async def fetched(client: httpx.AsyncClient, *args: Any, **kwargs: Any) -> httpx.Response:
        response = await get(client, *args, **kwargs)
        if response.headers.get("content-type", "").startswith("text/html"):
            pages.append(page_text(response.text))
        return response

    monkeypatch.setattr(httpx.AsyncClient, "get", fetched)
    out = io.StringIO()
    assert await run(lang, out, act=CATTLE_TRESPASS_1871.key) == 0, out.getvalue()[-2000:]
    sent = said(out.getvalue())
    assert len(sent) > 100
    assert pages  # the printable notice the officer opened
    # In any language: the owner's SMS go in the owner's, the notice in the pound's.
    for text in [*sent, *pages]:
        for written in LANGUAGES:
            assert kerala_left(text, written) == [], (written, text)
    # The 1871 Act's own citations, where the Kerala ones were.
    tr = translator(lang).under(CATTLE_TRESPASS_1871)
    everything = "\n".join(sent)
    for provision in ("s.13(1)", "s.13(2)", "s.13(3)", "s.11", "s.12", "s.15(1)", "s.16(3)"):
        assert cite(provision, tr) in everything, provision
    notice = translator("ml").under(CATTLE_TRESPASS_1871)  # KNM's first language
    assert cite("s.13(2)", notice) in pages[0]
