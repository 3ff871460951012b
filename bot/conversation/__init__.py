"""The one-line commands every channel shares: the parser (a line of text to a command,
in the words of ``bot.support.words``), and the reply (parse, one use case, render)."""
