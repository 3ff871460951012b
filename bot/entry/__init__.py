"""The entry points: the ASGI app (``poundbot serve``), the ``poundbot`` command line and
its administrative commands, the terminal console, and the server's background work."""
