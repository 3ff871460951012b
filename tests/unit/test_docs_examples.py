"""What the documents show people to type is what poundbot reads: every ``poundbot`` and
``poundbot-admin`` command in a fenced block of docs/ parses with the command line's own
parser, and every chat example of docs/commands.md and of the cards parses into the
order of the word it illustrates."""

from __future__ import annotations

import re
import shlex
from datetime import date
from pathlib import Path

import pytest

from bot.bootstrap import load
from bot.conversation.commands import ParseError, parse
from bot.entry.cli import build_parser
from bot.support.words import KEYWORDS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
PAGES = sorted(DOCS.rglob("*.md"))
CARDS = [DOCS / "keepers-card.md", DOCS / "owners-card.md"]

_FENCE = re.compile(r"^```[^\n]*\n(?P<body>.*?)^```", re.M | re.S)
_PROGRAM = re.compile(r"(?:[\w.~-]*/)*poundbot(?:-admin)?")
#: A shell word after which a command starts.
_STARTS = {"&&", "||", ";", "|", "exec", "sudo", "--", "time"}
_STOPS = {"&&", "||", ";", "|", "&"}
_CODE = re.compile(r"`([^`\n]+)`")
#: Later than every date the examples name: a date is read, not judged, here.
TODAY = date(2027, 1, 1)


def command_lines(body: str) -> list[tuple[str, list[str]]]:
    """(line, arguments) of each poundbot or poundbot-admin command in a fenced block."""
    found = []
    for line in body.replace("\\\n", " ").splitlines():
        starts = _PROGRAM.fullmatch(line.split()[0]) if line.split() else None
        try:
            words = shlex.split(line, comments=True)
        except ValueError:  # output, not a command (an apostrophe in a sentence)
            assert not starts, f"cannot read the command {line!r}"
            continue
        for i, word in enumerate(words):
            if _PROGRAM.fullmatch(word) and (i == 0 or words[i - 1] in _STARTS):
                argv = []
                for arg in words[i + 1 :]:
                    if arg in _STOPS or arg.startswith((">", "<", "2>")):
                        break
                    argv.append(arg)
                found.append((line, argv))
    return found


def rejected(argv: list[str]) -> str | None:
    """Why the command line's parser rejects ``argv``, or None."""
    try:
        build_parser().parse_args(argv)
    except SystemExit as exit_:
        if exit_.code not in (0, None):  # --version and --help exit 0
            return f"exit status {exit_.code}"
    return None


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_poundbot_command_in_a_fenced_block_parses(
    page: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = []
    for block in _FENCE.finditer(page.read_text(encoding="utf-8")):
        for line, argv in command_lines(block.group("body")):
            why = rejected(argv)
            if why:
                bad.append(f"{line.strip()}\n    {why}: {capsys.readouterr().err.strip()}")
    capsys.readouterr()
    assert not bad, f"{page.relative_to(ROOT)}: commands poundbot does not take:\n" + "\n".join(bad)


def test_the_pages_show_commands_at_all() -> None:
    found = [
        argv
        for page in PAGES
        for block in _FENCE.finditer(page.read_text(encoding="utf-8"))
        for _, argv in command_lines(block.group("body"))
    ]
    assert len(found) > 40
    assert ["users", "list"] in found
    assert rejected(["users", "lists"])  # the check is live


# -- the chat examples ------------------------------------------------------------------


def command_of(word: str) -> str | None:
    """The command a word (of any language) names."""
    wanted = word.strip("*/ ,").casefold()
    for name, forms in KEYWORDS.items():
        if any(wanted == w.casefold() for words in forms.values() for w in words):
            return name
    return None


def table_rows(text: str) -> list[tuple[list[str], list[str]]]:
    """(header, cells) of each row of each table."""
    rows, header = [], None
    for line in text.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if header is None:
            header = cells
        elif not set(line) <= set("|-: "):
            rows.append((header, cells))
    return rows


def variants(example: str) -> list[str]:
    """An example with its optional ``[parts]`` left out, and with all of them in; a
    ``date`` placeholder given as a date."""
    least, most = example, example
    while "[" in least:
        least = re.sub(r"\s*\[[^\[\]]*\]", "", least)
    while "[" in most:
        most = re.sub(r"\[([^\[\]]*)\]", r"\1", most)
    return [v.replace(" date", " 20-03-2026") for v in dict.fromkeys((least, most))]


def parsed(text: str) -> str:
    config = load()
    try:
        return parse(text, config, TODAY).name
    except ParseError as exc:
        return f"refused: {exc.code} {exc.facts}"


def card_examples() -> list[tuple[str, set[str], str]]:
    """(where, the commands of the row's words, example) of every row of the cards."""
    found = []
    for card in CARDS:
        for header, cells in table_rows(card.read_text(encoding="utf-8")):
            if len(cells) != 3 or "**" not in cells[0]:
                continue
            words = re.findall(r"[^\s/,]+", " ".join(re.findall(r"\*\*([^*]+)\*\*", cells[0])))
            commands = {name for name in map(command_of, words) if name}
            for span in _CODE.findall(cells[2]):
                for example in span.split(" · "):
                    example = example.replace("(+ 📷)", "").strip()
                    found.append((f"{card.name}: {header[0]} {cells[0][:30]}", commands, example))
    return found


def commands_md_examples() -> list[tuple[str, set[str], str]]:
    """(where, {the command}, example) of the first column of each table of
    docs/commands.md that says what its words do; a form with a placeholder (``<field>``,
    ``…``) is a pattern, and a lone word after the first example another name of the
    word, not an example."""
    found = []
    text = (DOCS / "commands.md").read_text(encoding="utf-8")
    for header, cells in table_rows(text):
        if not header[-1].startswith("what it"):
            continue
        for i, span in enumerate(_CODE.findall(cells[0])):
            name = command_of(span.split()[0])
            if name is None or "<" in span or "…" in span:
                continue
            if i and " " not in span:  # another word for it ("also `PIC`"), not an example
                continue
            found += [(f"commands.md: {span}", {name}, example) for example in variants(span)]
    return found


def test_every_chat_example_of_the_cards_and_the_command_words_parses_into_its_order() -> None:
    examples = card_examples() + commands_md_examples()
    assert len(examples) > 150, len(examples)
    wrong = [
        f"{where}: {example!r} is read as {got}, not {' or '.join(sorted(commands))}"
        for where, commands, example in examples
        if (got := parsed(example)) not in commands
    ]
    assert not wrong, "\n".join(wrong)


def test_the_examples_are_checked_in_every_language_of_the_cards() -> None:
    words = {example.split()[0] for _, _, example in card_examples()}
    assert {"DUES", "കുടിശ്ശിക", "கட்டணம்", "ಬಾಕಿ"} <= words
    assert parsed("PAID") != "paid"  # the check is live: a case number is needed


def test_monitoring_names_every_metric_poundbot_counts() -> None:
    from bot.observe.metrics import REGISTRY

    text = (DOCS / "operator" / "monitoring.md").read_text(encoding="utf-8")
    names = {family.name for family in REGISTRY.collect()}
    assert "poundbot_outbox_dlt_refused" in names
    missing = sorted(name for name in names if f"`{name}" not in text)
    assert not missing, f"docs/operator/monitoring.md does not name {missing}"
