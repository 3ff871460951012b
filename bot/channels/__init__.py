"""Channels: the transports around the conversation. One package per provider (Telegram,
Twilio, Exotel, Mobile Seva), the provider-neutral SMS room (``sms``), and who wrote."""
