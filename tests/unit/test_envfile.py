"""The environment file is read as systemd reads ``EnvironmentFile=`` (systemd.exec(5)):
the examples below are the man page's rules, one by one, and the values an operator
writes (secrets with ``$ ; & #``, a keyword with a space)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.support.envfile import EnvFileError, parse_env_file

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def values(text: str) -> dict[str, str]:
    return parse_env_file(text).values


@pytest.mark.parametrize(
    ("line", "value"),
    [
        # Unquoted: interior whitespace kept, leading and trailing dropped.
        ("A=KL POUND", "KL POUND"),
        ("A=   KL  POUND \t ", "KL  POUND"),
        ("A = spaced", "spaced"),
        # Characters a shell would act on are plain characters.
        ("A=p@ss$word;rm -rf&x|y#z", "p@ss$word;rm -rf&x|y#z"),
        ("A=$HOME", "$HOME"),
        ("A=${HOME}/x", "${HOME}/x"),
        ("A=a # not a comment", "a # not a comment"),
        ("A=`id`", "`id`"),
        ("A=a=b=c", "a=b=c"),
        # Quotes after the first character are kept.
        ('A=it"s', 'it"s'),
        ("A=it's", "it's"),
        ('A=x "y"', 'x "y"'),
        # A backslash keeps the next character (unquoted).
        (r"A=a\\b", "a\\b"),
        (r"A=a\ ", "a "),
        (r"A=\$x", "$x"),
        (r"A=a\nb", "anb"),
        # Single quotes: verbatim, no escapes; whitespace outside them dropped.
        ("A='  padded  '", "  padded  "),
        (r"A='a\nb\\'", r"a\nb\\"),
        ("A= 'x' ", "x"),
        ("A='$HOME;&#'", "$HOME;&#"),
        # Double quotes: \" \\ \$ \` unescaped, other backslashes kept.
        (r'A="say \"hi\""', 'say "hi"'),
        (r'A="a\\b"', "a\\b"),
        (r'A="\$HOME"', "$HOME"),
        (r'A="\`x\`"', "`x`"),
        (r'A="a\nb"', r"a\nb"),
        ('A="$HOME"', "$HOME"),
        ('A="x # y ; z & w"', "x # y ; z & w"),
        # After a closing quote the value goes on.
        ("A=\"x\"'y'z", "xyz"),
        ('A="x" "y"', "xy"),
        # Empty.
        ("A=", ""),
        ('A=""', ""),
        ("A=   ", ""),
    ],
)
def test_a_value_is_read_as_systemd_reads_it(line: str, value: str) -> None:
    assert values(line + "\n") == {"A": value}
    assert values(line) == {"A": value}  # without a final newline too


def test_comments_blank_lines_and_lines_without_an_equals_sign_are_ignored() -> None:
    text = "# a comment\n; another\n   # indented\n\nJUST_A_WORD\nA=1\n\t\nB=2 ; kept\n"
    assert values(text) == {"A": "1", "B": "2 ; kept"}


def test_leading_whitespace_of_a_line_is_dropped() -> None:
    assert values("   A=1\n\tB=2\n") == {"A": "1", "B": "2"}


def test_a_backslash_at_the_end_of_a_line_continues_the_value() -> None:
    assert values("A=first \\\n  second\nB=3\n") == {"A": "first   second", "B": "3"}
    assert values('A="one \\\ntwo"\n') == {"A": "one two"}


def test_quoted_values_may_span_lines() -> None:
    assert values("A='line 1\nline 2'\nB=x\n") == {"A": "line 1\nline 2", "B": "x"}
    assert values('A="line 1\nline 2"\n') == {"A": "line 1\nline 2"}


def test_windows_line_ends_are_line_ends() -> None:
    assert values("A=1\r\nB=two words\r\n") == {"A": "1", "B": "two words"}


def test_the_last_assignment_of_a_name_wins() -> None:
    assert values("A=1\nB=2\nA=3\n") == {"B": "2", "A": "3"}


def test_an_invalid_name_is_ignored_with_a_note() -> None:
    read = parse_env_file("1A=x\nMY-VAR=y\nexport B=z\nOK=1\n")
    assert read.values == {"OK": "1"}
    assert len(read.notes) == 3
    assert read.notes[0].startswith("line 1: '1A' is not a variable name")
    assert "'export B'" in read.notes[2]


def test_a_comment_ending_with_a_backslash_is_noted_as_systemd_versions_differ() -> None:
    read = parse_env_file("# old value \\\nA=1\n")
    assert read.values == {"A": "1"}
    (note,) = read.notes
    assert note.startswith("line 1: a comment ends with a backslash")
    assert "252" in note


def test_a_quote_never_closed_runs_to_the_end_and_is_noted() -> None:
    read = parse_env_file("A='abc\nB=1\n")
    assert read.values == {"A": "abc\nB=1\n"}
    assert "never closed" in read.notes[0]


@pytest.mark.parametrize(
    ("data", "fault"),
    [
        (b"A=\xff\n", "not UTF-8"),
        (b"A=1\nB=x\x00y\n", "line 2 holds a NUL"),
        ("\ufeffA=1\n".encode(), "byte order mark"),
    ],
)
def test_a_file_systemd_refuses_is_refused(data: bytes, fault: str) -> None:
    with pytest.raises(EnvFileError, match=fault):
        parse_env_file(data, "env")


def test_the_example_file_reads_without_a_note_and_with_what_it_says() -> None:
    text = (DEPLOY / "env.example").read_text(encoding="utf-8")
    read = parse_env_file(text)
    assert read.notes == []
    assert read.values["POUNDBOT_CONFIG"] == "/etc/poundbot/poundbot.toml"
    assert read.values["TELEGRAM_BOT_TOKEN"] == ""
    # Its Mobile Seva keyword, uncommented, is the keyword with its space.
    keyword = next(line for line in text.splitlines() if line.startswith("#MSEVA_KEYWORD="))
    assert values(keyword.lstrip("#")) == {"MSEVA_KEYWORD": "KL POUND"}
    assert "no quotes needed" not in text
