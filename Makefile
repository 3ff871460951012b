# poundbot — the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-slow test-browser lint fmt docs bench bench-state chaos lock messages messages-report clean

# Two lock files, made by `make lock` from pyproject.toml (exact versions, with hashes):
# requirements.lock is what a server runs (the runtime dependencies only);
# requirements-dev.lock is the same versions and the tools of `make test`, `make lint` and
# `make docs`. The environment here is installed from the second, then poundbot itself on
# top without resolving anything again.
$(STAMP): pyproject.toml requirements-dev.lock
	@echo "== poundbot: creating the environment in $(VENV)/ and installing the locked packages (about a minute, first time only)"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "== installing requirements-dev.lock"
	@$(BIN)/python -m pip install --quiet --require-hashes -r requirements-dev.lock
	@echo "== installing poundbot (editable)"
	@$(BIN)/python -m pip install --quiet --no-deps -e .
	@touch $(STAMP)
	@echo "== environment ready"

# Renew both lock files from pyproject.toml (needs pip-tools; run it when a range changes).
# The development lock is constrained by the runtime one, so a server and `make test` run
# the same versions. No index URL or find-links of this machine goes into either file.
LOCK_FLAGS := --quiet --generate-hashes --strip-extras --allow-unsafe --no-emit-index-url --no-emit-find-links
lock:
	@test -x $(VENV)-lock/bin/pip-compile || ($(PYTHON) -m venv $(VENV)-lock && $(VENV)-lock/bin/pip install --quiet pip-tools)
	$(VENV)-lock/bin/pip-compile $(LOCK_FLAGS) -o requirements.lock pyproject.toml
	$(VENV)-lock/bin/pip-compile $(LOCK_FLAGS) --extra dev --extra docs -c requirements.lock -o requirements-dev.lock pyproject.toml

run: $(STAMP)
	$(BIN)/poundbot serve $(ARGS)

# The tests spread over the machine's cores by pytest-xdist: two workers a core, as the
# end-to-end tests wait on their loopback servers more than they compute (on 2 cores:
# 4 to 4 min 35 s with four workers, 4 min 50 s with three, 6 min 45 s with two), each worker
# taking its share in order and then stealing from the others (so that the waiting and
# the computing tests run side by side). PYTEST_WORKERS=0 runs them in this one process
# (as for a debugger), PYTEST_WORKERS=2 on two. With POUNDBOT_TEST_PG_URL each worker gets
# a PostgreSQL database of its own. The modules are compiled first, and pytest may keep
# the test modules it rewrites, so that each worker does not do it again.
PYTEST_WORKERS ?= $(shell echo $$(( 2 * $$(nproc 2>/dev/null || echo 1) )))
PYTEST_XDIST := -n $(PYTEST_WORKERS) --dist worksteal
COMPILE := $(BIN)/python -m compileall -q -j 0 bot domain i18n_tools > /dev/null

test: $(STAMP)
	$(COMPILE)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest $(PYTEST_XDIST) $(PYTEST_ARGS)

# The long runs at full size (marked "slow"; minutes): the chaos scenarios at the scale of
# `make chaos`, 10,000 due reminders, the state machine of the Act at length. `make test`
# runs each of them small. They compute: a worker a core.
test-slow: $(STAMP)
	$(COMPILE)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -m slow -n auto --dist worksteal $(PYTEST_ARGS)

# The web desk in a real browser: Playwright drives the system's Chromium (/usr/bin/chromium,
# `apt-get install chromium fonts-noto-core`; never `playwright install`). Screenshots of
# every page go to var/screenshots/.
test-browser: $(STAMP)
	$(BIN)/python -m pytest -m browser tests/browser $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy domain bot i18n_tools

fmt: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

# The documentation (README.md and docs/) as a site in site/, with MkDocs and its Material
# theme (mkdocs.yml). Offline: the theme loads no fonts or scripts from another host.
# --strict: a link to a page or file that is not there fails it.
docs: $(STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# Every benchmark prints its targets with PASS or FAIL and exits 1 on a FAIL; so does this.
bench: $(STAMP)
	@status=0; for b in $$(ls bench/*.py | grep -v -e /targets.py -e /state); do echo "== $$b"; PYTHONUNBUFFERED=1 $(BIN)/python $$b || status=1; done; \
	if [ $$status -ne 0 ]; then echo "== bench: a target FAILED (see above)"; fi; exit $$status

# A state's history on one PostgreSQL (bench/state.py, bench/state_data.py; not part of
# `make bench` nor of CI): 1,200 authorities, 2,000 pounds, five years of cases on every
# route, bulk-loaded, and one authority's work measured on it against the same on a
# database of that authority alone (targets: ratios <= 1.5); then the operations on it,
# timed: poundbot migrate, pg_dump and the documented restore with its case-number check,
# poundbot serve's start (ARGS=--no-ops leaves them out). Needs POUNDBOT_BENCH_PG_URL
# (or POUNDBOT_TEST_PG_URL); ARGS="--authorities 30" for a small run, ARGS=--sqlite for
# the busiest panchayat's five years on SQLite.
bench-state: $(STAMP)
	PYTHONUNBUFFERED=1 $(BIN)/python bench/state.py $(ARGS)

# poundbot under faults at full scale (kill -9 during an SMS burst, the SQLite file held
# by another process, two instances with a slow Telegram API; three instances behind the
# shipped nginx on one PostgreSQL under owners' SMS, keepers' Telegram, the desk and
# reminders, one killed and started again; minutes): prints a table and fails unless
# nothing is lost or sent twice. Two instances run on PostgreSQL when
# POUNDBOT_CHAOS_PG_URL (or POUNDBOT_TEST_PG_URL) names a server; the three need it (and
# nginx), else they are left out. ARGS="--only state" runs one. `make test` runs the
# same at a small scale (tests/integration/test_chaos.py).
chaos: $(STAMP)
	$(BIN)/python -m chaos $(ARGS)

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
	# The DLT templates of every SMS, from the catalogs (i18n_tools/dlt_templates.py).
	$(BIN)/python -m i18n_tools.dlt_templates
	# The answers on the owner's card, asked of poundbot (i18n_tools/card_answers.py).
	$(BIN)/python -m i18n_tools.card_answers

# Per language: the messages of its catalog, the share translated, and the largest
# owner-facing SMS reply on worst-case data (i18n_tools/sms_budget.py) in segments. Fails
# when ml, ta or kn has an empty or fuzzy entry, or an SMS is over its segment budget.
messages-report: $(STAMP)
	$(BIN)/python -m i18n_tools.report

clean:
	rm -rf $(VENV) $(VENV)-lock var/*.sqlite3*
