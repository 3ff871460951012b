"""The one-line commands every channel shares: their words in four languages, the parser
(a line of text to a command), and the reply (parse, one use case, render)."""
