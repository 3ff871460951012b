"""Text from outside is stored without control characters or lone surrogates."""

from __future__ import annotations

import pytest

from bot.support.clean import clean_data, clean_text


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("SEIZE 2 cow\x00", "SEIZE 2 cow"),
        ("SEI\x00ZE", "SEIZE"),
        ("a\x0bb\x0cc\x1fd", "a b c d"),
        ("bell\x07 esc\x1b del\x7f c1\x85\x9b", "bell esc del c1 "),
        ("line\nnext\r\ntab\tend", "line\nnext\r\ntab\tend"),
        ("കുടിശ്ശിക KNM-1 ₹500", "കുടിശ്ശിക KNM-1 ₹500"),
        ("lone \ud800 surrogate", "lone \ufffd surrogate"),
    ],
)
def test_clean_text(given: str, kept: str) -> None:
    assert clean_text(given) == kept
    kept.encode("utf-8")


def test_clean_data_cleans_every_string_keys_too_and_leaves_the_rest() -> None:
    data = {"update_id": 1, "a\x00": ["x\x00", {"t": "y\x07"}, 2.5, None, True]}
    assert clean_data(data) == {"update_id": 1, "a": ["x", {"t": "y"}, 2.5, None, True]}
