"""The Act each authority applies (``[[authorities.acts]]``): read with its dates, each
fault on its line, and named by ``poundbot config check``."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from bot.config import ActInForce, Config, ConfigError, Fault, parse_config, sample_config_path
from bot.entry.cli import main
from domain.profiles import DEFAULT_ACT, Destination, Office, Power, profile

SAMPLE = sample_config_path().read_text(encoding="utf-8")

#: The last line of the sample's first authority (KNM-GP): its [[authorities.acts]]
#: tables are written after it.
KNM_GP_END = 'markets.Chathamangalam = { en = "Chathamangalam Market", ml = "ചാത്തമംഗലം മാർക്കറ്റ്" }\n'

#: KNM-GP applies the amended Kerala Act from 1 June 2026, then the 1871 Act, with three
#: powers transferred by a State's s.31 notification, from 1 January 2027.
TWO_CHANGES = """
[[authorities.acts]]
act = "kerala-1961-amended"
from = 2026-06-01

[[authorities.acts]]
act = "cattle-trespass-1871"
from = 2027-01-01
transferred = ["receive_report", "post_notice", "sell"]
notification = "G.O.(P) No. 12/2027/LSGD, Kerala Gazette 4 January 2027"
"""


def with_acts(acts: str) -> str:
    """The sample with ``acts`` written under its authority KNM-GP."""
    assert KNM_GP_END in SAMPLE
    return SAMPLE.replace(KNM_GP_END, KNM_GP_END + acts, 1)


def faults_of(text: str) -> list[Fault]:
    with pytest.raises(ConfigError) as raised:
        parse_config(text)
    return raised.value.faults


def line_of(text: str, needle: str, after: int = 0) -> int:
    """The 1-based line, past line ``after``, of the first line (not a comment) that
    contains ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if number > after and needle in line and not line.lstrip().startswith("#"):
            return number
    raise AssertionError(f"not in the text: {needle}")


@pytest.fixture(scope="module")
def changed() -> Config:
    return parse_config(with_acts(TWO_CHANGES), "poundbot.toml")


# -- reading ------------------------------------------------------------------------------


def test_without_acts_an_authority_applies_the_kerala_act_as_enacted_from_the_beginning() -> None:
    config = parse_config(SAMPLE)
    for authority in config.authorities.values():
        assert authority.acts == ()
        for day in (date(1961, 1, 1), date(2026, 3, 1), date(2999, 12, 31)):
            assert authority.act_on(day) == ActInForce(date.min, DEFAULT_ACT)
            assert authority.act_on(day).transferred == frozenset()


def test_dated_acts_are_read_in_order_with_the_powers_transferred(changed: Config) -> None:
    assert changed.authorities["KNM-GP"].acts == (
        ActInForce(date(2026, 6, 1), "kerala-1961-amended", frozenset(), ""),
        ActInForce(
            date(2027, 1, 1),
            "cattle-trespass-1871",
            frozenset({Power.RECEIVE_REPORT, Power.POST_NOTICE, Power.SELL}),
            "G.O.(P) No. 12/2027/LSGD, Kerala Gazette 4 January 2027",
        ),
    )
    assert changed.authorities["ENM-GP"].acts == ()  # each authority its own


@pytest.mark.parametrize(
    ("day", "act"),
    [
        (date(2026, 5, 31), "kerala-1961"),  # the day before the first entry
        (date(2026, 6, 1), "kerala-1961-amended"),  # its own day
        (date(2026, 12, 31), "kerala-1961-amended"),
        (date(2027, 1, 1), "cattle-trespass-1871"),
        (date(2031, 8, 15), "cattle-trespass-1871"),  # after the last, the last
    ],
)
def test_the_act_on_a_day_is_the_last_in_force_from_on_or_before_it(
    changed: Config, day: date, act: str
) -> None:
    assert changed.authorities["KNM-GP"].act_on(day).act == act
    assert changed.authorities["ENM-GP"].act_on(day).act == "kerala-1961"


