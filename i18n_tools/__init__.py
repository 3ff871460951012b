"""Tools over the catalogs, run from a checkout and never shipped: the catalogs' report
(``make messages-report``), every SMS rendered on the worst case and its segments, and
the DLT templates of every SMS (``make messages``)."""
