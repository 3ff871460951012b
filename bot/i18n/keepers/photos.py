"""What a keeper is told about the photos of the cattle they send (``bot.conversation.photos``)."""

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
    "photos_coming",
    "photos_fetched",
    "photos_kept",
    "photos_partly_kept",
]


def photos_kept(n: int, number: str, tr: Translator) -> str:
    return tr.ngettext(
        "%(n)d photo kept with %(case)s.",
        "%(n)d photos kept with %(case)s.",
        n,
    ) % {"n": n, "case": number}


def photos_coming(n: int, number: str, tr: Translator) -> str:
    """An MMS / WhatsApp message with pictures is answered at once; its pictures are
    fetched after, and a message of their own says what became of them."""
    return tr.ngettext(
        "Your %(n)d photo for %(case)s is being fetched: a message follows.",
        "Your %(n)d photos for %(case)s are being fetched: a message follows.",
        n,
    ) % {"n": n, "case": number}


def photos_fetched(
    number: str,
    refused: list[str],
    tr: Translator,
    *,
    max_mb: int,
    max_megapixels: int,
    already: int = 0,
) -> list[str]:
    """The follow-up once the pictures of a message are fetched, one SMS a line (each a
    DLT template of its own): how many were kept with the case (``already`` of them were
    kept before), then why each picture not kept was not (``refused``: each picture's
    refusal code in order, "" if kept)."""
    total, why = len(refused), [(n, code) for n, code in enumerate(refused, start=1) if code]
    kept = total - len(why)
    lines = []
    if not why and kept and already == kept:
        lines.append(photo_already_kept(number, tr))
    elif not why:
        lines.append(photos_kept(kept, number, tr))
    elif kept or total > 1:
        lines.append(photos_partly_kept(kept, total, number, tr))
    for position, code in why:
        lines.append(photo_refused(code, position, max_mb, tr, max_megapixels=max_megapixels))
    return lines


def photos_partly_kept(kept: int, total: int, number: str, tr: Translator) -> str:
    """Some pictures of a message were kept, not all (why each was not follows)."""
    return tr.ngettext(
        "%(kept)d of %(total)d photo kept with %(case)s.",
        "%(kept)d of %(total)d photos kept with %(case)s.",
        total,
    ) % {"kept": kept, "total": total, "case": number}


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


def photo_link(number: str, url: str, tr: Translator) -> str:
    """A FIND answer by SMS: the link to a case's first photo (never the picture)."""
    return tr.gettext("Photo of %(case)s: %(url)s") % {
        "case": number,
        "url": leaf(tr, url, URL_SLOT),
    }
