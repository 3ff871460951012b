"""What a person reads is not changed by a change of the code's structure.

``tests/fixtures/texts.json`` holds every msgid of ``locales/messages.pot`` (with its
plural and context) and a digest of ``locales/dlt-templates.json``, recorded from the
catalogs as they are. A change that moves code and changes no text leaves both equal,
so no operator registers a DLT template again because of it. When a text is changed on
purpose, record the file again (``POUNDBOT_RECORD_TEXTS=1 make test PYTEST_ARGS=
tests/unit/test_texts_unchanged.py``) and say so in the changelog."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

ROOT = Path(__file__).parents[2]
POT = ROOT / "locales" / "messages.pot"
TEMPLATES = ROOT / "locales" / "dlt-templates.json"
RECORD = ROOT / "tests" / "fixtures" / "texts.json"


def _texts() -> dict[str, Any]:
    with POT.open("rb") as handle:
        catalog = read_po(handle)
    msgids = sorted(
        json.dumps([message.context, message.id], ensure_ascii=False)
        for message in catalog
        if message.id
    )
    return {
        "msgids": msgids,
        "dlt_templates_sha256": hashlib.sha256(TEMPLATES.read_bytes()).hexdigest(),
    }


def test_the_msgids_and_the_dlt_templates_are_those_recorded() -> None:
    now = _texts()
    if os.environ.get("POUNDBOT_RECORD_TEXTS"):
        RECORD.write_text(json.dumps(now, ensure_ascii=False, indent=1) + "\n", "utf-8")
    recorded = json.loads(RECORD.read_text("utf-8"))
    assert len(now["msgids"]) > 500
    gone = sorted(set(recorded["msgids"]) - set(now["msgids"]))
    new = sorted(set(now["msgids"]) - set(recorded["msgids"]))
    assert (gone, new) == ([], [])
    assert now["dlt_templates_sha256"] == recorded["dlt_templates_sha256"]
