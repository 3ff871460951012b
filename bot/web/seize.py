"""Record a seizure on the web desk (s.7): ``GET /web/cases/new`` is the form, ``POST
/web/cases/new`` records it, with its photos.

A pound's keeper records it into their pound; an officer of the local authority into a
pound of their authority they choose on the form (a pound without a keeper has its
seizures recorded so). The case's first event names who recorded it.

The form makes the order a SEIZE line makes (``bot.web.seize_form``) and the reply runs
it (``bot.conversation.reply.run_command``): the same use case, the same refusals, the
same owner's message queued, the same answer as the chat's. A refusal shows the form
again with its fields kept and nothing recorded; a recording sends the browser to the
new case (post/redirect/get), where the answer is shown once.

The photos are checked and stripped on the photo worker before the transaction
(``bot.adapters.photo_store.prepare``), as a Telegram photo is before its update's: one
that fails the checks (not an image, over the size or the pixel limit, more of them than
a report takes) refuses the whole form, which says which one and why; the person is at
the desk to attach a smaller one or leave it out. The kept ones are attached to the new
case in the transaction that records it (``bot.conversation.photos.attach_pictures``).

A form sent twice (a double click, a reload of the POST) records one case: each form
carries the newest audit-log row when it was shown (``after``); a case this person
recorded since then means the form was sent already, and the form comes back saying so
with that case's number, nothing recorded. This is the step forms' ``seen`` for a case
that does not exist yet, and the mark a SEIZE by MMS uses to find the case its photos
belong to (``bot.conversation.photos.seized_now``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from bot.adapters.photo_store import Kept, PhotoRefusedError, prepare
from bot.config import Config
from bot.config.names import local
from bot.conversation.commands import ParseError
from bot.conversation.orders import Seize
from bot.conversation.photos import (
    Incoming,
    Target,
    attach_pictures,
    last_event_id,
    max_mb,
    refused_text,
)
from bot.conversation.reply import Reply, run_command
from bot.i18n import LANGUAGES, render, translator
from bot.i18n.catalogs import Translator
from bot.i18n.chrome import web_names as names
from bot.services.runtime import App
from bot.store import case_lookups
from bot.store.tx import Tx
from bot.support.caller import KEEPER, OFFICER, Caller
from bot.support.errors import NotAllowedError
from bot.web.actions import form_of
from bot.web.forms import form_fields
from bot.web.pages import Desk
from bot.web.seize_form import LOT_OWNER_WITHOUT_NAME, Filled, blank, filled_of, order_of
from bot.web.session import session_of, set_flash_cookie
from bot.web.templating import language_of

__all__ = ["MAX_PHOTOS", "seize_routes"]

#: The photos one form takes: as many as the guided report on Telegram (and an MMS).
MAX_PHOTOS: Final = 10
_PATH: Final = "/web/cases/new"


class _SentTwice(Exception):
    """The form was sent again after it recorded a case (``number``)."""

    def __init__(self, number: str) -> None:
        super().__init__(number)
        self.number = number


def seize_routes(desk: Desk) -> list[BaseRoute]:
    """The form of a seizure and its recording, with the desk's keys and templates."""

    async def form(request: Request) -> Response:
        app = _poundbot(request)
        signed = await session_of(request, desk.keys)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        caller = signed[1]
        if not _records(caller, app.config):
            return _refused(request, app, desk, signed)
        async with app.store.reading() as tx:
            after = await last_event_id(tx)
        pounds = _pounds_of(caller, app.config)
        only = pounds[0] if len(pounds) == 1 else ""
        filled = blank(app.deps.local_now().replace(tzinfo=None), pound=only)
        return _page(request, app, desk, signed, filled, after=after)

    async def record(request: Request) -> Response:
        app = _poundbot(request)
        limit = app.deps.max_photo_bytes()
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > MAX_PHOTOS * limit + 1024 * 1024:
            raise HTTPException(413, "too large")
        signed = await session_of(request, desk.keys)
        if signed is None:
            return RedirectResponse("/web/signin", status_code=303)
        async with request.form(max_files=MAX_PHOTOS * 5, max_fields=200) as posted:
            return await _record(request, app, desk, signed, posted, limit)

    return [Route(_PATH, form, methods=["GET"]), Route(_PATH, record, methods=["POST"])]


