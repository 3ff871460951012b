"""DLT (TRAI's Distributed Ledger Technology rules): every SMS to an Indian number names
the sender's registered entity and the registered content template it matches.

``DltStamp`` is what an SMS provider needs to send one message under DLT; which template a
message is, and whether its text matches, is decided before the provider is called.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DltStamp"]


@dataclass(frozen=True, slots=True)
class DltStamp:
    """The DLT identifiers of one outbound SMS: the principal entity's id and the id the
    DLT portal gave the template the text matches."""

    entity_id: str
    template_id: str
