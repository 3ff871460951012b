"""The replies about the web desk: the sign-in link (``WEB``, ``/web``) and the links of
the public notice boards that a ``FIND`` reply ends with."""

from __future__ import annotations

from collections.abc import Sequence

from bot.i18n.catalogs import Translator
from bot.i18n.dlt_probe import URL_SLOT as _URL_SLOT
from bot.i18n.dlt_probe import leaf
from bot.i18n.public.sms_fit import in_parts, join

__all__ = ["URL_SLOT", "web_link", "web_link_unavailable", "with_board_links"]

#: A link in an SMS is the portals' URL variable (``{#url#}``), not 30 characters: its
#: address must be whitelisted on the DLT portal (docs/sms-india.md).
URL_SLOT = _URL_SLOT


def web_link(url: str, tr: Translator) -> str:
    """The single-use sign-in link, valid 15 minutes."""
    # TRANSLATORS: the answer to WEB: a link that signs the person in to poundbot's web
    # desk; it works once, within 15 minutes. Keep %(url)s.
    return tr.gettext(
        "Your link to the web desk (works once, for 15 minutes; do not share it): %(url)s"
    ) % {"url": leaf(tr, url, URL_SLOT)}


def web_link_unavailable(tr: Translator) -> str:
    """WEB when the server has no public address to put in a link."""
    # TRANSLATORS: WEB asked, but the server has no public web address set
    # (POUNDBOT_PUBLIC_URL); the administrator can print a link instead.
    return tr.gettext(
        "The web desk has no public address yet. Ask the administrator for a sign-in link."
    )


def with_board_links(text: str, links: Sequence[str], tr: Translator, sms: bool) -> str:
    """A FIND reply with the public notice boards of the authorities it found cases of."""
    # TRANSLATORS: after the cases a search found: the public notice board (the open
    # notices of s.13(2)) on the web. Keep %(url)s.
    board = tr.gettext("Notices on the web: %(url)s")
    lines = [board % {"url": leaf(tr, url, URL_SLOT)} for url in links]
    # By SMS each board's link is an SMS of its own (its own template).
    return in_parts([text, *lines]) if sms else join([text, *lines], sms=sms)
