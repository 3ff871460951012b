"""The pages of the web desk: sign-in, Today, the cases, one case and its steps, and the
public notice board. Each page reads through a use case (``bot.services.desk``,
``bot.services.board``); each step runs the chat word's order through the reply
(``bot.conversation.reply.run_command``), so the web refuses what SMS and Telegram refuse.

Why it is long: the handler of every page of the web desk."""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime, tzinfo
from typing import Any, NamedTuple
from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from bot.adapters.photo_store import photos_of
from bot.channels.identity import caller_of
from bot.config.names import local
from bot.conversation.commands import ParseError
from bot.conversation.orders import Sold
from bot.conversation.reply import run_command
from bot.i18n import LANGUAGES, render, translator
from bot.i18n.catalogs import Translator
from bot.i18n.chrome import message_log as log_words
from bot.i18n.chrome import web_names as names
from bot.i18n.common import day
from bot.i18n.stage_text import case_sentence
from bot.services import board as boards
from bot.services import desk
from bot.services import messages as message_log
from bot.services.base import act_in_force, proviso_offices_of
from bot.services.officer import village_and_market_of
from bot.services.runtime import App
from bot.services.web_signin import LinkRefusedError, end_session, redeem_link, session_user
from bot.store.rows import refresh_expired
from bot.store.tx import LoadedCase, Tx
from bot.support.caller import Caller
from bot.support.errors import (
    AppError,
    UnknownCaseError,
    UnknownMessageError,
    UnknownPoundError,
)
from bot.support.links import notice_path, photo_path
from bot.web.actions import CORRECTABLE, OUTCOMES, Form, build_command, form_of, forms_for
from bot.web.forms import form_fields
from bot.web.session import (
    CHANNEL,
    COOKIE,
    FLASH_COOKIE,
    SIGNIN_COOKIE,
    Keys,
    clear_cookie,
    clear_flash_cookie,
    clear_signin_cookie,
    same_origin,
    set_cookie,
    set_flash_cookie,
    set_signin_cookie,
)
from bot.web.templating import LANG_COOKIE, Pages, day_or_none, language_of
from domain.deadlines import Deadline, DeadlineKind
from domain.errors import DomainError
from domain.profiles import KERALA_1961, Profile
from domain.s13_unclaimed import check_notice_printable
from domain.stages import Stage

__all__ = ["Desk"]

_TOKEN = re.compile(r"^[A-Za-z0-9_-]{20,100}$")
_PRESESSION = re.compile(r"^[A-Za-z0-9_-]{32}$")
_SIGNIN = "/web/signin"


