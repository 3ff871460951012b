"""Who is asking: a registered user in a role, or a member of the public."""

from __future__ import annotations

from dataclasses import dataclass

from bot.support.offices import held_offices
from domain.profiles import Office

__all__ = ["ADMIN", "KEEPER", "OFFICER", "PUBLIC", "ROLES", "Caller"]

KEEPER = "keeper"
OFFICER = "officer"
ADMIN = "admin"
PUBLIC = "public"
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
        return cls(role="system", channel="system")
