"""What an email address looks like, for reading one in a message and for checking one a
model wrote: the grammar lifts only these, and the tool refuses any other.

A name of letters, digits and ". _ % + -", an "@", a domain of labels and a top-level
domain of two letters or more; no dot first or last in the name or two in a row
("maria.new.@…", "maria..new@…" were written as said), no empty part of the domain.
"""

from __future__ import annotations

import re

_SHAPE = r"[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}"
# In a message: it begins after a space, a bracket, a quote or a colon ("mаria.new@…"
# with a letter of another script is no address, and not "ria.new@…" either; nor is
# "maria,new@…", a comma typed for a dot, "new@…") and ends where a word does.
IN_TEXT = re.compile(rf"(?<![^\s<(\[\"':]){_SHAPE}(?![\w@-])", re.IGNORECASE)
_WHOLE = re.compile(_SHAPE, re.IGNORECASE)
_NO_ADDRESS = re.compile(r"^\.|\.@|\.\.|@[.-]|-\.|\.-")


def mail_can_reach(address: str) -> bool:
    """Whether `address` is one an email can be sent to, by its shape."""
    return _WHOLE.fullmatch(address) is not None and _NO_ADDRESS.search(address) is None
