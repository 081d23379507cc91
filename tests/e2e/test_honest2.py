"""Several writes in one turn, and writes after reads, under CRM faults: the answer never
tells the customer the opposite of what happened. Through the websocket, the embedded
models and the real CRM stub with its faults; the CRM is checked after every session.

For each turn: every write the CRM applied is told as done, every one it refused is told
as not done, with the CRM's reason (404: gone, 409: conflict / taken, 422: not accepted,
503: down or not confirmed, no answer in time: not confirmed yet), and nothing is told
done that no tool did. "did that go through?" / "so is it cancelled?" next turn matches
the CRM as it is then, and "undo that" after a failed write writes no inverse.

The 22 first sessions were written before the narrator's rules were read. FIRST RUN
(after three mistakes of the probe's own were put right: it named the add tool wrongly, did
not take "I don't see a massage" or "didn't find it" as a no and a reason, and let the
breaker open in the retry session): 14 of 22. Told the opposite of what happened:
- "cancel my haircut" … the office cancels it … "yes": "Sorry, I couldn't cancel your
  appointment: I didn't get the details quite right. Could you tell me again, with the
  details?" (it was cancelled; the CRM's 422 "is cancelled" was said as a mishearing);
- once the failure named the haircut, "so is it cancelled?" after a cancel the CRM applied
  but did not confirm in time: "Your haircut on Sunday, January 20 at 2:30 PM is still
  booked; it hasn't been cancelled." (the listing read that turn held it cancelled; the
  haircut in view, as listed before the cancel, was answered from);
Reasons not the CRM's:
- every 422 (a booking beside a cancel, a delete after "yes", an add after a balance read,
  a cancel after "yes"): "I didn't get the details quite right. Could you tell me again,
  with the details?": the CRM refused it, nothing was misheard;
Misses (nothing untrue, no answer):
- "so is the eye exam deleted?" after its delete failed read out the appointments;
- "so is it cancelled?" after an unconfirmed cancel: "Sorry, I can't help with that.";
- "undo that" after "I added a task: Call the bank. I've asked the scheduling system to book
  your massage, but it hasn't confirmed it yet…" looked at the massage alone: "…hadn't shown
  up yet… Ask me again shortly, and if it did, I'll take it back.", the task stayed.
Held: a 409 is "refused it as a conflict with what it already holds, so nothing was
changed" (no alternative booked), a 404 "still lists it, but didn't find it by the
reference", a 503 after "yes" "hasn't confirmed it yet, so it may already be done", "did
that go through?" says no from a fresh look, "try again" asks again and cancels once, the
undo of a failed add or cancel writes nothing.
Also seen (not checked as written): a failed completion's listing read out twice, before
and after "I couldn't mark Schedule eye exam as complete".

Fixed (embedded narrator and planner, general rules): a 422 of the CRM is "… didn't accept
it, so nothing was changed", and when the listing read this turn before the write no longer
held the item, "I didn't need to cancel your haircut: it's already gone"
(models/embedded/failures.py); the visit in view is answered as the listing read this turn
has it (questions.py); "is/was the X (task) deleted/removed", "is the X task gone", "did
you delete the X", "did the X task get added", "are the X done" are asked of the task list
as it is now (question_words.py); "undo that" after a turn with an unconfirmed write takes
back the writes of that turn that went through too (retries.py), its lookups not read out;
a listing read twice in a turn is read out once, the later (narrator.py). Now 22/22.
The eight `h2b-` sessions were written after the fixes: first run 5/8 ("did the flowers
task get added?" read the tasks out, "are the groceries done?" "I can't help with that",
"did you delete the eye exam?" read out the appointments); now 8/8.

Then "undo that" after such a turn took back the task and said nothing of the massage: the
massage not there yet is now said beside the take-back's question (retries.py
`not_there_yet`), and the session checks it.
Two `h2c-` sessions were found by probing after that: "did the case get opened?" after a
refused case read out the open cases (an older one among them), and "has my booking been
made?" is asked as "did that go through?" (retries.py `_ASKS_IF_DONE`, of a write named by
its kind; a thing named, "did my haircut get cancelled?", is asked of the CRM as before).
"mark groceries done and delete the eye exam" with the completion unconfirmed, "yes", then
"did the groceries one go through?": "Yes, deleting the task went through." (of the delete;
the completion had not gone through). A question naming a task or visit is no longer
answered from a write of another (retries.py `_names_another`; a delete or cancel keeps
what it was of, write_memory.py); "did the dentist one go through?" after the haircut was
cancelled the same.
Asked so of a to-do the conversation has listed, with no change to it remembered (the
unconfirmed completion was let go of when the delete went through, write_memory.py
`failed_writes`), it is answered from the list now: "Not yet: Buy groceries, due tomorrow
is still on your list." (questions.py `_NAMED_THROUGH`).
"are the groceries and insurance done?" told one of the two; now each (answers.py).
Open: the unconfirmed
completion itself is still let go of once another write goes through (keeping it would
turn the next "did that go through?" away from the write just made).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import pytest
from aiohttp import web

from crm_stub.app import create_app
from tests.e2e.conversations import NOW
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import CUSTOMER, answer, appointments, tasks, writes_applied

APPTS = "/v1/customers/*/appointments"
APPT = "/v1/customers/*/appointments/*"
CANCEL_PATH = "/v1/customers/*/appointments/*/cancel"
TASKS = "/v1/customers/*/tasks"
TASK = "/v1/customers/*/tasks/*"
COMPLETE_PATH = "/v1/customers/*/tasks/*/complete"

BOOK = "POST /v1/customers/{cid}/appointments"
CANCEL = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
MOVE = "PATCH /v1/customers/{cid}/appointments/{aid}"
ADD = "POST /v1/customers/{cid}/tasks"
COMPLETE = "POST /v1/customers/{cid}/tasks/{tid}/complete"
DELETE = "DELETE /v1/customers/{cid}/tasks/{tid}"

# The reasons the CRM gives, as a customer may be told them (any one will do).
GONE = (
    "no longer",
    "couldn't find",
    "can't find",
    "didn't find",
    "not found",
    "already",
    "gone",
    "doesn't exist",
    "isn't there",
    "don't see",
)
CONFLICT = (
    "conflict",
    "taken",
    "already",
    "clash",
    "not available",
    "isn't available",
    "no longer available",
    "changed",
)
INVALID = (
    "invalid",
    "not valid",
    "accept",
    "rejected",
    "refused",
    "not allowed",
    "isn't allowed",
    "won't allow",
    "didn't allow",
    "turned down",
)
UNCONFIRMED = (
    "hasn't confirmed",
    "not confirmed",
    "didn't confirm",
    "no confirmation",
    "can't confirm",
    "couldn't confirm",
    "not sure",
    "hasn't answered",
    "didn't answer",
)
DOWN = (
    "unavailable",
    "down",
    "not responding",
    "isn't responding",
    "not answering",
    "isn't answering",
    "try again",
    "trouble",
    *UNCONFIRMED,
)
NOT_DONE = (
    "couldn't",
    "could not",
    "didn't",
    "wasn't",
    "hasn't",
    "not ",
    "unable",
    "failed",
    "no,",
)
YES = (
    "yes",
    "did go through",
    "went through",
    "is cancelled",
    "was cancelled",
    "is done",
    "is complete",
    "is marked",
)
NO = ("no,", "not ", "didn't", "hasn't", "still", "isn't", "wasn't", "don't")

# Words a sentence uses to tell a write of each kind as done.
VERBS: dict[str, tuple[str, ...]] = {
    "book": ("booked", "you're set", "all set"),
    "cancel": ("cancelled", "canceled"),
    "complete": ("complete", "done", "finished"),
    "add": ("added", "created", "on your list"),
    "delete": ("deleted", "removed"),
    "move": ("moved", "rescheduled", "now on", "now at"),
}
# The same, in the words only a change says (a listing says "booked" and "completed" too).
CHANGED: dict[str, tuple[str, ...]] = {
    "book": ("you're booked", "i booked", "i've booked", "booked you", "has been booked"),
    "cancel": (
        "i cancelled",
        "i've cancelled",
        "is cancelled",
        "has been cancelled",
        "was cancelled",
    ),
    "complete": (
        "i marked",
        "i've marked",
        "is now complete",
        "marked as complete",
        "marked complete",
        "now done",
    ),
    "add": ("i added", "i've added", "has been added", "i created"),
    "delete": ("i deleted", "i've deleted", "has been deleted", "is deleted", "i removed"),
    "move": ("i moved", "i've moved", "has been moved", "is now on", "rescheduled"),
}
# A sentence with one of these does not tell a thing as done.
HEDGES = (
    "n't",
    "not ",
    "no ",
    "unable",
    "failed",
    "never",
    "nothing",
    " yet",
    "may ",
    "might",
    "if ",
    "whether",
    "want me",
    "would you",
    "shall i",
    "should i",
    "?",
)

SUBJECTS = {
    "haircut": ("haircut",),
    "massage": ("massage",),
    "dentist": ("dental", "dentist"),
    "groceries": ("groceries",),
    "eye exam": ("eye exam",),
    "insurance": ("insurance",),
    "bank": ("bank",),
    "rent": ("rent",),
    "flowers": ("flowers",),
    "facial": ("facial",),
}


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.lower()) if s.strip()]


def tells_done(text: str, subject: str, kind: str) -> bool:
    """A sentence names the subject, says a done-word of the kind, and hedges nothing."""
    names = SUBJECTS[subject]
    return any(
        any(n in s for n in names)
        and any(v in s for v in VERBS[kind])
        and not any(h in s for h in HEDGES)
        for s in sentences(text)
    )


def has_any(text: str, words: tuple[str, ...] | list[str]) -> bool:
    return any(w in text for w in words)


@dataclass
class Say:
    text: str
    done: list[tuple[str, str]] = field(default_factory=list)  # (subject, kind) applied
    failed: list[tuple[str, str, tuple[str, ...]]] = field(default_factory=list)
    has: list[tuple[str, ...]] = field(default_factory=list)  # each: any of these
    never: tuple[str, ...] = ()
    confirm: str | None = None  # the call left awaiting a yes ("*": either way)
    if_asked: bool = False  # only said when a confirmation is pending (a yes)


@dataclass
class Fault:
    spec: dict[str, Any]


@dataclass
class Clear:
    pass


@dataclass
class Office:
    """The office changes the CRM between two turns (method, path, body)."""

    method: str
    path: str


Step = Say | Fault | Clear | Office


@dataclass
class Case:
    id: str
    steps: list[Step]
    writes: dict[str, int] | list[dict[str, int]]
    crm: list[tuple[str, str, str]]  # ("task", title, status) / ("appt", service, n)
    # (a shorter turn than the default: a write the CRM keeps refusing with 503 is tried
    # until the turn's end, which is all these cases wait for; the answers are the same)
    settings: dict[str, Any] = field(default_factory=lambda: {"turn_deadline_s": 2.0})


TIMEOUT = {"turn_deadline_s": 1.5, "breaker_failure_threshold": 100}


def _fault(method: str, path: str, **spec: Any) -> Fault:
    return Fault({"method": method, "path": path, **spec})


CASES: list[Case] = [
    # Two writes in one turn, the booking refused; the cancel is held for a yes.
    *[
        Case(
            f"cancel-haircut-and-book-massage-{status}",
            [
                _fault("POST", APPTS, status=status),
                Say(
                    "cancel my haircut and book a massage friday at 3",
                    failed=[("massage", "book", reason)],
                    confirm="*",
                ),
                Say("yes", done=[("haircut", "cancel")], if_asked=True),
                Say("so is the massage booked?", has=[NO], never=("you're booked",)),
            ],
            writes=[{CANCEL: 1}, {}],
            crm=[("appt", "Massage", "0")],
        )
        for status, reason in ((409, CONFLICT), (422, INVALID), (503, DOWN))
    ],
    # Complete and delete in one breath, confirmed with yes, the delete failing.
    Case(
        "groceries-done-and-delete-eye-exam-503",
        [
            Say(
                "mark groceries done and delete the eye exam",
                done=[("groceries", "complete")],
                confirm="crm.deleteTask",
            ),
            _fault("DELETE", TASK, status=503),
            Say("yes", failed=[("eye exam", "delete", DOWN)]),
            Say("so is the eye exam deleted?", has=[NO], never=("is deleted", "i deleted")),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed"), ("task", "Schedule eye exam", "pending")],
    ),
    Case(
        "groceries-done-and-delete-eye-exam-422",
        [
            _fault("DELETE", TASK, status=422),
            Say(
                "mark groceries done and delete the eye exam",
                done=[("groceries", "complete")],
                confirm="crm.deleteTask",
            ),
            Say("yes", failed=[("eye exam", "delete", INVALID)]),
            Say("did that go through?", has=[NO], never=("i deleted",)),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed"), ("task", "Schedule eye exam", "pending")],
    ),
    # The held write's target went away before the yes (a real 404).
    Case(
        "delete-held-task-deleted-by-the-office",
        [
            Say("delete the eye exam task", confirm="crm.deleteTask"),
            Office("DELETE", f"/v1/customers/{CUSTOMER}/tasks/task_0003"),
            Say("yes", has=[GONE], never=("i deleted", "i've deleted", "i removed")),
        ],
        writes={DELETE: 1},
        crm=[("task", "Schedule eye exam", "gone")],
    ),
    Case(
        "cancel-held-visit-cancelled-by-the-office",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            Office("POST", f"/v1/customers/{CUSTOMER}/appointments/appt_0003/cancel"),
            Say("yes", has=[GONE], never=("i cancelled", "i've cancelled")),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
    ),
    # A write that fails after a read succeeded in the same turn.
    Case(
        "balance-then-add-task-422",
        [
            _fault("POST", TASKS, status=422),
            Say(
                "what's my balance and add a task to call the bank",
                failed=[("bank", "add", INVALID)],
                has=[("150",)],
            ),
        ],
        writes={},
        crm=[("task", "Call the bank", "gone")],
    ),
    Case(
        "appointments-then-cancel-dentist-404",
        [
            _fault("POST", CANCEL_PATH, status=404),
            Say("when is my dentist appointment?", has=[("wednesday", "16")]),
            Say("cancel it", confirm="crm.cancelAppointment"),
            Say("yes", failed=[("dentist", "cancel", GONE)]),
        ],
        writes={},
        crm=[("appt", "Dental cleaning", "1")],
    ),
    # A chained round (find, then complete) whose second round fails.
    Case(
        "find-insurance-and-complete-503",
        [
            _fault("POST", COMPLETE_PATH, status=503),
            Say(
                "find the insurance task and mark it done",
                failed=[("insurance", "complete", DOWN)],
            ),
            Say("is it done?", has=[NO]),
        ],
        writes={},
        crm=[("task", "Renew car insurance", "pending")],
    ),
    Case(
        "complete-eye-exam-404",
        [
            _fault("POST", COMPLETE_PATH, status=404),
            Say("mark the eye exam done", failed=[("eye exam", "complete", GONE)]),
        ],
        writes={},
        crm=[("task", "Schedule eye exam", "pending")],
    ),
    # A slot taken: an alternative may be offered, never booked unasked.
    Case(
        "book-massage-slot-taken-409",
        [
            _fault("POST", APPTS, status=409),
            Say("book a massage friday at 3", failed=[("massage", "book", CONFLICT)], confirm="*"),
            Say("is the massage booked?", has=[NO], never=("you're booked",)),
        ],
        writes={},
        crm=[("appt", "Massage", "0")],
    ),
    Case(
        "move-haircut-409",
        [
            _fault("PATCH", APPT, status=409),
            Say("move my haircut to saturday at 11", confirm="*"),
            Say("yes", if_asked=True),
            Say("so when is my haircut?", has=[("sunday", "20")], never=("saturday",)),
        ],
        writes={},
        crm=[("appt", "Haircut", "1")],
    ),
    Case(
        "groceries-done-and-move-dentist-422",
        [
            _fault("PATCH", APPT, status=422),
            Say(
                "mark groceries done and move my dentist appointment to thursday at 9",
                done=[("groceries", "complete")],
                confirm="*",
            ),
            Say("yes", if_asked=True),
            Say("when is my dentist appointment now?", has=[("wednesday", "16")]),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed"), ("appt", "Dental cleaning", "1")],
    ),
    Case(
        "two-adds-and-a-complete-503",
        [
            _fault("POST", COMPLETE_PATH, status=503),
            Say(
                "add a task to call the bank, add a task to pay rent, and mark groceries done",
                done=[("bank", "add"), ("rent", "add")],
                failed=[("groceries", "complete", DOWN)],
            ),
        ],
        writes={ADD: 2},
        crm=[("task", "Buy groceries", "pending")],
    ),
    # The confirmation path: the held write fails after the yes; "try again" works once.
    Case(
        "cancel-yes-503-retry-while-down-then-up",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, status=503),
            Say("yes", failed=[("haircut", "cancel", DOWN)]),
            Say("did that go through?", has=[NO], never=("is cancelled",)),
            Say("try again", confirm="*"),
            Say("yes", if_asked=True, never=("is cancelled", "i cancelled")),
            Clear(),
            Say("try again", confirm="*"),
            Say("yes", if_asked=True, done=[("haircut", "cancel")]),
            Say("so is it cancelled?", has=[YES]),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
        settings={"breaker_failure_threshold": 100, "turn_deadline_s": 2.0},
    ),
    # Not confirmed in time: told so; the next turn matches what the CRM holds then.
    Case(
        "complete-unconfirmed-but-applied",
        [
            _fault("POST", COMPLETE_PATH, apply_after=True, hang=True, times=1),
            _fault("POST", COMPLETE_PATH, hang=True),
            Say("mark groceries done", has=[UNCONFIRMED]),
            Clear(),
            Say("so is it done?", has=[YES]),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed")],
        settings=TIMEOUT,
    ),
    Case(
        "cancel-unconfirmed-but-applied",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, apply_after=True, hang=True, times=1),
            _fault("POST", CANCEL_PATH, hang=True),
            Say("yes", has=[UNCONFIRMED]),
            Clear(),
            Say("so is it cancelled?", has=[YES]),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
        settings=TIMEOUT,
    ),
    Case(
        "book-unconfirmed-not-applied",
        [
            _fault("POST", APPTS, hang=True),
            Say("book a massage friday at 3", has=[UNCONFIRMED]),
            Clear(),
            Say("did that go through?", has=[NO]),
        ],
        writes={},
        crm=[("appt", "Massage", "0")],
        settings=TIMEOUT,
    ),
    # The undo of a write that failed writes no inverse.
    Case(
        "undo-a-failed-add",
        [
            _fault("POST", TASKS, status=503),
            Say("add a task to call the bank", failed=[("bank", "add", DOWN)]),
            Clear(),
            Say("never mind, undo that", never=("i deleted", "i removed", "undone")),
        ],
        writes={},
        crm=[("task", "Call the bank", "gone")],
    ),
    Case(
        "undo-a-failed-cancel",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, status=422),
            Say("yes", failed=[("haircut", "cancel", INVALID)]),
            Clear(),
            Say("never mind, undo that", never=("you're booked", "i booked", "rebooked")),
        ],
        writes={},
        crm=[("appt", "Haircut", "1")],
    ),
    Case(
        "undo-half-of-a-turn",
        [
            _fault("POST", APPTS, status=503),
            Say(
                "add a task to call the bank and book a massage friday at 3",
                done=[("bank", "add")],
                failed=[("massage", "book", DOWN)],
            ),
            Clear(),
            Say(
                "undo that",
                confirm="*",
                has=[("massage",), ("hadn't shown up", "not there", "isn't there", "not booked")],
                never=("i cancelled", "is cancelled"),
            ),
            Say("yes", if_asked=True, done=[("bank", "delete")]),
        ],
        writes={ADD: 1, DELETE: 1},
        crm=[("task", "Call the bank", "gone"), ("appt", "Massage", "0")],
    ),
]

# Written after the fixes, before running them (FIRST RUN in the module's docstring).
CASES += [
    Case(
        "h2b-groceries-done-and-cancel-dentist-409",
        [
            Say(
                "mark groceries done and cancel my dentist appointment",
                done=[("groceries", "complete")],
                confirm="crm.cancelAppointment",
            ),
            _fault("POST", CANCEL_PATH, status=409),
            Say("yes", failed=[("dentist", "cancel", CONFLICT)]),
            Say("did the cancel go through?", has=[NO], never=("is cancelled",)),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed"), ("appt", "Dental cleaning", "1")],
    ),
    Case(
        "h2b-book-massage-and-add-flowers-422",
        [
            _fault("POST", TASKS, status=422),
            Say(
                "book a massage friday at 3 and add a task to buy flowers",
                done=[("massage", "book")],
                failed=[("flowers", "add", INVALID)],
            ),
            Say("did the flowers task get added?", has=[NO], never=("i added",)),
        ],
        writes={BOOK: 1},
        crm=[("appt", "Massage", "1"), ("task", "Buy flowers", "gone")],
    ),
    Case(
        "h2b-cancel-both-one-down",
        [
            Say("cancel my haircut and my dentist appointment", confirm="*"),
            _fault("POST", "/v1/customers/*/appointments/appt_0003/cancel", status=503),
            Say(
                "yes",
                if_asked=True,
                done=[("dentist", "cancel")],
                failed=[("haircut", "cancel", DOWN)],
            ),
            Clear(),
            Say("is my haircut still on?", has=[("yes", "still")]),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "1"), ("appt", "Dental cleaning", "0")],
    ),
    Case(
        "h2b-complete-two-one-down",
        [
            _fault("POST", "/v1/customers/*/tasks/task_0001/complete", status=503),
            Say(
                "mark the groceries and the insurance tasks done",
                done=[("insurance", "complete")],
                failed=[("groceries", "complete", DOWN)],
            ),
            Clear(),
            Say("are the groceries done?", has=[NO]),
            # (added after the fixes: it told the insurance alone)
            Say(
                "are the groceries and the insurance done?",
                has=[("insurance is done",), ("groceries is still",)],
            ),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "pending"), ("task", "Renew car insurance", "completed")],
    ),
    Case(
        "h2b-did-you-delete-after-failed-delete",
        [
            Say("delete the eye exam task", confirm="crm.deleteTask"),
            _fault("DELETE", TASK, status=503),
            Say("yes", failed=[("eye exam", "delete", DOWN)]),
            Clear(),
            Say("did you delete the eye exam?", has=[NO], never=("i deleted",)),
        ],
        writes={},
        crm=[("task", "Schedule eye exam", "pending")],
    ),
    Case(
        "h2b-haircut-still-on-after-unconfirmed-cancel",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, apply_after=True, hang=True, times=1),
            _fault("POST", CANCEL_PATH, hang=True),
            Say("yes", has=[UNCONFIRMED]),
            Clear(),
            Say("is my haircut still on?", has=[NO], never=("still booked", "yes,")),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
        settings=TIMEOUT,
    ),
    Case(
        "h2b-forget-it-after-failed-booking",
        [
            _fault("POST", APPTS, status=422),
            Say("book a massage friday at 3", failed=[("massage", "book", INVALID)]),
            Clear(),
            Say("forget it then", never=("cancelled", "you're booked")),
        ],
        writes={},
        crm=[("appt", "Massage", "0")],
    ),
    Case(
        "h2b-move-422-then-try-again",
        [
            _fault("PATCH", APPT, status=422, times=1),
            Say("move my haircut to saturday at 11", confirm="*"),
            Say("yes", if_asked=True),
            Say("try again", confirm="*"),
            Say("yes", if_asked=True, done=[("haircut", "move")]),
        ],
        writes={MOVE: 1},
        crm=[("appt", "Haircut", "1")],
    ),
]

# Found by probing after the fixes: asked after by what it made, not "did that go through".
CASES += [
    Case(
        "h2c-did-the-case-get-opened-422",
        [
            _fault("POST", "/v1/customers/*/tickets", status=422),
            Say("open a support case about a billing error on my last invoice", has=[INVALID]),
            Say("did the case get opened?", has=[NO], never=("you have one open",)),
        ],
        writes={},
        crm=[],
    ),
    Case(
        "h2c-has-my-booking-been-made-unconfirmed",
        [
            _fault("POST", APPTS, apply_after=True, hang=True, times=1),
            _fault("POST", APPTS, hang=True),
            Say("book a massage friday at 3", has=[UNCONFIRMED]),
            Clear(),
            Say("has my booking been made?", has=[YES]),
        ],
        writes={BOOK: 1},
        crm=[("appt", "Massage", "1")],
        settings=TIMEOUT,
    ),
    Case(
        "h2c-did-the-groceries-one-go-through-after-another-write",
        [
            _fault("POST", COMPLETE_PATH, status=503),
            Say("mark groceries done and delete the eye exam", confirm="crm.deleteTask"),
            Say("yes", done=[("eye exam", "delete")]),
            Say("did the groceries one go through?", has=[NO], never=("yes", "went through")),
        ],
        writes={DELETE: 1},
        crm=[("task", "Buy groceries", "pending"), ("task", "Schedule eye exam", "gone")],
    ),
    Case(
        "h2c-did-the-dentist-one-go-through-after-the-haircut",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            Say("yes", done=[("haircut", "cancel")]),
            Say("did the dentist one go through?", never=("yes", "went through")),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Dental cleaning", "1")],
    ),
]

KINDS = {
    "crm.bookAppointment": "book",
    "crm.cancelAppointment": "cancel",
    "crm.rescheduleAppointment": "move",
    "crm.addTask": "add",
    "crm.updateTask": "move",
    "crm.completeTask": "complete",
    "crm.deleteTask": "delete",
}


def _pending(events: list[dict[str, Any]]) -> list[str]:
    held = events[-1].get("awaiting_confirmation")
    return [c["tool"] for c in held["calls"]] if held else []


def _check_turn(turn: Say, events: list[dict[str, Any]], before: set[str]) -> list[str]:
    """The turn's problems; `before`: the kinds of write the session applied earlier."""
    text = answer(events)
    low = text.lower()
    problems = []
    done_kinds = {kind for _, kind in turn.done}
    applied = before | {
        KINDS.get(c["tool"], "") for c in events[-1]["tool_calls"] if c["status"] == "ok"
    }
    for subject, kind in turn.done:
        if not tells_done(text, subject, kind):
            problems.append(f"not told done: {kind} {subject}")
    for subject, kind, reason in turn.failed:
        if tells_done(text, subject, kind):
            problems.append(f"told done but it failed: {kind} {subject}")
        if not has_any(low, NOT_DONE):
            problems.append(f"not told not done: {kind} {subject}")
        if not has_any(low, reason):
            problems.append(f"no reason told for the failed {kind} {subject}")
    for kind, words in CHANGED.items():
        if kind not in done_kinds and kind not in applied:
            hits = [
                w
                for w in words
                if any(
                    w in s and not any(h in s.replace(w, "") for h in HEDGES)
                    for s in sentences(text)
                )
            ]
            if hits:
                problems.append(f"told a {kind} no tool did: {hits}")
    for group in turn.has:
        if not has_any(low, group):
            problems.append(f"none of {group[:4]}…")
    for word in turn.never:
        if word in low:
            problems.append(f"said {word!r}")
    held = _pending(events)
    if turn.confirm is None and held:
        problems.append(f"left awaiting {held}")
    if turn.confirm not in (None, "*") and held != [turn.confirm]:
        problems.append(f"awaiting {held}, wanted {turn.confirm}")
    return problems


