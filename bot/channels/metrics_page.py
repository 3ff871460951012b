"""``GET /metrics``: the Prometheus text format, for a scraper on this machine or one
holding the token.

Who may read it:

- ``POUNDBOT_METRICS_TOKEN`` set: every request must say ``Authorization: Bearer
  <token>`` (compared in constant time), from loopback too; else 401.
- Not set: only a request made straight to poundbot from loopback (127.0.0.0/8, ::1)
  and carrying no proxy header (``Forwarded``, ``X-Forwarded-For``, ``X-Real-IP``);
  anything else gets 404, as if there were no such page. A reverse proxy on the same
  machine connects from loopback, so a request it passes on is told apart by the
  headers it adds (and poundbot, trusting it as a proxy, ``POUNDBOT_TRUSTED_PROXIES``,
  reports the client behind it anyway). The proxies of ``deploy/`` answer 404 for
  /metrics themselves.

What it shows: this process's counters and histograms (``bot.observe.metrics``), then what is
in the database, read at each scrape (one short transaction): the outbox backlog and
the age of its oldest message by channel, and the reminder jobs due. With several
instances on one PostgreSQL database, each instance's counters are its own and the
database figures are the same from every one of them (sum the counters; take the
database figures from any one).
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
from datetime import datetime

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.observe.metrics import REGISTRY
from bot.services.runtime import App
from bot.store.delivery import backlog
from bot.store.delivery import reminders_due as due_reminders
from bot.store.space import spaces
from bot.store.tx import Store
from bot.support import budget

__all__ = ["database_figures", "may_read", "metrics_route"]

log = logging.getLogger("poundbot")

#: Channels shown with a 0 backlog when they have none (others appear once they have).
CHANNELS = ("sms", "telegram")
#: Seconds a scrape may wait for the database (a scraper times out at 10 s by default).
SCRAPE_BUDGET = 3.0
_PROXY_HEADERS = ("forwarded", "x-forwarded-for", "x-real-ip")
_BACKLOG = ("queued", "sending")


def _loopback(host: str) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def may_read(request: Request, token: str) -> int | None:
    """None if ``request`` may read the metrics, else the status to answer (401, 404)."""
    if token:
        scheme, _, given = request.headers.get("authorization", "").partition(" ")
        good = scheme.lower() == "bearer" and hmac.compare_digest(
            given.strip().encode(), token.encode()
        )
        return None if good else 401
    client = request.client
    direct = client is not None and _loopback(client.host)
    if direct and not any(name in request.headers for name in _PROXY_HEADERS):
        return None
    return 404


class _Figures:
    """A collector of figures read once (one scrape's)."""

    def __init__(self, metrics: list[Metric]) -> None:
        self.metrics = metrics

    def collect(self) -> list[Metric]:
        return self.metrics


async def database_figures(store: Store) -> list[Metric]:
    """The outbox backlog and the age of its oldest message by channel, and the reminder
    jobs due now, as they are in the database."""
    with budget.within(SCRAPE_BUDGET):
        async with store.transaction() as tx:
            now = tx.now
            outbox = await backlog(tx, _BACKLOG)
            reminders_due = await due_reminders(tx)
    waiting = GaugeMetricFamily(
        "poundbot_outbox_backlog",
        "Outbound messages not yet sent (queued, or being sent), in the database.",
        labels=["channel"],
    )
    due_now = GaugeMetricFamily(
        "poundbot_outbox_due",
        "Of the backlog, the messages due now (not held for the night or a retry).",
        labels=["channel"],
    )
    oldest = GaugeMetricFamily(
        "poundbot_outbox_oldest_age_seconds",
        "Age of the oldest message of the backlog (0 when there is none).",
        labels=["channel"],
    )
    rows: dict[str, tuple[int, int, datetime | None]] = dict.fromkeys(CHANNELS, (0, 0, None))
    rows.update({row.channel: (row.count, row.due, row.oldest) for row in outbox})
    for channel, (count, due_count, first) in sorted(rows.items()):
        waiting.add_metric([channel], count)
        due_now.add_metric([channel], due_count)
        age = (now - first).total_seconds() if first is not None else 0.0
        oldest.add_metric([channel], max(age, 0.0))
    reminders = GaugeMetricFamily(
        "poundbot_reminders_due",
        "Reminder jobs due now and not yet fired, in the database.",
        value=reminders_due,
    )
    return [waiting, due_now, oldest, reminders]


def _disk(app: App) -> Metric:
    free = GaugeMetricFamily(
        "poundbot_disk_free_bytes",
        "Bytes free on the file system of each folder poundbot writes to: folder=data "
        "(photos, backups, the embedded database), folder=database (a SQLite file kept "
        "elsewhere). /healthz is 503 under POUNDBOT_MIN_FREE_MB.",
        labels=["folder"],
    )
    for space in spaces(app.engine.url):
        free.add_metric([space.what], space.free)
    return free


def metrics_route(token: str) -> Route:
    """The ``/metrics`` route; ``token`` is ``POUNDBOT_METRICS_TOKEN`` ('' when unset)."""

    async def metrics(request: Request) -> Response:
        refused = may_read(request, token)
        if refused == 401:
            return Response("unauthorized", status_code=401, headers={"WWW-Authenticate": "Bearer"})
        if refused is not None:
            return Response("not found", status_code=refused)
        app: App | None = getattr(request.app.state, "poundbot", None)
        figures: list[Metric] = []
        read = GaugeMetricFamily(
            "poundbot_database_read",
            "1 if this scrape read the database figures, 0 if it could not.",
        )
        if app is not None:
            try:
                figures = await database_figures(app.store)
            except Exception as exc:  # the counters are still worth having
                log.warning("metrics: the database could not be read: %s", type(exc).__name__)
        read.add_metric([], 1 if figures else 0)
        if app is not None:
            figures.append(_disk(app))
        scrape = CollectorRegistry(auto_describe=False)
        scrape.register(_Figures([*figures, read]))
        body = generate_latest(REGISTRY) + generate_latest(scrape)
        return Response(body, media_type=CONTENT_TYPE_LATEST)

    return Route("/metrics", metrics, methods=["GET"])
