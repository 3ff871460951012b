"""Small values and rules every layer uses, with no I/O: clocks, a request's wait budget,
telephone numbers, signed links, text cleaning, how words are compared and the words of
the commands, the caller and the refusals of the use cases, the public description of
cattle and the names it leaves out, SMS segments, DLT templates, spreadsheet-safe CSV,
memos."""
