# poundbot — the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint fmt bench messages messages-report clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/poundbot serve $(ARGS)

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy domain bot

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Extract the texts of bot/ into locales/messages.pot and merge them into the four
# catalogs. New or changed msgids arrive empty (or fuzzy, with the old text as a hint) in
# ml, ta and kn: translate them and drop the fuzzy flag; tests/integration/test_catalogs.py
# fails until every one is done. English is the source language: no fuzzy matching there.
messages: $(STAMP)
	$(BIN)/pybabel extract -F babel.cfg -k ngettext:1,2 -k N_ --add-comments=TRANSLATORS: \
		--project=poundbot --copyright-holder="poundbot contributors" \
		-o locales/messages.pot bot
	$(BIN)/pybabel update -i locales/messages.pot -d locales -l en --ignore-obsolete --no-fuzzy-matching
	for lang in ml ta kn; do \
		$(BIN)/pybabel update -i locales/messages.pot -d locales -l $$lang --ignore-obsolete || exit 1; \
	done

# How complete each catalog is; fails when ml, ta or kn has an empty or fuzzy entry.
messages-report: $(STAMP)
	$(BIN)/python -c "import sys; from bot.i18n.catalogs import print_report; sys.exit(print_report())"

clean:
	rm -rf $(VENV) var/*.sqlite3*
