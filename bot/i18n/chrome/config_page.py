"""The web desk's page of the configuration, in words: its headings, who imported a
version and from where (``bot.web.config_pages``)."""

from __future__ import annotations

from bot.i18n.catalogs import Translator

__all__ = [
    "changes_from",
    "config_labels",
    "imported_by",
    "in_force",
    "source_name",
    "version_title",
]


def config_labels(tr: Translator) -> dict[str, str]:
    """The headings and column heads of the configuration page, by key."""
    return {
        # TRANSLATORS: web desk — the page of the configuration (authorities, pounds,
        # kinds of cattle, rates and fines, limits): its title and the link to it.
        "page": tr.gettext("Configuration"),
        # TRANSLATORS: web desk, the configuration — the heading of the list of versions.
        "history": tr.gettext("Every version, the newest first"),
        # TRANSLATORS: web desk, the configuration — column heads of the list of versions.
        "version": tr.gettext("Version"),
        "when": tr.gettext("Imported on"),
        "who": tr.gettext("Imported by"),
        "source": tr.gettext("Imported from"),
        "reason": tr.gettext("Reason"),
        # TRANSLATORS: web desk, the configuration — how a change is made and taken up.
        "how": tr.gettext(
            "A new version is imported on the server with poundbot config import FILE; "
            "every part of poundbot uses it within seconds."
        ),
        # TRANSLATORS: web desk, the configuration — over the first version's text: it
        # has no version before it to be compared with.
        "first": tr.gettext("The first version: the whole configuration."),
        # TRANSLATORS: web desk, the configuration — a link back to the list of versions.
        "back": tr.gettext("All the versions"),
        # TRANSLATORS: web desk, the configuration — the link to the page that reads the
        # DLT portal's export of approved templates into a new version.
        "dlt": tr.gettext("DLT template ids from the portal's export"),
        # TRANSLATORS: web desk, the configuration — the link to the forms that change the
        # local authorities, the pounds and the kinds of cattle.
        "places": tr.gettext("Places and kinds of cattle"),
        "tariffs": tr.gettext("Tariffs"),
        "dlt_ids": tr.gettext("DLT template ids"),
    }


def in_force(version: int, tr: Translator) -> str:
    """The heading of the version in force."""
    # TRANSLATORS: web desk, the configuration — the version used now; %(id)s its number.
    return tr.gettext("Version %(id)s is in force") % {"id": version}


def version_title(version: int, tr: Translator) -> str:
    """The heading of the page of one version."""
    # TRANSLATORS: web desk, the configuration — the page of one version: %(id)s its number.
    return tr.gettext("Version %(id)s of the configuration") % {"id": version}


def changes_from(version: int, tr: Translator) -> str:
    """The heading of the changes of a version from the one before."""
    # TRANSLATORS: web desk, the configuration — the lines changed since the version
    # numbered %(id)s (those taken out marked -, those added marked +).
    return tr.gettext("Changes from version %(id)s") % {"id": version}


def source_name(source: str, tr: Translator) -> str:
    """Where a version came from, in words."""
    names = {
        # TRANSLATORS: web desk, the configuration — a version read from the
        # configuration file when the server first started.
        "file": tr.gettext("the configuration file, at the first start"),
        # TRANSLATORS: web desk, the configuration — a version imported on the server's
        # command line (poundbot config import).
        "cli": tr.gettext("the command line"),
        # TRANSLATORS: web desk, the configuration — a version saved on the web desk.
        "web": tr.gettext("the web desk"),
        # TRANSLATORS: web desk, the configuration — a version made by importing the DLT
        # template ids approved on the DLT portal (poundbot dlt import).
        "dlt": tr.gettext("the DLT template ids imported"),
    }
    return names.get(source, source)


def imported_by(name: str, tr: Translator) -> str:
    """Who imported a version: their name, or the server's operator (no user)."""
    # TRANSLATORS: web desk, the configuration — a version imported by no user of the
    # desk: by whoever runs the server (its operator).
    return name or tr.gettext("the operator")