def test_the_powers_are_transferred_only_from_the_day_of_their_notification(
    changed: Config,
) -> None:
    knm = changed.authorities["KNM-GP"]
    assert knm.act_on(date(2026, 12, 31)).transferred == frozenset()
    assert Power.SELL in knm.act_on(date(2027, 1, 1)).transferred
    assert knm.act_on(date(2027, 1, 1)).notification.startswith("G.O.(P) No. 12/2027")


#: KNM-GP applies the 1871 Act from 1 January 2027, with the values its s.20 and s.17
#: leave open set as a State's Gazette says.
SET_1871 = """
[[authorities.acts]]
act = "cattle-trespass-1871"
from = 2027-01-01
complaint_days = 15
surplus_months = 6
surplus_to = "local_fund"
"""


def test_the_values_an_act_leaves_open_are_read_into_the_act_in_force() -> None:
    config = parse_config(with_acts(SET_1871))
    entry = config.authorities["KNM-GP"].act_on(date(2027, 1, 1))
    assert (entry.complaint_days, entry.surplus_months) == (15, 6)
    assert (entry.fines_to, entry.surplus_to) == (None, Destination.LOCAL_FUND)
    act = entry.profile()
    assert (act.complaint_days, act.surplus_months) == (15, 6)
    assert (act.fines_to, act.surplus_to) == (Destination.STATE_REVENUE, Destination.LOCAL_FUND)
    assert act.configured == ("complaint_days", "surplus_months", "surplus_to")
    before = config.authorities["KNM-GP"].act_on(date(2026, 12, 31)).profile()
    assert before is profile(DEFAULT_ACT)


def test_the_act_in_force_has_the_offices_its_notification_transferred(changed: Config) -> None:
    act = changed.authorities["KNM-GP"].act_on(date(2027, 1, 1)).profile()
    assert act.office_for(Power.RECEIVE_REPORT) is Office.LOCAL_AUTHORITY
    assert act.office_for(Power.HOLD_SURPLUS) is Office.DISTRICT_MAGISTRATE


# -- faults -------------------------------------------------------------------------------

ENTRY = '[[authorities.acts]]\nact = "{act}"\nfrom = {since}\n'


