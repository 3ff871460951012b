"""What an operator sees of a running poundbot: its logs (without secrets or personal
data, text or JSON) and its metrics."""
