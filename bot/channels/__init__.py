"""Channels: the transports (SMS over Twilio, Telegram) around ``bot.dispatch``."""
