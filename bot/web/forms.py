"""What a browser sends, made fit to store as every channel's text is (``bot.support.clean``).

PostgreSQL refuses a NUL in text, so a form field carrying one (``value=new%00place``)
failed the whole request with a 500; SMS and Telegram clean what they receive first. The
web desk reads every form through here, the same way: a line break and a tab stay,
other control characters go, a lone surrogate becomes U+FFFD. (The query strings and
paths of its pages are only compared with known values, never stored: a NUL there
finds nothing, which the tests walk too.)
"""

from __future__ import annotations

from starlette.requests import Request

from bot.support.clean import clean_text

__all__ = ["form_fields"]


async def form_fields(request: Request) -> dict[str, str]:
    """The text fields of a posted form, each cleaned (a file sent instead is left out)."""
    form = await request.form()
    return {clean_text(k): clean_text(v) for k, v in form.multi_items() if isinstance(v, str)}
