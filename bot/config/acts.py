"""What ``poundbot config check`` says of the Acts the authorities apply: each
authority's Act from each day (``[[authorities.acts]]``), the powers a State's s.31
notification transfers to it, once for each Act named what the operator must confirm of
it from the Gazette (``domain.profiles``: its caution and its gaps), for each authority
the value in force of each that its Act leaves open (set, or the profile's and whence),
and the office poundbot supplies where an Act in use gives the power to order another
disposal (s.13(3) proviso) to an office no ``[[proviso_offices]]`` table names.

These are notes, not warnings: the choice of an Act is the operator's, and ``config
check --strict`` passes on them.
"""

from __future__ import annotations

from datetime import date

from bot.config.model import PROVISO_DEFAULTS, ActInForce, Authority, Config
from domain.profiles import POWER_PROVISIONS, Destination, Office, Power, Profile, profile

__all__ = ["act_lines"]

#: Each value an Act may leave open (``domain.profiles.SETTINGS``): what it is, for the
#: operator, and the Kerala provision it is given under.
_SETTING_WORDS = {
    "complaint_days": ("days to complain", "s.19"),
    "surplus_months": ("months the surplus is held", "s.16(3)"),
    "fines_to": ("fines go to", "s.16(1)"),
    "surplus_to": ("the unclaimed surplus goes to", "s.17(1)"),
}
_DESTINATION_WORDS = {
    Destination.LOCAL_FUND: "the local fund",
    Destination.STATE_REVENUE: "State revenue",
}


def act_lines(config: Config) -> list[str]:
    """The lines ``config check`` prints of the Acts: ``KNM-GP: Act kerala-1961 (...) from
    the beginning`` for each authority and each of its entries, then the ``NOTE`` lines
    of each Act named, then one for each office poundbot supplies."""
    lines: list[str] = []
    settings: list[str] = []  # the values in force of what each authority's Acts leave open
    named: dict[str, Profile] = {}  # each Act named, in the order first named
    ordering: dict[Office, list[str]] = {}  # each office that orders a disposal -> under
    for code, authority in config.authorities.items():
        for entry in _entries(authority):
            act = named.setdefault(entry.act, profile(entry.act))
            held = act.office_for(Power.ORDER_DISPOSAL, entry.transferred)
            under = (
                act.key
                if held is act.offices[Power.ORDER_DISPOSAL]
                else f"{act.key} (by a s.31 transfer)"
            )
            ordering.setdefault(held, []).append(under)
            since = "the beginning" if entry.since == date.min else entry.since.isoformat()
            lines.append(f"{code}: Act {act.key} ({act.title}, {act.version}) from {since}")
            if entry.transferred or entry.notification:
                lines.append(f"{code}: {_transfer(act, entry)}")
            settings += [f"NOTE {code}: {act.key} from {since}: {s}" for s in _settings(entry)]
    for act in named.values():
        if act.caution:
            lines.append(f"NOTE {act.key}: {act.caution}")
        for gap in act.gaps:
            lines.append(
                f"NOTE {act.key}: to be confirmed from the Gazette: {gap.cited}: {gap.what}"
            )
    lines += settings
    for office in config.proviso_offices:
        if office is PROVISO_DEFAULTS[office.office]:  # poundbot's, not a table's
            under = ", ".join(dict.fromkeys(ordering.get(office.office, ())))
            lines.append(
                f"NOTE [[proviso_offices]]: another disposal under {under} is ordered by "
                f"the {office.office.value}, which no table names: poundbot's office "
                f'"{office.name}" (BY {office.code}); a table with office = '
                f'"{office.office.value}" names it otherwise'
            )
    return lines


def _entries(authority: Authority) -> list[ActInForce]:
    """The authority's Acts, the Act in force before the first of them included."""
    first = authority.act_on(date.min)
    return [first, *authority.acts] if first not in authority.acts else list(authority.acts)


def _transfer(act: Profile, entry: ActInForce) -> str:
    """What a State's s.31 notification transfers to the local authority, each power with
    the Act's own citation: ``from 2027-01-01, the s.31 notification G.O.(P) 12/2027
    transfers to the local authority: sell (s.14 para 3)``."""
    powers = [p for p in Power if p in entry.transferred]
    listed = ", ".join(
        f"{p.value} ({act.cites(POWER_PROVISIONS[p]) or POWER_PROVISIONS[p]})" for p in powers
    )
    what = f"transfers to the local authority: {listed}" if powers else "transfers no power"
    return f"from {entry.since.isoformat()}, the s.31 notification {entry.notification} {what}"


def _settings(entry: ActInForce) -> list[str]:
    """Each value the entry's Act leaves open, as in force from the entry's day: ``days
    to complain (s.20): 15 days (as configured; confirm from the Gazette)``, or the
    profile's, whence it is taken and the key that sets it."""
    bare, act = profile(entry.act), entry.profile()
    said = []
    for name in act.settable:
        what, provision = _SETTING_WORDS[name]
        value = getattr(act, name)
        if isinstance(value, Destination):
            shown = _DESTINATION_WORDS[value]
        else:
            shown = f"{value} {'days' if name == 'complaint_days' else 'months'}"
        if name in act.configured:
            how = "(as configured; confirm from the Gazette)"
        else:
            taken = next(gap.taken for gap in bare.gaps if name in gap.settings)
            how = f"(not set: {taken}; set {name}); to be confirmed from the Gazette"
        said.append(f"{what} ({act.cites(provision) or provision}): {shown} {how}")
    return said
