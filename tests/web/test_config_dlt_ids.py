"""The DLT ids' page of the web desk: a state admin lists every SMS template the
configuration's languages need with its id or "missing", and sets each id one at a time
(digits only; empty removes it) and the entity's id; anyone else is refused; a form
refused comes back with why, nothing written. Over HTTP into the app."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from bot.services.config_edit import audit
from bot.services.config_versions import current, history
from bot.store.models import User
from bot.support.caller import ADMIN, Caller
from bot.support.dlt import registry
from tests.web.rig import Rig, csrf_of, rig

_BASED_ON = re.compile(r'name="based_on" value="(\d+)"')
ID = "1207161234567890123"


@pytest.fixture
async def desk(tmp_path: Path) -> AsyncIterator[Rig]:
    async with rig(tmp_path) as r:
        yield r


async def _as(r: Rig, user: User, path: str) -> httpx.Response:
    r.client.cookies.clear()
    assert (await r.sign_in(user)).status_code in (200, 303)
    return await r.client.get(path)


def _form(page: httpx.Response, **fields: str) -> dict[str, str]:
    based_on = _BASED_ON.search(page.text)
    assert based_on is not None
    return {"csrf": csrf_of(page.text), "based_on": based_on.group(1), **fields}


def _a_template(r: Rig) -> str:
    return next(iter(registry().only(r.app.config.sms_languages))).name


async def test_a_state_admin_sets_each_id_one_by_one(desk: Rig) -> None:
    r = desk
    admin = await r.user("admin", name="Suma")
    name = _a_template(r)
    needed = len(registry().only(r.app.config.sms_languages))
    page = await _as(r, admin, f"/web/config/dlt-ids?edit={name}")
    assert page.status_code == 200
    assert f"0 of {needed} SMS templates have an id" in page.text
    assert "DLT is off" in page.text
    assert f'value="{name}"' in page.text
    saved = await r.client.post(
        "/web/config/dlt-ids", data=_form(page, name=name, id=ID, reason="r")
    )
    assert saved.status_code == 303
    shown = await r.client.get(saved.headers["location"])
    assert "Saved: version 2 is in force." in shown.text
    assert f"1 of {needed} SMS templates" in shown.text
    assert r.app.config.dlt.template_ids[name] == ID
    row = await current(r.app.store)
    assert row is not None
    kind, _, lang = name.rpartition(".")
    assert f'{kind}.{lang} = "{ID}"' in row.text
    entity = await r.client.post(
        "/web/config/dlt-ids",
        data=_form(shown, name="entity_id", id="1201160000000000000", reason="r"),
    )
    assert entity.status_code == 303
    assert r.app.config.dlt.entity_id == "1201160000000000000"
    page = await r.client.get(f"/web/config/dlt-ids?edit={name}")
    removed = await r.client.post(
        "/web/config/dlt-ids", data=_form(page, name=name, id="", reason="r")
    )
    assert removed.status_code == 303
    assert name not in r.app.config.dlt.template_ids
    changes = await audit(r.app.store, Caller(role=ADMIN, channel="web"), None)
    assert [(c.entity, c.field, c.old, c.new) for c in changes] == [
        ("dlt", name, ID, None),
        ("dlt", "entity_id", None, "1201160000000000000"),
        ("dlt", name, None, ID),
    ]


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"id": "12O7"}, "digits only"),
        ({"id": "1" * 31}, "digits only"),
        ({"reason": " "}, "reason"),
        ({"name": "no-such.ml"}, "no such SMS template"),
        ({"based_on": "99"}, "changed since"),
    ],
    ids=["letter", "too-long", "no-reason", "no-template", "stale"],
)
async def test_a_form_refused_is_kept_with_why_and_nothing_written(
    desk: Rig, fields: dict[str, str], said: str
) -> None:
    r = desk
    admin = await r.user("admin", name="Suma")
    name = _a_template(r)
    page = await _as(r, admin, f"/web/config/dlt-ids?edit={name}")
    form = _form(page, name=name, id=ID, reason="r") | fields
    refused = await r.client.post("/web/config/dlt-ids", data=form)
    assert refused.status_code in (400, 409)
    assert said in refused.text
    assert len(await history(r.app.store)) == 1


async def test_anyone_but_a_state_admin_is_refused(desk: Rig) -> None:
    r = desk
    name = _a_template(r)
    for role, where in (
        ("admin", {"authority": "KNM-GP"}),
        ("officer", {"authority": "KNM-GP"}),
        ("keeper", {"pound": "KNM"}),
    ):
        user = await r.user(role, name=role, **where)
        assert (await _as(r, user, "/web/config/dlt-ids")).status_code == 403
        csrf = csrf_of((await r.client.get("/web/")).text)
        form = {"csrf": csrf, "based_on": "1", "name": name, "id": ID, "reason": "r"}
        assert (await r.client.post("/web/config/dlt-ids", data=form)).status_code == 403
    assert len(await history(r.app.store)) == 1