async def _check_crm(crm: CrmAdmin, case: Case) -> list[str]:
    problems = []
    applied = await writes_applied(crm)
    fair = case.writes if isinstance(case.writes, list) else [case.writes]
    if applied not in fair:
        problems.append(f"writes {applied}, wanted one of {fair}")
    todo = await tasks(crm)
    ahead = await appointments(crm)
    for what, name, state in case.crm:
        if what == "task":
            status = todo[name]["status"] if name in todo else "gone"
            if status != state:
                problems.append(f"task {name!r} is {status}, wanted {state}")
        else:
            count = sum(1 for a in ahead if a["service"] == name)
            if str(count) != state:
                problems.append(f"{count} upcoming {name}, wanted {state}")
    return problems


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub at the pinned Monday noon."""
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)


# More to check of a turn, by a set that plays its sessions the same way (test_honest22).
TurnCheck = Callable[[Say, list[dict[str, Any]]], list[str]]


async def play(
    make_assistant: MakeAssistant, crm: CrmAdmin, case: Case, also: TurnCheck | None = None
) -> list[str]:
    """Every problem of the session, each with the turn and its answer."""
    assistant = await make_assistant(clock=lambda: NOW, **case.settings)
    chat = await assistant.connect()
    problems: list[str] = []
    held: list[str] = []
    applied: set[str] = set()
    for step in case.steps:
        if isinstance(step, Fault):
            await crm.add_fault(**step.spec)
        elif isinstance(step, Clear):
            await crm.clear_faults()
        elif isinstance(step, Office):
            status, body = await crm.call(step.method, step.path)
            assert status < 300, body
        else:
            if step.if_asked and not held:
                continue
            events = await chat.say(step.text)
            held = _pending(events)
            turn = _check_turn(step, events, applied)
            if also is not None:
                turn += also(step, events)
            problems += [f"{step.text!r}: {p} <{answer(events)}>" for p in turn]
            # a write sent and not confirmed may have been applied: told so later is no lie
            applied |= {
                KINDS.get(c["tool"], "")
                for c in events[-1]["tool_calls"]
                if c["status"] == "ok" or (c.get("error") or {}).get("unconfirmed")
            }
    await crm.clear_faults()
    problems += await _check_crm(crm, case)
    return problems


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_told_as_it_happened(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, case: Case
) -> None:
    problems = await play(make_assistant, crm_admin, case)
    assert not problems, "\n".join(problems)
