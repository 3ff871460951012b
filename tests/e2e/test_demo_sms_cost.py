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

Cost = dict[str, dict[str, int]]  # label -> {"sms": n, "segments": n}
#: The replies of a run: the recipient's role and the bodies of one delivery to them.
Replies = list[tuple[str, list[str]]]


def record_replies(monkeypatch: pytest.MonkeyPatch) -> Replies:
    """The replies of the demo runs to come (``World.deliver`` recording them)."""
    replies: Replies = []
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
    return replies


def costs_of(run: str, replies: Replies) -> Cost:
    """Each reply labelled ``<run> <role> #<n>``, with its SMS and segments."""
    costs: Cost = {}
    order: dict[str, int] = defaultdict(int)
    for role, bodies in replies:
        order[role] += 1
        costs[f"{run} {role} #{order[role]}"] = {
            "sms": len(bodies),
            "segments": sum(segments(b).segment_count for b in bodies),
        }
    return costs


def assert_none_dearer(run: str, found: Cost) -> None:
    """No reply of ``run`` (``"<lang> <provider>"``) costs more than the file says."""
    assert found, "the demo sent no SMS"
    recorded: dict[str, Cost] = json.loads(COST.read_text(encoding="utf-8"))
    if os.environ.get("POUNDBOT_RECORD_SMS_COST") == "1":
        recorded[run] = found
        COST.write_text(json.dumps(recorded, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    before = recorded[run]
    assert set(found) == set(before), "the demo's replies changed"
    dearer = {
        label: (before[label], cost)
        for label, cost in found.items()
        if cost["sms"] > before[label]["sms"] or cost["segments"] > before[label]["segments"]
    }
    assert not dearer


async def test_no_reply_of_the_demo_in_malayalam_costs_more_than_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Malayalam through Mobile Seva, every template approved (English through Exotel:
    tests/e2e/test_dlt_cycle.py, on the ids a portal's export gave)."""
    loaded = load_config(malayalam_and_english(tmp_path))
    ids = {t.name: f"1207{n:015d}" for n, t in enumerate(registry())}
    config = loaded._replace(dlt=DltPolicy(ENTITY, MappingProxyType(ids)))
    replies = record_replies(monkeypatch)
    out = io.StringIO()
    assert await run("ml", out, sms="mseva", config=config) == 0, out.getvalue()
    assert_none_dearer("ml mseva", costs_of("ml mseva", replies))