class Desk:
    """The handlers of the web desk, sharing the keys and the templates."""

    def __init__(self, keys: Keys, public_url: str = "") -> None:
        self.keys = keys
        #: The server's own public URL: a sign-in POST must come from a page of it.
        self.public_url = public_url
        self._pages: Pages | None = None

    # -- plumbing --------------------------------------------------------------------

    def pages(self, app: App) -> Pages:
        # Made again for a new version of the configuration (its kinds, its pounds' names).
        if self._pages is None or self._pages.config is not app.config:
            self._pages = Pages(app.config)
        return self._pages

    async def _caller(self, tx: Tx, request: Request) -> tuple[str, Caller] | None:
        token = self.keys.token_of(request.cookies.get(COOKIE))
        if token is None:
            return None
        user = await session_user(tx, token)
        return (token, caller_of(user, CHANNEL)) if user is not None else None

    def _render(
        self,
        request: Request,
        app: App,
        name: str,
        signed: tuple[str, Caller] | None,
        values: dict[str, Any],
        *,
        status: int = 200,
        act: Profile = KERALA_1961,
    ) -> Response:
        """The page ``name`` in the person's language; a page about one case in the words
        of its Act (``act``)."""
        caller = signed[1] if signed else None
        lang = language_of(request, caller, app.config)
        extra = {"caller": caller, "csrf": self.keys.csrf(signed[0]) if signed else ""}
        page = self.pages(app).page
        return page(request, name, lang, {**extra, **values}, status=status, act=act)

    def _message(
        self, request: Request, app: App, signed: tuple[str, Caller] | None, status: int, text: str
    ) -> Response:
        tr = translator(language_of(request, signed[1] if signed else None, app.config))
        title = tr.gettext("Not possible") if status != 404 else tr.gettext("Not found")
        return self._render(
            request, app, "message.html", signed, {"title": title, "text": text}, status=status
        )

    # -- signing in and out ------------------------------------------------------------

    async def signin_help(self, request: Request) -> Response:
        app = _poundbot(request)
        return self._render(request, app, "signin.html", None, {"token": "", "refused": False})

    async def signin_page(self, request: Request) -> Response:
        """The button that signs in, bound to this browser by a pre-session cookie."""
        app = _poundbot(request)
        token = request.path_params["token"]
        ok = bool(_TOKEN.match(token))
        presession = request.cookies.get(SIGNIN_COOKIE, "")
        if not _PRESESSION.match(presession):  # a second tab keeps the first one's
            presession = secrets.token_urlsafe(24)
        values = {
            "token": token if ok else "",
            "refused": not ok,
            "signin_field": self.keys.signin_field(presession),
        }
        response = self._render(
            request, app, "signin.html", None, values, status=200 if ok else 403
        )
        if ok:
            set_signin_cookie(response, self.keys, presession)
        return response

    async def signin(self, request: Request) -> Response:
        """Signs in with a link, pressed on this server's page in this browser only: a
        POST from another site (its Origin, else its Referer, not ours; or neither), or
        without the pre-session cookie and its field, is refused and uses nothing up."""
        app = _poundbot(request)
        token = request.path_params["token"]
        form = await form_fields(request)
        if not same_origin(request, self.public_url) or not self.keys.signin_ok(
            request.cookies.get(SIGNIN_COOKIE), form.get("signin", "")
        ):
            return self._forbidden(request, app)
        try:
            if not _TOKEN.match(token):
                raise LinkRefusedError("malformed sign-in link")
            async with app.store.transaction() as tx:
                session, _ = await redeem_link(tx, token)
        except LinkRefusedError:
            values = {"token": "", "refused": True}
            return self._render(request, app, "signin.html", None, values, status=403)
        response = RedirectResponse("/web/", status_code=303)
        set_cookie(response, self.keys, session)
        clear_signin_cookie(response, self.keys)
        return response

    async def signout(self, request: Request) -> Response:
        app = _poundbot(request)
        form = await form_fields(request)
        token = self.keys.token_of(request.cookies.get(COOKIE))
        if token is None:
            return RedirectResponse(_SIGNIN, status_code=303)
        if not self.keys.csrf_ok(token, form.get("csrf", "")):
            return self._forbidden(request, app)
        async with app.store.transaction() as tx:
            await end_session(tx, token)
        response = RedirectResponse(_SIGNIN, status_code=303)
        clear_cookie(response, self.keys)
        return response

    def _forbidden(
        self, request: Request, app: App, signed: tuple[str, Caller] | None = None
    ) -> Response:
        """A form without its security token (or an old one): in the language of the person
        signed in (``signed``), if the caller knows who it is."""
        tr = translator(language_of(request, signed[1] if signed else None, app.config))
        # TRANSLATORS: web desk — a form came without its security token (or an old one).
        text = tr.gettext("The form has expired. Open the page again and repeat the step.")
        return self._message(request, app, signed, 403, text)

    async def switch_language(self, request: Request) -> Response:
        code = request.path_params["code"]
        target = request.query_params.get("next", "/web/")
        if not target.startswith("/") or target.startswith("//"):
            target = "/web/"
        response = RedirectResponse(target, status_code=303)
        if code in LANGUAGES:
            response.set_cookie(
                LANG_COOKIE,
                code,
                max_age=365 * 86400,
                path="/",
                secure=self.keys.secure,
                httponly=True,
                samesite="lax",
            )
        return response

    # -- the desk ---------------------------------------------------------------------

    async def today(self, request: Request) -> Response:
        app = _poundbot(request)
        async with app.store.reading() as tx:
            signed = await self._caller(tx, request)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            found = await desk.today(tx, app.deps, signed[1])
            counts = await message_log.day_counts(tx, app.deps, signed[1])
        tr = translator(language_of(request, signed[1], app.config))
        pages = self.pages(app)
        # The lines put in words here, not cell by cell in the template (as the list of
        # cases does): a call from a template costs several times a call from Python.
        due = pages.deadline_lines(found.due, found.day, tr)
        awaiting = pages.deadline_lines(found.awaiting_notice, found.day, tr)
        auctions = pages.deadline_lines(found.auctions, found.day, tr)
        values = {
            "today": found,
            "due": pages.lines("today_line.html", tr, due),
            "awaiting": pages.lines("today_line.html", tr, awaiting),
            "auctions": pages.lines("today_line.html", tr, auctions),
            "caller_line": self._caller_line(request, app, signed[1]),
            "keeperless": [
                local(app.config.pounds[code].name, tr.lang)
                for code in found.keeperless
                if code in app.config.pounds
            ],
            # Today's messages by status, failed first, each a link into the log.
            "message_counts": [
                (
                    names.message_status(s, tr),
                    n,
                    "/web/messages?" + urlencode({"status": s, "day": found.day.isoformat()}),
                )
                for s, n in counts
            ],
            "message_log": signed[1].role in ("admin", "officer"),
        }
        return self._render(request, app, "today.html", signed, values)

    def _caller_line(self, request: Request, app: App, caller: Caller) -> str:
        tr = translator(language_of(request, caller, app.config))
        place = ""
        if caller.pound and caller.pound in app.config.pounds:
            place = local(app.config.pounds[caller.pound].name, tr.lang)
        elif caller.authority and caller.authority in app.config.authorities:
            place = local(app.config.authorities[caller.authority].name, tr.lang)
        parts = [caller.name, names.role_name(caller.role, tr), place]
        return " — ".join(p for p in parts if p)

    async def cases(self, request: Request) -> Response:
        app = _poundbot(request)
        query = request.query_params
        page = query.get("page", "1")
        searched = query.get("q", "").strip()[:100]
        sought = desk.sought(searched) if searched else desk.Sought()
        wanted = desk.CaseFilter(
            words=sought.words,
            phone=sought.phone,
            stage=query.get("stage", "") if query.get("stage") in _STAGES else "",
            pound=query.get("pound", ""),
            kind=query.get("kind", "") if query.get("kind") in app.config.kinds else "",
            since=day_or_none(query.get("since", ""), app.deps.today()),
            until=day_or_none(query.get("until", ""), app.deps.today()),
            page=int(page) if page.isascii() and page.isdigit() and len(page) < 7 else 1,
        )
        async with app.store.reading() as tx:
            signed = await self._caller(tx, request)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            if sought.number:  # a case number: its page, if it is one the caller may see
                try:
                    loaded = await desk.case_of(tx, app.deps, signed[1], sought.number)
                except AppError:
                    loaded = None
                if loaded is not None:
                    href = f"/web/cases/{loaded.row.number}{_lang_query(request)}"
                    return RedirectResponse(href, status_code=303)
            if sought.number or sought.short:  # nothing is listed for it
                pounds = desk.pounds_of(app.deps, signed[1])
                listing = desk.CaseList([], 0, 1, False, pounds)
            else:
                listing = await desk.list_cases(tx, app.deps, signed[1], wanted)
        tr = translator(language_of(request, signed[1], app.config))
        pages = self.pages(app)

        def page_link(number: int) -> str:
            params = {k: v for k, v in query.items() if k not in ("page", "lang")}
            params["page"] = str(number)
            return "/web/cases?" + urlencode(params)

        # Each line put in words here, not cell by cell in the template: a call from a
        # template costs several times a call from Python, and a page has a hundred. Its
        # stage in the words of its case's Act (as the case keeps it).
        def stage(c: desk.CaseItem) -> str:
            under = tr.under(c.act)
            return pages.stages(under).get(c.stage) or names.stage_name(c.stage, under)

        lines = [
            _CaseLine(
                c.number,
                pages.cattle(c.lots, tr),
                day(c.impounded_on, tr),
                stage(c),
                c.place_seized,
            )
            for c in listing.items
        ]
        values = {
            "listing": listing,
            "lines": lines,
            "rows": pages.lines("cases_line.html", tr, lines),
            "filter_form": pages.case_filter(tr, wanted, listing.pounds, searched),
            # The filters folded away unless one is chosen: on a phone the cases come first.
            "filtered": bool(
                wanted.stage or wanted.pound or wanted.kind or wanted.since or wanted.until
            ),
            "page_link": page_link,
            "searched": searched,
            # TRANSLATORS: web desk — the search box was given one letter, or only
            # punctuation: nothing to search for.
            "too_short": tr.gettext("Type at least two letters or digits to search.")
            if sought.short
            else "",
        }
        return self._render(request, app, "cases.html", signed, values)

    async def messages(self, request: Request) -> Response:
        """The log of messages in and out, narrowed by the form's GET parameters: an
        admin's every message, an officer's about cases of their authority (numbers
        masked); a keeper is refused (``bot.services.messages``)."""
        app = _poundbot(request)
        query = request.query_params
        page = query.get("page", "1")
        wanted = message_log.MessageFilter(
            case=query.get("case", "")[:40],
            phone=query.get("phone", "")[:40],
            channel=query.get("channel", "") if query.get("channel") in _MESSAGE_CHANNELS else "",
            status=query.get("status", ""),
            day=day_or_none(query.get("day", ""), app.deps.today()),
            page=int(page) if page.isascii() and page.isdigit() and len(page) < 7 else 1,
            older=query.get("older", "")[:40],
            newer=query.get("newer", "")[:40],
        )
        async with app.store.reading() as tx:
            signed = await self._caller(tx, request)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            try:
                found = await message_log.log(tx, app.deps, signed[1], wanted)
            except AppError as exc:
                tr = translator(language_of(request, signed[1], app.config))
                status = 403 if exc.code == "not_allowed" else 400
                return self._message(request, app, signed, status, render.app_error(exc, tr))
        tr = translator(language_of(request, signed[1], app.config))

        def page_link(number: int, older: str = "", newer: str = "") -> str:
            """The log's page ``number``: below ``older``, above ``newer``, or the first."""
            skip = ("page", "lang", "older", "newer", "resent")
            params = {k: v for k, v in query.items() if k not in skip}
            if older or newer:
                params |= {"page": str(number), "older": older} if older else {}
                params |= {"page": str(number), "newer": newer} if newer else {}
            return "/web/messages?" + urlencode(params)

        def when(at: datetime) -> str:
            return _when(at, app.config.reminders.timezone, tr)

        resent = query.get("resent", "")
        values = {
            "log": found,
            "wanted": wanted,
            "page_link": page_link,
            # After Send again: the row queued (``resend``).
            "resent_note": log_words.resend_queued(int(resent), tr)
            if resent.isascii() and resent.isdigit() and len(resent) < 12
            else "",
            "resent_by": lambda m: log_words.resent_by(m.resent_by or "—", when(m.resent_at), tr),
            "resend_of": lambda m: log_words.resend_of(m.resend_of, tr),
            "purged_after": lambda m: log_words.purged_after(m.purged_after, tr),
            "lang_query": _lang_query(request),
            "statuses": [(s, names.message_status(s, tr)) for s in message_log.STATUSES],
            "channels": [(c, names.message_channel(c, tr)) for c in _MESSAGE_CHANNELS],
            "status_name": lambda code: names.message_status(code, tr),
            "channel_name": lambda code: names.message_channel(code, tr),
            "when": when,
        }
        return self._render(request, app, "messages.html", signed, values)

    async def resend(self, request: Request) -> Response:
        """Send a failed message again, once (``bot.services.messages.resend``): the form of
        a row of the log, with the desk's CSRF token. Queued: the log again, the new row
        shown; a second sending again, or a refusal, a page that says so."""
        app = _poundbot(request)
        raw = request.path_params["message_id"]
        form = await form_fields(request)
        async with app.store.transaction() as tx:
            signed = await self._caller(tx, request)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            if not self.keys.csrf_ok(signed[0], form.get("csrf", "")):
                return self._forbidden(request, app, signed)
            tr = translator(language_of(request, signed[1], app.config))
            try:
                if not (raw.isascii() and raw.isdigit() and len(raw) < 12):
                    raise UnknownMessageError("not a message number", id=raw[:20])
                done = await message_log.resend(tx, app.deps, signed[1], int(raw))
            except AppError as exc:
                status = _RESEND_REFUSED.get(exc.code, 403)
                text = log_words.resend_refusal(exc, tr)
                return self._message(request, app, signed, status, text)
        if done.already:
            when = _when(done.at, app.config.reminders.timezone, tr)
            text = log_words.already_resent(done.by or "—", when, tr)
            return self._message(request, app, signed, 409, text)
        lang = request.query_params.get("lang", "")
        query = urlencode({"resent": done.again, **({"lang": lang} if lang in LANGUAGES else {})})
        return RedirectResponse(f"/web/messages?{query}#out-{done.again}", status_code=303)

    async def case(self, request: Request) -> Response:
        app = _poundbot(request)
        number = request.path_params["number"]
        async with app.store.transaction() as tx:
            signed = await self._caller(tx, request)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            try:
                view = await desk.case_view(tx, app.deps, signed[1], number)
            except AppError as exc:
                return self._not_found(request, app, signed, exc)
            photos = await self._photos(tx, view.loaded)
        flash = request.cookies.get(FLASH_COOKIE)
        shown = self.keys.flash_of(signed[0], flash, view.loaded.row.number) or ""
        response = self._case_page(
            request, app, signed, view, reply=shown, refused=False, photos=photos
        )
        if flash is not None:  # the answer of the step is shown once
            clear_flash_cookie(response, self.keys)
        return response

    async def notice(self, request: Request) -> Response:
        """The printable s.13(2) notice of a case of the caller's: sent on to its signed
        page (the link the officer is given by chat), or refused as the chat refuses."""
        app = _poundbot(request)
        number = request.path_params["number"]
        async with app.store.transaction() as tx:
            signed = await self._caller(tx, request)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            try:
                loaded = await desk.case_of(tx, app.deps, signed[1], number)
            except AppError as exc:
                return self._not_found(request, app, signed, exc)
        try:
            href = self._notice_path(app, loaded)
        except DomainError as exc:
            tr = translator(language_of(request, signed[1], app.config))
            refusal = render.error(exc, tr.under(loaded.case.profile))
            return self._message(request, app, signed, 409, refusal)
        return RedirectResponse(href, status_code=303)

    def _notice_path(self, app: App, loaded: LoadedCase) -> str:
        """The signed path of the case's printable notice; the Act's refusal (no notice
        before s.13(1) is met, nor once the cattle have left the pound) raised."""
        case = loaded.case
        check_notice_printable(case, app.deps.today())
        on = case.notice.on if case.notice else app.deps.today()
        return notice_path(self.keys.secret, loaded.row.number, on)

    def _notice_href(self, app: App, loaded: LoadedCase) -> str | None:
        """The notice's path for the case page's link, or None when it has none today."""
        try:
            return self._notice_path(app, loaded)
        except DomainError:
            return None

    def _case_page(
        self,
        request: Request,
        app: App,
        signed: tuple[str, Caller],
        view: desk.CaseView,
        *,
        reply: str,
        refused: bool,
        photos: Sequence[tuple[str, str]] = (),
    ) -> Response:
        caller = signed[1]
        case = view.loaded.case
        # The page, its forms and the step's answer in the words of the case's Act.
        tr = translator(language_of(request, caller, app.config)).under(case.profile)
        account = render.account_text(view.settled[1], tr) if view.settled else ""
        forms = forms_for(caller, case, app.deps.today(), view.held)
        next_step = _next_step(view, forms)
        first = next_step.command if next_step else ""
        values = {
            "view": view,  # the next step's form first, VOID apart
            "forms": sorted(
                (f for f in forms if f.command != "void"), key=lambda f: f.command != first
            ),
            "void": next((f for f in forms if f.command == "void"), None),
            "next": next_step,
            "notice_href": self._notice_href(app, view.loaded),
            "prefill": _prefill(app, view.loaded),
            "choices": {"correct": CORRECTABLE, "outcome": OUTCOMES},
            # s.13(3) proviso: who may order another disposal of this case (the office its
            # Act gives the power to), by code and full name.
            "offices": [
                (o.code, local(o.name, tr.lang)) for o in proviso_offices_of(app.deps, case)
            ],
            "reply": reply,
            "refused": refused,
            "today": app.deps.today(),
            "pound_name": local(app.config.pounds[view.loaded.pound].name, tr.lang),
            "stage_sentence": case_sentence(case, tr),
            "stage_label": names.case_stage(case, tr),
            "account_text": account,
            "lang_query": _lang_query(request),  # a language chosen with ?lang= stays
            "owner_phone": view.loaded.row.owner_phone or "",  # staff only, as the owner
            "photos": photos,  # (thumbnail, photo) signed paths
        }
        status = 200 if not refused else 409
        act = case.profile
        return self._render(request, app, "case.html", signed, values, status=status, act=act)

    async def _photos(self, tx: Tx, loaded: LoadedCase) -> list[tuple[str, str]]:
        """The kept photos of a case, oldest first: its thumbnail's and its own signed path."""
        secret = self.keys.secret
        return [
            (photo_path(secret, p.id, thumb=True), photo_path(secret, p.id))
            for p in await photos_of(tx, loaded.row.id)
        ]

    def _not_found(
        self, request: Request, app: App, signed: tuple[str, Caller] | None, exc: AppError
    ) -> Response:
        tr = translator(language_of(request, signed[1] if signed else None, app.config))
        if not isinstance(exc, UnknownCaseError | UnknownPoundError):
            return self._message(request, app, signed, 403, render.app_error(exc, tr))
        return self._message(request, app, signed, 404, render.app_error(exc, tr))

    async def step(self, request: Request) -> Response:
        app = _poundbot(request)
        number, step = request.path_params["number"], request.path_params["step"]
        form = await form_fields(request)  # cleaned as SMS and Telegram text is
        async with app.store.transaction() as tx:
            signed = await self._caller(tx, request)
            if signed is None:
                return RedirectResponse(_SIGNIN, status_code=303)
            if not self.keys.csrf_ok(signed[0], form.get("csrf", "")):
                return self._forbidden(request, app)
            caller = signed[1]
            try:  # read once, locked for the step: the page after is the step's outcome
                loaded = await desk.case_of(tx, app.deps, caller, number, for_update=True)
            except AppError as exc:
                return self._not_found(request, app, signed, exc)
            lang = language_of(request, caller, app.config)
            tr = translator(lang).under(loaded.case.profile)  # the answer in its Act's words
            # A form from a page shown before the case last changed: the step is only
            # tried (``_stale``).
            stale = form.get("seen") != str(len(loaded.case.events))
            try:
                command = build_command(step, loaded.row.number, form, lang, app.deps.today())
                spec = form_of(step)
                if spec is not None and spec.confirm and form.get("confirm") != "yes":
                    raise _NotConfirmed(spec.confirm)
                if isinstance(command, Sold):  # the box is the buyer's declaration (s.18)
                    command = replace(command, declared=True)
            except ParseError as exc:
                reply, refused = render.parse_error(exc.code, exc.facts, tr), True
            except _NotConfirmed as exc:
                reply, refused = _unconfirmed(str(exc), tr), True
            else:
                sale = loaded.case.sale_provision
                outcome = await run_command(
                    tx,
                    app.deps,
                    replace(caller, lang=lang),
                    command,
                    lang,
                    sms=False,
                    loaded=loaded,
                    trial=stale,
                    desk=lambda step, tr: names.desk_form(  # the desk's forms
                        step, tr, sale, below=_takes(caller, step)
                    ),
                )
                reply, refused = outcome.text, outcome.refused
                if stale and not refused:
                    reply, refused = _stale(tr), True
                if outcome.loaded is not None:
                    loaded = outcome.loaded
                if refused:  # the savepoint rolled back: the row as it was, read afresh
                    await _unexpired(tx, loaded)
            if refused:  # the page again, with the refusal, and nothing recorded
                view = await desk.case_view(tx, app.deps, caller, loaded)
                photos = await self._photos(tx, loaded)
                return self._case_page(
                    request, app, signed, view, reply=reply, refused=True, photos=photos
                )
        # Recorded: post/redirect/get, the answer shown once on the case page.
        done = RedirectResponse(
            f"/web/cases/{loaded.row.number}{_lang_query(request)}#reply", status_code=303
        )
        set_flash_cookie(
            done, self.keys, self.keys.flash_value(signed[0], loaded.row.number, reply)
        )
        return done

    # -- the public notice board ------------------------------------------------------------

    async def board(self, request: Request) -> Response:
        app = _poundbot(request)
        code = request.path_params["authority"]
        authority = app.config.authorities.get(code)
        if authority is None:
            tr = translator(language_of(request, None, app.config))
            text = tr.gettext("No local authority has this code.")
            return self._message(request, app, None, 404, text)
        languages = [authority.default_language]
        for pound in app.config.pounds.values():
            if pound.authority == code:
                languages += [lang for lang in pound.languages if lang not in languages]
        chosen = request.query_params.get("lang") or request.cookies.get(LANG_COOKIE, "")
        lang = chosen if chosen in languages else languages[0]
        async with app.store.transaction() as tx:
            notices = await boards.notice_board(tx, app.deps, code)
        pounds = [p for p in app.config.pounds.values() if p.authority == code]
        tr = translator(lang)
        values = {
            "notices": notices,
            # Under a notice of cattle whose owner refused the account: in its case's words.
            "refused": {
                n.facts.number: names.board_refused_account(tr.under(n.act))
                for n in notices
                if n.refused_account
            },
            "authority_name": local(authority.name, lang),
            "pounds": pounds,
            "caller": None,
            "csrf": "",
        }
        # The board in the words of the Act in force for the authority today; each
        # notice cites its own case's Act (``BoardNotice.act``).
        act = act_in_force(app.config, code, app.deps.today())
        page = self.pages(app).page
        response = page(request, "board.html", lang, values, languages=languages, act=act)
        # Public, and meant to be found; in the language of a cookie, so never reused
        # from a cache without asking.
        response.headers["Cache-Control"] = "no-cache"
        del response.headers["X-Robots-Tag"]
        return response


