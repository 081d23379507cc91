"""What is said matches what happened: several writes in one turn under CRM faults, the
questions after a failed write, reads that fail beside reads that succeed, an empty result
beside a failed read, the days and hours read back (the customer on Los Angeles time, the
CRM on UTC), and an acknowledgement that promises no write held for a yes.

tests/data/conversations_honest22.jsonl holds the sessions that need no fault (the days,
hours and amounts read back, a held write's acknowledgement, an empty result); the sessions
under faults are played below, as tests/e2e/test_honest2.py plays them. All were written
before the narrator's rules were read.

FIRST RUN, on the code as it was (11 sessions of the set, 19 under faults): 8/11 (13/16
turns) and 18/19. Two checks of mine were then put right (a true "7 PM" wanted as "7:00";
"nothing booked next week… Your next appointment is a dental cleaning on Wednesday" is true
and was refused): 10/11. WRONG WRITES: none. Told the opposite of what happened: none the
checks caught (every refused write named and told not done with the CRM's reason, the
timed-out completion "hasn't confirmed it yet", the reads that failed said so beside the
ones that did, no balance and no "no appointments" made up, "try again" after a cancel
that landed "There's nothing to try again; that went through", the task added once).
Misses (nothing untrue): "what happened?" after a cancel the CRM applied but did not
confirm: "Sorry, I can't help with that."; "what day is the car insurance renewal due?":
"Sorry, I can't help with that." ("when is…" was answered). Also seen, not checked: a
refused move and a completion not confirmed read the listing looked up for them out first
("You have two upcoming appointments: … I couldn't move your haircut: …").

Fixed (general rules): "what happened?" said alone, after a write, is asked as "did that go
through?", answered without a yes or no (retries.py `_WHAT_HAPPENED`); a write not
confirmed that the lookup shows went through is told with its item ("…did go through after
all; your haircut is cancelled", retries.py `verdict`, the item a cancel or a completion
was of kept, write_memory.py), and that state is no longer said instead as "I haven't
actually made that change yet": a write not confirmed backs a state told of it
(turn.py `written_before`); "what/which day is <to-do> due" asks the to-do's due day as
"when is…" does (lookups.py, questions.py `_TASK_DUE`). A write the CRM did not confirm no
longer has the listing looked up for it read out before it (narrator.py `_quiet_listings`:
"You have … a haircut on Sunday at 2:30 PM" was said of a haircut the CRM had moved); a
refused one still has (what it shows still holds). Now 11/11 and 19/19.
"Done." no longer opens an answer of a turn where a write did not go through ("Done. I
marked Buy groceries as complete. … I couldn't mark Renew car insurance as complete", tasks.py
`done_said`, appointments.py the same for a move).
`bench.decisions --dump` (3,857 decisions): the same before and after every change.
`bench.said_around --sets …honest22.jsonl`: 56 variants, none wrote more or less
(`--answers`: 16, none either).

Six sessions under faults (h22b-) and one of the set were written after the fixes: FIRST
RUN 5/7, both failures checks of mine (the facial was not among the subjects the checks
know; "Your massage is on Friday, January 18 at 3:00 PM" to "is the massage booked now?"
is a yes), and once put right one miss: "did the facial get booked?" after a booking the
CRM failed (500) read every visit out with no word of the facial; "did/was/has the X
(get/been) booked" is now asked as "is the X booked?" ("I don't see a facial on your
account", question_words.py `WHEN`). Now 12/12 and 25/25.

Found by probing after that (h22c-, four sessions): "never mind, undo that" after a cancel
the CRM made but did not confirm was "Okay, no problem." (the haircut cancelled: now the
take-back, which looks and says it went through, undo.py `_UNDO`); "never mind then" after
a booking the CRM made and answered 500 the same (now a take-back said just after it,
retries.py `_NO_TO_IT`: "Are you sure you want to cancel your massage on Friday…?"); "ok
please book it again then" after a booking not confirmed asked "When would you like your
massage?", towards a second one (now "try again" said by its verb, of a write that did not
go through only: "I've checked: the booking did go through after all; your massage is
booked", retries.py `again_of_failed`, the narrator reading no booking of its own in it,
scene.py); "can you add it again please" after a refused add was "I didn't catch what you
meant by 'add it'" (read as meant it lost "again": kept as said, planner.py). Now 29/29.
And two of the set (h22c-): "show me my cancelled appointments" / "any cancelled
appointments?" answered "Your recent appointments: …" with the cancelled consultation left
out (the recent ones leave the cancelled out; question_words.py `RECENT` no longer takes
them), and "which appointments are cancelled?" read out the upcoming ones as though they
were the answer, "so which ones are cancelled?" after a cancel "I can't help with that"
(now the history, which says which were cancelled: lookups.py `PAST_VISIT`). Now 14/14.
"did that go through?" / "what happened?" after "move my haircut … and my dentist …" with
the dentist's refused: "No, the move of your appointment didn't go through, so nothing was
changed." (the haircut had moved): now "…so that wasn't changed (the rest of what you asked
did go through)" (retries.py `_THAT_NOT_CHANGED`). Now 30/30.
"try again" after a read the CRM failed was "There's nothing to try again: I haven't tried a
change in this conversation yet.", and "can you check again?" "I can't help with that":
the reads that failed are made again and told (retries.py `_read_again`). Now 32/32.
Left open (KNOWN_OPEN, and FAILS_AS_WRITTEN for the ways of replaying every set; nothing
written, nothing untrue): "which ones are still open?" after a to-do was done is "I can't
help with that".
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conversations import read_cases
from tests.e2e.test_conversations import DATA, crm_app, score  # noqa: F401  (the fixture)
from tests.e2e.test_honest2 import (
    APPT,
    APPTS,
    CANCEL_PATH,
    COMPLETE_PATH,
    CONFLICT,
    DOWN,
    GONE,
    INVALID,
    NO,
    TASK,
    TASKS,
    TIMEOUT,
    UNCONFIRMED,
    YES,
    Case,
    Clear,
    Office,
    Say,
    _fault,
)
from tests.e2e.test_honest2 import play as play_checked
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.helpers import CUSTOMER, answer, tasks

HONEST22: Path = DATA / "conversations_honest22.jsonl"
SHOW = bool(os.environ.get("H22_SHOW"))
# Does less than asked, or says less; writes nothing wrong.
# ("which ones are still open?" after a to-do was done, "Sorry, I can't help with that.",
# reads the to-dos left now: tests/e2e/test_leftopen14.py)
KNOWN_OPEN: list[str] = []

BOOK = "POST /v1/customers/{cid}/appointments"
CANCEL = "POST /v1/customers/{cid}/appointments/{aid}/cancel"
MOVE = "PATCH /v1/customers/{cid}/appointments/{aid}"
ADD = "POST /v1/customers/{cid}/tasks"
COMPLETE = "POST /v1/customers/{cid}/tasks/{tid}/complete"
DELETE = "DELETE /v1/customers/{cid}/tasks/{tid}"

INVOICES = "/v1/customers/*/invoices"
TICKETS = "/v1/customers/*/tickets"
# A 500: the CRM failed, whatever it did.
BROKE = (*DOWN, "went wrong", "error", "problem", "failed")
# A write whose outcome the assistant cannot know: never told done, nor not done.
UNSURE = (*UNCONFIRMED, "may have", "may already", "might have", "went wrong", "error")
# Promises of a write an acknowledgement may not make while it is only held for a yes.
PROMISES = (
    "i'll cancel",
    "i will cancel",
    "i'll delete",
    "i will delete",
    "cancelling",
    "deleting",
)


@dataclass
class Said(Say):
    """A turn, with what its acknowledgement (spoken before the answer) must not say."""

    ack_never: tuple[str, ...] = ()


@dataclass
class Titled:
    """How many to-dos of this title the CRM holds at the end (a retry adds no second)."""

    title: str
    count: int


def _ack(events: list[dict[str, Any]]) -> str:
    return " ".join(e.get("text", "") for e in events if e["type"] == "ack.done")


def _acknowledged(step: Say, events: list[dict[str, Any]]) -> list[str]:
    """What the acknowledgement said that it may not (and, with H22_SHOW=1 and -s, every
    turn printed, to read the answers through)."""
    if SHOW:
        calls = [(c["tool"], c["status"]) for c in events[-1]["tool_calls"]]
        print(f"\n> {step.text}\n  {calls}\n  < {answer(events)}")
    if not isinstance(step, Said):
        return []
    ack = _ack(events).lower()
    return [f"the acknowledgement says {w!r}" for w in step.ack_never if w in ack]


async def play(
    make_assistant: MakeAssistant, crm: CrmAdmin, case: Case, titled: list[Titled]
) -> list[str]:
    """Every problem of the session (tests/e2e/test_honest2.py's play, with the
    acknowledgements and the to-dos counted by title)."""
    problems = await play_checked(make_assistant, crm, case, also=_acknowledged)
    todo = await tasks(crm)
    for want in titled:
        count = sum(1 for title in todo if title == want.title)
        if count != want.count:
            problems.append(f"{count} to-dos titled {want.title!r}, wanted {want.count}")
    return problems


TITLED: dict[str, list[Titled]] = {}

CASES: list[Case] = [
    # -- partial success: two or three writes in one turn, one refused ------------------
    Case(
        "h22-groceries-and-insurance-done-insurance-409",
        [
            _fault("POST", "/v1/customers/*/tasks/task_0002/complete", status=409),
            Say(
                "mark groceries and the car insurance as done",
                done=[("groceries", "complete")],
                failed=[("insurance", "complete", CONFLICT)],
            ),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed"), ("task", "Renew car insurance", "pending")],
    ),
    Case(
        "h22-three-done-eye-exam-times-out",
        [
            _fault("POST", "/v1/customers/*/tasks/task_0003/complete", hang=True),
            Say(
                "tick off groceries, car insurance and the eye exam",
                done=[("groceries", "complete"), ("insurance", "complete")],
                failed=[("eye exam", "complete", UNCONFIRMED)],
            ),
        ],
        writes={COMPLETE: 2},
        crm=[
            ("task", "Buy groceries", "completed"),
            ("task", "Renew car insurance", "completed"),
            ("task", "Schedule eye exam", "pending"),
        ],
        settings=TIMEOUT,
    ),
    Case(
        "h22-cancel-haircut-and-delete-eye-exam-office-deleted-it",
        [
            Said(
                "cancel my haircut and delete the eye exam task",
                confirm="*",
                ack_never=PROMISES,
            ),
            Office("DELETE", f"/v1/customers/{CUSTOMER}/tasks/task_0003"),
            Say(
                "yes",
                if_asked=True,
                done=[("haircut", "cancel")],
                has=[GONE],
                never=("i deleted", "i've deleted", "i removed"),
            ),
        ],
        writes={CANCEL: 1, DELETE: 1},
        crm=[("appt", "Haircut", "0"), ("task", "Schedule eye exam", "gone")],
    ),
    Case(
        "h22-add-rent-task-and-book-massage-500",
        [
            _fault("POST", APPTS, status=500),
            Say(
                "add a task to pay the rent and book a massage friday at 3",
                done=[("rent", "add")],
                failed=[("massage", "book", BROKE)],
            ),
            Clear(),
            Say("so is the massage booked?", has=[NO], never=("you're booked",)),
        ],
        writes={ADD: 1},
        crm=[("task", "Pay the rent", "pending"), ("appt", "Massage", "0")],
    ),
    Case(
        "h22-book-massage-and-add-flowers-task-validation",
        [
            _fault("POST", TASKS, status=422),
            Say(
                "book a massage on friday at 3 and remind me to buy flowers",
                done=[("massage", "book")],
                failed=[("flowers", "add", INVALID)],
            ),
        ],
        writes={BOOK: 1},
        crm=[("appt", "Massage", "1"), ("task", "Buy flowers", "gone")],
    ),
    Case(
        "h22-cancel-both-dentist-404",
        [
            Say("cancel both my appointments", confirm="*"),
            Office("POST", f"/v1/customers/{CUSTOMER}/appointments/appt_0001/cancel"),
            Say(
                "yes",
                if_asked=True,
                done=[("haircut", "cancel")],
                has=[GONE],
                never=("i cancelled your dental", "i've cancelled your dental"),
            ),
        ],
        writes={CANCEL: 2},
        crm=[("appt", "Haircut", "0"), ("appt", "Dental cleaning", "0")],
    ),
    # -- a failed write, then asked after ---------------------------------------------
    Case(
        "h22-delete-503-did-it-work",
        [
            Say("delete the eye exam task", confirm="crm.deleteTask"),
            _fault("DELETE", TASK, status=503),
            Say("yes", failed=[("eye exam", "delete", DOWN)]),
            Clear(),
            Say("did it work?", has=[NO], never=("i deleted", "is deleted", "went through")),
        ],
        writes={},
        crm=[("task", "Schedule eye exam", "pending")],
    ),
    Case(
        "h22-cancel-applied-then-500-so-is-it-cancelled",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, status=500, apply_after=True),
            Say("yes", has=[UNSURE], never=("still booked", "nothing was changed")),
            Clear(),
            Say("so is it cancelled?", has=[YES], never=("still booked",)),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
    ),
    Case(
        "h22-cancel-applied-then-500-try-again-once",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, status=500, apply_after=True, times=1),
            Say("yes", never=("still booked", "nothing was changed")),
            Say("try again", confirm="*", never=("still booked",)),
            Say("yes", if_asked=True, never=("still booked", "couldn't cancel")),
            Say("what happened with the haircut?", has=[("cancelled", "canceled")]),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
    ),
    Case(
        "h22-add-task-timed-out-but-applied-try-again",
        [
            _fault("POST", TASKS, apply_after=True, hang=True, times=1),
            _fault("POST", TASKS, hang=True),
            Say("add a task to call the bank", has=[UNCONFIRMED], never=("i added",)),
            Clear(),
            Say("try again", never=("i couldn't",)),
        ],
        writes={ADD: 1},
        crm=[("task", "Call the bank", "pending")],
        settings=TIMEOUT,
    ),
    Case(
        "h22-complete-timed-out-not-applied-try-again",
        [
            _fault("POST", COMPLETE_PATH, hang=True),
            Say("mark the groceries done", has=[UNCONFIRMED], never=("i marked",)),
            Clear(),
            Say("try again", confirm="*", done=[("groceries", "complete")]),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed")],
        settings=TIMEOUT,
    ),
    Case(
        "h22-cancel-timed-out-applied-what-happened",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, apply_after=True, hang=True, times=1),
            _fault("POST", CANCEL_PATH, hang=True),
            Say("yes", has=[UNCONFIRMED], never=("i cancelled", "i've cancelled")),
            Clear(),
            Say("what happened?", has=[("cancelled", "canceled", "went through")]),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
        settings=TIMEOUT,
    ),
    Case(
        "h22-move-409-what-time-is-it-now",
        [
            _fault("PATCH", APPT, status=409),
            Say(
                "move my haircut to saturday at 11",
                confirm="*",
                failed=[("haircut", "move", CONFLICT)],
            ),
            Clear(),
            Say(
                "so when is my haircut?",
                has=[("sunday",), ("2:30",)],
                never=("saturday", "11:00"),
            ),
        ],
        writes={},
        crm=[("appt", "Haircut", "1")],
    ),
    # -- reads failing beside reads that succeed ----------------------------------------
    Case(
        "h22-appointments-and-bill-billing-down",
        [
            _fault("GET", INVOICES, status=503),
            Say(
                "what appointments do I have and what's my bill?",
                has=[("dental",), ("haircut",), DOWN],
                never=("$", "you owe nothing", "no balance", "nothing due", "paid up"),
            ),
        ],
        writes={},
        crm=[],
    ),
    Case(
        "h22-todos-and-appointments-appointments-down",
        [
            _fault("GET", APPTS, status=503),
            Say(
                "what's on my to-do list and when are my appointments?",
                has=[("groceries",), DOWN],
                never=(
                    "no upcoming",
                    "no appointments",
                    "don't have any appointments",
                    "nothing booked",
                ),
            ),
        ],
        writes={},
        crm=[],
    ),
    Case(
        "h22-open-cases-read-fails",
        [
            _fault("GET", TICKETS, status=503),
            Say(
                "do I have any open support cases?",
                has=[DOWN],
                never=("no open", "don't have any", "you have none", "none open"),
            ),
        ],
        writes={},
        crm=[],
    ),
    Case(
        "h22-balance-down-then-asked-again",
        [
            _fault("GET", INVOICES, status=503),
            Say("how much do I owe?", has=[DOWN], never=("$", "nothing", "paid up")),
            Clear(),
            Say("can you check my balance again?", has=[("150",)]),
        ],
        writes={},
        crm=[],
    ),
    Case(
        "h22-tasks-down-then-delete-asked",
        [
            _fault("GET", TASKS, status=503),
            Say(
                "delete my eye exam task",
                has=[DOWN],
                never=("couldn't find", "don't see", "no task", "doesn't exist"),
            ),
        ],
        writes={},
        crm=[("task", "Schedule eye exam", "pending")],
    ),
    # -- an acknowledgement promises no write held for a yes ----------------------------
    Case(
        "h22-held-cancel-ack-then-no",
        [
            Said(
                "cancel my dentist appointment",
                confirm="crm.cancelAppointment",
                ack_never=PROMISES,
            ),
            Say("no, leave it", never=("i cancelled", "is cancelled", "has been cancelled")),
        ],
        writes={},
        crm=[("appt", "Dental cleaning", "1")],
    ),
]
# Written after the fixes, before running them (FIRST RUN in the module's docstring).
CASES += [
    Case(
        "h22b-facial-500-did-it-get-booked",
        [
            _fault("POST", APPTS, status=500),
            Say("book a facial saturday at 10", failed=[("facial", "book", BROKE)]),
            Clear(),
            Say("did the facial get booked?", has=[NO], never=("you're booked", "is booked")),
        ],
        writes={},
        crm=[("appt", "Facial", "0")],
    ),
    Case(
        "h22b-move-timed-out-applied-when-is-it-now",
        [
            _fault("PATCH", APPT, apply_after=True, hang=True, times=1),
            _fault("PATCH", APPT, hang=True),
            Say("move my haircut to saturday at 6 pm", has=[UNCONFIRMED], never=("i moved",)),
            Clear(),
            Say(
                "so when is my haircut now?",
                has=[("saturday",), ("6:00", "6 pm")],
                never=("sunday, january 20", "2:30"),
            ),
        ],
        writes={MOVE: 1},
        crm=[("appt", "Haircut", "1")],
        settings=TIMEOUT,
    ),
    Case(
        "h22b-balance-and-cases-cases-down",
        [
            _fault("GET", TICKETS, status=503),
            Say(
                "what's my balance and do I have any open cases?",
                has=[("150",), DOWN],
                never=("no open", "don't have any open", "none open"),
            ),
        ],
        writes={},
        crm=[],
    ),
    Case(
        "h22b-cancel-held-beside-groceries-done",
        [
            Said(
                "cancel the haircut and mark groceries as done",
                done=[("groceries", "complete")],
                confirm="crm.cancelAppointment",
                ack_never=PROMISES,
                never=("haircut is cancelled", "i cancelled"),
            ),
        ],
        writes={COMPLETE: 1},
        crm=[("task", "Buy groceries", "completed"), ("appt", "Haircut", "1")],
    ),
    Case(
        "h22b-insurance-done-404-did-it-work",
        [
            _fault("POST", "/v1/customers/*/tasks/task_0002/complete", status=404),
            Say(
                "mark the insurance task as finished",
                failed=[("insurance", "complete", GONE)],
            ),
            Clear(),
            Say("did it work?", has=[NO], never=("is marked done", "went through")),
        ],
        writes={},
        crm=[("task", "Renew car insurance", "pending")],
    ),
    Case(
        "h22b-massage-422-then-try-again",
        [
            _fault("POST", APPTS, status=422, times=1),
            Say("book a massage friday at 3", failed=[("massage", "book", INVALID)]),
            Say("try again", confirm="*"),
            Say("yes", if_asked=True),
            Say(
                "is the massage booked now?",
                has=[("yes", "booked", "your massage is on friday")],
                never=("not booked",),
            ),
        ],
        writes={BOOK: 1},
        crm=[("appt", "Massage", "1")],
    ),
]
# Found by probing after that: a request let go, or sent again by its own verb, while the
# write it made may have landed.
CASES += [
    Case(
        "h22c-never-mind-undo-that-after-unconfirmed-cancel",
        [
            Say("cancel my haircut", confirm="crm.cancelAppointment"),
            _fault("POST", CANCEL_PATH, apply_after=True, hang=True, times=1),
            _fault("POST", CANCEL_PATH, hang=True),
            Say("yes", has=[UNCONFIRMED]),
            Clear(),
            Say(
                "never mind, undo that",
                has=[("did go through", "is cancelled", "was cancelled")],
                never=("okay, no problem",),
            ),
        ],
        writes={CANCEL: 1},
        crm=[("appt", "Haircut", "0")],
        settings=TIMEOUT,
    ),
    Case(
        "h22c-never-mind-after-booking-applied-then-500",
        [
            _fault("POST", APPTS, status=500, apply_after=True),
            Say("book a massage friday at 3", has=[UNSURE]),
            Clear(),
            Say("never mind then", confirm="*", has=[("massage",)], never=("okay, no problem",)),
        ],
        writes={BOOK: 1},
        crm=[("appt", "Massage", "1")],
    ),
    Case(
        "h22c-book-it-again-after-unconfirmed-booking",
        [
            _fault("POST", APPTS, apply_after=True, hang=True, times=1),
            _fault("POST", APPTS, hang=True),
            Say("book a massage friday at 3", has=[UNCONFIRMED]),
            Clear(),
            Say(
                "ok please book it again then",
                has=[("did go through", "is booked")],
                never=("when would you like",),
            ),
        ],
        writes={BOOK: 1},
        crm=[("appt", "Massage", "1")],
        settings=TIMEOUT,
    ),
    Case(
        "h22c-add-it-again-after-503",
        [
            _fault("POST", TASKS, status=503),
            Say("add a task to call the bank", failed=[("bank", "add", DOWN)]),
            Clear(),
            Say("can you add it again please", done=[("bank", "add")]),
        ],
        writes={ADD: 1},
        crm=[("task", "Call the bank", "pending")],
        # (the 503s retried would open the breaker: "the task system is down right now")
        settings={"breaker_failure_threshold": 100, "turn_deadline_s": 2.0},
    ),
]
CASES += [
    Case(
        "h22c-two-moves-dentist-409-did-that-go-through",
        [
            _fault("PATCH", "/v1/customers/*/appointments/appt_0001", status=409),
            Say(
                "move my haircut to saturday at 11 and my dentist to thursday at 9",
                done=[("haircut", "move")],
                failed=[("dentist", "move", CONFLICT)],
            ),
            Say("did that go through?", has=[NO], never=("nothing was changed",)),
        ],
        writes={MOVE: 1},
        crm=[("appt", "Haircut", "1"), ("appt", "Dental cleaning", "1")],
    ),
]
CASES += [
    Case(
        "h22c-appointments-down-then-try-again",
        [
            _fault("GET", APPTS, status=503),
            Say("what appointments do I have?", has=[DOWN], never=("no upcoming", "nothing")),
            Clear(),
            Say("try again", has=[("dental",), ("haircut",)], never=("nothing to try again",)),
        ],
        writes={},
        crm=[],
    ),
    Case(
        "h22c-billing-down-then-check-again",
        [
            _fault("GET", INVOICES, status=503),
            Say("what do I owe?", has=[DOWN], never=("$",)),
            Clear(),
            Say("can you check again?", has=[("150",)], never=("can't help",)),
        ],
        writes={},
        crm=[],
    ),
]
TITLED["h22-add-task-timed-out-but-applied-try-again"] = [Titled("Call the bank", 1)]
TITLED["h22-add-rent-task-and-book-massage-500"] = [Titled("Pay the rent", 1)]


async def test_the_sessions_without_faults_are_told_as_they_are(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any
) -> None:
    """Every day, hour and amount read back is the CRM's; nothing held is told as done."""
    cases = read_cases(HONEST22)
    assert len(cases) == 15
    _, failed = await score(make_assistant, crm_admin, HONEST22, capsys)
    assert failed == [case["id"] for case in cases if case["id"] in KNOWN_OPEN]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
async def test_told_as_it_happened_under_faults(
    make_assistant: MakeAssistant, crm_admin: CrmAdmin, case: Case
) -> None:
    problems = await play(make_assistant, crm_admin, case, TITLED.get(case.id, []))
    if case.id in KNOWN_OPEN:
        assert problems, f"{case.id} passes now: take it out of KNOWN_OPEN"
        return
    assert not problems, "\n".join(problems)
