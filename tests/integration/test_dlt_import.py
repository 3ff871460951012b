"""DLT at a state's scale: the templates of the configured languages only, the portal's
export imported into ``[dlt.templates]``, ``config check`` failing while a message of a
configured language has no approved id."""

from __future__ import annotations

import csv
import io
import tomllib
from pathlib import Path

import pytest

from bot.config import load_config
from bot.config.dlt_ids import IdsRefused, merged_text
from bot.support.dlt import registry
from bot.support.dlt_import import match, normalise, read_export
from tests import dlt_exports
from tests.integration.test_cli import run
from tests.integration.test_config import edited

ENTITY = "1201160000000000000"


def malayalam_and_english(tmp_path: Path, *, ids: str = "") -> Path:
    """The sample, its pounds in Malayalam and English only, DLT on."""
    text = edited('# entity_id = "1201160000000000000"', f'entity_id = "{ENTITY}"')
    text = text.replace('languages = ["ml", "kn", "en"]', 'languages = ["ml", "en"]')
    text = text.replace('languages = ["ml", "ta", "en"]', 'languages = ["ml", "en"]')
    text = text.replace("[dlt.templates]\n", f"[dlt.templates]\n{ids}")
    path = tmp_path / "poundbot.toml"
    path.write_text(text, encoding="utf-8")
    assert load_config(path).sms_languages == ("ml", "en")
    return path


def _names(out: str) -> set[str]:
    return {row[0] for row in list(csv.reader(io.StringIO(out)))[1:]}


def test_dlt_templates_lists_english_and_the_configured_languages_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = malayalam_and_english(tmp_path)
    monkeypatch.setenv("POUNDBOT_CONFIG", str(path))
    status, out, err = run(capsys, "dlt", "templates", "--csv")
    assert (status, err) == (0, "")
    wanted = {t.name for t in registry() if t.lang in ("ml", "en")}
    assert _names(out) == wanted
    status, out, _ = run(capsys, "dlt", "templates", "--csv", "--all")
    assert _names(out) == {t.name for t in registry()}
    assert {n.rsplit(".", 1)[1] for n in _names(out)} == {"en", "ml", "ta", "kn"}


def test_config_check_fails_naming_the_messages_of_a_configured_language_without_an_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wanted = sorted(t.name for t in registry() if t.lang in ("ml", "en"))
    left = wanted[0]  # one Malayalam or English message without an id
    given = "".join(f'{n} = "{1207 + i}"\n' for i, n in enumerate(wanted[1:]))
    path = malayalam_and_english(tmp_path, ids=given)
    status, out, err = run(capsys, "config", "check", str(path))
    assert status == 1
    assert out == ""
    kind, lang = left.rsplit(".", 1)
    assert (
        f"{path}: DLT entity {ENTITY}: {len(wanted) - 1} of {len(wanted)} SMS templates "
        "(ml, en) have an approved id"
    ) in err
    assert "1 SMS templates have no approved id: these messages will not be sent" in err
    english = registry().get(f"{kind}.en")
    assert english is not None
    first_words = english.text.split("{#var#}")[0].split()[:2]
    (named,) = [line for line in err.splitlines() if f"({kind})" in line]
    assert f"in {lang} ({kind})" in named
    assert " ".join(first_words) in named  # the message as the operator knows it
    # Tamil and Kannada are not configured: their templates are not asked for.
    ids = given + f'{left} = "1299"\n'
    path = malayalam_and_english(tmp_path, ids=ids)
    status, out, err = run(capsys, "config", "check", str(path))
    assert status == 0
    assert "DLT" not in err  # (the sample's tariffs are warned of)
    assert f"{len(wanted)} of {len(wanted)} SMS templates (ml, en) have an approved id" in out