def _poundbot(request: Request) -> App:
    """The running poundbot; 503 while it starts or stops (the balancer tries again)."""
    app: App | None = getattr(request.app.state, "poundbot", None)
    if app is None:
        raise HTTPException(503, "starting")
    return app


def _stale(tr: Translator) -> str:
    """A step's form from a page shown before the case last changed: a form sent twice
    (a double click, a reload) or a step someone else took meanwhile. Each form carries
    how many events the case had (``seen``); a step on a case that has moved on is not
    taken, so nothing is recorded twice. It is tried on the case as it is now: one the
    Act no longer allows (someone else settled the sale a moment before) gets its own
    refusal; one it still allows, this."""
    # TRANSLATORS: web desk — a step's form was sent from a page shown before the case
    # last changed (sent twice, or someone else took a step meanwhile).
    return tr.gettext(
        "The case has changed since this page was shown (was the form sent "
        "twice?). Nothing was recorded: see the case as it is now."
    )


def _when(at: datetime, zone: tzinfo, tr: Translator) -> str:
    """A time of the log in local time: its day and ``HH:MM`` (SQLite's, naive, is UTC)."""
    local = (at if at.tzinfo else at.replace(tzinfo=UTC)).astimezone(zone)
    return f"{day(local.date(), tr)} {local:%H:%M}"


