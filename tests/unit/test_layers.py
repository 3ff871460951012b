"""The layers of ``bot/`` as its imports show them (parsed with ``ast``, so imports
inside functions count too): the use cases, the store, the texts and the reminders know
nothing of the channels, the web desk or the entry points; the Telegram channel is one
package, entered from outside through its webhook and its set-up only; a channel does
not reach into another channel's package."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

import bot

BOT = Path(bot.__file__).parent
ROOT = BOT.parent

#: The rooms of poundbot, from the top floor down (docs/architecture.md, "The layers").
#: A room imports only rooms on floors below its own; rooms on one floor import none of
#: each other. ``bot/demo`` is an entry point: it shares the top floor's room.
FLOORS: tuple[tuple[str, ...], ...] = (
    ("bot.entry",),
    ("bot.bootstrap",),
    ("bot.web",),
    ("bot.channels",),
    ("bot.conversation",),
    ("bot.reminders",),
    ("bot.notifications",),
    ("bot.i18n",),
    ("bot.services",),
    ("bot.adapters",),
    ("bot.store",),
    ("bot.config",),
    ("bot.support", "bot.observe", "bot.fakes"),
    ("domain",),
)
#: Where a package sits that is not named above: the demo is an entry point.
SAME_ROOM = {"bot.demo": "bot.entry"}
#: The entry points: the only modules that may import the composition root.
ENTRY = ("bot/entry", "bot/demo", "chaos")
#: The Telegram package's doors: what the rest of poundbot may import of it.
TELEGRAM = "bot.channels.telegram"
TELEGRAM_DOORS = frozenset({f"{TELEGRAM}.webhook", f"{TELEGRAM}.connect"})


def _imports(path: Path) -> Iterator[str]:
    """The modules ``path`` imports (for ``from a import b``: ``a.b`` when it is a
    module, else ``a``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                whole = f"{node.module}.{alias.name}"
                module = ROOT / Path(*whole.split("."))
                yield (
                    whole if module.with_suffix(".py").exists() or module.is_dir() else node.module
                )


def _files(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def _within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def _room(module: str) -> str | None:
    parts = module.split(".")
    name = ".".join(parts[:2]) if parts[0] == "bot" and len(parts) > 1 else parts[0]
    name = SAME_ROOM.get(name, name)
    return name if any(name in floor for floor in FLOORS) else None


def _floor(room: str) -> int:
    return next(i for i, floor in enumerate(FLOORS) if room in floor)


def _room_arrows(*paths: Path) -> Iterator[tuple[str, str, str]]:
    """Every import of ``paths`` (all of ``bot`` and ``domain`` when none is given) from
    one room into another: (file, importing room, imported module)."""
    for path in paths or _files("bot", "domain"):
        room = _room(_module_of(path))
        if room is None:
            continue
        for name in _imports(path):
            other = _room(name)
            if other is not None and other != room:
                yield str(path.relative_to(ROOT)), room, name


def test_every_room_of_bot_and_the_domain_sits_on_a_floor() -> None:
    rooms = {_module_of(p).split(".")[0] for p in _files("domain")} | {
        ".".join(_module_of(p).split(".")[:2]) for p in _files("bot") if p.parent != BOT
    }
    rooms |= {f"bot.{p.stem}" for p in BOT.glob("*.py") if p.stem != "__init__"}
    assert {room for room in rooms if _room(room) is None} == set()


@pytest.mark.parametrize("path", _files("bot", "domain"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_rooms_import_downward_only(path: Path) -> None:
    """No room imports a room on its own floor or above it (imports made for types only,
    and those inside functions, count too): so no two rooms import each other, directly
    or round a circle."""
    upward = sorted(
        name for _, room, name in _room_arrows(path) if _floor(room) >= _floor(_room(name) or room)
    )
    assert not upward, f"{path.relative_to(ROOT)} imports {upward}"


def test_the_telegram_channel_is_entered_through_its_webhook_and_set_up_only() -> None:
    inside = BOT / "channels" / "telegram"
    reached = {
        (str(path.relative_to(ROOT)), name)
        for path in _files("bot")
        if inside not in path.parents
        for name in _imports(path)
        if _within(name, TELEGRAM) and name not in TELEGRAM_DOORS
    }
    assert not reached


def test_the_telegram_package_reaches_no_other_channel_but_what_all_channels_share() -> None:
    # Every channel's: who wrote from a number, and how many answers a sender gets.
    shared = {"bot.channels.identity", "bot.channels.limits"}
    reached = {
        (str(path.relative_to(ROOT)), name)
        for path in _files("bot/channels/telegram")
        for name in _imports(path)
        if _within(name, "bot.channels") and not _within(name, TELEGRAM) and name not in shared
    }
    assert not reached


def test_nothing_but_the_entry_points_imports_the_composition_root() -> None:
    entries = [ROOT / folder for folder in ENTRY]
    reached = {
        str(path.relative_to(ROOT))
        for path in _files("bot", "chaos")
        if not any(entry in path.parents for entry in entries)
        for name in _imports(path)
        if _within(name, "bot.bootstrap")
    }
    assert not reached


def test_adapters_are_handed_plain_values_not_the_running_app() -> None:
    reached = {
        str(path.relative_to(ROOT))
        for path in _files("bot/adapters", "bot/store", "bot/services", "bot/reminders")
        if path.name != "runtime.py"
        for name in _imports(path)
        if name == "bot.services.runtime"
    }
    assert not reached


def test_the_running_bot_imports_none_of_the_catalog_tools() -> None:
    """``i18n_tools`` runs from a checkout (``make messages``) and is not in the wheel."""
    reached = {
        str(path.relative_to(ROOT))
        for path in _files("bot")
        for name in _imports(path)
        if _within(name, "i18n_tools")
    }
    assert not reached


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_module_imports_its_way_back_to_itself() -> None:
    """The imports of ``bot`` and ``domain`` (those made for types only too) have no
    circle: each layer, and each module within one, stands on what is below it."""
    paths = _files("bot", "domain")
    modules = {_module_of(path) for path in paths}
    graph = {
        _module_of(path): {name for name in _imports(path) if name in modules} for path in paths
    }
    done: set[str] = set()

    def visit(module: str, trail: tuple[str, ...]) -> None:
        if module in trail:
            raise AssertionError(" -> ".join((*trail[trail.index(module) :], module)))
        if module in done:
            return
        for name in sorted(graph.get(module, ())):
            if not name.startswith(module + "."):  # a package's face hands its own on
                visit(name, (*trail, module))
        done.add(module)

    for module in sorted(graph):
        visit(module, ())


#: Past this many lines a module says at its top why it is long.
LONG = 400


@pytest.mark.parametrize(
    "path", _files("bot", "domain", "i18n_tools"), ids=lambda p: str(p.relative_to(ROOT))
)
def test_a_long_module_says_why_at_its_top(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    if text.count("\n") > LONG:
        assert "Why it is long:" in (ast.get_docstring(ast.parse(text)) or "")


def test_the_root_of_bot_holds_the_composition_root_alone() -> None:
    assert sorted(p.name for p in BOT.glob("*.py")) == ["__init__.py", "bootstrap.py"]


#: The providers, one package each: none imports another.
PROVIDERS = ("telegram", "twilio", "exotel", "mseva")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_provider_package_imports_no_other_provider(provider: str) -> None:
    others = [f"bot.channels.{other}" for other in PROVIDERS if other != provider]
    reached = {
        (str(path.relative_to(ROOT)), name)
        for path in _files(f"bot/channels/{provider}")
        for name in _imports(path)
        if any(_within(name, other) for other in others)
    }
    assert not reached


def test_the_sms_room_knows_no_provider_but_where_they_are_wired() -> None:
    """What is done with an SMS is the same whichever provider brought it; only the
    wiring of the provider in use (``providers``) names them."""
    wiring = BOT / "channels" / "sms" / "providers.py"
    reached = {
        (str(path.relative_to(ROOT)), name)
        for path in _files("bot/channels/sms")
        if path != wiring
        for name in _imports(path)
        if any(_within(name, f"bot.channels.{provider}") for provider in PROVIDERS)
    }
    assert not reached


#: The rooms of ``bot/`` outside the store, each checked to import no SQLAlchemy: the
#: store is the port to the database, and only it knows the library behind it.
NO_SQLALCHEMY = tuple(
    sorted(
        str(path.relative_to(ROOT))
        for path in BOT.iterdir()
        if path.name not in ("store", "__init__.py", "__pycache__")
        and (path.is_dir() or path.suffix == ".py")
    )
)


@pytest.mark.parametrize("room", NO_SQLALCHEMY)
def test_nothing_outside_the_store_imports_sqlalchemy(room: str) -> None:
    """The store (``bot/store``) alone speaks SQL: every query is one of its named
    functions, taking and returning plain values or its rows."""
    paths = [ROOT / room] if room.endswith(".py") else _files(room)
    assert paths
    found = {
        (str(path.relative_to(ROOT)), name)
        for path in paths
        for name in _imports(path)
        if _within(name, "sqlalchemy")
    }
    assert not found


def test_these_checks_see_the_imports_they_check() -> None:
    """A parser that found nothing would pass every test above."""
    app = set(_imports(BOT / "entry" / "app.py"))
    assert f"{TELEGRAM}.webhook" in app
    assert "bot.bootstrap" in app
    wiring = set(_imports(BOT / "channels" / "sms" / "providers.py"))
    assert {"bot.channels.twilio.webhook", "bot.channels.exotel.webhook"} <= wiring
    assert "sqlalchemy" in set(_imports(BOT / "store" / "inbox.py"))
    assert "sqlalchemy" in set(_imports(BOT / "store" / "engine.py"))


def test_the_command_line_starts_without_the_stack() -> None:
    """``poundbot --help`` imports neither the configuration, the texts nor the database
    layer: they are imported when a command runs (``bench/cli_start.py`` times it)."""
    import subprocess
    import sys

    heavy = ("bot.config", "bot.i18n", "bot.store", "domain", "sqlalchemy", "babel")
    probe = (
        "import sys, bot.entry.cli; "
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {heavy!r} "
        f"or m.startswith({heavy[:3]!r})))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout.strip()
    assert found == "[]"
