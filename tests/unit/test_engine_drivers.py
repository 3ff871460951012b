"""A database URL names its driver; one that is not installed is refused with what to do."""

from __future__ import annotations

import importlib.util

import pytest

from bot.store.engine import make_engine


def test_a_bare_postgresql_url_is_refused() -> None:
    with pytest.raises(ValueError, match="explicitly"):
        make_engine("postgresql://poundbot@db.example/poundbot")


@pytest.mark.skipif(
    importlib.util.find_spec("psycopg") is not None, reason="psycopg is installed here"
)
def test_psycopg_without_its_driver_says_how_to_install_it() -> None:
    with pytest.raises(ValueError, match=r"install psycopg\[binary\] into poundbot's environment"):
        make_engine("postgresql+psycopg://poundbot@db.example/poundbot")


def test_asyncpg_is_the_driver_installed_with_poundbot() -> None:
    engine = make_engine("postgresql+asyncpg://poundbot@db.example/poundbot")
    assert engine.dialect.driver == "asyncpg"
