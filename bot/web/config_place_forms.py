"""The forms of the configuration's places and kinds on the web desk, as values: an
authority, a pound or a kind of cattle read from the TOML document into the fields of a
form (text as typed), and the fields of a posted form made into the change
(``bot.services.config_edit.Edit``) that sets them, comments kept (``bot.config.edit``).

Pure: no request, no database. A form is a ``dict`` of its fields by name, text as the
browser sends it: a name per language is ``name.en``, ``name.ml``, ...; a market place
per village is the rows ``market.village.N`` and ``market.<lang>.N``; a pound's languages
``lang.1`` to ``lang.4`` in the order its notices print them; the members of an
authority and the words of a kind one a line. The checks of an imported configuration
(``parse_config``) still check the result; ``faults`` here are only what those checks
cannot say in the desk's words (a code taken, a village without its market).

Why it is long: three kinds of entity, each read into a form and written back.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, MutableMapping
from datetime import date
from typing import Any

import tomlkit
from tomlkit.items import AoT, Table
from tomlkit.toml_document import TOMLDocument

from bot.config.edit import Change, Value, add_table, set_fields, shown, table_of
from bot.config.model import AuthorityKind
from bot.support.languages import LANGUAGES

__all__ = [
    "AUTHORITY_CODE",
    "FORM_LANGUAGES",
    "KIND_CODE",
    "POUND_CODE",
    "Form",
    "authority_form",
    "authority_languages",
    "edit_authority",
    "edit_kind",
    "edit_pound",
    "kind_form",
    "market_rows",
    "plain",
    "pound_form",
    "pound_languages",
    "tariff_authority",
    "tariff_names",
]

Form = dict[str, str]

#: The order of the inputs of a text per language: English (always given) first.
FORM_LANGUAGES = ("en", *(lang for lang in LANGUAGES if lang != "en"))
#: The codes as the checks read them (``bot.config.reader``).
AUTHORITY_CODE = re.compile(r"[A-Z][A-Z0-9-]{1,15}")
POUND_CODE = re.compile(r"[A-Z]{2,6}")
KIND_CODE = re.compile(r"[a-z][a-z0-9_]*")
#: The fields of an authority and of a pound that are a text per language.
AUTHORITY_NAMES = ("name", "office_address", "village", "market_place")
POUND_NAMES = ("name", "address", "hours")
#: The blank rows of villages a form offers beyond those listed.
_BLANK_MARKETS = 2


def plain(value: Any) -> Any:
    """A tomlkit item as plain Python."""
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


def _ordered(languages: Iterable[str]) -> tuple[str, ...]:
    wanted = set(languages) | {"en"}
    return tuple(lang for lang in FORM_LANGUAGES if lang in wanted)


def _languages_of(value: Any) -> set[str]:
    return {str(lang) for lang in value} if isinstance(value, dict) else set()


def _pounds_of(document: TOMLDocument, authority: str) -> list[dict[str, Any]]:
    tables = document.get("pounds")
    if not isinstance(tables, AoT):
        return []
    return [plain(t) for t in tables if isinstance(t, Table) and t.get("authority") == authority]


def authority_languages(document: TOMLDocument, code: str | None) -> tuple[str, ...]:
    """The languages an authority's texts are typed in: English, those of its pounds'
    notices, its own language and any its texts have already (a new one: all)."""
    found = table_of(document, "authorities", code) if code else None
    if found is None:
        return FORM_LANGUAGES
    table = plain(found)
    languages: set[str] = {str(table.get("default_language", "en"))}
    for pound in _pounds_of(document, code or ""):
        languages |= {str(lang) for lang in pound.get("languages", [])}
    for field in AUTHORITY_NAMES:
        languages |= _languages_of(table.get(field))
    for market in dict(table.get("markets") or {}).values():
        languages |= _languages_of(market)
    return _ordered(lang for lang in languages if lang in FORM_LANGUAGES)


def pound_languages(document: TOMLDocument, code: str | None) -> tuple[str, ...]:
    """The languages a pound's texts are typed in: English, its notices' and any its
    texts have already (a new one: all)."""
    found = table_of(document, "pounds", code) if code else None
    if found is None:
        return FORM_LANGUAGES
    table = plain(found)
    languages = {str(lang) for lang in table.get("languages", [])}
    for field in POUND_NAMES:
        languages |= _languages_of(table.get(field))
    for market in dict(table.get("markets") or {}).values():
        languages |= _languages_of(market)
    return _ordered(lang for lang in languages if lang in FORM_LANGUAGES)


# -- from the document to a form ----------------------------------------------------------


def _name_fields(form: Form, field: str, value: Any, languages: Iterable[str]) -> None:
    for lang in languages:
        if isinstance(value, dict):
            form[f"{field}.{lang}"] = str(value.get(lang, ""))
        else:
            form[f"{field}.{lang}"] = str(value) if lang == "en" and value is not None else ""


def _market_fields(form: Form, markets: Any, languages: Iterable[str]) -> None:
    listed = dict(markets or {})
    for n, (village, market) in enumerate(listed.items()):
        form[f"market.village.{n}"] = str(village)
        _name_fields(form, f"market.{n}", market, languages)


def market_rows(form: Form) -> list[int]:
    """The rows of villages a form shows: those filled in, then blank ones."""
    filled = [
        int(k.rsplit(".", 1)[1])
        for k, v in form.items()
        if re.fullmatch(r"market\.village\.\d+", k) and v.strip()
    ]
    last = max(filled, default=-1)
    return list(range(last + 1 + _BLANK_MARKETS))


def authority_form(document: TOMLDocument, code: str) -> Form:
    """The fields of authority ``code`` as its form shows them (empty: none)."""
    found = table_of(document, "authorities", code)
    table = plain(found) if found is not None else {}
    languages = authority_languages(document, code)
    form: Form = {"code": code}
    for field in AUTHORITY_NAMES:
        _name_fields(form, field, table.get(field), languages)
    for field in ("kind", "district", "default_language", "expected_sale_expenses"):
        value = table.get(field)
        form[field] = "" if value is None else str(value)
    form["members"] = "\n".join(str(m) for m in table.get("members") or [])
    _market_fields(form, table.get("markets"), languages)
    return form


def pound_form(document: TOMLDocument, code: str) -> Form:
    """The fields of pound ``code`` as its form shows them."""
    found = table_of(document, "pounds", code)
    table = plain(found) if found is not None else {}
    languages = pound_languages(document, code)
    form: Form = {"code": code}
    for field in POUND_NAMES:
        _name_fields(form, field, table.get(field), languages)
    for field in ("authority", "phone", "tariff"):
        value = table.get(field)
        form[field] = "" if value is None else str(value)
    for n, lang in enumerate(table.get("languages") or [], start=1):
        form[f"lang.{n}"] = str(lang)
    _market_fields(form, table.get("markets"), languages)
    return form


def kind_form(document: TOMLDocument, code: str) -> Form:
    """The fields of kind ``code`` as its form shows them."""
    found = table_of(document, "kinds", code)
    table = plain(found) if found is not None else {}
    form: Form = {"code": code, "adult": str(table.get("adult") or "")}
    _name_fields(form, "name", table.get("name"), FORM_LANGUAGES)
    words = dict(table.get("words") or {})
    for lang in FORM_LANGUAGES:
        form[f"words.{lang}"] = "\n".join(str(w) for w in words.get(lang) or [])
    return form


# -- from a form to values --------------------------------------------------------------


def _text(form: Mapping[str, str], field: str) -> str | None:
    value = " ".join(form.get(field, "").split())
    return value or None


def _named(form: Mapping[str, str], field: str, languages: Iterable[str], old: Any) -> Value:
    """A text per language from its inputs: plain text when only the English one is
    typed and the text was plain (or new); None when none is."""
    forms = {lang: _text(form, f"{field}.{lang}") for lang in languages}
    given = {lang: text for lang, text in forms.items() if text is not None}
    if not given:
        return None
    if list(given) == ["en"] and not isinstance(plain(old), dict):
        return given["en"]
    return given


def _lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines() if line.strip()]


def _kept(old: Any, new: Value) -> Value:
    """``new``, or the value it already is written otherwise (``500`` for "500")."""
    before = plain(old)
    plain_scalar = before is not None and not isinstance(before, dict | list)
    if new is not None and plain_scalar and str(before) == new:
        return before if isinstance(before, str | int) else new
    return new


def _markets(form: Mapping[str, str], languages: Iterable[str], old: Any) -> dict[str, Value]:
    """The villages and their market places as typed, in order; a village without its
    market place gives "" (a fault of ``markets_faults``)."""
    before = dict(plain(old) or {})
    found: dict[str, Value] = {}
    rows = sorted(
        int(k.rsplit(".", 1)[1]) for k in form if re.fullmatch(r"market\.village\.\d+", k)
    )
    for n in rows:
        village = _text(form, f"market.village.{n}")
        if village is None:
            continue
        market = _named(form, f"market.{n}", languages, before.get(village))
        found[village] = market if market is not None else ""
    return found


def markets_faults(form: Mapping[str, str], languages: Iterable[str]) -> list[str]:
    """The villages typed without their market place (or twice)."""
    markets = _markets(form, languages, None)
    missing = [village for village, market in markets.items() if market == ""]
    return missing


def _set_markets(
    table: MutableMapping[str, Any],
    markets: dict[str, Value],
    *,
    authority: str | None,
    entity: str,
    key: str,
) -> list[Change]:
    """A table's villages and market places set to ``markets`` (none: the key goes)."""
    old = table.get("markets")
    if not markets:
        if old is None:
            return []
        before = shown(old)
        del table["markets"]
        return [Change(authority, entity, key, "markets", before, None)]
    if isinstance(old, MutableMapping) and len(old):
        fields: dict[str, Value] = {village: None for village in old if village not in markets}
        fields |= markets
        done: list[Change] = []
        for village, market in fields.items():
            # One village at a time, the table looked up again each time: the proxy of
            # dotted keys (markets.X = ...) is stale once a key of it is deleted.
            listed = table["markets"]
            made = set_fields(
                listed, {village: market}, authority=authority, entity=entity, key=key
            )
            done += [change._replace(field=f"markets.{change.field}") for change in made]
        return done
    inline = tomlkit.inline_table()
    for village, market in markets.items():
        if isinstance(market, dict):
            forms = tomlkit.inline_table()
            forms.update(market)
            inline[village] = forms
        else:
            inline[village] = market
    before = shown(old)
    table["markets"] = inline
    return [Change(authority, entity, key, "markets", before, shown(inline))]


