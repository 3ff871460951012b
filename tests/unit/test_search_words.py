"""The desk's search box read into words as a reader sees them: a Malayalam word whole
with its vowel signs and viramas, a letter with its sign counted as one, and a name kept
in one spelling (old-style chillus atomic, joiners and extra spaces dropped)."""

from __future__ import annotations

import pytest

from bot.services.desk import sought
from bot.support.spelling import searchable_name, words_of


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Kunhammed P.", ["Kunhammed", "P"]),
        ("കുഞ്ഞമ്മദ് പി", ["കുഞ്ഞമ്മദ്", "പി"]),
        ("ബഷീര്\u200d, കുന്ദമംഗലം", ["ബഷീര്\u200d", "കുന്ദമംഗലം"]),
        ("  --  ", []),
    ],
    ids=["latin", "malayalam-signs-kept", "joiner-kept-in-the-word", "punctuation"],
)
def test_words_are_split_as_a_reader_sees_them(text: str, words: list[str]) -> None:
    assert words_of(text) == words


def test_the_search_box_keeps_words_of_two_letters_or_more_in_one_spelling() -> None:
    assert sought("Kunhammed P").words == ("kunhammed",)
    assert sought("കുഞ്ഞമ്മദ് പി").words == ("കുഞ്ഞമ്മദ്",)
    assert sought("ബഷീര്\u200d").words == ("ബഷീർ",)
    assert sought("പി").short


def test_a_name_is_kept_as_it_reads_in_one_spelling() -> None:
    assert searchable_name("  Kunhammed   P. ") == "Kunhammed P."
    assert searchable_name("ബഷീര്\u200d") == "ബഷീർ"
    assert searchable_name("   ") is None
