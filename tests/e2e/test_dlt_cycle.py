"""The whole DLT cycle, as a state's IT cell runs it: the templates of the configured
languages printed for the portal's bulk upload → the portal's export of them with their
ids (CSV or XLSX, with a rejected and a pending row among them) → ``dlt import`` →
``config check`` green → the demo's every SMS under DLT carries the id of the template it
matches (through the Exotel and Mobile Seva fakes). The same runs are the demo's through
an Indian provider: the whole story, the owner's SMS and their push answers, and (through
Exotel) no reply dearer in SMS or segments than tests/fixtures/demo_sms_cost.json says."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from bot.config import load_config
from bot.demo.story import run
from bot.support.dlt import Registry, Template, registry
from tests import dlt_exports
from tests.e2e.test_demo import assert_the_whole_story
from tests.e2e.test_demo_sms_cost import assert_none_dearer, costs_of, record_replies
from tests.integration.test_cli import run as command
from tests.integration.test_dlt_import import ENTITY, malayalam_and_english


def _uploaded(out: str) -> list[Template]:
    """The templates of the bulk-upload sheet, as the portal took them."""
    rows = list(csv.DictReader(io.StringIO(out)))
    found = [registry().get(row["Template Name"]) for row in rows]
    assert all(
        t is not None and t.text == row["Template Content"]
        for t, row in zip(found, rows, strict=True)
    )
    return [t for t in found if t is not None]


def _portal_export(path: Path, layout: str, uploaded: list[Template]) -> Path:
    """Every uploaded template approved; and, as a portal lists them, an earlier
    submission of one that was rejected and another still pending."""
    first = uploaded[0]
    extra = [
        Template("earlier-try", first.lang, first.category, first.text + " Thank you.", ()),
        Template("second-try", first.lang, first.category, "Pending {#var#}.", ()),
    ]
    # ``dlt_exports.rows`` makes the last two of the sorted rows rejected and pending:
    # name the extras to sort last.
    extra = [t._replace(kind="zz-" + t.kind) for t in extra]
    return getattr(dlt_exports, layout)(path, [*uploaded, *extra])


@pytest.mark.parametrize(("layout", "provider"), [("xlsx", "mseva"), ("standard_csv", "exotel")])
async def test_templates_to_export_to_import_to_check_to_every_sms_with_its_id(
    layout: str,
    provider: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    config = malayalam_and_english(tmp_path)
    monkeypatch.setenv("POUNDBOT_CONFIG", str(config))
    monkeypatch.delenv("POUNDBOT_SMS_PROVIDER", raising=False)
    status, out, err = command(capsys, "dlt", "templates", "--csv")
    assert (status, err) == (0, "")
    uploaded = _uploaded(out)
    assert {t.lang for t in uploaded} == {"ml", "en"}

    suffix = ".xlsx" if layout == "xlsx" else ".csv"
    export = _portal_export(tmp_path / f"approved{suffix}", layout, uploaded)
    status, out, err = command(capsys, "dlt", "import", str(export))
    assert (status, err) == (0, ""), err
    assert "rejected  line" in out
    assert "pending   line" in out
    assert " 0 of poundbot's templates (ml, en) still lack an approved id" in out

    status, out, err = command(capsys, "config", "check", str(config))
    assert status == 0, err
    assert "DLT" not in err
    assert f"DLT entity {ENTITY}: {len(uploaded)} of {len(uploaded)} SMS templates" in out

    loaded = load_config(config)
    assert loaded.dlt.enforced
    ids = set(loaded.dlt.template_ids.values())
    assert len(ids) > 100
    transcript = io.StringIO()
    replies = record_replies(monkeypatch)
    # The demo fails at the first SMS that goes without the id of the template its text
    # matches, or that DLT holds back (``World.check_stamps``, ``World._none_refused``).
    assert await run("en", transcript, sms=provider, config=loaded) == 0, transcript.getvalue()
    output = transcript.getvalue()
    assert "✗" not in output
    assert_the_whole_story(output)
    asked = "KL POUND DUES KNM-1" if provider == "mseva" else "DUES KNM-1"
    assert f"OWNER → poundbot: {asked}" in output
    # The answer is a push SMS of its own.
    assert "poundbot → OWNER (SMS): Case KNM-1: Rs 991 due on 2 Mar 2026" in output
    if provider == "exotel":
        assert_none_dearer("en exotel", costs_of("en exotel", replies))


def test_the_registry_of_the_configured_languages_is_what_is_uploaded() -> None:
    everything = registry()
    only = everything.only(("en", "ml"))
    assert isinstance(only, Registry)
    assert {t.lang for t in only} == {"en", "ml"}
    assert len(only) == sum(1 for t in everything if t.lang in ("en", "ml"))
