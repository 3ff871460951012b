"""Every refusal of the administrator's use cases (``bot.services.admin``) has words of
its own on the page of users, in every language: each ``raise`` of the module is read
from its source, so a new refusal without words fails here instead of falling back to
the generic sentence."""

from __future__ import annotations

import ast
import inspect
from typing import NamedTuple

import pytest

from bot.i18n.catalogs import translator
from bot.i18n.chrome.users import change_refused, refusal_reasons
from bot.i18n.refusals.errors import app_error
from bot.services import admin
from bot.support import errors
from bot.support.errors import AppError
from bot.support.languages import LANGUAGES


class Raised(NamedTuple):
    """A ``raise`` of the module: the error's class, its reason, its line."""

    kind: str
    reason: str | None
    line: int


def _raised() -> list[Raised]:
    found = []
    for node in ast.walk(ast.parse(inspect.getsource(admin))):
        if not isinstance(node, ast.Raise):
            continue
        call = node.exc
        where = f"line {node.lineno}: raise an error of bot.support.errors, made there"
        assert isinstance(call, ast.Call), where
        assert isinstance(call.func, ast.Name), where
        reason = next((k.value for k in call.keywords if k.arg == "reason"), None)
        if reason is not None:
            where = f"line {node.lineno}: a reason is a stable key, written as it is"
            assert isinstance(reason, ast.Constant), where
            assert isinstance(reason.value, str), where
        found.append(Raised(call.func.id, reason.value if reason else None, node.lineno))
    return found


RAISED = _raised()
#: The errors whose code alone says why (no reason needed): each has its own words.
BY_CODE = {"NotAllowedError", "UnknownUserError", "InviteInvalidError"}


def _error(raised: Raised) -> AppError:
    kind = getattr(errors, raised.kind)
    assert issubclass(kind, AppError)
    made: AppError = kind("as raised", reason=raised.reason)
    return made


def test_the_walk_finds_the_refusals() -> None:
    assert len(RAISED) >= 20
    assert {r.reason for r in RAISED} >= {"reason_required", "nothing_to_change", None}


@pytest.mark.parametrize("raised", RAISED, ids=lambda r: f"line {r.line} {r.reason or r.kind}")
def test_each_refusal_has_words_of_its_own(raised: Raised) -> None:
    if raised.reason is None:
        assert raised.kind in BY_CODE, (
            f"line {raised.line}: a {raised.kind} without a reason: give it one "
            "(reason=...) and its words in bot/i18n/chrome/users.py"
        )
    else:
        assert raised.reason in refusal_reasons(), (
            f"line {raised.line}: no words for reason {raised.reason!r} in "
            "bot/i18n/chrome/users.py (_REFUSALS)"
        )
    exc = _error(raised)
    generic = app_error(AppError("none of its own"), translator("en"))
    english = change_refused(exc, translator("en"))
    assert english != generic
    for lang in LANGUAGES:
        if lang != "en":  # translated, not the English fallen through
            assert change_refused(exc, translator(lang)) != english, lang


def test_no_words_wait_for_a_refusal_that_is_not_raised() -> None:
    assert set(refusal_reasons()) == {r.reason for r in RAISED if r.reason is not None}
