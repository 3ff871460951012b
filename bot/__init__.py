"""poundbot: use cases, store, channels and reminder engine around ``domain``."""
