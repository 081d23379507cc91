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
