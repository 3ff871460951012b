"""Portal-style exports of approved DLT templates, written as the portals' sheets look
(their exports sit behind logins, so these layouts are poundbot's own fixtures):

- ``standard_csv``: Template ID, Template Name, Template Content, Template Type, Status,
  after a title line, as a Jio/Airtel-style download;
- ``other_csv``: a layout of its own (semicolon-separated, ``DLT_TE_ID``, ``Header``,
  ``Message Body``, ``Approval State``), read with ``--columns``;
- ``xlsx``: the standard columns in a workbook, its ids stored as numbers where a
  spreadsheet would, the text with ``Message`` as heading.

Every sheet gives each template with the text as a portal gives it back: Unicode in NFD
for Malayalam, Tamil and Kannada, curly quotes, doubled spaces, ``{#VAR#}`` in capitals,
a zero-width joiner; and one rejected and one pending row (the last two templates).
"""

from __future__ import annotations

import csv
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from bot.support.dlt import Template

STANDARD = ("Template ID", "Template Name", "Template Content", "Template Type", "Status")
OTHER = ("S.No", "DLT_TE_ID", "Header", "Message Body", "Category", "Approval State")
OTHER_COLUMNS = "id=DLT_TE_ID,name=Header,content=Message Body,status=Approval State"


def template_id(n: int) -> str:
    return f"1207{n:015d}"


def as_portal(text: str, n: int) -> str:
    """``text`` as a portal may give it back."""
    out = text.replace("{#var#}", "{#VAR#}" if n % 2 else "{# var #}")
    out = out.replace("'", "\u2019", 1).replace(". ", ".  ", 1)
    if not out.isascii():
        out = unicodedata.normalize("NFD", out)
        out = out.replace("\u0d4d", "\u0d4d\u200d", 1)  # a ZWJ after a Malayalam virama
    return out


def rows(templates: Iterable[Template]) -> list[tuple[str, str, str, str, str]]:
    """One row a template: approved, but the last two rejected and pending."""
    listed = sorted(templates, key=lambda t: t.name)
    out = []
    for n, t in enumerate(listed):
        status = "Approved"
        if n == len(listed) - 2:
            status = "Rejected"
        elif n == len(listed) - 1:
            status = "Pending"
        out.append((template_id(n), t.name, as_portal(t.text, n), "Service Implicit", status))
    return out


def standard_csv(path: Path, templates: Iterable[Template]) -> Path:
    with path.open("w", encoding="utf-8-sig", newline="") as out:
        out.write("Content Templates of entity 1201160000000000000\n")
        writer = csv.writer(out)
        writer.writerow(STANDARD)
        writer.writerows(rows(templates))
    return path


def other_csv(path: Path, templates: Iterable[Template]) -> Path:
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter=";")
        writer.writerow(OTHER)
        for n, (tid, name, text, kind, status) in enumerate(rows(templates), start=1):
            writer.writerow((n, tid, name, text, kind, status.upper()))
    return path


def xlsx(path: Path, templates: Iterable[Template]) -> Path:
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(("Template ID", "Template Name", "Message", "Template Type", "Status"))
    for tid, name, text, kind, status in rows(templates):
        sheet.append((int(tid) if int(tid) < 2**53 else tid, name, text, kind, status))
    book.save(path)
    return path
