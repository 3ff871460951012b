"""``poundbot demo [--lang ml|en|ta|kn] [--act KEY]``: the whole Act in a minute, with no
accounts, under any Act poundbot applies (``domain.profiles``).

A keeper reports three cattle, an owner asks by SMS and claims one, the rest are
reported (s.13(1)), noticed and proclaimed (s.13(2)), auctioned (s.13(3)), settled
(s.15(2), s.16), held in deposit (s.16(3)) and credited to the fund (s.17(1)), all
through the real channel code on loopback (``bot.demo.world``), on a temporary
database and a simulated clock. It prints the conversation and the ledger and exits
0 only if every step did what the Act requires.

The story's modules are imported when the command runs, not with the command line.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from bot.support.languages import LANGUAGES
from domain.profiles import DEFAULT_ACT, PROFILES

__all__ = ["add_demo_command"]


def _command(args: argparse.Namespace) -> int:
    import asyncio

    from bot.demo.story import run

    return asyncio.run(run(args.lang, sys.stdout, sms=args.sms, act=args.act))


def add_demo_command(sub: Any) -> None:
    """``poundbot demo [--lang ml|en|ta|kn] [--sms twilio|exotel|mseva] [--act KEY]``."""
    demo = sub.add_parser(
        "demo",
        help="a complete case under the Act, simulated, through the real channels (no accounts)",
    )
    demo.add_argument("--lang", choices=LANGUAGES, default="en", help="the users' language (en)")
    demo.add_argument(
        "--sms",
        choices=("twilio", "exotel", "mseva"),
        default="twilio",
        help="the SMS provider the owner's SMS go through (twilio)",
    )
    demo.add_argument(
        "--act",
        choices=tuple(PROFILES),
        default=DEFAULT_ACT,
        help=f"the Act the local authority applies ({DEFAULT_ACT})",
    )
    demo.set_defaults(func=_command)
