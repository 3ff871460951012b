"""The Kerala Cattle Trespass Act, 1961 (ss.13-17 and the rules around them) as code.

Pure: the standard library only, no I/O, no clock. Money is integer paise.
"""