@pytest.mark.parametrize(
    ("acts", "at", "message"),
    [
        pytest.param(
            ENTRY.format(act="kerala-1962", since="2027-01-01"),
            'act = "kerala-1962"',
            "authority KNM-GP: acts entry 1: act: 'kerala-1962' is not one of "
            '"kerala-1961", "kerala-1961-amended", "cattle-trespass-1871"',
            id="an unknown act, with the known ones",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961-amended", since='"2027-01-01"'),
            'from = "2027-01-01"',
            "authority KNM-GP: acts entry 1: from: '2027-01-01' is not a date such as 2024-04-01",
            id="a from that is not a date",
        ),
        pytest.param(
            '[[authorities.acts]]\nact = "kerala-1961-amended"\n',
            "[[authorities.acts]]",
            "authority KNM-GP: acts entry 1: missing key 'from'",
            id="no from",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961-amended", since="2027-01-01")
            + ENTRY.format(act="cattle-trespass-1871", since="2027-01-01 # again"),
            "2027-01-01 # again",
            "authority KNM-GP: acts: two entries from 2027-01-01",
            id="two entries on the same day",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961-amended", since="2027-01-01")
            + ENTRY.format(act="cattle-trespass-1871", since="2026-06-01"),
            "from = 2026-06-01",
            "authority KNM-GP: acts entry 2: from 2026-06-01 is before 2027-01-01, the day "
            "of an entry above it: list the Acts in the order they came into force",
            id="entries out of order",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961-amended", since="2027-01-01")
            + 'transferred = ["sell"]\nnotification = "G.O.(P) 1/2027"\n',
            'transferred = ["sell"]',
            "authority KNM-GP: acts entry 1: transferred is read only under "
            '"cattle-trespass-1871" (what a State\'s notification under its s.31 transfers '
            "to the local authority), not under kerala-1961-amended",
            id="transferred under a Kerala profile",
        ),
        pytest.param(
            ENTRY.format(act="cattle-trespass-1871", since="2027-01-01")
            + 'transferred = ["sell", "hear_complaint"]\nnotification = "G.O.(P) 1/2027"\n',
            'transferred = ["sell", "hear_complaint"]',
            "authority KNM-GP: acts entry 1: transferred: 'hear_complaint' is not a power a "
            "notification under s.31 may transfer to the local authority: one of "
            '"receive_report", "post_notice", "sell", "fix_conditions", "order_disposal", '
            '"receive_fines", "hold_surplus"',
            id="a power no notification may transfer",
        ),
        pytest.param(
            ENTRY.format(act="cattle-trespass-1871", since="2027-01-01")
            + 'transferred = ["sel"]\nnotification = "G.O.(P) 1/2027"\n',
            'transferred = ["sel"]',
            "authority KNM-GP: acts entry 1: transferred: 'sel' is not a power: one of "
            '"receive_report", "post_notice", "sell", "fix_conditions", "order_disposal", '
            '"receive_fines", "hold_surplus", "hear_complaint"',
            id="no such power",
        ),
        pytest.param(
            ENTRY.format(act="cattle-trespass-1871", since="2027-01-01")
            + 'transferred = ["sell"]\n',
            'transferred = ["sell"]',
            "authority KNM-GP: acts entry 1: transferred needs notification, the Gazette "
            "reference of the s.31 notification that transfers them",
            id="transferred without its notification",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961", since="2027-01-01") + "complaint_days = 15\n",
            "complaint_days = 15",
            "authority KNM-GP: acts entry 1: complaint_days is not open under kerala-1961: "
            "its text of that provision was found, and the configuration sets only what an "
            "Act's text leaves open (it leaves none)",
            id="complaint days under the Kerala Act as enacted",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961-amended", since="2027-01-01")
            + 'fines_to = "state_revenue"\n',
            'fines_to = "state_revenue"',
            "authority KNM-GP: acts entry 1: fines_to is not open under kerala-1961-amended: "
            "its text of that provision was found, and the configuration sets only what an "
            'Act\'s text leaves open (it leaves open only "surplus_months")',
            id="fines under the amended Kerala Act",
        ),
        pytest.param(
            ENTRY.format(act="cattle-trespass-1871", since="2027-01-01") + "complaint_days = 0\n",
            "complaint_days = 0",
            "authority KNM-GP: acts entry 1: complaint_days: 0 is not a whole number from 1 up",
            id="no days to complain",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961-amended", since="2027-01-01") + "surplus_months = -3\n",
            "surplus_months = -3",
            "authority KNM-GP: acts entry 1: surplus_months: -3 is not a whole number from 1 up",
            id="months below one",
        ),
        pytest.param(
            ENTRY.format(act="cattle-trespass-1871", since="2027-01-01")
            + 'surplus_to = "panchayat"\n',
            'surplus_to = "panchayat"',
            "authority KNM-GP: acts entry 1: surplus_to: 'panchayat' is not one of "
            '"local_fund", "state_revenue"',
            id="an unknown destination",
        ),
        pytest.param(
            'acts = "kerala-1961-amended"\n',
            'acts = "kerala-1961-amended"',
            "authority KNM-GP: acts must be one or more [[authorities.acts]] tables",
            id="acts that are no tables",
        ),
        pytest.param(
            ENTRY.format(act="kerala-1961-amended", since="2027-01-01") + "frm = 1\n",
            "frm = 1",
            "authority KNM-GP: acts entry 1: unknown key 'frm' (did you mean 'from'?)",
            id="a misspelt key",
        ),
    ],
)
def test_each_fault_of_the_acts_is_found_on_its_line(acts: str, at: str, message: str) -> None:
    text = with_acts(acts)
    line = line_of(text, at, after=line_of(text, KNM_GP_END.strip()))
    faults = faults_of(text)
    assert Fault(line, message) in faults, faults


