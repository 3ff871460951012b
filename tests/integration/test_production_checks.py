"""What a configuration that loads may still get wrong on a server, said by ``poundbot
config check`` and by ``poundbot serve`` as it starts: an Indian SMS provider without a
DLT entity (no SMS would arrive), and tariffs still marked as the sample's figures."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.config import sample_config_path
from bot.entry.cli import main

SAMPLE = sample_config_path().read_text(encoding="utf-8")
#: The sample with every amount's source made a notified one.
NOTIFIED = SAMPLE.replace("SAMPLE figure, not law: replace from", "as notified in")
ENTITY = '[dlt]\nentity_id = "1201160000000000000"\n'

MSEVA = {
    "POUNDBOT_SMS_PROVIDER": "mseva",
    "POUNDBOT_WEBHOOK_SECRET": "s" * 40,
    "MSEVA_USERNAME": "dept",
    "MSEVA_PASSWORD": "pw",
    "MSEVA_SENDER_ID": "KLPOUND",
    "MSEVA_SECURE_KEY": "key",
    "MSEVA_KEYWORD": "KL POUND",
}
EXOTEL = {
    "POUNDBOT_SMS_PROVIDER": "exotel",
    "POUNDBOT_WEBHOOK_SECRET": "s" * 40,
    "POUNDBOT_PUBLIC_URL": "https://pound.example.org",
    "EXOTEL_API_KEY": "k",
    "EXOTEL_API_TOKEN": "t",
    "EXOTEL_ACCOUNT_SID": "sid",
    "EXOTEL_SUBDOMAIN": "api.in.exotel.com",
    "EXOTEL_FROM": "08000000000",
}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "poundbot.toml"
    path.write_text(text, encoding="utf-8")
    return path


def environ(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    for key, value in env.items():
        monkeypatch.setenv(key, value)


def served(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, config: Path
) -> tuple[int, list[logging.LogRecord], list[Any]]:
    """``poundbot serve --config CONFIG`` up to uvicorn (which is not run): its exit
    status, what it logged at warning and above, and the app it would serve."""
    import uvicorn

    apps: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kwargs: apps.append(app))
    with caplog.at_level(logging.INFO, logger="poundbot"):
        status = main(["serve", "--config", str(config), "--port", "0"])
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING]
    return status, loud, apps


# -- an Indian SMS provider without a DLT entity ----------------------------------------


@pytest.mark.parametrize("env", [MSEVA, EXOTEL], ids=["mseva", "exotel"])
def test_config_check_fails_naming_the_missing_dlt_entity_of_an_indian_provider(
    env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    environ(monkeypatch, env)
    path = write(tmp_path, NOTIFIED)
    assert main(["config", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"POUNDBOT_SMS_PROVIDER={env['POUNDBOT_SMS_PROVIDER']}" in err
    assert "[dlt] entity_id is not set" in err
    assert "drop every SMS" in err
    # With the entity set, the template ids are what it asks for ...
    write(tmp_path, NOTIFIED.replace("[dlt]\n", ENTITY, 1))
    assert main(["config", "check", str(path)]) == 1
    err = capsys.readouterr().err
    assert "entity_id is not set" not in err
    assert "SMS templates have no approved id" in err
    # ... and with them, it passes.
    from bot.support.dlt import registry

    ids = "".join(f'{t.name} = "1207{n}"\n' for n, t in enumerate(registry()))
    text = NOTIFIED.replace("[dlt]\n", ENTITY, 1).replace(
        "[dlt.templates]\n", f"[dlt.templates]\n{ids}"
    )
    write(tmp_path, text)
    assert main(["config", "check", str(path)]) == 0


def test_without_an_indian_provider_no_dlt_entity_is_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("POUNDBOT_SMS_PROVIDER", raising=False)
    assert main(["config", "check", str(write(tmp_path, NOTIFIED))]) == 0
    assert "entity_id is not set" not in capsys.readouterr().err


def test_serve_starts_without_the_dlt_entity_and_logs_one_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    allow = {"POUNDBOT_MSEVA_ALLOW": "10.0.0.1", "POUNDBOT_SECRET": "x" * 32}
    allow |= {"TELEGRAM_BOT_TOKEN": "123456:" + "A" * 35, "TELEGRAM_WEBHOOK_SECRET": "t" * 32}
    environ(monkeypatch, MSEVA | allow)
    status, loud, apps = served(monkeypatch, caplog, write(tmp_path, NOTIFIED))
    assert status == 0  # it serves: Telegram and the web desk work
    assert len(apps) == 1
    assert [(r.levelname, "[dlt] entity_id is not set" in r.getMessage()) for r in loud] == [
        ("ERROR", True)
    ]
    paths = {getattr(route, "path", "") for route in apps[0].routes}
    assert {"/telegram", "/web", "/healthz"} <= paths


# -- the sample's figures ---------------------------------------------------------------


def test_config_check_warns_of_the_samples_figures_and_fails_on_them_when_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, SAMPLE)
    assert main(["config", "check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"{path}: OK (" in out
    (warning,) = [line for line in err.splitlines() if "WARNING" in line]
    assert warning.startswith(f"{path}: WARNING ")
    assert '"SAMPLE figure, not law"' in warning
    assert "KNM" in warning
    assert "ENM" in warning
    assert main(["config", "check", "--strict", str(path)]) == 1
    assert "WARNING" in capsys.readouterr().err
    # Notified figures: no warning, strict or not.
    write(tmp_path, NOTIFIED)
    assert main(["config", "check", "--strict", str(path)]) == 0
    assert "WARNING" not in capsys.readouterr().err


def test_serve_on_the_samples_figures_logs_one_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("POUNDBOT_SECRET", "x" * 32)
    monkeypatch.delenv("POUNDBOT_SMS_PROVIDER", raising=False)
    status, loud, _ = served(monkeypatch, caplog, write(tmp_path, SAMPLE))
    assert status == 0
    assert [(r.levelname, "SAMPLE figure" in r.getMessage()) for r in loud] == [("WARNING", True)]
    caplog.clear()
    status, loud, _ = served(monkeypatch, caplog, write(tmp_path, NOTIFIED))
    assert (status, loud) == (0, [])


# -- places with no name in a language the authority uses ---------------------------------

#: The sample with the Enmakaje pound, its address and its village named in English and
#: Malayalam only, though the pound prints its notices in Kannada too.
NO_KANNADA = "\n".join(
    line
    for line in NOTIFIED.replace(', kn = "ಎಣ್ಮಕಜೆ ಗ್ರಾಮ ಪಂಚಾಯತ್ ದನದ ದೊಡ್ಡಿ, ಪೆರ್ಲ" }', " }")
    .replace(', kn = "ಎಣ್ಮಕಜೆ" }', " }")
    .splitlines()
    if not line.startswith('address.kn = "ದನದ ದೊಡ್ಡಿ')
)


def test_config_check_warns_of_places_with_no_name_in_a_language_of_the_authority(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A Kannada notice would print these names in English (s.13(2))."""
    assert NO_KANNADA != NOTIFIED
    path = write(tmp_path, NO_KANNADA)
    assert main(["config", "check", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"{path}: OK (" in out
    (warning,) = [line for line in err.splitlines() if "WARNING" in line]
    assert warning.startswith(f"{path}: WARNING ")
    assert "ENM-GP" in warning
    assert "kn" in warning
    assert "village Enmakaje" in warning
    assert "pound ENM" in warning
    assert "address of pound ENM" in warning
    assert "KNM" not in warning  # Kunnamangalam prints in Malayalam and English, all named
    assert main(["config", "check", "--strict", str(path)]) == 1
    assert "WARNING" in capsys.readouterr().err