def _languages(form: Mapping[str, str]) -> list[str]:
    chosen = [form.get(f"lang.{n}", "").strip() for n in range(1, len(LANGUAGES) + 1)]
    return [lang for lang in chosen if lang]


# -- the changes ----------------------------------------------------------------------


def edit_authority(
    document: TOMLDocument, form: Mapping[str, str], code: str, *, new: bool
) -> list[Change]:
    """Authority ``code`` set (``new``: added) as ``form`` says; its code and its Acts
    are never changed here."""
    languages = authority_languages(document, None if new else code)
    table: MutableMapping[str, Any] | None = table_of(document, "authorities", code)
    old: Mapping[str, Any] = table if table is not None and not new else {}
    fields: dict[str, Value] = {}
    for field in AUTHORITY_NAMES:
        fields[field] = _named(form, field, languages, old.get(field))
    fields["kind"] = _text(form, "kind")
    fields["district"] = _kept(old.get("district"), _text(form, "district"))
    fields["default_language"] = _text(form, "default_language")
    expenses = _text(form, "expected_sale_expenses")
    fields["expected_sale_expenses"] = _kept(old.get("expected_sale_expenses"), expenses)
    members = _lines(form.get("members", ""))
    fields["members"] = members or ([] if plain(old.get("members")) == [] else None)
    markets = _markets(form, languages, old.get("markets"))
    if new or table is None:
        made = add_table(
            document, "authorities", {"code": code, **fields}, authority=code, entity="authority"
        )
        added = table_of(document, "authorities", code)
        assert added is not None
        return made + _set_markets(added, markets, authority=code, entity="authority", key=code)
    done = set_fields(table, fields, authority=code, entity="authority", key=code)
    return done + _set_markets(table, markets, authority=code, entity="authority", key=code)