def test_the_acts_of_a_later_authority_are_found_on_their_own_lines() -> None:
    """A fault in the acts of the second authority is on its line, not the first's."""
    end = 'market_place = { en = "Perla Market, Perla Town"'
    start = SAMPLE.index(end)
    stop = SAMPLE.index("\n", SAMPLE.index("default_language", start)) + 1
    text = SAMPLE[:stop] + ENTRY.format(act="kerala", since="2027-01-01") + SAMPLE[stop:]
    assert faults_of(text) == [
        Fault(
            line_of(text, 'act = "kerala"'),
            "authority ENM-GP: acts entry 1: act: 'kerala' is not one of "
            '"kerala-1961", "kerala-1961-amended", "cattle-trespass-1871"',
        )
    ]


# -- poundbot config check ---------------------------------------------------------------

KERALA = (
    "Act kerala-1961 (Kerala Cattle Trespass Act, 1961 (Act 26 of 1961), as enacted (the text "
    "the project was given))"
)
AMENDED = (
    "Act kerala-1961-amended (Kerala Cattle Trespass Act, 1961 (Act 26 of 1961), as amended "
    "by Acts 18 of 1975, 7 of 1980 and 16 of 2000)"
)
CENTRAL = (
    "Act cattle-trespass-1871 (Cattle-trespass Act, 1871 (Act 1 of 1871), as in force, with "
    "the 1921 s.12)"
)


def notes(key: str) -> list[str]:
    """The NOTE lines of an Act: its caution, then each provision to confirm."""
    act = profile(key)
    return [
        f"NOTE {key}: {act.caution}",
        *(
            f"NOTE {key}: to be confirmed from the Gazette: {gap.cited}: {gap.what}"
            for gap in act.gaps
        ),
    ]


def unset_1871(code: str, since: str) -> list[str]:
    """The NOTE lines of an authority's 1871 Act that sets none of what it leaves open."""
    head = f"NOTE {code}: cattle-trespass-1871 from {since}:"
    telugu = "taken from the official Telugu translation of s.17"
    confirm = "to be confirmed from the Gazette"
    return [
        f"{head} days to complain (s.20): 10 days (not set: taken from the Kerala Act's "
        f"s.19; set complaint_days); {confirm}",
        f"{head} months the surplus is held (s.17 para 3): 3 months (not set: {telugu}; "
        f"set surplus_months); {confirm}",
        f"{head} fines go to (s.17 para 1): State revenue (not set: {telugu}; set "
        f"fines_to); {confirm}",
        f"{head} the unclaimed surplus goes to (s.17 para 3): State revenue (not set: "
        f"{telugu}; set surplus_to); {confirm}",
    ]


def checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *options: str
) -> tuple[int, list[str], str]:
    """``config check``'s exit status, its lines on stdout without the file's name, and
    its stderr."""
    path = tmp_path / "poundbot.toml"
    path.write_text(text, encoding="utf-8")
    status = main(["config", "check", *options, str(path)])
    out, err = capsys.readouterr()
    prefix = f"{path}: "
    assert all(line.startswith(prefix) for line in out.splitlines()), out
    return status, [line.removeprefix(prefix) for line in out.splitlines()], err


def test_config_check_names_the_act_of_each_authority_and_what_to_confirm_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, _ = checked(tmp_path, capsys, SAMPLE)
    assert status == 0
    assert lines[2:] == [
        f"KNM-GP: {KERALA} from the beginning",
        f"ENM-GP: {KERALA} from the beginning",
        f"VTV-GP: {KERALA} from the beginning",
        *notes("kerala-1961"),
    ]
    assert lines[-1].startswith("NOTE kerala-1961: to be confirmed from the Gazette: s.18: ")


