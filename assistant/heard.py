"""What the customer heard us say: a "yes" confirms only a question asked in their hearing.

On a phone the caller talks over us. ConversationRelay says how far the voice got
(`utteranceUntilInterrupt`, rewritten into history by transports/relay_talk.py);
Retell's transcript and a platform's chat history hold only what was spoken, or an
assistant line the platform made up, or nothing where the caller barged in before the
first word. The session's history is aligned to that (`align_said`), so planner and
narrator work from what was heard, and the engine takes a "yes" for the pending
question only when the question is in it and nothing else was asked after it
(`was_heard`): a yes to words the caller never heard, or to the platform's "are you
still there?", would change the CRM without being asked.

Words are compared, not characters: case, punctuation and spacing differ between our
text and a platform's copy of it, the words do not (platforms copy what their voice
spoke, or cut it short).
"""

from __future__ import annotations

import re

from assistant.language.characters import readable
from assistant.schema import AssistantTurn, UserTurn
from assistant.session import Session

_WORD = re.compile(r"[a-z0-9]+")


def words(text: str) -> list[str]:
    # (Read as the engine reads a message: a platform's copy of the caller's words with a
    # zero-width space or full-width digits is the same words as the one we hold.)
    return _WORD.findall(readable(text).lower())


def was_heard(question: str, said: str) -> bool:
    """True when every word of `question` is in `said`, in order (whatever came
    between: an acknowledgement, the platform's own words, a keypad hint), and no other
    question was asked after it: a yes answers the last question heard ("Are you still
    there?" after a silence is answered "yes" too)."""
    heard = iter(words(said))
    if not all(word in heard for word in words(question)):
        return False
    last_asked = said[: said.rfind("?") + 1]
    if not last_asked:
        return True  # a copy without question marks: the words are all there is
    ending = words(question)[-_ENDING_WORDS:]
    return words(last_asked)[-len(ending) :] == ending


# How many of the question's last words identify it as the last question asked.
_ENDING_WORDS = 4


# A reply to a question that says more than yes or no: "yes but make it 4", "no, 4:30".
# ("okay so what do I owe" opens something else: okay, sure, right are no answer here.)
_REPLY_WITH_MORE = re.compile(r"(?i)^(?:yes|yeah|yep|yup|no|nope|nah)\b\W*\w")


def answers_with_more(text: str) -> bool:
    """The message opens as an answer to a question, and goes on."""
    said = text.lstrip()
    return said[:1].lower() in "yn" and bool(_REPLY_WITH_MORE.match(said))


def said_before_reply(session: Session) -> str:
    """What we said between the customer's last two messages: what the newest one (the
    last history entry's user turn) answers."""
    said: list[str] = []
    users = 0
    for message in reversed(session.history):
        if isinstance(message, UserTurn):
            users += 1
            if users == 2:
                break
        elif users == 1 and isinstance(message, AssistantTurn):
            said.append(message.text)
    return " ".join(reversed(said))


def words_of_the_ask(session: Session, text: str) -> str:
    """The customer's words a change was asked in: `text`, after the message before it
    when we asked something in between ("my number will be 555 0123 from monday", "What's
    the full number?", "415 555 0123": the question for a yes says what the first said)."""
    users = 0
    earlier = ""
    for message in reversed(session.history):
        if isinstance(message, UserTurn):
            users += 1
            if users == 2:
                earlier = message.text
                break
    asked = said_before_reply(session).rstrip()
    # A detail asked for, not a yes: a reply to "Are you sure…?" that gives another number
    # replaces what the first message said with it (its extension, its day).
    if earlier and asked.endswith("?") and not _YES_ASKED.search(asked):
        return f"{earlier} {text}"
    return text


_YES_ASKED = re.compile(r"\b(?:Are you sure|Shall I|Would you like me to)\b[^.?!]*\?$")


def align_said(session: Session, heard: str) -> bool:
    """Make what we said since the customer's last message be `heard`, as the platform
    says it was heard: our entries kept when they are its words, else replaced by one
    entry of them (none when nothing was heard). True when history changed."""
    ours: list[tuple[int, AssistantTurn]] = []
    entries = zip(reversed(session.entry_ids), reversed(session.history), strict=True)
    for entry_id, message in entries:
        if isinstance(message, UserTurn):
            break
        if isinstance(message, AssistantTurn):
            ours.append((entry_id, message))
    ours.reverse()
    if words(" ".join(m.text for _, m in ours)) == words(heard):
        return False
    for entry_id, _ in ours:
        session.drop_entry(entry_id)
    if heard.strip():
        session.remember(AssistantTurn(kind="answer", text=heard.strip()))
    return True


__all__ = ["align_said", "answers_with_more", "said_before_reply", "was_heard", "words"]
