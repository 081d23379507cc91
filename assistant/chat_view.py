"""How `assistant chat` shows a turn: words for tools, progress lines, wrapped text.

On a terminal, each tool call gets a line as it starts ("  ⋯ Checking your billing…")
which turns into "  ✓ Billing" (or "  ✗ Billing: not reachable") when it finishes;
piped, the finished line is printed below instead, so logs read top to bottom. Text is
wrapped at word boundaries to the terminal's width as it streams in.
"""

from __future__ import annotations

import json
from typing import Any, Final, TextIO

from websockets.exceptions import InvalidStatus

# "Billing ✓": what a call did, in a customer's words (the widget's words.js says the same).
TOOL_DONE: Final = {
    "crm.getCustomerProfile": "Your account",
    "crm.listUpcomingAppointments": "Appointments",
    "crm.getNextAppointment": "Next appointment",
    "crm.bookAppointment": "Appointment booked",
    "crm.rescheduleAppointment": "Appointment moved",
    "crm.cancelAppointment": "Appointment cancelled",
    "crm.getOpenInvoices": "Billing",
    "crm.listTasks": "Tasks",
    "crm.addTask": "Task added",
    "crm.completeTask": "Task completed",
    "crm.updateTask": "Task updated",
    "crm.deleteTask": "Task deleted",
    "crm.listOpenTickets": "Support cases",
    "crm.createTicket": "Support case opened",
    "crm.updateContactInfo": "Contact details updated",
    "crm.listAppointments": "Your appointments",
    "crm.listInvoices": "Your invoices",
    "crm.listTickets": "Your support cases",
}

# What a call that did not succeed was about.
TOOL_SUBJECT: Final = {
    "crm.bookAppointment": "Booking",
    "crm.rescheduleAppointment": "Moving the appointment",
    "crm.cancelAppointment": "Cancelling the appointment",
    "crm.addTask": "Adding the task",
    "crm.completeTask": "Completing the task",
    "crm.updateTask": "Updating the task",
    "crm.deleteTask": "Deleting the task",
    "crm.createTicket": "Opening the case",
    "crm.updateContactInfo": "Updating contact details",
}

FAILURE_WORDS: Final = {
    "timeout": "took too long",
    "unavailable": "not reachable right now",
    "circuit_open": "temporarily unavailable",
    "rate_limited": "too busy right now",
    "cancelled": "stopped",
    "not_found": "not found",
    "permission_denied": "not allowed",
    "invalid_arguments": "couldn't understand the request",
    "conflict": "changed in the meantime",
    "round_limit": "skipped (too many steps)",
    "internal": "something went wrong",
}


def readable(tool: str) -> str:
    """`crm.listOpenTickets` → "List open tickets", for a tool this client does not know."""
    bare = tool.rpartition(".")[2]
    words = "".join(f" {c.lower()}" if c.isupper() else c for c in bare).strip()
    return words[:1].upper() + words[1:]


def progress_text(tool: str, hints: dict[str, str]) -> str:
    hint = hints.get(tool)
    return f"{hint[:1].upper()}{hint[1:]}…" if hint else f"{readable(tool)}…"


def finished_text(event: dict[str, Any], *, writes: bool, cancelled: bool) -> tuple[bool, str]:
    """(succeeded, words) for a finished call. A write stopped mid-flight whose outcome
    the server could not confirm reads "not confirmed", never an error code."""
    tool = str(event.get("tool", "?"))
    if event.get("status") == "ok":
        return True, TOOL_DONE.get(tool, readable(tool))
    subject = TOOL_SUBJECT.get(tool, TOOL_DONE.get(tool, readable(tool)))
    code = str((event.get("error") or {}).get("code", "internal"))
    if writes and cancelled and code not in ("invalid_arguments", "permission_denied"):
        return False, f"{subject}: not confirmed (check before asking again)"
    return False, f"{subject}: {FAILURE_WORDS.get(code, code)}"


class Style:
    def __init__(self, color: bool, encoding: str | None) -> None:
        self._color = color
        try:
            "✓✗⋯…".encode(encoding or "utf-8")
            self.ok, self.failed, self.running = "✓", "✗", "⋯"
        except UnicodeEncodeError:
            self.ok, self.failed, self.running = "ok", "x", ".."

    def _sgr(self, codes: str, text: str) -> str:
        return f"\x1b[{codes}m{text}\x1b[0m" if self._color and text else text

    def ack(self, text: str) -> str:
        return self._sgr("2;3", text)

    def dim(self, text: str) -> str:
        return self._sgr("2", text)

    def error(self, text: str) -> str:
        return self._sgr("31", text)


