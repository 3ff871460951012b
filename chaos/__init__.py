"""Chaos runs: poundbot under kill -9, a locked database and two instances, counted.

``make chaos`` (``python -m chaos``) runs each scenario at full scale and prints one
table: requests, answered, lost, duplicated, p99 — the pass line is 0 lost and 0
duplicated (and no SMS answered after Twilio's 15 s). ``python -m chaos --small`` runs
the same in seconds; ``tests/integration/test_chaos.py`` runs the small scale in
``make test``. Everything stays on loopback: poundbot's own processes, a fake Twilio
and a fake Telegram API.
"""
