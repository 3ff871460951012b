"""Mobile Seva (C-DAC's gateway): citizens' SMS pulled in; SMS pushed out."""
