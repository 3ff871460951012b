"""The web desk's import of the DLT portal's export, in words (``bot.web.config_dlt``):
why a row of the export gives no id, why the export is not read."""

from __future__ import annotations

import re

from bot.i18n.catalogs import Translator
from bot.support.dlt import Registry
from bot.support.dlt_import import Row

__all__ = ["export_refused", "unmatched_reason"]


def unmatched_reason(row: Row, templates: Registry, tr: Translator) -> str:
    """Why an approved row of the export gives none of poundbot's templates an id."""
    if not re.fullmatch(r"\d{1,30}", row.template_id):
        # TRANSLATORS: web desk, DLT import — the row's template id is not a number.
        return tr.gettext("The template id is not a number.")
    same_name = templates.get(row.name.strip())
    if same_name is not None:
        # TRANSLATORS: web desk, DLT import — the row names one of poundbot's templates
        # (%(name)s) but its text on the portal differs from poundbot's.
        return tr.gettext("Its text differs from poundbot's %(name)s.") % {"name": same_name.name}
    # TRANSLATORS: web desk, DLT import — the row's text is none of poundbot's SMS.
    return tr.gettext("Its text is none of poundbot's SMS.")


def export_refused(detail: str, tr: Translator) -> str:
    """Why the export is not read; ``detail`` is the reader's reason (in English, as the
    command line gives it)."""
    # TRANSLATORS: web desk, DLT import — the uploaded file is not the portal's export
    # as poundbot reads it; %(detail)s is the technical reason, in English.
    return tr.gettext(
        "The file cannot be read as the DLT portal's export of templates (.csv or .xlsx): "
        "%(detail)s"
    ) % {"detail": detail}