def test_config_check_names_at_most_a_few_messages_then_how_many_more(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = malayalam_and_english(tmp_path)
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 1
    kinds = {t.kind for t in registry().only(("ml", "en"))}  # the configured languages
    named = [line for line in err.splitlines() if line.startswith('  "')]
    assert len(named) == 8
    assert f"  and {len(kinds) - 8} more (poundbot dlt import --dry-run lists them)" in err


def test_normalising_forgives_what_a_portal_changes() -> None:
    ours = "Case {#var#}: it's due on {#var#}.  Send DUES."
    theirs = "Case {#VAR#}:  it\u2019s due on {# var #}.\u00a0Send DUES.\n"
    assert normalise(ours) == normalise(theirs)
    ml = "\u0d15\u0d4d\u0d37 {#var#}"
    assert normalise(ml) == normalise("\u0d15\u0d4d\u200d\u0d37 {{var}}")
    assert normalise("Case {#var#}") != normalise("Case {#var#}{#var#}")


@pytest.mark.parametrize("layout", ["standard_csv", "other_csv", "xlsx"])
def test_dlt_import_writes_the_approved_ids_and_reports_the_rest(
    layout: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = malayalam_and_english(tmp_path)
    before = path.read_text(encoding="utf-8")
    wanted = [t for t in registry() if t.lang in ("ml", "en")]
    suffix = ".xlsx" if layout == "xlsx" else ".csv"
    sheet = getattr(dlt_exports, layout)(tmp_path / f"approved{suffix}", wanted)
    columns = ["--columns", dlt_exports.OTHER_COLUMNS] if layout == "other_csv" else []
    rejected, pending = sorted(t.name for t in wanted)[-2:]

    status, out, err = run(
        capsys, "dlt", "import", str(sheet), *columns, "--config", str(path), "--dry-run"
    )
    assert (status, err) == (0, "")
    assert path.read_text(encoding="utf-8") == before  # a dry run writes nothing
    assert "dry run" in out

    status, out, err = run(capsys, "dlt", "import", str(sheet), *columns, "--config", str(path))
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert any(line.startswith("rejected  ") and rejected in line for line in lines)
    assert any(line.startswith("pending   ") and pending in line for line in lines)
    lacking = {line.split()[2].rstrip(":") for line in lines if line.startswith("no id")}
    assert {rejected, pending} <= lacking
    ids = tomllib.loads(path.read_text(encoding="utf-8"))["dlt"]["templates"]
    given = {f"{kind}.{lang}": tid for kind, by in ids.items() for lang, tid in by.items()}
    for n, (tid, name, *_rest) in enumerate(dlt_exports.rows(wanted)):
        if name in (rejected, pending):
            assert name not in given or name in lacking
        else:
            assert given[name] == tid, (n, name)
    # The rest of the file is as it was, comments and all.
    after = path.read_text(encoding="utf-8")
    head = before.split("[dlt.templates]")[0]
    assert after.startswith(head)
    assert after.split("[policy]")[1] == before.split("[policy]")[1]
    config = load_config(path)
    taken = set(config.dlt.template_ids)
    assert taken >= {t.name for t in wanted} - {rejected, pending}
    # Another language's template with the very same text takes its id too (the
    # operators check the text).
    texts = {t.text for t in wanted}
    assert all(registry().get(n).text in texts for n in taken)  # type: ignore[union-attr]
    # config check names exactly the two still without an approved id
    status, _, err = run(capsys, "config", "check", str(path))
    assert status == 1
    assert "2 SMS templates have no approved id" in err


def test_two_templates_with_one_text_are_told_apart_by_the_name_poundbot_gave() -> None:
    from bot.support.dlt import Registry, Template
    from bot.support.dlt_import import Row

    same = "Case {#var#} is closed."
    reg = Registry(
        (
            Template("closed-a", "en", "service-implicit", same, ("case",)),
            Template("closed-b", "en", "service-implicit", same, ("case",)),
        )
    )
    rows = [
        Row(2, "111", "closed-b.en", same, "Service Implicit", "Approved"),
        Row(3, "222", "closed-a.en", same, "Service Implicit", "Approved"),
    ]
    assert match(rows, reg).ids == {"closed-a.en": "222", "closed-b.en": "111"}
    # Named by neither: the operators check the text, so both take its id.
    found = match([Row(2, "333", "my name", same, "", "Approved")], reg)
    assert found.ids == {"closed-a.en": "333", "closed-b.en": "333"}
    # Not approved, or a text none of poundbot's: nothing taken.
    found = match(
        [
            Row(2, "4", "x", same, "", "Rejected"),
            Row(3, "5", "y", same, "", "Under review"),
            Row(4, "6", "closed-a.en", "Case {#var#} is open.", "", "Approved"),
        ],
        reg,
    )
    assert found.ids == {}
    assert [r.line for r in found.rejected] == [2]
    assert [r.line for r in found.pending] == [3]
    assert found.unmatched[0][1] == "its text differs from poundbot's closed-a.en"


def test_a_sheet_without_the_columns_is_refused_saying_what_to_give(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = malayalam_and_english(tmp_path)
    sheet = tmp_path / "other.csv"
    dlt_exports.other_csv(sheet, list(registry())[:3])
    status, out, err = run(capsys, "dlt", "import", str(sheet), "--config", str(path))
    assert (status, out) == (1, "")
    assert "--columns" in err
    assert "Traceback" not in err
    bad = run(capsys, "dlt", "import", str(sheet), "--columns", "colour=Red", "--config", str(path))
    assert bad[0] == 1
    assert "FIELD=HEADING" in bad[2]
    # No configuration named: the sample shipped with poundbot is not written to.
    monkeypatch.delenv("POUNDBOT_CONFIG", raising=False)
    columns = ["--columns", dlt_exports.OTHER_COLUMNS]
    status, _, err = run(capsys, "dlt", "import", str(sheet), *columns)
    assert status == 1
    assert "is the sample shipped with poundbot" in err


def test_the_ids_table_is_rewritten_and_nothing_else() -> None:
    text = (
        '# top\n[dlt]\nentity_id = "12"  # the entity\n\n[dlt.templates]\n'
        '# a comment kept\nold-kind.ml = "1"\n\n[policy]\nx = 1\n'
    )
    new = merged_text(text, {"new-kind.en": "2", "old-kind.ml": "3"})
    assert new == (
        '# top\n[dlt]\nentity_id = "12"  # the entity\n\n[dlt.templates]\n'
        '# a comment kept\nnew-kind.en = "2"\nold-kind.ml = "3"\n\n[policy]\nx = 1\n'
    )
    # No table yet: made at the end of [dlt].
    made = merged_text('[dlt]\nentity_id = "12"\n\n[policy]\nx = 1\n', {"k.en": "2"})
    assert tomllib.loads(made) == {
        "dlt": {"entity_id": "12", "templates": {"k": {"en": "2"}}},
        "policy": {"x": 1},
    }
    with pytest.raises(IdsRefused, match="move them into"):
        merged_text('[dlt.templates.k]\nml = "1"\n', {"k.en": "2"})


def test_read_export_reads_the_title_row_away_and_keeps_long_ids(tmp_path: Path) -> None:
    wanted = [t for t in registry() if t.lang == "ml"][:5]
    rows = read_export(dlt_exports.standard_csv(tmp_path / "a.csv", wanted))
    assert [r.line for r in rows] == [3, 4, 5, 6, 7]
    assert rows[0].template_id == dlt_exports.template_id(0)
    assert [r.state for r in rows][-2:] == ["rejected", "pending"]
    book = read_export(dlt_exports.xlsx(tmp_path / "a.xlsx", wanted))
    assert [r.template_id for r in book] == [r.template_id for r in rows]


def _env(monkeypatch: pytest.MonkeyPatch, provider: str, api_url: str) -> None:
    from tests.e2e import india_harness as h

    values = {
        "POUNDBOT_SMS_PROVIDER": provider,
        "POUNDBOT_WEBHOOK_SECRET": h.SECRET,
        "POUNDBOT_PUBLIC_URL": h.PUBLIC_URL,
        "EXOTEL_API_KEY": h.EXOTEL_KEY,
        "EXOTEL_API_TOKEN": h.EXOTEL_TOKEN,
        "EXOTEL_ACCOUNT_SID": h.EXOTEL_SID,
        "EXOTEL_SUBDOMAIN": "api.in.exotel.com",
        "EXOTEL_FROM": h.EXOPHONE,
        "MSEVA_USERNAME": h.MSEVA_USER,
        "MSEVA_PASSWORD": h.MSEVA_PASSWORD,
        "MSEVA_SENDER_ID": h.MSEVA_SENDER,
        "MSEVA_SECURE_KEY": h.MSEVA_KEY,
        "MSEVA_KEYWORD": h.KEYWORD,
    }
    values["EXOTEL_API_URL" if provider == "exotel" else "MSEVA_API_URL"] = api_url
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("DLT_ENTITY_ID", raising=False)
    monkeypatch.delenv("DLT_TEMPLATE_ID", raising=False)


@pytest.mark.parametrize("provider", ["exotel", "mseva"])
async def test_dlt_test_send_sends_one_template_with_its_ids_to_the_operators_phone(
    provider: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio
    import html

    from bot.entry.cli import main
    from bot.fakes.exotel_api import FakeExotel
    from bot.fakes.loopback import serve
    from bot.fakes.mseva_api import FakeMseva
    from tests.e2e import india_harness as h

    template = next(t for t in registry() if t.lang == "ml" and t.slots and t.unicode)
    path = malayalam_and_english(tmp_path, ids=f'{template.name} = "1207160000000099999"\n')
    exotel = FakeExotel((h.EXOTEL_SID, h.EXOTEL_KEY, h.EXOTEL_TOKEN))
    mseva = FakeMseva(h.MSEVA_USER, h.MSEVA_PASSWORD, h.MSEVA_KEY)
    fake = exotel if provider == "exotel" else mseva
    async with serve(fake.app()) as url:
        api = url if provider == "exotel" else f"{url}/esms/sendsmsrequestDLT"
        _env(monkeypatch, provider, api)
        argv = ["dlt", "test-send", template.name, "--to", "9847012345", "--config", str(path)]
        status = await asyncio.to_thread(main, argv)
        out, err = capsys.readouterr()
        assert (status, err) == (0, ""), err
        assert out.startswith(f"sent {template.name} to +919847012345 through {provider}")
        (sent,) = fake.messages
        if provider == "exotel":
            assert sent["DltTemplateId"] == "1207160000000099999"
            assert sent["DltEntityId"] == ENTITY
            text = sent["Body"]
        else:
            assert sent["templateid"] == "1207160000000099999"
            text = html.unescape(sent["content"])
        assert template.problem(text, 30) is None  # the template, filled with samples
        # A template without an approved id is not sent: the operators would drop it.
        other = next(t for t in registry() if t.lang == "ml" and t.name != template.name)
        argv[2] = other.name
        status = await asyncio.to_thread(main, argv)
        _, err = capsys.readouterr()
        assert status == 1
        assert f"no DLT template id configured for {other.name}" in err
        assert len(fake.messages) == 1
