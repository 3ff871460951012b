"""The proviso to s.13(3): cattle that in the opinion of the Director are not likely to
fetch a fair price may be disposed of in such other manner as he thinks fit. The order
is the Director's (the words that name the office are configurable); it is recorded
with its reference, the manner and any proceeds, instead of a sale."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

from domain.errors import TransitionRefusedError
from domain.money import Money
from domain.provisions import cites

if TYPE_CHECKING:
    from domain.case import Case

__all__ = [
    "DEFAULT_PROVISO_DECIDERS",
    "dispose_otherwise",
    "require_director",
]


#: Who may decide another disposal (s.13(3) proviso: "in the opinion of the Director"):
#: the Director, named in English or by the words for the office in Malayalam, Tamil and
#: Kannada (a stem, so that inflected forms match). The configuration may replace them.
DEFAULT_PROVISO_DECIDERS: tuple[str, ...] = (
    "Director",
    "ഡയറക്ടർ",
    "ഡയറക്ടറ",
    "ഡയറക്‌ടർ",
    "இயக்குநர்",
    "இயக்குனர்",
    "ನಿರ್ದೇಶಕ",
)


@cites("s.13(3) proviso")
def require_director(ordered_by: str, deciders: tuple[str, ...]) -> None:
    """s.13(3) proviso: cattle "in the opinion of the Director, not likely to fetch a
    fair price" may be disposed of "in such other manner as he thinks fit": the order is
    the Director's. Whoever else is named as ordering it (a secretary, a keeper) is
    refused; ``deciders`` are the words that name the Director."""
    said = ordered_by.casefold()
    if not any(word.casefold() in said for word in deciders if word.strip()):
        raise TransitionRefusedError(
            f"{ordered_by!r} is not the Director: other disposal is on the Director's opinion",
            "s.13(3) proviso",
            reason="not_director",
            facts={"who": ordered_by[:60]},
        )


@cites("s.13(3) proviso")
def dispose_otherwise(
    case: Case,
    *,
    lot: int,
    count: int,
    manner: str,
    ordered_by: str,
    order_reference: str,
    proceeds: Money,
    on: date,
    today: date,
    deciders: tuple[str, ...] = DEFAULT_PROVISO_DECIDERS,
) -> Case:
    """The Director, of the opinion that the cattle will not fetch a fair price, ordered
    another disposal. The opinion is the Director's, recorded with the order; poundbot
    never judges a fair price itself. An order said to be anyone else's is refused."""
    # Here, not at the top: the configuration reads this module's defaults without the
    # events of a case (``poundbot config check`` starts fast).
    from domain.events import DisposedOtherwise

    event = DisposedOtherwise(
        on=on,
        lot=lot,
        count=count,
        manner=manner,
        ordered_by=ordered_by,
        order_reference=order_reference,
        proceeds=proceeds,
    )
    after = case.apply(event, today)  # the stage and the lot first
    require_director(ordered_by, deciders)
    return after
