"""What poundbot refuses, and what to do instead: the Act's refusals and the
application's (``errors``), those of a sale (``sale``), and a line not understood
(``parse``)."""