async def _record(
    request: Request,
    app: App,
    desk: Desk,
    signed: tuple[str, Caller],
    posted: FormData,
    limit: int,
) -> Response:
    """The posted form recorded, or shown again with why not (its files closed after)."""
    fields = await form_fields(request)  # the form read above, its texts cleaned
    tr = translator(language_of(request, signed[1], app.config))
    if not desk.keys.csrf_ok(signed[0], fields.get("csrf", "")):
        text = tr.gettext("The form has expired. Open the page again and repeat the step.")
        return _message(request, app, desk, signed, 403, text)
    if not _records(signed[1], app.config):
        return _refused(request, app, desk, signed)
    filled = filled_of(fields)
    after = fields.get("after", "")

    def again(text: str, status: int, **more: Any) -> Response:
        return _page(
            request, app, desk, signed, filled, after=after, refusal=text, status=status, **more
        )

    if fields.get("more") or fields.get("fewer"):  # a row more or less: nothing sent
        return _page(request, app, desk, signed, filled, after=after)
    caller = replace(signed[1], lang=tr.lang)
    pound = filled.get("pound") if caller.role == OFFICER else None  # a keeper's: their own
    if pound == "":
        # TRANSLATORS: web desk — an officer sent the seizure form without choosing the
        # pound the cattle were brought to.
        return again(tr.gettext("Choose the pound the cattle were brought to."), 400)
    try:
        order = order_of(filled, app.config, tr.lang, app.deps.today(), pound=pound)
    except ParseError as exc:
        if exc.code == LOT_OWNER_WITHOUT_NAME:
            return again(_lot_owner_without_name(exc.facts["lot"], tr), 400)
        return again(render.parse_error(exc.code, exc.facts, tr), 400)
    uploads = [f for f in posted.getlist("photos") if isinstance(f, UploadFile) and f.filename]
    pictures = await _pictures(app, uploads, limit, tr)
    if isinstance(pictures, str):
        return again(pictures, 400)
    try:
        async with app.store.transaction() as tx:
            done = await _recorded(tx, app, caller, order, after, pictures, tr)
    except _SentTwice as twice:
        async with app.store.reading() as tx:
            fresh = str(await last_event_id(tx))
        return _page(request, app, desk, signed, filled, after=fresh, sent=twice.number, status=409)
    if isinstance(done, str):
        return again(done, 409)
    number, text = done
    lang = request.query_params.get("lang", "")
    query = f"?lang={lang}" if lang in LANGUAGES else ""
    response = RedirectResponse(f"/web/cases/{number}{query}#reply", status_code=303)
    set_flash_cookie(response, desk.keys, desk.keys.flash_value(signed[0], number, text))
    return response


def _records(caller: Caller, config: Config) -> bool:
    """Whether the caller may record a seizure: the use case's rule (``pound_of``,
    ``record_seizure``): a pound's keeper, into that pound; an officer, into a pound of
    their authority."""
    if caller.role == KEEPER:
        return caller.pound is not None
    return bool(_pounds_of(caller, config))


def _pounds_of(caller: Caller, config: Config) -> list[str]:
    """The pounds an officer chooses among: those of their authority (none for others)."""
    if caller.role != OFFICER or caller.authority is None:
        return []
    return [code for code, pound in config.pounds.items() if pound.authority == caller.authority]


async def _pictures(
    app: App, uploads: list[UploadFile], limit: int, tr: Translator
) -> list[Kept] | str:
    """Each photo checked and stripped, as each channel's are; or why the form is refused."""
    if len(uploads) > MAX_PHOTOS:
        # TRANSLATORS: web desk — the seizure form came with more photos than it takes.
        text = tr.gettext("Attach at most %(count)d photos; send the others later with PHOTO.")
        return text % {"count": MAX_PHOTOS}
    pictures: list[Kept] = []
    for position, upload in enumerate(uploads, start=1):
        raw = await upload.read(limit + 1)
        try:
            if len(raw) > limit:
                raise PhotoRefusedError("too_large")
            kept = await prepare(raw, limit)
        except PhotoRefusedError as exc:
            refused = refused_text(exc.code, position, app.deps, tr)
            return f"{refused} {_nothing_recorded(tr)}"
        pictures.append(kept)
    return pictures


