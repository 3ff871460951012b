"""The s.13(2) notice as a printable HTML page: A4, one block per language of the
pound, one after the other (Malayalam above English, as the pound lists them).

Each block carries its ``lang`` so the browser shapes the script and picks its Noto
font; every piece of user data (place names, descriptions, addresses) is escaped.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from html import escape
from typing import TYPE_CHECKING, Final

from bot.i18n.catalogs import translator
from bot.i18n.documents.notice import NoticeParts, notice_parts
from domain.case import Case
from domain.figures import Figures

if TYPE_CHECKING:
    from bot.config import Authority, Pound

__all__ = ["STYLESHEET", "notice_html"]

#: The page's style (A4, the Noto fonts of each script), served by the web desk: the
#: Content-Security-Policy allows no inline style (``bot.web.headers``).
STYLESHEET: Final = "/web/static/notice.css"


def _section(parts: NoticeParts) -> str:
    items = "\n".join(
        f"    <dt>{escape(label)}</dt>\n    <dd>{escape(value)}</dd>"
        for label, value in parts.items
    )
    return (
        f'<section class="notice" lang="{escape(parts.lang)}">\n'
        f"  <h1>{escape(parts.heading)}</h1>\n"
        f'  <p class="authority">{escape(parts.authority)}</p>\n'
        f'  <p class="reference">{escape(parts.reference)}</p>\n'
        f"  <p>{escape(parts.intro)}</p>\n"
        f"  <dl>\n{items}\n  </dl>\n"
        f'  <p class="warning">{escape(parts.warning)}</p>\n'
        f"  <p>{escape(parts.claim)}</p>\n"
        f"  <p>{escape(parts.proclaimed)}</p>\n"
        f'  <p class="dated">{escape(parts.dated)}</p>\n'
        f'  <p class="signature">{escape(parts.signature)}</p>\n'
        "</section>"
    )


def _photos(photos: Sequence[tuple[str, str]], langs: Sequence[str]) -> str:
    """The photos of the cattle: each thumbnail a link to the photo (signed paths)."""
    if not photos:
        return ""
    heading = " / ".join(
        dict.fromkeys(translator(lang).gettext("Photos of the cattle") for lang in langs)
    )
    images = "\n".join(
        f'  <a href="{escape(full)}"><img src="{escape(thumb)}" alt="{escape(heading)}"></a>'
        for thumb, full in photos
    )
    return f'\n<section class="photos">\n  <h2>{escape(heading)}</h2>\n{images}\n</section>'


def notice_html(
    case: Case,
    authority: Authority,
    pound: Pound,
    notice_on: date,
    langs: Sequence[str],
    photos: Sequence[tuple[str, str]] = (),
    *,
    figures: Figures | None = None,
) -> str:
    """A complete HTML5 page with the s.13(2) notice in each of ``langs``, in order; then
    the photos of the cattle, as (thumbnail, photo) links, if there are any. With the
    case's ``figures``, item (a) states the cattle still in the pound. Each notice is in
    the words of the case's Act."""
    chosen = list(dict.fromkeys(langs)) or ["en"]
    blocks = []
    for lang in chosen:
        tr = translator(lang).under(case.profile)
        blocks.append(notice_parts(case, authority, pound, notice_on, tr, figures=figures))
    title = f"{blocks[0].heading} — {case.number}"
    body = "\n".join(_section(parts) for parts in blocks) + _photos(photos, chosen)
    # TRANSLATORS: a link from a printable document back to the web desk.
    desk = translator(chosen[0]).gettext("Web desk")
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="{escape(chosen[0])}">\n'
        "<head>\n"
        '<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n"
        f'<link rel="stylesheet" href="{STYLESHEET}">\n'
        "</head>\n"
        "<body>\n"
        f'<nav class="desk"><a href="/web/">{escape(desk)}</a></nav>\n'  # not printed
        f"{body}\n"
        "</body>\n"
        "</html>\n"
    )