def edit_pound(
    document: TOMLDocument, form: Mapping[str, str], code: str, *, new: bool
) -> list[Change]:
    """Pound ``code`` set (``new``: added, of the form's authority and tariff) as
    ``form`` says; its code, authority and tariff are never changed here."""
    languages = pound_languages(document, None if new else code)
    table: MutableMapping[str, Any] | None = table_of(document, "pounds", code)
    old: Mapping[str, Any] = table if table is not None and not new else {}
    authority = str(old.get("authority") or _text(form, "authority") or "")
    fields: dict[str, Value] = {}
    for field in POUND_NAMES:
        fields[field] = _named(form, field, languages, old.get(field))
    fields["phone"] = _kept(old.get("phone"), _text(form, "phone"))
    chosen = _languages(form)
    fields["languages"] = chosen or None
    markets = _markets(form, languages, old.get("markets"))
    if new or table is None:
        added_fields: dict[str, Value] = {
            "code": code,
            "name": fields["name"],
            "authority": authority or None,
            "address": fields["address"],
            "languages": fields["languages"],
            "tariff": _text(form, "tariff"),
            "phone": fields["phone"],
            "hours": fields["hours"],
        }
        made = add_table(document, "pounds", added_fields, authority=authority, entity="pound")
        added = table_of(document, "pounds", code)
        assert added is not None
        return made + _set_markets(added, markets, authority=authority, entity="pound", key=code)
    done = set_fields(table, fields, authority=authority, entity="pound", key=code)
    return done + _set_markets(table, markets, authority=authority, entity="pound", key=code)


