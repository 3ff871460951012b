"""Names people read, per language in the configuration: the sample gives Malayalam (and
Kannada, Tamil) names; a plain string is still a name; a faulty table is found on its
line; a language the table leaves out reads the English."""

from __future__ import annotations

import pickle

import pytest

from bot.config import Config, ConfigError, parse_config, sample_config_path
from bot.config.names import Name, local

SAMPLE = sample_config_path().read_text(encoding="utf-8")
KNM_NAME = 'name = { en = "Kunnamangalam Grama Panchayat", ml = "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്" }'


@pytest.fixture(scope="module")
def sample() -> Config:
    return parse_config(SAMPLE, "sample_config.toml")


def edited(old: str, new: str) -> str:
    assert old in SAMPLE, old
    return SAMPLE.replace(old, new, 1)


def faults(text: str) -> list[tuple[int, str]]:
    with pytest.raises(ConfigError) as raised:
        parse_config(text)
    return [(f.line, f.message) for f in raised.value.faults]


def line_of(needle: str, text: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_the_sample_names_its_places_in_malayalam_and_the_minority_languages(
    sample: Config,
) -> None:
    knm, enm, vtv = (sample.authorities[c] for c in ("KNM-GP", "ENM-GP", "VTV-GP"))
    assert local(knm.name, "ml") == "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്"
    assert local(knm.name, "en") == "Kunnamangalam Grama Panchayat"
    assert local(knm.village, "ml") == "കുന്ദമംഗലം"
    assert local(knm.markets["Pathimangalam"], "ml") == "പതിമംഗലം ചന്ത"
    assert local(enm.name, "kn") == "ಎಣ್ಮಕಜೆ ಗ್ರಾಮ ಪಂಚಾಯತ್"
    assert local(vtv.market_place, "ta").startswith("கோவிலூர்")
    pound = sample.pounds["KNM"]
    assert local(pound.name, "ml") == "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത് കന്നുകാലി പൗണ്ട്"
    assert local(pound.address, "ml").startswith("കന്നുകാലി പൗണ്ട്")
    assert pound.phone
    assert local(pound.hours, "ml").startswith("തിങ്കൾ")


def test_a_name_is_its_english_form_wherever_a_name_is_not_rendered(sample: Config) -> None:
    name = sample.authorities["KNM-GP"].name
    assert name == "Kunnamangalam Grama Panchayat"
    assert hash(name) == hash("Kunnamangalam Grama Panchayat")
    assert f"{name}" == "Kunnamangalam Grama Panchayat"
    again = pickle.loads(pickle.dumps(name))
    assert isinstance(again, Name)
    assert local(again, "ml") == "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്"


def test_a_language_the_name_leaves_out_reads_the_english(sample: Config) -> None:
    assert local(sample.authorities["KNM-GP"].name, "ta") == "Kunnamangalam Grama Panchayat"
    assert local("Plain text", "ml") == "Plain text"


def test_a_plain_string_is_still_a_name() -> None:
    config = parse_config(edited(KNM_NAME, 'name = "Kunnamangalam Grama Panchayat"'))
    name = config.authorities["KNM-GP"].name
    assert local(name, "ml") == "Kunnamangalam Grama Panchayat"


def test_a_name_without_its_english_form_is_a_fault_on_its_line() -> None:
    text = edited(KNM_NAME, 'name = { ml = "കുന്ദമംഗലം ഗ്രാമപഞ്ചായത്ത്" }')
    found = faults(text)
    assert len(found) == 1
    line, message = found[0]
    assert line == line_of('name = { ml = "കുന്ദമംഗലം', text)
    assert "English form" in message
    assert "authority KNM-GP: name" in message


def test_a_name_in_an_unknown_language_is_a_fault_that_lists_the_languages() -> None:
    text = edited(KNM_NAME, 'name = { en = "Kunnamangalam", hi = "कुन्नमंगलम" }')
    ((line, message),) = faults(text)
    assert line == line_of('hi = "कुन्नमंगलम"', text)
    assert "'hi' is not one of" in message
    assert '"ml"' in message


@pytest.mark.parametrize("value", ['{ en = "Kunnamangalam", ml = "" }', "{ en = 1 }", "42"])
def test_an_empty_or_non_text_name_is_a_fault(value: str) -> None:
    ((_, message),) = faults(edited(KNM_NAME, f"name = {value}"))
    assert "authority KNM-GP: name" in message


def test_a_market_named_per_language_in_the_markets_table_is_checked_too() -> None:
    old = 'markets.Pathimangalam = { en = "Pathimangalam Chantha", ml = "പതിമംഗലം ചന്ത" }'
    text = edited(old, 'markets.Pathimangalam = { ml = "പതിമംഗലം ചന്ത" }')
    ((line, message),) = faults(text)
    assert line == line_of("markets.Pathimangalam = { ml", text)
    assert "Pathimangalam" in message
    assert "English form" in message
