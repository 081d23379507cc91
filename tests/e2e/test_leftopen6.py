"""The cases the fourteenth session left open, played through the websocket and the real CRM stub.

tests/data/conversations_leftopen6.jsonl (ids lo6a-), two to six sessions for each kind,
in words other than those the cases were reported in (one in those words), several said
as speech-to-text writes them.
ID_CASES are played through a proxy that lists every task under an id the CRM does not
know (ids changed between the listing and the write, tests/integrity/test_crm_attacks7.py).

FIRST RUN: (to be recorded)
"""

from __future__ import annotations

import json
from datetime import UTC
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from crm_stub.app import create_app
from tests.e2e.conversations import NOW, play_case, read_cases
from tests.e2e.test_conversations import CATALOG, DATA, score
from tests.fixtures.app import MakeAssistant
from tests.fixtures.crm import CrmAdmin
from tests.integrity.test_crm_attacks3 import CrmProxy

LEFT_OPEN: Path = DATA / "conversations_leftopen6.jsonl"
# Does less than asked; writes nothing that was not asked.
KNOWN_OPEN: list[str] = []
# Played in two halves side by side (every other session), to keep each test short.
_HALVES = 2


@pytest.fixture
def crm_app(crm_token: str) -> web.Application:
    """The CRM stub seeded for, and living at, the pinned moment the sessions are played at."""
    return create_app(token=crm_token, today=NOW.astimezone(UTC).date(), clock=lambda: NOW)


@pytest.mark.parametrize("half", range(_HALVES))
async def test_the_sixth_cases_left_open_are_answered_as_asked(
    half: int, make_assistant: MakeAssistant, crm_admin: CrmAdmin, capsys: Any, tmp_path: Path
) -> None:
    """Each case: what was said is done, nothing near is done instead."""
    cases = read_cases(LEFT_OPEN)
    assert len(cases) == 45
    mine = tmp_path / LEFT_OPEN.name
    mine.write_text("".join(json.dumps(case) + "\n" for case in cases[half::_HALVES]))
    _, failed = await score(make_assistant, crm_admin, mine, capsys)
    assert failed == [case["id"] for case in cases[half::_HALVES] if case["id"] in KNOWN_OPEN]


_GONE = ["exist anymore", "doesn't exist", "does not exist", "no longer", "been removed", "deleted"]
_NOT_DONE = [["couldn't", "could not", "wasn't able", "didn't go through"]]
_AS_SEEDED = [
    {"task": "Buy groceries", "status": "pending", "due": "+1", "priority": "normal"},
    {"task": "Renew car insurance", "status": "pending", "due": "+7", "priority": "high"},
    {"task": "Schedule eye exam", "status": "pending", "due": "none", "priority": "low"},
    {"task_like": "", "count": 0},
]
# Every task listed under an id the CRM no longer knows: the write fails (404), and the
# customer, whose list still shows the task, is not told it does not exist.
ID_CASES: list[dict[str, Any]] = [
    {
        "id": "lo6a-ids-mark-groceries-done",
        "turns": [
            {
                "say": "mark buy groceries as done",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6a-ids-groceries-to-friday",
        "turns": [
            {
                "say": "move the groceries task to friday",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6a-ids-delete-insurance-yes",
        "turns": [
            {"say": "delete the car insurance task", "confirm": "crm.deleteTask"},
            {"say": "yes", "has": _NOT_DONE, "not": _GONE, "crm": _AS_SEEDED},
        ],
    },
    {
        "id": "lo6a-ids-eye-exam-high-priority-unpunct",
        "turns": [
            {
                "say": "make the eye exam task high priority",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
]
# Written after the fixes, not tuned on (ids lo6b-).
ID_CASES += [
    {
        "id": "lo6b-ids-renewed-insurance-tick-it-off-unpunct",
        "turns": [
            {
                "say": "i renewed my car insurance you can tick it off",
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6b-ids-groceries-low-priority",
        "turns": [
            {
                "say": "the groceries aren't urgent, set them to low",
                "has": _NOT_DONE,
                "not": _GONE,
                "confirm": "*",
                "crm": _AS_SEEDED,
            }
        ],
    },
    {
        "id": "lo6b-ids-remove-eye-exam-yes-please",
        "turns": [
            {"say": "please remove the eye exam task", "confirm": "crm.deleteTask"},
            {"say": "yes please", "has": _NOT_DONE, "not": _GONE, "crm": _AS_SEEDED},
        ],
    },
]
ID_KNOWN_OPEN: list[str] = []


async def test_a_task_whose_id_changed_is_not_told_gone(
    make_assistant: MakeAssistant, aiohttp_server: Any, crm_url: str, crm_admin: CrmAdmin
) -> None:
    """The listing gives every task an id the CRM no longer knows: the write fails, and the
    answer says it could not be done without saying the task is gone (her list shows it)."""
    proxy = CrmProxy(crm_url)
    proxy.rewrite(
        "GET",
        r"/v1/customers/[^/]+/tasks",
        lambda body: {"tasks": [{**t, "id": t["id"] + "_old"} for t in body["tasks"]]},
    )
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", proxy.handle)
    server: TestServer = await aiohttp_server(app)
    assistant = await make_assistant(
        crm_url=str(server.make_url("/")),
        customer_messages_per_minute=100_000,
        clock=lambda: NOW,
    )
    failed = []
    for case in ID_CASES:
        verdict = await play_case(assistant, crm_admin, case, CATALOG)
        if not verdict.passed:
            failed.append(case["id"])
            print(case["id"], verdict.problems)
    assert failed == ID_KNOWN_OPEN
