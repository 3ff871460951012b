"""The printable notice (s.13(2)): an A4 page in the pound's languages, at a signed link."""

from __future__ import annotations

from datetime import date

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from bot.bootstrap import App
from bot.errors import AppError
from bot.i18n import render, translator
from bot.links import verify_notice
from domain.errors import DomainError
from domain.notice import check_notice_printable

__all__ = ["notice_route"]


def notice_route(secret: str) -> Route:
    """``GET /notice/{number}/{on}/{signature}``: 404 unless the signature is ours."""

    async def page(request: Request) -> Response:
        number = request.path_params["number"]
        try:
            on = date.fromisoformat(request.path_params["on"])
        except ValueError:
            return PlainTextResponse("not found", status_code=404)
        if not verify_notice(secret, number, on, request.path_params["signature"]):
            return PlainTextResponse("not found", status_code=404)
        app: App = request.app.state.poundbot
        try:
            async with app.store.transaction() as tx:
                loaded = await tx.load_case(number)
        except AppError:
            return PlainTextResponse("not found", status_code=404)
        pound = app.config.pounds[loaded.pound]
        authority = app.config.authorities[pound.authority]
        try:
            check_notice_printable(loaded.case, app.deps.today())
        except DomainError as exc:
            # No notice before s.13(1) is met, nor once the cattle have left the pound.
            refusal = render.error(exc, translator(pound.languages[0]))
            return PlainTextResponse(
                refusal, status_code=409, headers={"Cache-Control": "private, no-store"}
            )
        notice = loaded.case.notice
        html = render.notice_html(
            loaded.case, authority, pound, notice.on if notice else on, pound.languages
        )
        return HTMLResponse(
            html, headers={"Cache-Control": "private, no-store", "X-Robots-Tag": "noindex"}
        )

    return Route("/notice/{number}/{on}/{signature}", page, methods=["GET"])
