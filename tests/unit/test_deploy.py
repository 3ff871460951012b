"""What ships for running poundbot on a server (``deploy/``): the systemd unit, checked by
``systemd-analyze verify``; the example environment file; the reverse-proxy examples."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.config.settings import Settings
from bot.entry.app import build_app

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
UNIT = DEPLOY / "poundbot.service"
EXEC = "/opt/poundbot/venv/bin/poundbot"
#: What the reverse proxy must pass to poundbot: the webhooks, the health check, the notices.
#: What the proxies pass on: a path exactly, or (ending in "/") everything under it.
PUBLIC = (
    "/telegram",
    "/twilio/sms",
    "/twilio/status",
    "/exotel/",
    "/mseva/pull/",
    "/healthz",
    "/notice/",
    "/photo/",
    "/web",
    "/web/",
    "/notices/",
    "/source",
)
#: Routes of poundbot a proxy must not pass on to the internet.
PRIVATE = ("/metrics",)


def unit_lines() -> set[str]:
    return {
        line.strip()
        for line in UNIT.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }


def verify(unit: Path) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:  # the check needs systemd's tools; .ci/run installs them
        pytest.skip("systemd-analyze is not installed")
    return subprocess.run(
        [analyze, "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


def runnable_copy(tmp_path: Path, text: str) -> Path:
    """The unit with ExecStart pointing at this environment's poundbot (verify checks
    that the program exists; on a server it is /opt/poundbot/venv/bin/poundbot)."""
    here = Path(sys.executable).parent / "poundbot"
    assert here.is_file(), here
    copy = tmp_path / "poundbot.service"
    copy.write_text(text.replace(EXEC, str(here)), encoding="utf-8")
    return copy


def test_the_unit_file_passes_systemd_analyze_verify_without_a_warning(tmp_path: Path) -> None:
    text = UNIT.read_text(encoding="utf-8")
    assert f"ExecStart={EXEC} serve" in text
    done = verify(runnable_copy(tmp_path, text))
    assert (done.returncode, done.stderr, done.stdout) == (0, "", "")


def test_systemd_analyze_verify_does_catch_a_mistake_in_the_unit(tmp_path: Path) -> None:
    """The check above is live: a misspelt key and a bad value are reported."""
    text = UNIT.read_text(encoding="utf-8")
    text = text.replace("ProtectSystem=strict", "ProtectSytem=strict")
    text = text.replace("Restart=on-failure", "Restart=sometimes")
    done = verify(runnable_copy(tmp_path, text))
    assert "Unknown key 'ProtectSytem'" in done.stderr
    assert "restart specifier" in done.stderr


def test_the_unit_runs_as_its_own_user_and_may_write_only_the_data_folder() -> None:
    lines = unit_lines()
    for line in (
        "User=poundbot",
        "Group=poundbot",
        "Restart=on-failure",
        "RestartPreventExitStatus=2",  # a refusal to start (bad configuration) is final
        "EnvironmentFile=/etc/poundbot/env",
        "Environment=POUNDBOT_DATA_DIR=/var/lib/poundbot",
        "StateDirectory=poundbot",
        "ProtectSystem=strict",
        "ReadWritePaths=/var/lib/poundbot",
        "ProtectHome=true",
        "PrivateTmp=true",
        "NoNewPrivileges=true",
        "CapabilityBoundingSet=",
        f"ExecStart={EXEC} serve --host 127.0.0.1 --port 8080",
    ):
        assert line in lines, line
    writable = [line for line in lines if line.startswith("ReadWritePaths=")]
    assert writable == ["ReadWritePaths=/var/lib/poundbot"]


def test_the_example_environment_names_only_settings_poundbot_reads() -> None:
    names = re.findall(r"^#?([A-Z][A-Z0-9_]+)=", (DEPLOY / "env.example").read_text(), re.M)
    source = "\n".join(
        path.read_text(encoding="utf-8") for path in (DEPLOY.parent / "bot").rglob("*.py")
    )
    unknown = [name for name in names if f'"{name}"' not in source]
    assert names
    assert unknown == []
    for needed in ("POUNDBOT_CONFIG", "POUNDBOT_PUBLIC_URL", "POUNDBOT_SECRET"):
        assert needed in names


def app_paths() -> list[str]:
    """The routes of poundbot with each SMS provider in turn."""
    settings = Settings(
        public_url="https://pound.example.org",
        telegram_token="123456:" + "A" * 35,
        telegram_secret="s" * 32,
        twilio_sid="AC" + "0" * 32,
        twilio_token="t" * 32,
        twilio_from="+15005550006",
        webhook_secret="w" * 32,
        exotel_api_key="k",
        exotel_api_token="t",
        exotel_account_sid="sid",
        exotel_subdomain="api.in.exotel.com",
        exotel_from="08047091234",
        mseva_username="u",
        mseva_password="p",
        mseva_sender_id="KLPOUND",
        mseva_secure_key="k",
        mseva_keyword="KL POUND",
    )
    return [
        route.path  # type: ignore[attr-defined]
        for provider in ("twilio", "exotel", "mseva")
        for route in build_app(settings=settings._replace(sms_provider=provider)).routes
    ]


@pytest.mark.parametrize("name", ["nginx.conf", "Caddyfile"])
def test_the_reverse_proxy_passes_the_webhooks_health_and_notices_to_poundbot(
    name: str,
) -> None:
    text = (DEPLOY / name).read_text(encoding="utf-8")
    if name == "nginx.conf":
        forwarded = re.findall(
            r"location (?:=|\^~) (\S+)\s*\{ proxy_pass http://127\.0\.0\.1:8080;", text
        )
        assert "location / { return 404; }" in text
    else:
        (matcher,) = re.findall(r"@poundbot path (.+)", text)
        forwarded = [path.rstrip("*") for path in matcher.split()]
        assert "reverse_proxy 127.0.0.1:8080" in text
        assert "respond 404" in text
    assert sorted(forwarded) == sorted(PUBLIC)
    paths = app_paths()
    for path in forwarded:  # each is one of poundbot's routes
        assert any(p == path or (path.endswith("/") and p.startswith(path)) for p in paths), path


def _passed(path: str) -> bool:
    return any(path == p or (p.endswith("/") and path.startswith(p)) for p in PUBLIC)


def test_every_route_a_person_uses_passes_the_proxy_and_metrics_does_not() -> None:
    """Walked from the router: a route added to poundbot is passed by the shipped
    proxies, or named here as private."""
    paths = set(app_paths())
    assert {"/web/signin/{token}", "/notices/{authority}", "/web/static", "/source"} <= paths
    for path in paths - set(PRIVATE):
        assert _passed(path), f"{path} would answer 404 behind the shipped proxies"
    for path in PRIVATE:
        assert path in paths
        assert not _passed(path)