def tariff_names(document: TOMLDocument) -> list[str]:
    """The names of the tariff tables, in order."""
    tariffs = document.get("tariffs")
    return [str(name) for name in tariffs] if isinstance(tariffs, dict) else []


def tariff_authority(document: TOMLDocument, name: str) -> str | None:
    """The authority whose tariff ``name`` is: the one of that code, else that of the
    first pound that applies it (None: none)."""
    if table_of(document, "authorities", name) is not None:
        return name
    tables = document.get("pounds")
    for pound in tables if isinstance(tables, AoT) else []:
        if pound.get("tariff") == name:
            return str(pound.get("authority"))
    return None


def edit_kind(
    document: TOMLDocument,
    form: Mapping[str, str],
    code: str,
    *,
    new: bool,
    rates_from: date | None = None,
) -> list[Change]:
    """Kind ``code`` set (``new``: added, with its adult kind and, from ``rates_from``,
    the fine and feeding rate typed for each tariff) as ``form`` says."""
    table: MutableMapping[str, Any] | None = table_of(document, "kinds", code)
    old: Mapping[str, Any] = table if table is not None and not new else {}
    name = _named(form, "name", FORM_LANGUAGES, old.get("name"))
    words = {lang: _lines(form.get(f"words.{lang}", "")) for lang in FORM_LANGUAGES}
    if new or table is None:
        made = add_table(
            document,
            "kinds",
            {"code": code, "name": name, "adult": _text(form, "adult")},
            authority=None,
            entity="kind",
        )
        added = table_of(document, "kinds", code)
        assert added is not None
        given = {lang: listed for lang, listed in words.items() if listed}
        if given:
            inline = tomlkit.inline_table()
            for lang, listed in given.items():
                inline[lang] = listed
            added["words"] = inline
            made.append(Change(None, "kind", code, "words", None, shown(inline)))
        return made + _rates(document, form, code, rates_from)
    done = set_fields(table, {"name": name}, authority=None, entity="kind", key=code)
    for lang in FORM_LANGUAGES:
        # One language at a time, the table looked up again each time (as the markets).
        present = table.get("words")
        if not isinstance(present, MutableMapping):
            break
        if not words[lang] and lang not in present:
            continue
        if not words[lang] and len(present) == 1:
            done += set_fields(table, {"words": None}, authority=None, entity="kind", key=code)
            break
        fields = {lang: words[lang] or None}
        by_lang = set_fields(present, fields, authority=None, entity="kind", key=code)
        done += [change._replace(field=f"words.{change.field}") for change in by_lang]
    return done


def _rates(
    document: TOMLDocument, form: Mapping[str, str], kind: str, since: date | None
) -> list[Change]:
    """The first fine (s.11) and feeding rate (s.4) of a new kind in each tariff, as
    typed (``fine.<tariff>``, ``feeding.<tariff>``), from ``since``, with the form's
    ``source``."""
    source = _text(form, "source")
    tariffs = document.get("tariffs")
    if since is None or source is None or not isinstance(tariffs, MutableMapping):
        return []
    done: list[Change] = []
    for name, tariff in tariffs.items():
        for entity, table_name in (("fine", "fines"), ("feeding", "feeding")):
            rupees = _text(form, f"{entity}.{name}")
            rows = tariff.get(table_name) if isinstance(tariff, MutableMapping) else None
            if rupees is None or not isinstance(rows, MutableMapping):
                continue
            row = tomlkit.inline_table()
            row.update({"from": since, "rupees": rupees, "source": source})
            listed = tomlkit.array()
            listed.append(row)
            rows[kind] = listed
            owner = tariff_authority(document, str(name))
            done.append(Change(owner, entity, str(name), kind, None, shown(listed)))
    return done


def kinds_of_adults(document: TOMLDocument) -> list[str]:
    """The codes of the kinds that are adults (no ``adult`` of their own)."""
    tables = document.get("kinds")
    if not isinstance(tables, AoT):
        return []
    return [str(t.get("code")) for t in tables if isinstance(t, Table) and not t.get("adult")]


def authority_kinds() -> list[str]:
    """The kinds of local authority (``grama_panchayat`` ...)."""
    return [kind.value for kind in AuthorityKind]
