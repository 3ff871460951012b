"""Errors of the application layer (the domain's own are in ``domain.errors``).

Each has a stable ``code`` the renderers translate, and may have a stable ``reason``
(the particular refusal of its kind: ``reason_required``, ``already_registered``, ...)
that a renderer translates in place of its code, as the domain's refusals have; none
carries user-facing text.
"""

from __future__ import annotations

__all__ = [
    "AppError",
    "BadInputError",
    "CaseChangedError",
    "ConfigChangedError",
    "ConfigRefusedError",
    "InviteInvalidError",
    "NoAccountError",
    "NoReceiptError",
    "NotAllowedError",
    "NotFailedError",
    "NotHolderError",
    "NothingChangedError",
    "PlanChangedError",
    "PurgedMessageError",
    "SheetRefusedError",
    "UnknownCaseError",
    "UnknownMessageError",
    "UnknownPoundError",
    "UnknownUserError",
    "VoidedCaseError",
]


class AppError(Exception):
    """Base of what a use case refuses for reasons outside the Act."""

    code = "app_error"

    def __init__(self, message: str = "", *, reason: str | None = None, **facts: object) -> None:
        super().__init__(message or self.code)
        #: Which refusal of its kind, a stable key (None: its code says all).
        self.reason = reason
        self.facts = facts


class NotAllowedError(AppError):
    """The caller's role may not do this here (another pound, another authority, ...)."""

    code = "not_allowed"


class NotHolderError(NotAllowedError):
    """The step is for an office the case's Act gives the power to, held by another
    officer of the authority (``office``: its value)."""

    code = "not_holder"


class UnknownCaseError(AppError):
    """No case has this number."""

    code = "unknown_case"


class UnknownPoundError(AppError):
    """No pound has this code."""

    code = "unknown_pound"


class UnknownUserError(AppError):
    """No such user."""

    code = "unknown_user"


class InviteInvalidError(AppError):
    """The invite code is unknown, used or expired."""

    code = "invite_invalid"


class BadInputError(AppError):
    """The message could not be understood (a bad count, a bad date, ...)."""

    code = "bad_input"


class CaseChangedError(AppError):
    """Another step on the case was recorded at the same moment: this one was not."""

    code = "case_changed"


class VoidedCaseError(AppError):
    """The case was voided as entered by mistake: nothing is due on it."""

    code = "voided_case"


class NoAccountError(AppError):
    """A case has no s.15(3) account: its sale is not settled."""

    code = "no_account"


class NoReceiptError(AppError):
    """A case has no s.15(4) receipt: its cattle were sold unclaimed, no owner took them."""

    code = "no_receipt"


class UnknownMessageError(AppError):
    """No message out has this number (the web desk's log)."""

    code = "unknown_message"


class NotFailedError(AppError):
    """Only a message that failed may be sent again (``status``: where it stands)."""

    code = "not_failed"


class PurgedMessageError(AppError):
    """The message's text and number were purged after the retention period: there is
    nothing left to send again."""

    code = "purged_message"


class ConfigChangedError(AppError):
    """The configuration in force is no longer the version a change was made on (another
    change came first): nothing was written; the change is to be made again on it."""

    code = "config_changed"


class NothingChangedError(AppError):
    """A change to the configuration that changes no value: no version was written."""

    code = "nothing_changed"


class ConfigRefusedError(AppError):
    """A change that would leave the configuration failing its checks (``faults``: the
    faults, as ``poundbot config check`` gives them): nothing was written."""

    code = "config_refused"


class SheetRefusedError(AppError):
    """A file of rows (a CSV of users, a DLT portal's export) that cannot be read as one
    (``why``: too big, not UTF-8, not CSV, a column missing, ...): nothing is changed."""

    code = "sheet_refused"


class PlanChangedError(AppError):
    """What a dry run showed no longer holds (the users, or the configuration, changed
    since): nothing was changed; the dry run is shown again."""

    code = "plan_changed"
