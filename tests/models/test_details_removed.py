"""A contact detail or account asked to be removed (models/embedded/limits.py): said plainly
that it can't be done here, a case offered; never read as a to-do to delete.

Found by probing. FIRST RUN: 0 of 3: "remove my phone number" and "delete my email from
your system" were looked for as tasks ("I couldn't find a task matching 'phone number'…
Which one did you mean?", where "the first" would then have deleted a to-do).
"""

from __future__ import annotations

import pytest

from assistant.models.embedded.limits import cannot_do


@pytest.mark.parametrize(
    "said",
    ["remove my phone number", "delete my email from your system", "please delete my account"],
)
def test_removing_a_detail_is_said_to_be_the_teams(said: str) -> None:
    reply = cannot_do(said)
    assert reply is not None and "can't remove" in reply


@pytest.mark.parametrize(
    "said", ["delete the email task", "remove the phone one from my list", "change my email"]
)
def test_a_to_do_or_a_change_is_no_removal(said: str) -> None:
    reply = cannot_do(said)
    assert reply is None or "can't remove" not in reply
