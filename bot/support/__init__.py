"""Small values and rules every layer uses, with no I/O: clocks, telephone numbers,
signed links, text cleaning, the public description of cattle, SMS segments, DLT
templates, spreadsheet-safe CSV, memos."""
