"""The flash cookie that carries a step's answer to the case page (post/redirect/get):
signed, bound to the session and the case, and cut to fit a cookie."""

from __future__ import annotations

from bot.web.session import FLASH_MAX, Keys

KEYS = Keys(secret="s" * 32, secure=False)


def test_a_flash_is_read_back_by_its_session_for_its_case_only() -> None:
    value = KEYS.flash_value("session-a", "KNM-1", "കേസ് KNM-1: പണം അടച്ചു.")
    assert KEYS.flash_of("session-a", value, "KNM-1") == "കേസ് KNM-1: പണം അടച്ചു."
    assert KEYS.flash_of("session-b", value, "KNM-1") is None
    assert KEYS.flash_of("session-a", value, "KNM-2") is None
    assert Keys(secret="t" * 32, secure=False).flash_of("session-a", value, "KNM-1") is None


def test_a_forged_or_broken_flash_is_ignored() -> None:
    value = KEYS.flash_value("session-a", "KNM-1", "paid")
    payload, _, signature = value.rpartition(".")
    for cookie in (None, "", "no-dot", f"{payload}x.{signature}", f"{payload}.{signature}x"):
        assert KEYS.flash_of("session-a", cookie, "KNM-1") is None


def test_a_long_answer_is_cut_to_fit_a_cookie() -> None:
    long = "".join(f"വരി {n}: പശു {n * 7919 % 1000} " for n in range(3000))
    value = KEYS.flash_value("session-a", "KNM-1", long)
    assert len(value) <= FLASH_MAX
    shown = KEYS.flash_of("session-a", value, "KNM-1")
    assert shown is not None
    assert shown.endswith(" …")
    assert long.startswith(shown.removesuffix(" …"))
