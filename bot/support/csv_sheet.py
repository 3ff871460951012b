"""CSV as a spreadsheet opens it safely: the one CSV writer of poundbot.

A cell that a spreadsheet would run as a formula (CSV injection) is written as text;
a plain number stays a number. The exports (``bot.adapters.export``), the printable
documents' CSV and the DLT upload sheet all write through ``write_csv``.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from typing import TextIO

__all__ = ["Table", "csv_cell", "write_csv"]

#: A cell starting with one of these is a formula to a spreadsheet (CSV injection).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: A cell that is a plain number: an optional minus, digits, optional decimals.
_NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


@dataclass(frozen=True, slots=True)
class Table:
    """A header and its records, ready for ``write_csv``."""

    header: tuple[str, ...]
    records: list[list[str]]


def csv_cell(value: str) -> str:
    """A cell as written to a CSV file, never run as a spreadsheet formula.

    Any cell starting with ``= + - @``, a tab or a carriage return gets a leading
    apostrophe, which a spreadsheet reads as "this is text" (``=HYPERLINK(...)`` is shown,
    not followed). A cell that is a number and nothing else (``-300``, ``-0.05``: a
    refund in the ledger) is left as it is: a spreadsheet reads it as that number, which
    runs nothing, and an apostrophe would make the amount text that no column sums.
    ``-300 cows`` or ``-1+2`` are not plain numbers and get the apostrophe.
    """
    if not value.startswith(_FORMULA_START) or _NUMBER.fullmatch(value):
        return value
    return f"'{value}"


def write_csv(out: TextIO, table: Table) -> None:
    """Write the header and records as RFC 4180 CSV (CRLF line ends), every cell made
    safe for a spreadsheet (``csv_cell``): the one CSV writer of poundbot."""
    writer = csv.writer(out)
    writer.writerow([csv_cell(cell) for cell in table.header])
    writer.writerows([csv_cell(str(cell)) for cell in record] for record in table.records)