def test_config_check_names_each_dated_act_the_powers_transferred_and_each_acts_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, _ = checked(tmp_path, capsys, with_acts(TWO_CHANGES))
    assert status == 0
    acts = [line for line in lines if not line.startswith(("OK", "DLT", "NOTE"))]
    assert acts == [
        f"KNM-GP: {KERALA} from the beginning",
        f"KNM-GP: {AMENDED} from 2026-06-01",
        f"KNM-GP: {CENTRAL} from 2027-01-01",
        "KNM-GP: from 2027-01-01, the s.31 notification G.O.(P) No. 12/2027/LSGD, Kerala "
        "Gazette 4 January 2027 transfers to the local authority: receive_report (s.14 para "
        "1), post_notice (s.14 para 2), sell (s.14 para 3)",
        f"ENM-GP: {KERALA} from the beginning",
        f"VTV-GP: {KERALA} from the beginning",
    ]
    assert [line for line in lines if line.startswith("NOTE")] == [
        *notes("kerala-1961"),  # each Act once, in the order named
        *notes("kerala-1961-amended"),
        *notes("cattle-trespass-1871"),
        # what the Acts leave open, as each authority has it
        "NOTE KNM-GP: kerala-1961-amended from 2026-06-01: months the surplus is held "
        "(s.16(3)): 3 months (not set: taken from the Act as enacted; set surplus_months); "
        "to be confirmed from the Gazette",
        *unset_1871("KNM-GP", "2027-01-01"),
        # s.13(3) proviso: the offices no [[proviso_offices]] table names, poundbot's
        "NOTE [[proviso_offices]]: another disposal under kerala-1961-amended is ordered by "
        'the local_authority, which no table names: poundbot\'s office "Local authority" '
        '(BY LOCAL-AUTHORITY); a table with office = "local_authority" names it otherwise',
        "NOTE [[proviso_offices]]: another disposal under cattle-trespass-1871 is ordered by "
        "the district_magistrate, which no table names: poundbot's office \"District "
        'Magistrate" (BY DM); a table with office = "district_magistrate" names it otherwise',
    ]
    assert any(  # the 1871 Act's own citation of the gap
        line.startswith("NOTE cattle-trespass-1871: to be confirmed from the Gazette: s.20: ")
        for line in lines
    )


def test_the_notes_of_the_acts_are_no_warnings_a_strict_check_passes_on_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notified = with_acts(TWO_CHANGES).replace(
        "SAMPLE figure, not law: replace from", "as notified in"
    )
    status, lines, err = checked(tmp_path, capsys, notified, "--strict")
    assert (status, err) == (0, "")
    assert any(line.startswith("NOTE cattle-trespass-1871: ") for line in lines)


# -- poundbot config show ----------------------------------------------------------------


def test_config_show_shows_the_acts_of_the_file_and_the_default_of_the_others(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = with_acts(TWO_CHANGES)
    path = tmp_path / "poundbot.toml"
    path.write_text(text, encoding="utf-8")
    assert main(["config", "show", str(path)]) == 0
    rows = {
        line.split(" = ")[0]: line.split(" = ", 1)[1]
        for line in capsys.readouterr().out.splitlines()[2:]
    }
    act = line_of(text, 'act = "cattle-trespass-1871"')
    assert rows["authorities[KNM-GP].acts[1].act"].split() == [
        '"cattle-trespass-1871"',
        "#",
        "line",
        str(act),
    ]
    assert rows["authorities[KNM-GP].acts[1].from"].startswith("2027-01-01 ")
    assert rows["authorities[KNM-GP].acts[1].transferred"].startswith(
        '["receive_report", "post_notice", "sell"] '
    )
    assert "authorities[KNM-GP].acts" not in rows  # the file's, not the default
    assert rows["authorities[ENM-GP].acts"].split() == [
        "[{",
        "act",
        "=",
        '"kerala-1961"',
        "}]",
        "#",
        "default",
    ]


def test_config_check_says_each_value_set_is_as_configured_and_to_be_confirmed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, lines, _ = checked(tmp_path, capsys, with_acts(SET_1871))
    assert status == 0
    head = "NOTE KNM-GP: cattle-trespass-1871 from 2027-01-01:"
    assert [line for line in lines if line.startswith(head)] == [
        f"{head} days to complain (s.20): 15 days (as configured; confirm from the Gazette)",
        f"{head} months the surplus is held (s.17 para 3): 6 months (as configured; confirm "
        "from the Gazette)",
        f"{head} fines go to (s.17 para 1): State revenue (not set: taken from the official "
        "Telugu translation of s.17; set fines_to); to be confirmed from the Gazette",
        f"{head} the unclaimed surplus goes to (s.17 para 3): the local fund (as "
        "configured; confirm from the Gazette)",
    ]
    assert not [line for line in lines if line.startswith("NOTE ENM-GP")]  # Kerala: none
