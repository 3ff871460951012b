"""Comparing a secret value with what a request brought, in constant time.

``hmac.compare_digest`` on two ``str`` raises TypeError when either holds a character
outside ASCII, and whatever comes in a path, a cookie or a form may: a link signature
``é`` would be a server error instead of a refusal. So both sides are compared as UTF-8
bytes (a lone surrogate, which a decoded form may hold, as well)."""

from __future__ import annotations

import hmac

__all__ = ["same_secret"]


def same_secret(expected: str, given: str) -> bool:
    """Whether ``given`` is ``expected``, compared in constant time; never raises."""
    return hmac.compare_digest(
        expected.encode("utf-8", "surrogatepass"), given.encode("utf-8", "surrogatepass")
    )
