"""A support case asked after by what it was about: "that portal login thing I reported,
is it fixed?", "the other one I had about my invoice, is that sorted yet?". The case is
found among all of them (a closed one too) by the words it shares with the question, and
its status said; nothing found leaves the listing to answer.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from assistant.dialogue_state import Item
from assistant.language.patterns import rx

# Asked whether it is settled, of something reported ("…I reported, is it fixed?", "is that
# sorted yet?"); "is my haircut sorted?" names no case and is not this.
ASKED_AFTER = rx(
    r"\b(?:i|we) (?:reported|raised|logged|complained about|opened)\b.*\b(?:sorted|resolved"
    r"|fixed|dealt with|closed|done)\b"
    r"|\b(?:is|has|was) (?:it|that|this)(?: one)?(?: been| got)? (?:sorted|resolved|fixed"
    r"|dealt with)\b"
)
# Words of the question that say nothing of what the case was about.
_PLAIN = frozenset(
    {
        "that",
        "this",
        "thing",
        "things",
        "stuff",
        "about",
        "other",
        "reported",
        "raised",
        "logged",
        "complained",
        "opened",
        "sorted",
        "resolved",
        "fixed",
        "dealt",
        "with",
        "closed",
        "done",
        "yet",
        "still",
        "been",
        "have",
        "had",
        "ticket",
        "tickets",
        "case",
        "cases",
        "support",
        "complaint",
        "issue",
        "problem",
        "what",
        "which",
        "there",
        "their",
        "they",
        "them",
        "okay",
        "then",
        "just",
        "also",
        "again",
    }
)


def case_words(said: str) -> str:
    """The words of `said` that could name a case's subject ("portal login", "invoice")."""
    words = re.findall(r"[a-z]+", said)
    return " ".join(w for w in words if len(w) >= 4 and w not in _PLAIN)


def named_case_status(
    tickets: Sequence[Item], words: str, *, asked_whether: bool = True
) -> str | None:
    """The status of the case sharing the most words with `words`; None when none does.
    `asked_whether`: asked whether it is settled (a yes or no first)."""
    wanted = {w.rstrip("s") for w in words.split()}
    best: tuple[int, str, Item] | None = None
    for ticket in tickets:
        subject = {w.rstrip("s") for w in re.findall(r"[a-z]+", str(ticket.get("subject")).lower())}
        shared = len(wanted & subject)
        key = (shared, str(ticket.get("created_at") or ""), ticket)
        if shared and (best is None or key[:2] > best[:2]):
            best = key
    if best is None:
        return None
    ticket = best[2]
    status = str(ticket.get("status") or "open")
    if not asked_whether:
        follow = " The support team will follow up with you." if status == "open" else ""
        return f"Your support case '{ticket.get('subject')}' is {status}.{follow}"
    if status == "open":
        return (
            f"Not yet: your support case '{ticket.get('subject')}' is still open. The support "
            "team will follow up with you."
        )
    return f"Yes: your support case '{ticket.get('subject')}' is {status}."
