"""Who is asking: a registered user in a role, or a member of the public.

An administrator is of one of two kinds: a *state admin* (no authority of their own:
``authority`` None) administers every authority; an *authority admin* (``authority``
set) administers the pounds, users, cases, messages and tariffs of that authority only.
Every use case asks ``Caller.administers`` (or ``is_state_admin``), never the role and
the authority apart."""

from __future__ import annotations

from dataclasses import dataclass

from bot.support.offices import held_offices
from domain.profiles import Office

__all__ = ["ADMIN", "KEEPER", "OFFICER", "PUBLIC", "ROLES", "SYSTEM", "Caller"]

KEEPER = "keeper"
OFFICER = "officer"
ADMIN = "admin"
PUBLIC = "public"
#: The command line's caller: the operator's, state-wide.
SYSTEM = "system"
ROLES = (KEEPER, OFFICER, ADMIN)


@dataclass(frozen=True, slots=True)
class Caller:
    """The person behind a request, as the channel identified them."""

    role: str
    channel: str
    user_id: int | None = None
    pound: str | None = None
    authority: str | None = None
    phone: str | None = None
    telegram_id: int | None = None
    name: str = ""
    lang: str | None = None
    #: A member of the public: the language their number chose (``LANG``), when it was
    #: read with the caller: "" none chosen; None not read.
    number_lang: str | None = None
    #: The offices a registered user was declared to hold (``users.offices``).
    offices: tuple[Office, ...] = ()

    @property
    def is_admin(self) -> bool:
        """An administrator, of the state or of an authority."""
        return self.role == ADMIN

    @property
    def is_state_admin(self) -> bool:
        """An administrator of every authority (an admin without an authority of their
        own); the command line (``system``) is the operator's and state-wide too."""
        return (self.role == ADMIN and self.authority is None) or self.role == SYSTEM

    def administers(self, authority: str | None) -> bool:
        """Whether the caller administers ``authority`` (None: something of no authority,
        a state admin, a message about no case): a state admin every one, an authority
        admin their own; anyone else none."""
        if self.is_state_admin:
            return True
        return self.role == ADMIN and authority is not None and authority == self.authority

    def holds(self, office: Office) -> bool:
        """Whether the caller holds ``office`` (``bot.support.offices.held_offices``: an
        officer who holds none declared stands for the local authority)."""
        return office in held_offices(self.role, self.offices)

    @classmethod
    def public(
        cls,
        channel: str,
        phone: str | None = None,
        lang: str | None = None,
        *,
        number_lang: str | None = None,
    ) -> Caller:
        return cls(role=PUBLIC, channel=channel, phone=phone, lang=lang, number_lang=number_lang)

    @classmethod
    def system(cls) -> Caller:
        return cls(role=SYSTEM, channel=SYSTEM)