class _NotConfirmed(Exception):
    """A step sent without its box ticked (``Form.confirm``: "s.18" or "void")."""


def _lang_query(request: Request) -> str:
    """``?lang=ml`` when the page was asked for in a language with ``?lang=``, else "": a
    step's form and the page after it keep the language."""
    lang = request.query_params.get("lang", "")
    return f"?lang={lang}" if lang in LANGUAGES else ""


def _takes(caller: Caller, step: str) -> bool:
    """Whether the step ``step`` is one of ``caller``'s role (its form on their page)."""
    spec = form_of(step)
    return spec is not None and caller.role in spec.roles


def _unconfirmed(box: str, tr: Translator) -> str:
    if box == "s.18":
        # TRANSLATORS: web desk — SOLD without the box ticked that the buyer signed
        # the declaration of s.18.
        return tr.gettext("The buyer must first sign the declaration of s.18.")
    # TRANSLATORS: web desk — VOID sent without its box ticked (the case is
    # withdrawn as entered by mistake, s.7).
    return tr.gettext("Tick the box to confirm that this case is to be voided.")


#: The status of each refusal of Send again (else 403: not the caller's to send).
_RESEND_REFUSED = {"unknown_message": 404, "not_failed": 409, "purged_message": 409}

_STAGES = frozenset(s.value for s in Stage)
#: The channels of the log of messages, as its filter offers them.
_MESSAGE_CHANNELS = ("sms", "whatsapp", "telegram")


