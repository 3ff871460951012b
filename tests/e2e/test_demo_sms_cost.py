"""No reply of the demo costs more SMS or segments under DLT than the file says.

Every SMS the demo sends through an Indian provider goes out under DLT, each template
with an id (a configuration with every template of the registry approved). The SMS
of one delivery to one person are one reply (an answer sent in parts is several SMS);
each reply is labelled by the recipient's role and its order among that role's
replies, and counted in SMS and segments (``bot.support.sms_segments``).
``tests/fixtures/demo_sms_cost.json`` holds the counts; a reply may cost less, never
more, and no SMS may be held back by DLT (the demo fails on one: ``World``).
``POUNDBOT_RECORD_SMS_COST=1`` rewrites the file (only when the texts got shorter).
"""

from __future__ import annotations

import io
import json
import os
from collections import defaultdict
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

from bot.config import load_config
from bot.demo import world as demo_world
from bot.demo.story import run
from bot.support.dlt import DltPolicy, registry
from bot.support.sms_segments import segments
from tests.integration.test_dlt_import import ENTITY, malayalam_and_english

COST = Path(__file__).parent.parent / "fixtures" / "demo_sms_cost.json"
#: The runs: the demo's language and the provider its SMS go through.
RUNS = (("en", "exotel"), ("ml", "mseva"))

Cost = dict[str, dict[str, int]]  # label -> {"sms": n, "segments": n}


async def _costs(lang: str, provider: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cost:
    """Every reply of one demo run with its SMS and segments."""
    loaded = load_config(malayalam_and_english(tmp_path))
    ids = {t.name: f"1207{n:015d}" for n, t in enumerate(registry())}
    config = loaded._replace(dlt=DltPolicy(ENTITY, MappingProxyType(ids)))
    replies: list[tuple[str, list[str]]] = []
    seen: dict[int, int] = defaultdict(int)
    deliver = demo_world.World.deliver

    async def recording(self: Any) -> None:
        await deliver(self)
        sent = self.sms_messages() if self.provider != "twilio" else []
        fresh = sent[seen[id(self)] :]
        seen[id(self)] = len(sent)
        by_to: dict[str, list[str]] = {}
        for m in fresh:
            by_to.setdefault(m["To"], []).append(m["Body"])
        for to, bodies in by_to.items():
            replies.append((self.transcript.phones.get(to, "someone"), bodies))

    monkeypatch.setattr(demo_world.World, "deliver", recording)
    out = io.StringIO()
    assert await run(lang, out, sms=provider, config=config) == 0, out.getvalue()
    costs: Cost = {}
    order: dict[str, int] = defaultdict(int)
    for role, bodies in replies:
        order[role] += 1
        label = f"{lang} {provider} {role} #{order[role]}"
        costs[label] = {
            "sms": len(bodies),
            "segments": sum(segments(b).segment_count for b in bodies),
        }
    return costs


@pytest.mark.parametrize(("lang", "provider"), RUNS)
async def test_no_reply_of_the_demo_costs_more_than_before(
    lang: str, provider: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = await _costs(lang, provider, tmp_path, monkeypatch)
    assert found, "the demo sent no SMS"
    recorded: dict[str, Cost] = json.loads(COST.read_text(encoding="utf-8"))
    if os.environ.get("POUNDBOT_RECORD_SMS_COST") == "1":
        recorded[f"{lang} {provider}"] = found
        COST.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    before = recorded[f"{lang} {provider}"]
    assert set(found) == set(before), "the demo's replies changed"
    dearer = {
        label: (before[label], cost)
        for label, cost in found.items()
        if cost["sms"] > before[label]["sms"] or cost["segments"] > before[label]["segments"]
    }
    assert not dearer
