"""``make messages-report``: for each language, how many messages its catalog has, the
share translated, and the largest owner-facing SMS reply on the worst-case data, in
segments against its budget (``sms_budget``), and how many DLT templates it has
(``locales/dlt-templates.json``) against ``MAX_TEMPLATES``.

The exit status is 1 when Malayalam, Tamil or Kannada has an empty or fuzzy entry,
when an owner-facing SMS takes more segments than ``SMS_SEGMENT_BUDGET`` allows, or
when a language has more DLT templates than ``MAX_TEMPLATES``.
English is the source language: its msgids are its texts, so it counts as complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from bot.i18n.catalogs import LOCALES_DIR, CatalogStats, catalog_report
from bot.i18n.public.sms_fit import SMS_SEGMENT_BUDGET
from bot.support.dlt import MAX_TEMPLATES, registry
from bot.support.sms_segments import Segments
from i18n_tools.sms_budget import largest_sms

__all__ = ["LanguageReport", "language_reports", "print_report"]


@dataclass(frozen=True, slots=True)
class LanguageReport:
    """One line of the report: a catalog's completeness and its largest SMS reply."""

    stats: CatalogStats
    largest_name: str
    largest: Segments
    templates: int = 0  # DLT templates in the language

    @property
    def budget(self) -> int:
        return SMS_SEGMENT_BUDGET[self.stats.lang]

    @property
    def complete(self) -> bool:
        """No empty or fuzzy entry (English, the source, is always complete)."""
        stats = self.stats
        return stats.lang == "en" or not (stats.fuzzy or stats.untranslated)

    @property
    def share(self) -> float:
        """The share of messages translated, in percent (English: all, as the source)."""
        stats = self.stats
        if stats.lang == "en" or not stats.total:
            return 100.0
        return 100.0 * stats.translated / stats.total

    def line(self) -> str:
        stats, sms = self.stats, self.largest
        translated = (
            "source language"
            if stats.lang == "en"
            else f"{self.share:.1f}% translated ({stats.fuzzy} fuzzy, "
            f"{stats.untranslated} untranslated)"
        )
        over = "" if sms.segment_count <= self.budget else "  OVER BUDGET"
        return (
            f"{stats.lang}: {stats.total} messages, {translated}; largest SMS reply "
            f"{sms.segment_count}/{self.budget} segments ({sms.encoding}, {sms.units} "
            f"units): {self.largest_name}{over}"
        )

    def templates_line(self) -> str:
        over = "  OVER THE LIMIT" if self.templates > MAX_TEMPLATES else ""
        return f"{self.stats.lang}: {self.templates} DLT templates (at most {MAX_TEMPLATES}){over}"


def language_reports(directory: Path = LOCALES_DIR) -> list[LanguageReport]:
    """The report of every language, in ``LANGUAGES`` order."""
    reports = []
    templates = registry()
    for stats in catalog_report(directory):
        name, _, sms = largest_sms(stats.lang)
        count = sum(1 for t in templates if t.lang == stats.lang)
        reports.append(LanguageReport(stats, name, sms, count))
    return reports


def print_report(directory: Path = LOCALES_DIR) -> int:
    """Print one line per language; 1 if a catalog is incomplete or an SMS over budget."""
    status = 0
    for report in language_reports(directory):
        print(report.line())
        print(report.templates_line())
        if not report.complete or report.largest.segment_count > report.budget:
            status = 1
        if report.templates > MAX_TEMPLATES:
            status = 1
    return status


if __name__ == "__main__":
    raise SystemExit(print_report())
