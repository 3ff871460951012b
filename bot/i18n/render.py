"""Replies from domain facts: pure functions of (facts, Translator) -> str.

The rest of the code does ``from bot.i18n import render`` and calls
``render.<name>``; this module gathers the renderers of the modules that write them,
grouped by who reads them:

- ``common``: citations, kinds of cattle, amounts, dates, command words;
- ``public``: what anyone may be told (search, status, LANG / STOP / START), what an
  owner is told (dues, deposit, the SMS on impounding and before the auction), and
  ``public.sms_fit``, the SMS segment budget and the richest wording that fits it;
- ``keepers``: the pound-keeper's replies and those about photos;
- ``officers``: the officer's, up to the sale, during it, money held, reminders;
- ``refusals``: the refusals of the Act and of the application, of a sale, a line that
  is not a command, and the apology when a message cannot be processed now;
- ``documents``: the s.13(2) notice and its proclamation, the s.15(3) account and the
  s.15(4) receipt, the printed documents and charts;
- ``chrome``: HELP, the web desk's links and names, Telegram's onboarding.

The domain computes (``Dues``, ``Deposit``, ``report_due_on``); the renderers only
choose the words, through gettext, and format amounts and dates through ``fmt``.
Msgids are English with named placeholders; a ``TRANSLATORS:`` comment names the
provision a statutory text implements.
"""

from __future__ import annotations

from bot.i18n.chrome.help import help_text
from bot.i18n.chrome.web import web_link, web_link_unavailable, with_board_links
from bot.i18n.common import cattle, cite, kind_count
from bot.i18n.documents.account import account_sms, account_text, receipt_text
from bot.i18n.documents.notice import notice_text, proclamation_script
from bot.i18n.documents.notice_html import notice_html
from bot.i18n.keepers.keeper import (
    case_voided,
    correction_recorded,
    deposit_recorded,
    lots_separated,
    open_cases,
    owner_refusal_recorded,
    owner_sms_line,
    owners_sms_lines,
    paid_after_part_sale,
    payment_recorded,
    report_sent,
    seizure_ack,
)
from bot.i18n.officers.alerts import answers_held_back
from bot.i18n.officers.deposit import (
    account_refused_reply,
    claim_preferred_recorded,
    claim_recorded,
    claim_rejected_recorded,
    deposit_outcome_recorded,
    deposit_register_text,
    fund_credited,
    refund_recorded,
)
from bot.i18n.officers.officer import (
    auction_scheduled,
    notice_ready,
    notice_recorded,
    report_to_officer,
)
from bot.i18n.officers.reminders import digest, reminder, reminders_troubled
from bot.i18n.officers.sale import (
    lot_recorded,
    other_disposal_recorded,
    sale_short,
    settled_reply,
)
from bot.i18n.public.anyone import (
    lang_not_sent,
    lang_set,
    no_case_for_number,
    read_as,
    search_results,
    staff_stopped,
    staff_stopped_elsewhere,
    started,
    status_reply,
    stopped,
)
from bot.i18n.public.calls import cases_for_number, more_cases_for_number
from bot.i18n.public.owner import (
    auction_cancelled_sms,
    auction_sms,
    auction_values,
    deposit_reply,
    dues_reply,
    intake_sms,
    intake_values,
)
from bot.i18n.public.sms_fit import SMS_SEGMENT_BUDGET, fits_sms
from bot.i18n.refusals.errors import (
    app_error,
    bad_count,
    error,
    not_allowed,
    too_many_messages,
    try_again_later,
    unknown_case,
    unknown_command,
)
from bot.i18n.refusals.parse import parse_error

__all__ = [
    "SMS_SEGMENT_BUDGET",
    "account_refused_reply",
    "account_sms",
    "account_text",
    "answers_held_back",
    "app_error",
    "auction_cancelled_sms",
    "auction_scheduled",
    "auction_sms",
    "auction_values",
    "bad_count",
    "case_voided",
    "cases_for_number",
    "cattle",
    "cite",
    "claim_preferred_recorded",
    "claim_recorded",
    "claim_rejected_recorded",
    "correction_recorded",
    "deposit_outcome_recorded",
    "deposit_recorded",
    "deposit_register_text",
    "deposit_reply",
    "digest",
    "dues_reply",
    "error",
    "fits_sms",
    "fund_credited",
    "help_text",
    "intake_sms",
    "intake_values",
    "kind_count",
    "lang_not_sent",
    "lang_set",
    "lot_recorded",
    "lots_separated",
    "more_cases_for_number",
    "no_case_for_number",
    "not_allowed",
    "notice_html",
    "notice_ready",
    "notice_recorded",
    "notice_text",
    "open_cases",
    "other_disposal_recorded",
    "owner_refusal_recorded",
    "owner_sms_line",
    "owners_sms_lines",
    "paid_after_part_sale",
    "parse_error",
    "payment_recorded",
    "proclamation_script",
    "read_as",
    "receipt_text",
    "refund_recorded",
    "reminder",
    "reminders_troubled",
    "report_sent",
    "report_to_officer",
    "sale_short",
    "search_results",
    "seizure_ack",
    "settled_reply",
    "staff_stopped",
    "staff_stopped_elsewhere",
    "started",
    "status_reply",
    "stopped",
    "too_many_messages",
    "try_again_later",
    "unknown_case",
    "unknown_command",
    "web_link",
    "web_link_unavailable",
    "with_board_links",
]
