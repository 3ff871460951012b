"""What a keeper is told about the photos of the cattle they send (``bot.photo_intake``)."""

from __future__ import annotations

from bot.i18n.catalogs import Translator
from bot.i18n.dlt_probe import URL_SLOT, leaf

__all__ = [
    "photo_already_kept",
    "photo_link",
    "photo_missing",
    "photo_no_case",
    "photo_no_lot",
    "photo_refused",
    "photo_send_now",
    "photos_heading",
    "photos_kept",
]


def photos_kept(n: int, number: str, tr: Translator) -> str:
    return tr.ngettext(
        "%(n)d photo kept with %(case)s.",
        "%(n)d photos kept with %(case)s.",
        n,
    ) % {"n": n, "case": number}


def photo_already_kept(number: str, tr: Translator) -> str:
    return tr.gettext("That photo is already kept with %(case)s.") % {"case": number}


def photo_refused(
    code: str, position: int, max_mb: int, tr: Translator, *, max_megapixels: int
) -> str:
    """Why the ``position``-th picture of a message was not kept (nothing of it is),
    naming the limit it passed: its size in MB, or its pixels."""
    if code == "too_large":
        return tr.gettext(
            "Photo %(n)d was not kept: it is larger than %(mb)d MB. Send a smaller one."
        ) % {"n": position, "mb": max_mb}
    if code == "too_many_pixels":
        # TRANSLATORS: width × height of the picture passes the limit (megapixels: millions).
        return tr.gettext(
            "Photo %(n)d was not kept: it has more than %(mp)d megapixels (width × height). "
            "Send a smaller picture."
        ) % {"n": position, "mp": max_megapixels}
    if code == "not_image":
        return tr.gettext(
            "File %(n)d was not kept: it is not a photo (send a JPEG or PNG picture)."
        ) % {"n": position}
    return tr.gettext("Photo %(n)d could not be fetched: send it again.") % {"n": position}


def photo_no_case(tr: Translator) -> str:
    return tr.gettext(
        "The photo was not kept: send it with PHOTO and the case number, e.g. PHOTO KNM-17."
    )


def photo_no_lot(number: str, lot: int, count: int, tr: Translator) -> str:
    return tr.gettext("Case %(case)s has no lot %(lot)d (it has %(count)d).") % {
        "case": number,
        "lot": lot,
        "count": count,
    }


def photo_missing(number: str, tr: Translator) -> str:
    """PHOTO <case> came without a picture (an SMS, a typed line)."""
    return tr.gettext(
        "No photo came with it: send the picture in the same message as PHOTO %(case)s."
    ) % {"case": number}


def photo_send_now(number: str, tr: Translator) -> str:
    """Telegram: /photo <case> typed; the next photo is for that case."""
    return tr.gettext("Now send the photo of %(case)s.") % {"case": number}


def photos_heading(tr: Translator) -> str:
    return tr.gettext("Photos of the cattle")


def photo_link(number: str, url: str, tr: Translator) -> str:
    """A FIND answer by SMS: the link to a case's first photo (never the picture)."""
    return tr.gettext("Photo of %(case)s: %(url)s") % {
        "case": number,
        "url": leaf(tr, url, URL_SLOT),
    }
