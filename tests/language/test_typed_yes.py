"""A yes typed as short as it goes: "y" alone is a yes; a word that starts with it is not."""

from __future__ import annotations

import pytest

from assistant.language.confirm import is_affirmative


@pytest.mark.parametrize("said", ["y", "Y", "y.", "y!"])
def test_a_y_typed_alone_is_a_yes(said: str) -> None:
    assert is_affirmative(said)


@pytest.mark.parametrize("said", ["y not", "why", "yo", "y u no"])
def test_a_y_in_other_words_is_no_yes(said: str) -> None:
    assert not is_affirmative(said)


@pytest.mark.parametrize(
    "said",
    ["so yeah hmm what do i owe", "so yeah", "so yeah no keep it", "um yeah, one moment please"],
)
def test_so_yeah_before_other_words_is_no_yes(said: str) -> None:
    """ "so yeah" is how a caller starts, not a yes: the change held waits (a delete went
    through on "so yeah hmm what do i owe")."""
    assert not is_affirmative(said)


@pytest.mark.parametrize("said", ["so yeah go ahead", "um yeah sure", "so yeah yes please"])
def test_so_yeah_before_a_yes_is_a_yes(said: str) -> None:
    assert is_affirmative(said)
