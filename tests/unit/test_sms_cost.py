"""No SMS poundbot can send costs more segments than the file says: every rendering
the DLT templates are found from (``i18n_tools.dlt_templates.renderings``: to owners,
the reminders, to keepers and officers, on the worst-case data), in every language.
Each label holds ``[SMS, segments]``; a text may get shorter, never dearer.
``POUNDBOT_RECORD_SMS_COST=1`` rewrites the file.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from bot.i18n.catalogs import LANGUAGES, translator
from bot.i18n.dlt_probe import PART
from bot.support.sms_segments import segments
from i18n_tools.dlt_templates import renderings

COST = Path(__file__).parent.parent / "fixtures" / "sms_cost.json"


def _cost(text: str) -> list[int]:
    """The SMS a rendering goes as (an answer in parts: several) and their segments."""
    parts = [part for part in text.split(PART) if part.strip()]
    return [len(parts), sum(segments(p).segment_count for p in parts)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_sms_costs_more_segments_than_before(lang: str) -> None:
    found = {label: _cost(text) for label, text in renderings(translator(lang)).items()}
    recorded = json.loads(COST.read_text(encoding="utf-8")) if COST.exists() else {}
    if os.environ.get("POUNDBOT_RECORD_SMS_COST") == "1":
        recorded[lang] = found
        text = json.dumps(recorded, indent=1, sort_keys=True, ensure_ascii=False)
        COST.write_text(
            re.sub(r"\[\s+(\d+),\s+(\d+)\s+\]", r"[\1, \2]", text) + "\n", encoding="utf-8"
        )
    before = recorded[lang]
    assert set(found) <= set(before), set(found) - set(before)
    dearer = {
        label: (before[label], cost)
        for label, cost in found.items()
        if cost[0] > before[label][0] or cost[1] > before[label][1]
    }
    assert not dearer
