"""Every database state poundbot's history has made, and what each needs to reach the head.

The line of migrations (``migrations/versions``) is one state a revision: ``0001`` to
the head. Before the line was one, branches made databases stamped with revision ids
the line no longer has (``h8_phones``, an earlier name of ``0005``), or with the id of a
revision that later went to other content (``0013`` once added the snapshots of cases;
it now adds ``media_fetches``). Each such state is a ``State`` of ``PAST``: the revision
it is stamped with, the schema it has (recorded in ``migrations/schemas/<name>.json``), the
revision of the line whose migrations it has all had (``base``), the later revisions
whose changes it has already (``has``), and what completes it (``repairs``).

``migrations/revisions.json`` lists every revision id used, with a digest of the schema
each gives: a revision id is used once; a change takes a new revision.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from alembic.operations import Operations
from alembic.script import ScriptDirectory

from bot.support.resources import data_dir

__all__ = [
    "PAST",
    "State",
    "states",
]

Repair = Callable[[Operations], None]


@dataclass(frozen=True)
class State:
    """A state a database can be in: stamped ``stamp``, with the schema recorded as
    ``schema``; it has had every migration of the line up to ``base`` and the changes of
    the later revisions ``has``; ``repairs`` run once the line is at their revision.
    ``about`` says what a past state is (a revision of the line has none)."""

    schema: str
    stamp: str
    base: str
    has: tuple[str, ...] = ()
    repairs: Mapping[str, Repair] = field(default_factory=lambda: MappingProxyType({}))
    about: str = ""

    @property
    def is_past(self) -> bool:
        """Not a revision of today's line (an earlier name, or an earlier content)."""
        return bool(self.about)

    def pending(self, revisions: list[str]) -> list[str]:
        """The revisions of the line (oldest first) an upgrade runs on this state."""
        after = revisions[revisions.index(self.base) + 1 :]
        return [r for r in after if r not in self.has]


def _drop_case_snapshots(op: Operations) -> None:
    """The snapshots of cases are a cache (a case is replayed when it has none)."""
    op.drop_column("cases", "snapshot")


def _web_list_indexes(op: Operations) -> None:
    """The indexes of the web desk's lists, which revision 0009 adds with its tables."""
    op.create_index("ix_cases_impounded", "cases", ["impounded_on", "id"], unique=False)
    op.create_index("ix_deadlines_open_due", "deadlines", ["status", "due_on", "pound_code", "who"])
    op.create_index("ix_deadlines_open_kind", "deadlines", ["status", "kind", "due_on"])


def _settle_refused_accounts(op: Operations) -> None:
    """What revision 0007 does to the data: its first version under the name
    ``h2_two_settlements`` changed the schema only (doing it again changes nothing)."""
    revision = ScriptDirectory(str(data_dir("migrations"))).get_revision("0007")
    assert revision is not None
    with Operations.context(op.migration_context):
        revision.module._unstrand_refused_accounts()


#: The states of databases made before the line was one, or under a reused id.
PAST: tuple[State, ...] = (
    State(
        "h2_two_settlements",
        "h2_two_settlements",
        base="0004",
        has=("0007",),
        repairs=MappingProxyType({"0007": _settle_refused_accounts}),
        about="two settlements of a case, made before 0005 and 0006; now 0007",
    ),
    State(
        "h6_sender_counts",
        "h6_sender_counts",
        base="0004",
        has=("0006",),
        about="answers counted per sender, made before 0005; now 0006",
    ),
    State("h8_phones", "h8_phones", base="0005", about="an earlier name of 0005"),
    State(
        "h10_web-first",
        "h10_web",
        base="0006",
        has=("0009",),
        repairs=MappingProxyType({"0009": _web_list_indexes}),
        about="the web desk before the indexes of its lists, made before 0007 and 0008; now 0009",
    ),
    State(
        "h10_web",
        "h10_web",
        base="0006",
        has=("0009",),
        about="the web desk, made before 0007 and 0008; now 0009",
    ),
    State("h14_whatsapp", "h14_whatsapp", base="0008", about="an earlier name of 0008"),
    State(
        "h15_photos",
        "h15_photos",
        base="0007",
        has=("0010",),
        about="photos of the cattle, made before 0008 and 0009; now 0010",
    ),
    State(
        "0012-case_snapshots",
        "0012",
        base="0011",
        repairs=MappingProxyType({"0011": _drop_case_snapshots}),
        about="the snapshots of cases, once numbered 0012, taken out again",
    ),
    State(
        "0013-case_snapshots",
        "0013",
        base="0012",
        repairs=MappingProxyType({"0012": _drop_case_snapshots}),
        about="the snapshots of cases, once numbered 0013, taken out again",
    ),
)


def states(revisions: list[str]) -> list[State]:
    """Every state a database may be in: one a revision of the line, and the past ones."""
    return [State(r, r, base=r) for r in revisions] + list(PAST)
