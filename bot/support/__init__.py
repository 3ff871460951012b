"""Small values and rules every layer uses, with no I/O: clocks, telephone numbers,
signed links, text cleaning, the public description of cattle and the names it leaves
out, SMS segments, DLT templates, spreadsheet-safe CSV, memos."""
