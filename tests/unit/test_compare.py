"""A secret compared with what a request brought: equal or not, whatever characters the
request holds (``hmac.compare_digest`` on two str refuses any outside ASCII)."""

from __future__ import annotations

from datetime import date

import pytest

from bot.support.compare import same_secret
from bot.support.links import notice_signature, verify_notice, verify_photo


@pytest.mark.parametrize(
    "given",
    ["é", "ééé", "abc\u00e9", "\udce9", "൧൨", "", "abd", "abc "],
    ids=[
        "e-acute",
        "three",
        "ascii-then-not",
        "lone-surrogate",
        "malayalam-digits",
        "empty",
        "another",
        "longer",
    ],
)
def test_anything_but_the_secret_is_not_the_secret(given: str) -> None:
    assert same_secret("abc", given) is False


def test_the_secret_is_the_secret_whatever_its_characters() -> None:
    assert same_secret("abc", "abc")
    assert same_secret("പൗണ്ട്", "പൗണ്ട്")


def test_a_signature_outside_ascii_is_a_wrong_signature() -> None:
    on = date(2026, 3, 10)
    assert verify_notice("s", "KNM-1", on, notice_signature("s", "KNM-1", on))
    assert not verify_notice("s", "KNM-1", on, "é" * 22)
    assert not verify_notice("s", "KNM-൧", on, "abc")
    assert not verify_photo("s", 1, "full", "é")
