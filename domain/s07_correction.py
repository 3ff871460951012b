"""s.7: the pound-keeper's record of the cattle brought in, and the steps that keep it
true: the intake itself, a correction (never a silent edit: the reason is kept), and the
voiding of a case entered by mistake. A correction may not make a step already recorded
unlawful, nor change what money was counted on or what a notice offered the cattle on.
The record's own facts (``Seizure``) are in ``domain.s07_seizure``."""

from __future__ import annotations

from dataclasses import replace

from domain.errors import (
    CorrectionRefusedError,
    DomainError,
    FutureDateError,
    InvalidCaseError,
    VoidRefusedError,
)
from domain.events import (
    CaseVoided,
    DeliveredOnDeposit,
    Impounded,
    LotsSeparated,
    SeizureCorrected,
)
from domain.provisions import cites
from domain.s13_unclaimed import notice_facts
from domain.s14_deposit import complaint_last_day
from domain.stages import OPEN_STAGES, Stage
from domain.step import Case, Step

__all__ = ["CORRECTION", "INTAKE", "VOID", "check_notice_kept"]


INTAKE: Step[Impounded] = Step(
    event=Impounded,
    provision="s.7",
    follows=frozenset(),  # the first step of every case, and of no other (``Case.open``)
    leads_to=Stage.IMPOUNDED,
)


@cites("s.13(2)", "s.13(3)", "s.7")
def check_notice_kept(case: Case, event: SeizureCorrected) -> None:
    """What a posted notice stated (s.13(2): the number and description of the cattle,
    the place seized, the place impounded) is what the cattle were offered to the public
    on: once a lot was offered on it, sold or not, or disposed of otherwise, its
    correction is refused at every later stage (selling, settled, in deposit, closed).
    Before that, a correction of it supersedes the notice (``_prepare_correction``)."""
    if notice_facts(event.seizure) == notice_facts(case.seizure):
        return
    offered = case.notice_offered_on
    if offered is not None:
        raise CorrectionRefusedError(
            f"the cattle were offered on the notice of {offered.on.isoformat()}: what it "
            "states can no longer be corrected",
            "s.13(2)",
            reason="notice_offered",
            facts={"date": offered.on},
        )


@cites("s.7", "s.13(2)")
def _prepare_correction(case: Case, event: SeizureCorrected) -> SeizureCorrected:
    """A case past correcting says why, if this is why; a correction of what the posted
    notice states supersedes it (s.13(2): a new notice is then due)."""
    if case.stage in (Stage.CLOSED, Stage.RELEASED):
        check_notice_kept(case, event)
    if (
        case.stage is Stage.NOTICE_POSTED
        and not event.supersedes_notice
        and notice_facts(event.seizure) != notice_facts(case.seizure)
    ):
        return replace(event, supersedes_notice=True)
    return event


@cites("s.7", "s.19")
def _guard_correction(case: Case, event: SeizureCorrected) -> None:
    """A correction of the s.7 record is refused when it would make a step already
    recorded unlawful: every later step is checked again against the corrected facts
    (the s.13(1) report day, the lots sold), none may fall before the corrected day
    brought, and the amounts paid stand on the kinds, counts and day they were counted
    on."""
    if not event.reason.strip():
        raise InvalidCaseError("a correction needs a reason", "s.7")
    # Checked under the case's Act as in force, which the corrected case keeps (``Case.apply``).
    kept = case.seizure
    corrected = replace(event.seizure, act=kept.act, act_settings=kept.act_settings)
    if corrected.impounded_on > event.on:
        raise FutureDateError("the cattle cannot be brought in after today", "s.7")
    moved = case.money_step
    counted = [(lot.kind, lot.count) for lot in case.seizure.lots]
    if moved is not None and (
        corrected.impounded_on != case.seizure.impounded_on
        or [(lot.kind, lot.count) for lot in corrected.lots] != counted
    ):
        raise CorrectionRefusedError(
            "the money was counted on the kinds, counts and day recorded; they can no "
            "longer be corrected",
            case.step_of(moved).provision,
        )
    check_notice_kept(case, event)
    deposit = case.first(DeliveredOnDeposit)
    days = case.profile.complaint_days
    if deposit is not None and deposit.on > complaint_last_day(corrected.seizure_day, days):
        raise CorrectionRefusedError(
            f"the deposit of {deposit.on.isoformat()} would fall after the {days} days from "
            "the seizure",
            "s.19",
        )
    check = case.from_intake(corrected)
    for later in case.events[1:]:
        if isinstance(later, LotsSeparated):
            continue  # the corrected record is of the lots left
        if isinstance(later, SeizureCorrected):
            if later.supersedes_notice:  # the notice it superseded is posted again
                check = check.noted(later, Stage.REPORTED)
            continue
        if later.on < corrected.impounded_on:
            raise CorrectionRefusedError(
                f"the step of {later.on.isoformat()} would come before the cattle were brought in",
                case.step_of(later).provision,
            )
        try:
            check = check.then(later)
        except DomainError as exc:
            raise CorrectionRefusedError(
                f"the step of {later.on.isoformat()} would become unlawful: {exc}",
                exc.provision or case.step_of(later).provision,
            ) from exc


@cites("s.7", "s.13(2)")
def _after_correction(case: Case, event: SeizureCorrected) -> Stage:
    """A correction that superseded the notice: the notice is to be posted again."""
    return Stage.REPORTED if event.supersedes_notice else case.stage


CORRECTION: Step[SeizureCorrected] = Step(
    event=SeizureCorrected,
    provision="s.7",
    follows=OPEN_STAGES - {Stage.CLOSED},
    prepare=_prepare_correction,
    guard=_guard_correction,
    leads_to=_after_correction,
)


@cites("s.7")
def _guard_void(case: Case, event: CaseVoided) -> None:
    """A case entered by mistake is voided with a reason, while no money has moved; once
    it has, the step that moved it is named in the refusal."""
    if not event.reason.strip():
        raise InvalidCaseError("voiding a case needs a reason", "s.7")
    moved = case.money_step
    if moved is not None:
        raise VoidRefusedError(
            "money has moved on this case; it cannot be voided", case.step_of(moved).provision
        )


VOID: Step[CaseVoided] = Step(
    event=CaseVoided,
    provision="s.7",
    # Stages in which no money need have moved; the guard looks at the sales. (A case
    # deemed unclaimed has had its sale settled: money has moved, it cannot be voided.)
    follows=frozenset(
        {Stage.IMPOUNDED, Stage.REPORTED, Stage.NOTICE_POSTED, Stage.OWNER_REFUSED, Stage.SELLING}
    ),
    guard=_guard_void,
    lawful=lambda case, today: case.money_step is None,
    leads_to=Stage.VOIDED,
)
