"""The dialogue state as a value: what the conversation is about (see assistant.dialogue).

A plain value of JSON types (no object identity): it is stored with the session and
can be written out and read back (`to_json` / `from_json`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any, Literal

Item = dict[str, Any]
Kind = Literal["task", "appointment", "invoice", "ticket"]


@dataclasses.dataclass(frozen=True, slots=True)
class Action:
    """A write that was made: the call, the item before it (if known) and after it."""

    tool: str
    arguments: Mapping[str, Any]
    kind: Kind
    before: Item | None
    after: Item | None


# How the answer asking "move_to" begins (models/embedded/bare_time.py asks it).
MOVE_QUESTION_START = "Should I move your "
# "Do you mean your haircut on Sunday, January 20, or the task Renew car insurance?": which
# of two lists read out together a place counts in (models/embedded/which_kind.py).
WHICH_KIND_START = "Do you mean your "
WHICH_KIND_TASK = ", or the task "
# Said when a change the customer took back was sent but not seen in the CRM yet
# (models/embedded/retries.py): the changes it names are kept as taken back (`failed`
# entries marked "taken_back"), so that once it lands it is made the other way.
MAY_STILL_LAND = "it was sent and may still go through"
# Said when such a change has still not been seen on the next look: the mark is dropped
# (was: the same "may still go through" on every "thanks" after, for ever).
STILL_NOT_LANDED = "still hasn't shown up"


@dataclasses.dataclass(frozen=True, slots=True)
class Dialogue:
    listed_kind: Kind | None = None
    listed: tuple[Item, ...] = ()
    focus_kind: Kind | None = None
    focus: Item | None = None
    last_action: Action | None = None
    # "offer_case": the last answer offered to open a support case about `about`;
    # "which_cancel", "which_move", "which_task": it asked which appointment to cancel or
    # move, or which task was meant, and `about` is the request asked about; "move_to": it
    # asked whether to move the visit just booked or moved to the time said alone in `about`.
    question: str | None = None
    about: str = ""
    # The tools of calls left awaiting the customer's yes at the end of the last turn.
    held: tuple[str, ...] = ()
    # The focus before, when it was of another kind.
    earlier_focus_kind: Kind | None = None
    earlier_focus: Item | None = None
    # The last appointment write, when the last action was of another kind ("book a
    # cleaning and add a task" → "actually make the cleaning ten").
    last_appointment_action: Action | None = None
    # The writes the last turn with a write tried that did not go through (each
    # {"tool", "arguments", "code", "unconfirmed"}; "later" once a turn has passed since,
    # "taken_back" once the customer took it back before it was seen in the CRM): "did
    # that go through?", "try again".
    failed: tuple[Item, ...] = ()
    # The last few writes that went through, oldest first ({"tool", "label"}): "did the
    # cancel go through?" after a cancel and then a booking.
    done: tuple[Item, ...] = ()
    # The listing before, when it was of another kind ("the first task you mentioned"
    # after the appointments were read out since).
    earlier_listed_kind: Kind | None = None
    earlier_listed: tuple[Item, ...] = ()
    # Every write of the last turn that made one, in order (`last_action` is its last):
    # "undo that" after "move my haircut and make the eye exam high priority" is both.
    last_turn_actions: tuple[Action, ...] = ()
    # Older listings than those two, one per kind, newest first: "the first appointment
    # you told me about" after the tasks and then the balance were read out.
    listings: tuple[tuple[Kind, tuple[Item, ...]], ...] = ()
    # Writes that went through in a turn stopped before its answer (assistant.untold),
    # one clause each: the next answer begins with them.
    untold: tuple[str, ...] = ()
    untold_asked: str = ""  # what the customer said in that stopped turn
    # The sentence of the last answer that asked `question`: a reply answers it only when
    # the caller heard it in full (a barge-in cuts a phone answer short).
    asked: str = ""
    # The items of more than one kind an answer told one each of, in the order spoken
    # ("your haircut is on Sunday … Buy groceries is due tomorrow"): "move the first one",
    # "and the other one" count in them while no answer has read out a list since.
    told: tuple[tuple[Kind, Item], ...] = ()
    # Whether the answer read the last listing out (two or more of it named), or it was
    # only looked up (to check a booking's time): "cancel the second one" after two were
    # booked counts in those booked, not in a list the customer never heard.
    listed_heard: bool = True
    # Turns answered since the last that made a change (0: the last turn made one): "forget
    # it" or "I don't need that" takes back a change only said right after it.
    since_change: int = 0
    # The lists of two kinds the last answer that read a list out read together, in the
    # order spoken ("what's on my plate": the visits, then the to-dos): "move the second
    # one" then counts in both, and which is asked (models/embedded/which_kind.py).
    read_together: tuple[tuple[Kind, tuple[Item, ...]], ...] = ()

    # --- reading it ---------------------------------------------------------------

    def focus_of(self, kind: Kind) -> Item | None:
        """The item of this kind last in focus ("delete it" is a task even after a visit)."""
        if self.focus_kind == kind:
            return self.focus
        return self.earlier_focus if self.earlier_focus_kind == kind else None

    def listed_of(self, kind: Kind) -> tuple[Item, ...]:
        return self.listed if self.listed_kind == kind else ()

    def last_listed_of(self, kind: Kind) -> tuple[Item, ...]:
        """The items of this kind last read out, even if another listing came since."""
        if self.listed_kind == kind:
            return self.listed
        # (read out beside the last listing, in the same answer: newer than the one before)
        if together := next((items for held, items in self.read_together if held == kind), ()):
            return together
        if self.earlier_listed_kind == kind:
            return self.earlier_listed
        return next((items for held, items in self.listings if held == kind), ())

    # --- storing it ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Dialogue:
        action = data.get("last_action")
        return cls(
            listed_kind=data.get("listed_kind"),
            listed=tuple(data.get("listed") or ()),
            focus_kind=data.get("focus_kind"),
            focus=data.get("focus"),
            last_action=_action(action),
            question=data.get("question"),
            about=str(data.get("about") or ""),
            held=tuple(data.get("held") or ()),
            earlier_focus_kind=data.get("earlier_focus_kind"),
            earlier_focus=data.get("earlier_focus"),
            last_appointment_action=_action(data.get("last_appointment_action")),
            failed=tuple(data.get("failed") or ()),
            done=tuple(data.get("done") or ()),
            earlier_listed_kind=data.get("earlier_listed_kind"),
            earlier_listed=tuple(data.get("earlier_listed") or ()),
            last_turn_actions=tuple(
                action
                for action in map(_action, data.get("last_turn_actions") or ())
                if action is not None
            ),
            listings=tuple((kind, tuple(items)) for kind, items in data.get("listings") or ()),
            untold=tuple(data.get("untold") or ()),
            untold_asked=str(data.get("untold_asked") or ""),
            asked=str(data.get("asked") or ""),
            told=tuple((kind, item) for kind, item in data.get("told") or ()),
            listed_heard=bool(data.get("listed_heard", True)),
            since_change=int(data.get("since_change") or 0),
            read_together=tuple(
                (kind, tuple(items)) for kind, items in data.get("read_together") or ()
            ),
        )


def _action(data: object) -> Action | None:
    return Action(**data) if isinstance(data, Mapping) else None
