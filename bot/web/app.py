"""The routes of the web desk, mounted by ``bot.entry.app.build_app`` in one place.

``/web/signin/<token>``  a single-use link: a button that signs in (a link preview that
                         fetches the page does not use the link up)
``/web/signout``         ends the session (POST, with the CSRF token)
``/web/``                Today
``/web/cases``           the list of cases, filtered
``/web/messages``        the log of messages in and out (admins, officers); POST
                         ``/web/messages/<id>/resend`` sends a failed one again, once
``/web/cases/new``       the form of a seizure (s.7) and its recording (``bot.web.seize``)
``/web/cases/<number>``  one case; POST ``/web/cases/<number>/<step>`` takes a step
``/web/lang/<code>``     switches the language of the pages
``/web/users``           the users, for administrators (``bot.web.users``); users from a
                         CSV file (``/web/users/import``, ``bot.web.users_import``)
``/notices/<authority>`` the public notice board (no sign-in)
``/web/config``          the configuration's versions (state admins; ``bot.web.config_pages``);
                         the DLT portal's export uploaded (``/web/config/dlt``,
                         ``bot.web.config_dlt``)
``/web/config/tariffs``  the tariffs, their dated rows added and withdrawn (admins;
                         ``bot.web.config_tariffs``)
``/web/config/dlt-ids``  the DLT ids, one by one (state admins; ``bot.web.config_dlt_ids``)
``/web/config/authorities``, ``/web/config/pounds``, ``/web/config/kinds``  the places
                         and kinds of cattle edited, and the audit of the configuration's
                         changes (``bot.web.config_places``)

The printable documents and the charts (``/web/documents/...``, ``/web/charts/...``,
``bot.web.documents`` and ``bot.web.charts``) are route factories: each takes the session
resolver (``bot.web.session.current_caller``) and returns its routes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from bot.web import pages
from bot.web.charts import chart_routes
from bot.web.config_dlt import DltDesk
from bot.web.config_dlt_ids import dlt_id_routes
from bot.web.config_pages import config_routes
from bot.web.config_places import PlaceDesk
from bot.web.config_tariffs import tariff_routes
from bot.web.documents import document_routes
from bot.web.seize import seize_routes
from bot.web.session import GetCaller, Keys, current_caller
from bot.web.users import UserDesk
from bot.web.users_import import UserImportDesk

__all__ = ["ROUTE_FACTORIES", "web_routes"]

#: The parts of the web desk that sign in as the desk does: each is
#: ``(get_caller) -> list[Route]``.
ROUTE_FACTORIES: tuple[Callable[[GetCaller], Sequence[BaseRoute]], ...] = (
    document_routes,
    chart_routes,
    config_routes,
)

_STATIC = Path(__file__).parent / "static"


def web_routes(secret: str, public_url: str, telegram_username: str = "") -> list[BaseRoute]:
    """Every route of the web desk; ``secret`` signs the cookies and CSRF tokens; the
    bot's ``telegram_username`` makes the links of the invites the page of users shows."""
    keys = Keys(secret=secret, secure=public_url.startswith("https://"))
    desk = pages.Desk(keys, public_url)

    async def home(request: Request) -> Response:
        return RedirectResponse("/web/", status_code=303)

    routes: list[BaseRoute] = [
        Route("/web", home, methods=["GET"]),
        Route("/web/", desk.today, methods=["GET"]),
        Route("/web/signin", desk.signin_help, methods=["GET"]),
        Route("/web/signin/{token}", desk.signin_page, methods=["GET"]),
        Route("/web/signin/{token}", desk.signin, methods=["POST"]),
        Route("/web/signout", desk.signout, methods=["POST"]),
        Route("/web/lang/{code}", desk.switch_language, methods=["GET"]),
        Route("/web/cases", desk.cases, methods=["GET"]),
        Route("/web/messages", desk.messages, methods=["GET"]),
        Route("/web/messages/{message_id}/resend", desk.resend, methods=["POST"]),
        *seize_routes(desk),  # before /web/cases/{number}: "new" is no case's number
        Route("/web/cases/{number}", desk.case, methods=["GET"]),
        Route("/web/cases/{number}/notice", desk.notice, methods=["GET"]),
        Route("/web/cases/{number}/{step}", desk.step, methods=["POST"]),
        Route("/notices/{authority}", desk.board, methods=["GET"]),
        Mount("/web/static", StaticFiles(directory=str(_STATIC)), name="web-static"),
    ]
    # The page of users posts its forms with the desk's CSRF token: it takes the keys.
    routes += UserDesk(keys, telegram_username).routes()
    routes += UserImportDesk(keys, telegram_username).routes()
    # Before the configuration's /web/config/{version_id}: "dlt", "dlt-ids", "tariffs",
    # "authorities", "pounds", ... are no version's id.
    routes += DltDesk(keys).routes()
    routes += tariff_routes(desk) + dlt_id_routes(desk)
    routes += PlaceDesk(desk).routes()
    get_caller = current_caller(keys)
    for factory in ROUTE_FACTORIES:
        routes += factory(get_caller)
    return routes