class Screen:
    """The output: whole lines, streamed text wrapped to `width`, and progress lines that
    can be rewritten in place (`live`: a terminal that understands cursor movement)."""

    def __init__(self, out: TextIO, *, width: int | None = None, live: bool = False) -> None:
        self._out = out
        self._width = width if width and width > 20 else None
        self._live = live
        self._column = 0
        self._lines = 0  # lines finished so far, to find a progress line again

    @property
    def midline(self) -> bool:
        return self._column > 0

    def write(self, text: str, style: Any = None) -> None:
        """Streamed text, wrapped between words; `style` colours each piece."""
        for index, paragraph in enumerate(text.split("\n")):
            if index:
                self.end_line()
            for word in _words(paragraph):
                if (
                    self._width
                    and self._column
                    and not word.isspace()
                    and self._column + len(word) > self._width
                ):
                    self._newline()
                    word = word.lstrip()
                if self._column == 0:
                    word = word.lstrip() if self._width else word
                if word:
                    self._out.write(style(word) if style else word)
                    self._column += len(word)
        self._out.flush()

    def raw(self, text: str) -> None:
        """Text that is not wrapped (the prompt)."""
        self._out.write(text)
        self._out.flush()
        self._column += len(text)

    def line(self, text: str = "") -> int:
        """A whole line after whatever is on the current one; returns its number."""
        self.end_line()
        self._out.write(text)
        self._newline()
        self._out.flush()
        return self._lines - 1

    def rewrite(self, number: int, text: str) -> bool:
        """Replace line `number` in place; False when this output cannot."""
        up = self._lines - number
        if not self._live or self.midline or up <= 0:
            return False
        self._out.write(f"\x1b[{up}A\r\x1b[2K{text}\x1b[{up}B\r")
        self._out.flush()
        return True

    def typed(self, length: int) -> None:
        """The terminal echoed a typed line of `length` characters and the Enter."""
        if self.midline:
            self._column = 0
            self._lines += 1 + (length - 1) // self._width if self._width and length else 1

    def end_line(self) -> None:
        if self.midline:
            self._newline()
            self._out.flush()

    def _newline(self) -> None:
        self._out.write("\n")
        self._column = 0
        self._lines += 1


def _words(text: str) -> list[str]:
    """Words with the spaces before them, so that wrapping keeps the text's own spacing."""
    pieces: list[str] = []
    current = ""
    for char in text:
        if char == " " and current and not current.isspace():
            pieces.append(current)
            current = ""
        current += char
    if current:
        pieces.append(current)
    return pieces


def refusal(exc: InvalidStatus, origin: str) -> str:
    """Why the server refused the session, and what to do: `origin` is how this client
    got its token (`given` with --token, `secret` minted with ASSISTANT_SECRET, `dev`
    minted with the development secret)."""
    status = exc.response.status_code
    try:
        message = str(json.loads(exc.response.body or b"")["error"]["message"])
    except (ValueError, KeyError, TypeError):
        message = exc.response.reason_phrase
    hint = ""
    if status == 401 and "expired" in message:
        hint = " The token has expired: mint a new one with `assistant token --customer ID`."
    elif status == 401 and origin == "dev":
        hint = (
            " This client signed its token with the development secret (ASSISTANT_SECRET is "
            "not set here), which only a demo-mode server accepts: set ASSISTANT_SECRET to "
            "the server's secret, or start the server with --demo."
        )
    elif status == 401 and origin == "secret":
        hint = (
            " This client signed its token with this machine's ASSISTANT_SECRET and the "
            "server did not accept it: the server has another secret. Use the same "
            "ASSISTANT_SECRET on both sides."
        )
    elif status == 401:
        hint = (
            " The --token given is not one this server signed (another secret, or not a "
            "token): mint one with `assistant token` using the server's ASSISTANT_SECRET."
        )
    elif status == 403:
        hint = " The server refuses this client's origin (ASSISTANT_ALLOWED_ORIGINS)."
    elif status == 503:
        hint = " The server is saturated; try again in a moment."
    return f"The assistant refused the session (HTTP {status}: {message}).{hint}"
