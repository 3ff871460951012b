"""The SMS segment counter against known cases (GSM 03.38 and UCS-2 limits)."""

from __future__ import annotations

import pytest

from bot.support.sms_segments import GSM7_EXTENSION, Segments, segments

MALAYALAM_LETTER = "ക"  # one UTF-16 unit
COW_EMOJI = "🐄"  # outside the BMP: a surrogate pair, two UTF-16 units


def test_an_empty_text_costs_no_segment() -> None:
    assert segments("") == Segments("GSM-7", 0, 0)


@pytest.mark.parametrize(
    ("length", "count"),
    [(1, 1), (160, 1), (161, 2), (153 * 2, 2), (153 * 2 + 1, 3), (153 * 3, 3)],
    ids=["one", "160 fits one", "161 splits", "153x2 fits two", "307 needs three", "153x3"],
)
def test_plain_ascii_is_gsm7_with_160_single_and_153_per_part(length: int, count: int) -> None:
    assert segments("a" * length) == Segments("GSM-7", length, count)


@pytest.mark.parametrize("char", sorted(GSM7_EXTENSION), ids=repr)
def test_each_extension_character_costs_two_units(char: str) -> None:
    assert segments(char) == Segments("GSM-7", 2, 1)
    assert segments("a" + char) == Segments("GSM-7", 3, 1)


def test_eighty_euro_signs_fill_one_message_and_eighty_one_need_two() -> None:
    assert segments("€" * 80) == Segments("GSM-7", 160, 1)
    assert segments("€" * 81) == Segments("GSM-7", 162, 2)


def test_an_escape_pair_is_never_split_across_segments() -> None:
    # 152 + 2 + 152 = 306 units would divide into two segments of 153, but the euro
    # sign cannot straddle the boundary: it moves whole into the second segment.
    assert segments("a" * 152 + "€" + "a" * 152) == Segments("GSM-7", 306, 3)
    assert segments("a" * 151 + "€" + "a" * 153) == Segments("GSM-7", 306, 2)


def test_the_basic_table_keeps_its_accented_and_greek_letters_in_gsm7() -> None:
    text = "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ¤¡ÄÖÑÜ§¿äöñüà"
    assert segments(text).encoding == "GSM-7"
    assert segments(text).units == len(text)


def test_the_rupee_sign_forces_ucs2_and_rs_does_not() -> None:
    assert segments("Rs 150") == Segments("GSM-7", 6, 1)
    assert segments("₹150") == Segments("UCS-2", 4, 1)


def test_a_typographic_quote_forces_ucs2() -> None:
    assert segments("owner’s cattle").encoding == "UCS-2"


@pytest.mark.parametrize(
    ("length", "count"),
    [(70, 1), (71, 2), (67 * 2, 2), (67 * 2 + 1, 3)],
    ids=["70 fits one", "71 splits", "67x2 fits two", "135 needs three"],
)
def test_malayalam_is_ucs2_with_70_single_and_67_per_part(length: int, count: int) -> None:
    assert segments(MALAYALAM_LETTER * length) == Segments("UCS-2", length, count)


def test_every_vowel_sign_and_virama_is_a_unit() -> None:
    # "കന്നുകാലി" (cattle): 9 code points, each one UTF-16 unit.
    assert segments("കന്നുകാലി") == Segments("UCS-2", 9, 1)


def test_an_emoji_counts_two_utf16_units() -> None:
    assert segments(COW_EMOJI) == Segments("UCS-2", 2, 1)
    assert segments("a" * 68 + COW_EMOJI) == Segments("UCS-2", 70, 1)
    assert segments("a" * 69 + COW_EMOJI) == Segments("UCS-2", 71, 2)


def test_a_surrogate_pair_is_never_split_across_segments() -> None:
    text = MALAYALAM_LETTER * 66 + COW_EMOJI + MALAYALAM_LETTER * 66
    assert segments(text) == Segments("UCS-2", 134, 3)
    text = MALAYALAM_LETTER * 65 + COW_EMOJI + MALAYALAM_LETTER * 67
    assert segments(text) == Segments("UCS-2", 134, 2)


def test_the_result_unpacks_as_encoding_units_and_segment_count() -> None:
    encoding, units, count = segments("hello")
    assert (encoding, units, count) == ("GSM-7", 5, 1)
