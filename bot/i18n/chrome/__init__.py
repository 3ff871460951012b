"""The chrome of each channel: Telegram's onboarding and buttons, the web desk's links and
its names for codes, and HELP."""
