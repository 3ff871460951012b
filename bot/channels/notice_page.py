"""The printable notice (s.13(2)): an A4 page in the pound's languages, at a signed link,
with the photos of the cattle; each photo and its thumbnail at a signed link of its own."""

from __future__ import annotations

from datetime import date

from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Route

from bot.adapters.photo_store import FORMATS, file_key, photos_of
from bot.i18n import render, translator
from bot.services.base import figures_for
from bot.services.runtime import App
from bot.store.photo_rows import photo
from bot.support.errors import AppError
from bot.support.links import photo_path, verify_notice, verify_photo
from domain.errors import DomainError
from domain.s13_unclaimed import check_notice_printable, require_notice_standing

__all__ = ["notice_route", "photo_routes"]


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
                kept = await photos_of(tx, loaded.row.id)
        except AppError:
            return PlainTextResponse("not found", status_code=404)
        pound = app.config.pounds[loaded.pound]
        authority = app.config.authorities[pound.authority]
        try:
            check_notice_printable(loaded.case, app.deps.today())
            superseding = loaded.case.superseding
            if superseding is not None and on < superseding.on:
                # A link handed out before a correction superseded the notice: what it
                # printed no longer stands (s.13(2)); a new link comes with the new notice.
                require_notice_standing(loaded.case)
        except DomainError as exc:
            # No notice before s.13(1) is met, nor once the cattle have left the pound.
            tr = translator(pound.languages[0]).under(loaded.case.profile)
            refusal = render.error(exc, tr)
            return PlainTextResponse(
                refusal, status_code=409, headers={"Cache-Control": "private, no-store"}
            )
        notice = loaded.case.notice
        photos = [(photo_path(secret, p.id, thumb=True), photo_path(secret, p.id)) for p in kept]
        html = render.notice_html(
            loaded.case,
            authority,
            pound,
            notice.on if notice else on,
            pound.languages,
            photos,
            figures=figures_for(app.deps, loaded.case),
        )
        return HTMLResponse(
            html, headers={"Cache-Control": "private, no-store", "X-Robots-Tag": "noindex"}
        )

    return Route("/notice/{number}/{on}/{signature}", page, methods=["GET"])


def photo_routes(secret: str) -> list[Route]:
    """``GET /photo/{id}/{signature}`` and ``GET /photo/{id}/thumb/{signature}``: the kept
    image (no metadata: ``bot.adapters.photo_store``) with its stored type; 404 unless signed by
    us."""

    async def serve(request: Request, variant: str) -> Response:
        text = request.path_params["photo_id"]
        if not (text.isascii() and text.isdigit()) or len(text) > 12:
            return PlainTextResponse("not found", status_code=404)
        photo_id = int(text)
        if not verify_photo(secret, photo_id, variant, request.path_params["signature"]):
            return PlainTextResponse("not found", status_code=404)
        app: App = request.app.state.poundbot
        async with app.store.transaction() as tx:
            row = await photo(tx, photo_id)
        if row is None or row.status != "kept" or not row.sha256 or row.format not in FORMATS:
            return PlainTextResponse("not found", status_code=404)
        data = await app.deps.photo_store().get(
            file_key(row.sha256, row.format, thumb=variant == "thumb")
        )
        if data is None:
            return PlainTextResponse("not found", status_code=404)
        return Response(
            data,
            media_type=FORMATS[row.format][1],
            headers={
                "Cache-Control": "private, max-age=86400",
                "X-Robots-Tag": "noindex",
                "X-Content-Type-Options": "nosniff",
            },
        )

    async def full(request: Request) -> Response:
        return await serve(request, "full")

    async def thumb(request: Request) -> Response:
        return await serve(request, "thumb")

    return [
        Route("/photo/{photo_id}/thumb/{signature}", thumb, methods=["GET"]),
        Route("/photo/{photo_id}/{signature}", full, methods=["GET"]),
    ]
