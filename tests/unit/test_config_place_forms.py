"""The forms of the configuration's places and kinds as values (``bot.web.config_place_forms``)
and the CSV of pounds (``bot.web.config_import``): a form read from the sample and sent
back unchanged changes nothing; a text per language written as dotted keys loses two of
its languages at once; a CSV's lines are said one by one; the audit's CSV row."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.adapters.export import CONFIG_AUDIT_HEADER, config_audit_record
from bot.config import parse_config, sample_config_path
from bot.config.edit import dump, load, set_fields, table_of
from bot.store.config_versions import ChangeRow
from bot.web import config_import
from bot.web.config_place_forms import (
    authority_form,
    edit_authority,
    edit_kind,
    edit_pound,
    kind_form,
    pound_form,
)

SAMPLE = sample_config_path().read_text(encoding="utf-8")


def test_a_form_sent_back_as_it_was_read_changes_nothing() -> None:
    document = load(SAMPLE)
    for code in ("KNM-GP", "ENM-GP", "VTV-GP"):
        assert edit_authority(document, authority_form(document, code), code, new=False) == []
    for code in ("KNM", "PTM", "ENM", "VTV"):
        assert edit_pound(document, pound_form(document, code), code, new=False) == []
    for code in ("cow", "calf", "elephant"):
        assert edit_kind(document, kind_form(document, code), code, new=False) == []
    assert dump(document) == SAMPLE


def test_two_languages_of_dotted_keys_removed_at_once() -> None:
    document = load(SAMPLE)
    table = table_of(document, "pounds", "ENM")
    assert table is not None
    english = table["address"]["en"]
    done = set_fields(
        table, {"address": {"en": english}}, authority="ENM-GP", entity="pound", key="ENM"
    )
    assert [change.field for change in done] == ["address"]
    again = load(dump(document))
    assert (table_of(again, "pounds", "ENM") or {}).get("address") == {"en": english}
    parse_config(dump(document), "test")


def test_markets_and_words_changed_and_removed_one_by_one() -> None:
    document = load(SAMPLE)
    form = authority_form(document, "KNM-GP")
    form["market.village.0"] = ""  # Pathimangalam out
    form["market.1.ml"] = "ചാത്തമംഗലം ചന്ത"
    form |= {"market.village.2": "Peruvayal", "market.2.en": "Peruvayal Market"}
    done = edit_authority(document, form, "KNM-GP", new=False)
    assert {change.field for change in done} == {
        "markets.Pathimangalam",
        "markets.Chathamangalam",
        "markets.Peruvayal",
    }
    config = parse_config(dump(document), "test")
    assert set(config.authorities["KNM-GP"].markets) == {"Chathamangalam", "Peruvayal"}
    kind = kind_form(document, "cow")
    kind |= {"words.ta": "", "words.kn": "", "words.ml": "പശു\nപൈക്കൾ"}
    done = edit_kind(document, kind, "cow", new=False)
    assert [change.field for change in done] == ["words.ml", "words.ta", "words.kn"]
    assert parse_config(dump(document), "test").kind_words["ml"]["പൈക്കൾ"] == "cow"


def test_each_line_of_a_csv_of_pounds_is_said() -> None:
    document = load(SAMPLE)
    text = (
        "code,authority,name_en,address_en,phone,languages\n"
        "KVR,KNM-GP,Karanthur,Karanthur,,ml en\n"
        "kvr,KNM-GP,Again,Again,,ml\n"
        "PTM,,,,0495 1,\n"
        "KNM,,,,0495 280 0000,\n"
        "ENM,KNM-GP,,,,\n"
        "VTV,,,,,ml ml\n"
        "NEW,,New,,,\n"
    )
    found = config_import.plan(document, text)
    said = [(line.number, line.code, line.status, line.why) for line in found.lines]
    assert said == [
        (2, "KVR", "added", ""),
        (3, "KVR", "refused", "twice"),
        (4, "PTM", "changed", ""),
        (5, "KNM", "unchanged", ""),
        (6, "ENM", "refused", "moved"),
        (7, "VTV", "refused", "languages"),
        (8, "NEW", "refused", "missing"),
    ]
    config_import.apply(document, found)
    config = parse_config(dump(document), "test")
    assert config.pounds["KVR"].languages == ("ml", "en")
    assert config.pounds["PTM"].phone == "0495 1"


def test_a_csv_that_is_no_csv_of_pounds_is_refused() -> None:
    document = load(SAMPLE)
    for text, why in (("", "empty"), ("name,colour\nx,y\n", "header"), ("name_en\nx\n", "header")):
        with pytest.raises(config_import.BadFile) as bad:
            config_import.plan(document, text)
        assert bad.value.why == why


def test_the_audit_of_the_configuration_as_a_csv_row() -> None:
    row = ChangeRow(
        7,
        datetime(2026, 3, 1, 4, 30),  # SQLite's: naive, UTC
        "Suma",
        "new line",
        "KNM-GP",
        "pound",
        "KNM",
        "phone",
        "0495 280 0000",
        None,
    )
    record = config_audit_record(row)
    assert dict(zip(CONFIG_AUDIT_HEADER, record, strict=True)) == {
        "at": "2026-03-01T10:00:00+05:30",
        "version": "7",
        "authority": "KNM-GP",
        "by": "Suma",
        "entity": "pound",
        "key": "KNM",
        "field": "phone",
        "old": "0495 280 0000",
        "new": "",
        "reason": "new line",
    }
    aware = row._replace(at=datetime(2026, 3, 1, 4, 30, tzinfo=UTC))
    assert config_audit_record(aware)[0] == "2026-03-01T10:00:00+05:30"
