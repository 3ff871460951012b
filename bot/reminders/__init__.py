"""The deadline and reminder engine: the Act's deadlines pushed to the right person, once.

- ``bot.store.deadlines``: the deadlines of a case as rows, kept in step with the case
  inside the transaction that changes it (called from ``Tx.append_events``).
- ``domain.reminders``: who is told what, on which local days (pure rules, with provisions).
- ``plan``: turns new or moved deadlines into reminder jobs (local times from the
  configuration).
- ``dispatch``: claims due jobs under a lease and queues their messages in the outbox,
  marking each job done in the same transaction.
- ``listing``: what ``poundbot deadlines`` prints.

This package's ``__init__`` imports nothing.
"""
