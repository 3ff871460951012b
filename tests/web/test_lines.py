"""The rows of Today and of the list of cases, put together from their line templates
rendered once a language (``Pages.lines``), are the HTML Jinja renders line by line:
the same escaping, whatever a text holds (markup, quotes, braces), overdue or not."""

from __future__ import annotations

from typing import NamedTuple

import pytest
from markupsafe import escape

from bot.config import load_config, sample_config_path
from bot.i18n import translator
from bot.web.templating import DeadlineLine, Pages, escaped

NASTY = "<b>\"Kunnamangalam\" & 'market'</b> {0} {} }{ {{x}} \x00 ചന്ത"


class CaseLine(NamedTuple):  # as bot.web.pages._CaseLine
    number: str
    cattle: str
    brought: str
    stage: str
    place_seized: str


def test_escaped_is_jinjas_escape() -> None:
    for text in (NASTY, "", "plain", "&amp;", "'\"<>&" * 3):
        assert escaped(text) == str(escape(text))


@pytest.mark.parametrize("lang", ["en", "ml"])
@pytest.mark.parametrize(
    ("name", "lines"),
    [
        (
            "cases_line.html",
            [
                CaseLine("KNM-1", "2 cows, 1 goat", "1 Mar 2026", "impounded", NASTY),
                CaseLine("KNM-2", NASTY, "{1}", "<stage>", "Chathamangalam"),
            ],
        ),
        (
            "today_line.html",
            [
                DeadlineLine("KNM-1", "Report", "s.13(1)", "9 Mar 2026", True, False),
                DeadlineLine("KNM-2", NASTY, "{0}", "10 Mar 2026", False, False),
                DeadlineLine("KNM-3", "Report", NASTY, NASTY, True, False),
                DeadlineLine("KNM-4", "Complaint", "s.19", "11 Mar 2026", False, True),
            ],
        ),
    ],
)
def test_lines_are_the_html_of_their_template_rendered_line_by_line(
    name: str, lines: list[NamedTuple], lang: str
) -> None:
    pages = Pages(load_config(sample_config_path()))
    tr = translator(lang)
    template = pages.templates.env.get_template(name)
    expected = "\n".join(template.render(_=tr.gettext, **line._asdict()) for line in lines)
    for _ in range(2):  # the forms made, then kept
        assert pages.lines(name, tr, lines) == expected
    assert pages.lines(name, tr, []) == ""
