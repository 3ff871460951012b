"""What a configuration and environment that load may still get wrong on a server, said
by ``poundbot config check`` and in the first lines of ``poundbot serve``:

- an Indian SMS provider (Exotel, Mobile Seva) without a DLT entity: the operators drop
  every SMS that carries no registered template id, so none would arrive (a fault:
  ``config check`` fails; ``serve`` still starts, for Telegram and the web desk, and
  logs it as an error);
- tariffs still marked as the sample's figures ("SAMPLE figure, not law"): fines and
  feeding charges nobody notified (a warning; ``config check --strict`` fails on it).
"""

from __future__ import annotations

from bot.config.model import Config
from bot.config.settings import Settings

__all__ = ["INDIAN_PROVIDERS", "SAMPLE_MARK", "dlt_fault", "sample_warning"]

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
