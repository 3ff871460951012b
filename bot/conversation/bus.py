"""One order, one step: run it in a savepoint, and tell those who are told of its outcome.

Every channel's orders come here (through ``bot.conversation.reply``): the step of the
order (``bot.conversation.steps``) runs in a savepoint with the handlers that the
composition root registered for its outcome's type (``Deps.subscribers``: the owner's
and the officers' messages), so that what they queue is queued with the step or not at
all. A refusal (a ``DomainError`` or ``AppError``) rolls the step back; a trial always
does. Nothing here words an answer: that is ``bot.conversation.rendering``.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.conversation import orders as o
from bot.conversation.steps import READ_ONLY, STEPS, Ctx, Done
from bot.services.subscribers import Told
from bot.store.rows import savepoint
from bot.store.tx import LoadedCase
from bot.support.errors import AppError
from domain.accounts import Postings
from domain.errors import DomainError

__all__ = ["Ran", "run_step"]


@dataclass(frozen=True, slots=True)
class Ran:
    """What one order did: its outcome, or the refusal that undid it."""

    #: The outcome of the step (None if refused).
    outcome: object
    #: Why the step was refused; None if it was not.
    refusal: DomainError | AppError | None
    #: The case of the step as it is after it (as it was, if refused or a trial).
    loaded: LoadedCase | None
    #: What the subscribers queued for the owner that the answer speaks of.
    told: tuple[Told, ...]
    #: The ledger postings the step wrote, event by event (``domain.ledger``).
    postings: tuple[Postings, ...]
    #: The idempotency keys of the messages the step queued (the outbox).
    queued: tuple[str, ...]


async def run_step(ctx: Ctx, command: o.Order, *, trial: bool = False) -> Ran:
    """Run the step of ``command`` and its subscribers. ``trial``: run, then undo (nothing
    written, nothing queued), refused or not."""
    tx = ctx.tx
    step = STEPS[command.name]
    posted, queued = len(tx.posted), len(tx.queued)
    result: object = None
    told: tuple[Told, ...] = ()
    refusal: DomainError | AppError | None = None
    try:
        if command.name in READ_ONLY:
            result = await step(ctx, command)
        else:  # a refusal rolls back whatever the step had written; a trial, always
            async with savepoint(tx) as saved:
                result = await step(ctx, command)
                told = await _tell(ctx, result.outcome if isinstance(result, Done) else result)
                if trial:
                    await saved.rollback()
    except (DomainError, AppError) as exc:
        result, told, refusal = None, (), exc
    if refusal is not None or trial:  # rolled back: nothing was written nor queued
        del tx.posted[posted:], tx.queued[queued:]
    after = ctx.loaded
    outcome = result
    if isinstance(result, Done):
        outcome = result.outcome
        if not trial:  # a trial leaves the case as it was
            after = result.loaded
    return Ran(
        outcome,
        refusal,
        after,
        told,
        tuple(tx.posted[posted:]),
        tuple(tx.queued[queued:]),
    )


async def _tell(ctx: Ctx, outcome: object) -> tuple[Told, ...]:
    """Run the handlers registered for ``outcome``'s type, in order; what they told."""
    told = []
    for handler in ctx.deps.subscribers.of(outcome):
        said = await handler(ctx.tx, ctx.deps, outcome)
        if said is not None:
            told.append(said)
    return tuple(told)
