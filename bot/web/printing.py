"""What the documents and the charts pages share: the templates, the person's language,
the sign-in guard, refusals as pages, and CSV responses.

Every page is one HTML response with its style in ``/web/static/documents.css`` and
nothing loaded from another site (the Content-Security-Policy of ``bot.web.headers``
says so to the browser too).
"""

from __future__ import annotations

import functools
import io
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.templating import Jinja2Templates

from bot.i18n import Translator, translator
from bot.i18n import render as chat
from bot.i18n.documents.documents import document_labels
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.support.csv_sheet import Table, write_csv
from bot.support.errors import (
    AppError,
    NoAccountError,
    NoReceiptError,
    NotAllowedError,
    UnknownCaseError,
)
from bot.web.templating import language_of, language_switch
from domain.errors import DomainError
from domain.profiles import DEFAULT_ACT, Profile, profile

__all__ = [
    "SIGNIN",
    "GetCaller",
    "Handler",
    "csv_response",
    "guarded",
    "page",
    "templates",
    "wants_csv",
]

#: Where a person who is not signed in is sent (the web desk's sign-in page).
SIGNIN = "/web/signin"

GetCaller = Callable[[Request], Awaitable[Caller | None]]
Handler = Callable[[Request, App, Caller], Awaitable[Response]]

#: The CSP, nosniff and the rest are set for every response by ``bot.web.headers``.
_HEADERS = {"Cache-Control": "private, no-store", "X-Robots-Tag": "noindex"}


@functools.cache
def templates() -> Jinja2Templates:
    """The templates of ``bot/web/templates``, autoescaped, built on first use."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.PackageLoader("bot.web", "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        auto_reload=False,  # the templates are part of the release: no stat per page
    )
    return Jinja2Templates(env=env)


def wants_csv(request: Request, name: str) -> tuple[str, bool]:
    """``name`` without a ``.csv`` ending, and whether CSV was asked for (the ending or
    ``?format=csv``)."""
    if name.endswith(".csv"):
        return name.removesuffix(".csv"), True
    return name, request.query_params.get("format") == "csv"


def page(request: Request, name: str, context: Mapping[str, Any], status: int = 200) -> Response:
    """A template rendered as a page, with the headers of every desk page and the
    language switch of every page."""
    return templates().TemplateResponse(
        request,
        name,
        {**language_switch(request), **context},
        status_code=status,
        headers=_HEADERS,
    )


def csv_response(table: Table, filename: str) -> Response:
    """A CSV file to download (RFC 4180, UTF-8)."""
    out = io.StringIO()
    write_csv(out, table)
    headers = {**_HEADERS, "Content-Disposition": f'attachment; filename="{filename}"'}
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8", headers=headers)


def _refusal(request: Request, tr: Translator, text: str, status: int) -> Response:
    labels = document_labels(tr)
    context = {"lang": tr.lang, "title": text, "labels": labels, "message": text, "printed": ""}
    context["languages"] = []  # no switch: a refusal echoes nothing of what was asked
    return page(request, "documents/refused.html", context, status)


def guarded(get_caller: GetCaller, handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    """An endpoint for signed-in people only (others go to the sign-in page, 303); what
    the use cases refuse becomes a page in the person's language."""

    async def endpoint(request: Request) -> Response:
        caller = await get_caller(request)
        if caller is None:
            return RedirectResponse(SIGNIN, status_code=303)
        app: App | None = getattr(request.app.state, "poundbot", None)
        if app is None:  # the server is starting or stopping
            return HTMLResponse("starting", status_code=503, headers=_HEADERS)
        tr = translator(language_of(request, caller, app.config))
        try:
            return await handler(request, app, caller)
        except NotAllowedError as exc:
            return _refusal(request, tr, chat.app_error(exc, tr), 403)
        except (UnknownCaseError, NoAccountError, NoReceiptError) as exc:
            tr = tr.under(await _act_of_case(app, exc))  # no account yet: of which case
            return _refusal(request, tr, chat.app_error(exc, tr), 404)
        except AppError as exc:
            return _refusal(request, tr, chat.app_error(exc, tr), 400)
        except DomainError as exc:
            return _refusal(request, tr, chat.error(exc, tr), 409)

    return endpoint


async def _act_of_case(app: App, exc: AppError) -> Profile:
    """The Act of the case a refusal names (``facts["number"]``), in whose words it is;
    the default Act when it names none that exists."""
    number = exc.facts.get("number")
    if isinstance(number, str):
        try:
            async with app.store.reading() as tx:
                return (await tx.load_case(number)).case.profile
        except AppError:
            pass
    return profile(DEFAULT_ACT)


def not_found() -> Response:
    """A path that names nothing (a bad month, a bad year)."""
    return HTMLResponse("not found", status_code=404, headers=_HEADERS)
