"""The charts of the web desk, drawn on the server as SVG (``bot.web.svg``): no script,
nothing loaded from another site. ``/web/charts/?year=2026&authority=KNM-GP``:

- cattle impounded each month, by kind (s.7);
- days in the pound (s.15(3)(b));
- money received each month, by ledger account with its provision;
- how many s.13(1) reports and s.13(2) notices were on time.

The figures come from ``bot.services.charts`` for whatever the person may read.
"""

from __future__ import annotations

from datetime import date

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from bot.config.names import local
from bot.i18n import fmt, translator
from bot.i18n.documents.documents import (
    account_name,
    chart_labels,
    document_labels,
    kind_name,
    timeliness_name,
)
from bot.services.base import act_in_force
from bot.services.charts import STAY_BINS, YearFigures, year_figures
from bot.services.runtime import App
from bot.support.caller import Caller
from bot.web.printing import GetCaller, guarded, not_found, page
from bot.web.svg import BarSeries, bar_chart
from bot.web.templating import language_of
from domain.money import Money
from domain.profiles import KERALA_1961, Profile

__all__ = ["chart_routes", "charts_svg"]


def charts_svg(
    figures: YearFigures, lang: str, app: App, act: Profile = KERALA_1961
) -> tuple[dict[str, str], list[tuple[str, str]]]:
    """The labels of the page and the four charts (caption, SVG markup), in ``lang``, in
    the words of ``act`` (the Act in force today for the authority of the figures)."""
    tr = translator(lang).under(act)
    received = sum(sum(s.values) for s in figures.money)
    labels = chart_labels(tr, figures.year, sum(figures.cases_per_month), received)
    months = [fmt.month_short(date(figures.year, m, 1), lang) for m in range(1, 13)]
    bins = [f"{low}–{high}" if high else f"{low}+" for low, high in STAY_BINS]
    charts = [
        (
            labels["heads"],
            bar_chart(
                ident="heads",
                title=labels["heads"],
                desc=labels["heads_desc"],
                categories=months,
                series=[
                    BarSeries(kind_name(s.key, tr, app.config.kinds), s.values)
                    for s in figures.heads_by_kind
                ],
                value_title=labels["heads_axis"],
            ),
        ),
        (
            labels["stay"],
            bar_chart(
                ident="stay",
                title=labels["stay"],
                desc=labels["stay_desc"],
                categories=bins,
                series=[BarSeries(labels[s.key], s.values) for s in figures.stays],
                value_title=labels["cases_axis"],
            ),
        ),
        (
            labels["money"],
            bar_chart(
                ident="money",
                title=labels["money"],
                desc=labels["money_desc"],
                categories=months,
                series=[BarSeries(account_name(s.key, tr), s.values) for s in figures.money],
                mode="grouped",
                value_label=lambda paise: fmt.money(Money(paise), lang, sms=False),
                unit=100,  # whole rupees
                value_title=labels["money_axis"],
            ),
        ),
        (
            labels["timely"],
            bar_chart(
                ident="timely",
                title=labels["timely"],
                desc=labels["timely_desc"],
                categories=[labels["reports"], labels["notices"]],
                series=[
                    BarSeries(timeliness_name(s.key, tr), s.values) for s in figures.timeliness
                ],
                value_title=labels["cases_axis"],
            ),
        ),
    ]
    return labels, charts


async def _charts(request: Request, app: App, caller: Caller) -> Response:
    today = app.deps.today()
    try:
        year = int(request.query_params.get("year") or today.year)
    except ValueError:
        return not_found()
    if not 1961 <= year <= today.year + 1:
        return not_found()
    authority = request.query_params.get("authority") or None
    lang = language_of(request, caller, app.config)
    async with app.store.transaction() as tx:
        figures = await year_figures(tx, app.deps, caller, year, authority)
    # A year of cases of the authority: in the words of the Act in force for it today.
    act = act_in_force(app.config, figures.authority, today)
    labels, charts = charts_svg(figures, lang, app, act)
    tr = translator(lang).under(act)
    docs_labels = document_labels(tr)
    context = {
        "lang": lang,
        "title": labels["page"],
        "labels": docs_labels,
        "chart_labels": labels,
        "printed": docs_labels["printed"] % {"date": fmt.date(today, lang)},
        "authority_name": (
            local(app.config.authorities[figures.authority].name, lang) if figures.authority else ""
        ),
        "authority": figures.authority or "",
        # The choice of an authority: a state admin's alone (an authority admin's is theirs).
        "authorities": sorted(app.config.authorities.items()) if caller.is_state_admin else [],
        "is_admin": caller.is_state_admin,
        "year": year,
        "years": list(range(today.year, today.year - 6, -1)),
        "charts": charts,
    }
    return page(request, "charts/index.html", context)


def chart_routes(get_caller: GetCaller) -> list[Route]:
    """The route of the charts page; ``get_caller`` says who is signed in."""
    return [Route("/web/charts/", guarded(get_caller, _charts), methods=["GET"])]
