"""Adapters beside the store: the outbox's delivery, the photo store, backups and
restore, the CSV exports, the server's lock, and the route of a message (SMS or WhatsApp)."""