class _CaseLine(NamedTuple):
    """A line of the list of cases, in words."""

    number: str
    cattle: str
    brought: str
    stage: str
    place_seized: str


async def _unexpired(tx: Tx, loaded: LoadedCase) -> None:
    """After a refused step, the savepoint's rollback has expired what the step changed
    on the case row: read the row back, so that the page does not read it lazily."""
    await refresh_expired(tx, loaded.row)


#: The step that meets each deadline of the Act, offered first when it is lawful today.
_MEETS: dict[DeadlineKind, str] = {
    DeadlineKind.REPORT_DUE: "report",
    DeadlineKind.NOTICE_DUE: "notice",
    DeadlineKind.AUCTION_LAWFUL: "auction",
    DeadlineKind.AUCTION_DAY: "sold",
    DeadlineKind.COMPLAINT_WINDOW_ENDS: "outcome",
    DeadlineKind.CREDIT_TO_FUND: "fund",
    DeadlineKind.CLAIM_PENDING: "claimed",
}


class NextStep(NamedTuple):
    """What comes next on a case: the nearest deadline, and its step when lawful today."""

    deadline: Deadline
    command: str  # "" when the step is not yet lawful, or not the caller's


def _next_step(view: desk.CaseView, forms: list[Form]) -> NextStep | None:
    if not view.deadlines:
        return None
    first = min(view.deadlines, key=lambda d: d.due_on)
    offered = {f.command for f in forms}
    command = _MEETS.get(first.kind, "")
    return NextStep(first, command if command in offered else "")


def _prefill(app: App, loaded: LoadedCase) -> dict[str, str]:
    """Values the forms start with: NOTICE's places of proclamation, the village and the
    market place nearest the place of seizure, from the configuration (s.13(2)); SOLD's
    and UNSOLD's day, the day the auction is fixed for; CLAIM's day preferred, that of
    the claim pending (s.16(3))."""
    pound = app.config.pounds[loaded.pound]
    authority = app.config.authorities[pound.authority]
    village, market = village_and_market_of(authority, loaded.case.seizure.place_seized, pound)
    filled = {"notice.places": f"{village}, {market}"}
    fixed = loaded.case.scheduled_auction
    if fixed is not None:  # a lot is sold on the day fixed (s.13(3), s.15(1)), entered later too
        on = fixed.auction_on.strftime("%d-%m-%Y")
        filled |= {"sold.on": on, "unsold.on": on}
    pending = loaded.case.pending_claim
    if pending is not None:
        filled["claim.preferred"] = pending.preferred.strftime("%d-%m-%Y")
    return filled
