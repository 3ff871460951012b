"""What a configuration and environment that load may still get wrong on a server, said
by ``poundbot config check`` and in the first lines of ``poundbot serve``:

- an Indian SMS provider (Exotel, Mobile Seva) without a DLT entity: the operators drop
  every SMS that carries no registered template id, so none would arrive (a fault:
  ``config check`` fails; ``serve`` still starts, for Telegram and the web desk, and
  logs it as an error);
- tariffs still marked as the sample's figures ("SAMPLE figure, not law"): fines and
  feeding charges nobody notified (a warning; ``config check --strict`` fails on it);
- places with no name in a language an authority uses (its own and its pounds'): its
  s.13(2) notice and proclamation in that language would print them in English (a
  warning, as above).
"""

from __future__ import annotations

from bot.config.model import Authority, Config
from bot.config.names import Name
from bot.config.settings import Settings

__all__ = [
    "INDIAN_PROVIDERS",
    "SAMPLE_MARK",
    "dlt_fault",
    "place_names_warning",
    "sample_warning",
]

#: The SMS providers whose messages go to Indian operators, which scrub them against DLT.
INDIAN_PROVIDERS = {"exotel": "Exotel", "mseva": "Mobile Seva"}
#: How the sample configuration marks each of its amounts (``source = "SAMPLE figure, ..."``).
SAMPLE_MARK = "SAMPLE figure"


def dlt_fault(config: Config, settings: Settings) -> str | None:
    """Why no SMS would arrive: an Indian provider named and no ``[dlt] entity_id``."""
    name = INDIAN_PROVIDERS.get(settings.sms_provider)
    if name is None or config.dlt.enforced:
        return None
    return (
        f"POUNDBOT_SMS_PROVIDER={settings.sms_provider}, but [dlt] entity_id is not set: "
        f"Indian operators drop every SMS without a DLT entity and template id, so no SMS "
        f"sent through {name} would arrive. Register on a DLT portal, set [dlt] entity_id "
        "and import the approved templates' ids with poundbot dlt import (docs/sms-india.md)"
    )


def sample_warning(config: Config) -> str | None:
    """The pounds whose tariff still holds amounts marked "SAMPLE figure"."""
    pounds: list[str] = []
    counted: dict[int, int] = {}  # a tariff shared by pounds is counted once
    for code, tariff in config.tariffs.items():
        found = sum(
            SAMPLE_MARK.lower() in row.source.lower()
            for tables in (tariff.fines, tariff.feeding)
            for table in tables.values()
            for row in table.rows
        )
        if found:
            pounds.append(code)
            counted[id(tariff)] = found
    if not pounds:
        return None
    return (
        f"{sum(counted.values())} amounts of the tariffs (pounds {', '.join(pounds)}) are "
        f'marked "{SAMPLE_MARK}, not law": fines and feeding charges nobody notified. Put '
        "the notified amounts and their sources in their place before cases are recorded"
    )


def _places(config: Config, authority: Authority) -> list[tuple[str, str]]:
    """The places the s.13(2) notice and proclamation of ``authority`` name, each with
    what it is: its office, village and market places, its pounds' names and addresses."""
    places = [
        ("office", authority.office_address),
        (f"village {authority.village}", authority.village),
        ("market place", authority.market_place),
    ]
    places += [(f"market of {village}", market) for village, market in authority.markets.items()]
    for pound in config.pounds.values():
        if pound.authority == authority.code:
            places.append((f"pound {pound.code}", pound.name))
            places.append((f"address of pound {pound.code}", pound.address))
            places += [(f"market of {v}", m) for v, m in pound.markets.items()]
    return places


def place_names_warning(config: Config) -> str | None:
    """The places with no name in a language their authority uses (its default language
    and those of its pounds), English aside: its notices in that language would print
    them in English."""
    found: list[str] = []
    for authority in config.authorities.values():
        langs = {authority.default_language}
        langs |= {
            lang
            for pound in config.pounds.values()
            if pound.authority == authority.code
            for lang in pound.languages
        }
        for lang in sorted(langs - {"en"}):
            unnamed = [
                what
                for what, name in _places(config, authority)
                if not (isinstance(name, Name) and lang in name.forms)
            ]
            if unnamed:
                found.append(f"{authority.code} in {lang}: {', '.join(dict.fromkeys(unnamed))}")
    if not found:
        return None
    return (
        "places with no name in a language their notices are printed in (the notice and "
        f"the proclamation would give them in English): {'; '.join(found)}. Give each its "
        'name in that language (name = { en = "...", ml = "..." })'
    )
