"""The configuration file: authorities and the Act each applies from each day, pounds,
kinds of cattle (s.2(1)), dated tariffs (s.11 fines, s.4 feeding charges), policy and
reminder settings.

The file is TOML; ``sample_config.toml`` documents every key. It is read into named
tuples over the domain types. Validation collects every fault with the line it is on,
so that one ``poundbot config check FILE`` shows them all.

``model`` holds the records, ``load`` reads a file, ``reader`` walks its tables and
``checks`` reads single values, ``lines`` finds the line of each key for the faults.
"""

from bot.config.load import (
    config_path,
    load_config,
    parse_config,
    read_config_text,
    sample_config_path,
)
from bot.config.model import (
    LANGUAGES,
    ActInForce,
    Authority,
    AuthorityKind,
    BackupSettings,
    Config,
    ConfigError,
    Fault,
    Pound,
    ReminderSettings,
    RetentionSettings,
    SenderLimits,
    normalize_word,
)

__all__ = [
    "LANGUAGES",
    "ActInForce",
    "Authority",
    "AuthorityKind",
    "BackupSettings",
    "Config",
    "ConfigError",
    "Fault",
    "Pound",
    "ReminderSettings",
    "RetentionSettings",
    "SenderLimits",
    "config_path",
    "load_config",
    "normalize_word",
    "parse_config",
    "read_config_text",
    "sample_config_path",
]
