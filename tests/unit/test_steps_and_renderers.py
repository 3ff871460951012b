"""Every order a channel can send has its step (``bot.conversation.steps``) and the
wording of its outcome (``bot.conversation.rendering``): the two tables name the same
orders, so no command parsed reaches a step without words for its answer."""

from __future__ import annotations

from bot.conversation.orders import ORDERS
from bot.conversation.rendering import RENDERERS
from bot.conversation.steps import READ_ONLY, STEPS


def test_every_order_has_a_step_and_the_wording_of_its_outcome() -> None:
    names = set(ORDERS)
    assert set(STEPS) == names
    assert set(RENDERERS) == names


def test_the_steps_that_write_nothing_are_steps() -> None:
    assert READ_ONLY.issubset(STEPS)