async def _recorded(
    tx: Tx,
    app: App,
    caller: Caller,
    order: Seize,
    after: str,
    pictures: list[Kept],
    tr: Translator,
) -> tuple[str, str] | str:
    """The seizure recorded through the dispatcher, its photos attached: the new case's
    number and the answer; or the refusal. ``_SentTwice`` when the form recorded already."""
    user = caller.user_id
    mark = int(after) if after.isascii() and after.isdigit() and len(after) < 19 else -1
    if user is None or mark < 0:
        raise _SentTwice("")
    earlier = await case_lookups.case_recorded_after(tx, user, mark)
    if earlier is not None:
        raise _SentTwice(earlier)
    reply: Reply = await run_command(
        tx, app.deps, caller, order, tr.lang, sms=False, desk=lambda s, t: _form_named(s, t, caller)
    )
    if reply.refused or reply.loaded is None:
        return reply.text
    # Two sendings at once: the second waited for the first's number and sees its case now.
    if await case_lookups.cases_recorded_after(tx, user, mark) > 1:
        raise _SentTwice(await case_lookups.case_recorded_after(tx, user, mark) or "")
    seized = reply.loaded
    number = seized.row.number
    # Where each came from, once: this case's form (the same picture of another case is
    # that case's too).
    incoming = [Incoming.of(f"web:{number}:{kept.sha256}", kept) for kept in pictures]
    lines = await attach_pictures(tx, app.deps, caller, Target(seized, None), incoming, tr)
    return seized.row.number, "\n".join([reply.text, *lines])


def _form_named(step: str, tr: Translator, caller: Caller) -> str:
    """A step an answer names, as its form on the case page the answer is shown on (below,
    if the step is of the caller's role; else on the page of the role that takes it)."""
    spec = form_of(step)
    return names.desk_form(step, tr, below=spec is not None and caller.role in spec.roles)


def _lot_owner_without_name(lot: object, tr: Translator) -> str:
    # TRANSLATORS: s.7 — a phone number was given for the owner of lot %(lot)d (its
    # number in the report) but no name.
    text = tr.gettext("Give the name of the owner of lot %(lot)d too, not only the phone number.")
    return text % {"lot": lot}


def _nothing_recorded(tr: Translator) -> str:
    # TRANSLATORS: web desk — after why a photo of the seizure form was refused: the
    # browser does not keep the photos chosen, the other fields are kept.
    return tr.gettext("Nothing was recorded: choose the photos again and send the form.")


def _page(
    request: Request,
    app: App,
    desk: Desk,
    signed: tuple[str, Caller],
    filled: Filled,
    *,
    after: int | str,
    refusal: str = "",
    sent: str | None = None,
    status: int = 200,
) -> Response:
    caller = signed[1]
    lang = language_of(request, caller, app.config)
    tr = translator(lang)
    pages = desk.pages(app)
    values = {
        "caller": caller,
        "csrf": desk.keys.csrf(signed[0]),
        "filled": filled,
        "after": after,
        "refusal": refusal,
        "sent": sent,
        "kinds": pages.kinds(tr),
        "pound_name": local(app.config.pounds[caller.pound].name, lang) if caller.pound else "",
        "pounds": [
            (code, local(app.config.pounds[code].name, lang))
            for code in _pounds_of(caller, app.config)
        ],
        "max_photos": MAX_PHOTOS,
        "max_mb": max_mb(app.deps),
        "lang_query": f"?lang={request.query_params['lang']}"
        if request.query_params.get("lang") in LANGUAGES
        else "",
    }
    return pages.page(request, "seize.html", lang, values, status=status)


def _message(
    request: Request, app: App, desk: Desk, signed: tuple[str, Caller], status: int, text: str
) -> Response:
    tr = translator(language_of(request, signed[1], app.config))
    values = {
        "title": tr.gettext("Not possible"),
        "text": text,
        "caller": signed[1],
        "csrf": desk.keys.csrf(signed[0]),
    }
    lang = language_of(request, signed[1], app.config)
    return desk.pages(app).page(request, "message.html", lang, values, status=status)


def _refused(request: Request, app: App, desk: Desk, signed: tuple[str, Caller]) -> Response:
    """Neither a pound's keeper nor an officer of an authority with pounds: refused as the
    use case refuses a SEIZE (403)."""
    tr = translator(language_of(request, signed[1], app.config))
    refusal = NotAllowedError("only a pound's keeper or an officer reports a seizure")
    return _message(request, app, desk, signed, 403, render.app_error(refusal, tr))


def _poundbot(request: Request) -> App:
    """The running poundbot; 503 while it starts or stops."""
    app: App | None = getattr(request.app.state, "poundbot", None)
    if app is None:
        raise HTTPException(503, "starting")
    return app
