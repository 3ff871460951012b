"""s.2(1): the kinds of cattle are configured data, looked up by their code."""

from __future__ import annotations

import pytest

from domain.errors import UnknownKindError
from domain.kinds import DEFAULT_KINDS, Kind, Kinds


def test_s2_1_the_kinds_the_act_names_are_there_by_default() -> None:
    for code in ("cow", "ox", "bull", "buffalo", "goat", "sheep", "pig", "horse", "elephant"):
        assert DEFAULT_KINDS[code].code == code


def test_s2_1_a_kind_not_configured_is_refused_citing_the_definition() -> None:
    with pytest.raises(UnknownKindError) as refused:
        DEFAULT_KINDS["dog"]
    assert refused.value.provision == "s.2(1)"


def test_a_young_kind_names_its_adult() -> None:
    assert DEFAULT_KINDS["calf"].adult == "cow"


def test_a_kind_listed_twice_or_a_young_one_without_its_adult_is_refused() -> None:
    with pytest.raises(ValueError, match="twice"):
        Kinds([Kind("cow", "cow"), Kind("cow", "cow")])
    with pytest.raises(ValueError, match="not listed"):
        Kinds([Kind("calf", "calf", adult="cow")])
