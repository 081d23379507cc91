"""Spoken answers for billing: open invoices and the balance."""

from __future__ import annotations

import re
from datetime import date
from functools import lru_cache

from assistant.language.patterns import rx
from assistant.language.slots import service
from assistant.models.embedded.scene import Item, Scene
from assistant.schema import ToolResult
from assistant.speech import (
    count,
    due_day,
    join_and,
    lower_first,
    money,
    number,
    parse_day,
    spoken_list,
)


def _invoice(
    item: Item, currency: str, scene: Scene, *, amount: bool = True, due: bool = True
) -> str:
    cents = int(item.get("amount_cents") or 0)
    description = item.get("description")
    due_on = item.get("due_on")
    return _said(
        cents,
        str(item.get("currency") or currency),
        str(description) if description else "",
        due_on if isinstance(due_on, str) and due else "",
        scene.now.date(),
        amount,
    )


# Kept: an invoice's words depend only on these immutable values, and a customer's open
# invoices are the same turn after turn; saying one afresh cost 2.5 µs, looking it up 0.5.
@lru_cache(maxsize=4096)
def _said(
    cents: int, currency: str, description: str, due_on: str, today: date, amount: bool
) -> str:
    text = money(cents, currency) if amount else "one open invoice"
    if description:
        text += f" for {lower_first(description)}"
    if (due := parse_day(due_on)) is not None:
        text += f", due {due_day(due, today)}"
    return text


# "which invoice was the 45 dollars for", "what was the $95 charge": a bill named by its
# amount (said in digits, as the words are read: "$95", "45 dollars", "a hundred and 50").
_AMOUNT = rx(
    r"\$\s?(?P<d>\d+)(?:\.(?P<c>\d\d))?\b|\b(?P<n>\d+)(?:\.(?P<c2>\d\d))? ?(?:dollars?|bucks)\b"
    r"|\b(?:a |one )?hundred(?: and (?P<h>\d+))? ?(?:dollars?|bucks)\b"
)
_BILL_WORDS = rx(r"\b(?:invoice|bill|charge|payment|fee|paid|pay)s?\b")


def amount_asked(said: str) -> int | None:
    """The amount (in cents) a bill is named by in `said`, or None."""
    if "$" not in said and "dollar" not in said and "buck" not in said:
        return None
    found = _AMOUNT.search(said)
    if found is None or _BILL_WORDS.search(said) is None:
        return None
    if found.group("d") or found.group("n"):
        dollars = int(found.group("d") or found.group("n"))
        return dollars * 100 + int(found.group("c") or found.group("c2") or 0)
    return (100 + int(found.group("h") or 0)) * 100


# "anything on my bill over $100?", "any invoices less than 50 dollars": bills above or below
# an amount (it was read as a bill of that amount: "I don't see an invoice for $100.00",
# with the $150 one over it).
_COMPARED = rx(
    r"\b(?P<op>over|more than|above|greater than|bigger than|higher than|exceeding|in excess of"
    r"|under|less than|below|lower than|smaller than)(?: (?:about|around))? (?=\$|\d|a hundred"
    r"|one hundred|hundred)"
)
_BELOW = ("under", "less than", "below", "lower than", "smaller than")


def amount_compared(said: str) -> tuple[bool, int] | None:
    """Whether bills below (True) or above (False) an amount are asked, and the amount."""
    compared = _COMPARED.search(said)
    if compared is None:
        return None
    cents = amount_asked(said[compared.end() :] + " " + said[: compared.start()])
    return None if cents is None else (compared.group("op") in _BELOW, cents)


def _a(named: str) -> str:
    low = lower_first(named)
    return f"{'an' if low[:1] in 'aeiou' else 'a'} {low}"


# "if we owe over $50", "anything outstanding above $100": what is owed, so the open bills
# only (a paid $95 checkup was read out among "Your invoices over $50.00").
_OWED = rx(r"\b(?:owe|owed|owes|owing|outstanding|unpaid|balance|still due|left to pay)\b")


# "…more than $100 on the checkup", "…over $50 for my haircut": the bill of one visit.
_ON_THE_BILL_OF = rx(r"\b(?:on|for) (?:the|my|our|that) (?P<rest>[a-z][a-z' ]*)")


def bill_named(said: str) -> str | None:
    """The service whose bill `said` asks about ("more than $100 on the checkup":
    "Annual checkup"), or None."""
    if " on " not in said and " for " not in said:
        return None  # (nearly every question of the bills)
    for found in _ON_THE_BILL_OF.finditer(said):
        if (named := service(found.group("rest"), found.group("rest"))) is not None:
            return named
    return None


def _compared(
    invoices: list[Item], below: bool, cents: int, currency: str, scene: Scene
) -> list[str]:
    """The invoices above (or below) the amount asked about, each with whether it is paid
    (the open ones only when what is owed is asked; that visit's only when one is named)."""
    owed = "ow" in scene.said or "unpaid" in scene.said or "balance" in scene.said
    named = bill_named(scene.said)
    if named is not None:
        of_it = [i for i in invoices if named.lower() in str(i.get("description") or "").lower()]
        if not of_it:
            return [f"I don't see a bill for {_a(named)} on your account."]
        unpaid = [i for i in of_it if i.get("status") == "open"]
        if owed and _OWED.search(scene.said) and not unpaid:
            return [f"Nothing is owed on your {lower_first(named)}: that bill is paid."]
        invoices = of_it
    if owed and _OWED.search(scene.said):
        invoices = [i for i in invoices if i.get("status") == "open"]
    found = [
        i
        for i in invoices
        if (int(i.get("amount_cents") or 0) < cents) == below
        and int(i.get("amount_cents") or 0) != cents
    ]
    way = "under" if below else "over"
    if not found and owed and _OWED.search(scene.said):
        return [f"You don't owe anything on a bill {way} {money(cents, currency)}."]
    if not found:
        return [f"None of your invoices is {way} {money(cents, currency)}."]
    described = [
        f"{_invoice(item, currency, scene, due=False)}"
        f" ({'paid' if item.get('status') == 'paid' else 'still open'})"
        for item in found
    ]
    return [f"Your invoices {way} {money(cents, currency)}: {spoken_list(described)}."]


def by_status(result: ToolResult, scene: Scene) -> list[str]:
    """Invoices by status ("open", "paid", "all"): each with its amount and what it was."""
    status = str(result.call.arguments.get("status") or "all")
    payload = result.result
    currency = str(payload.get("currency") or "USD")
    invoices = [i for i in payload.get("invoices") or [] if isinstance(i, dict)]
    kind = "invoice" if status == "all" else f"{status} invoice"
    if not invoices:
        return [f"You have no {kind}s."]
    if (compared := amount_compared(scene.said)) is not None:
        return _compared(invoices, *compared, currency, scene)
    if (cents := amount_asked(scene.said)) is not None:
        return _of_amount(invoices, cents, currency, scene)
    if status == "all" and {i.get("status") for i in invoices} <= {"paid", "open"}:
        return _paid_and_open(invoices, currency, scene)
    # (a paid one's due day is past and settled: not said, as if still owed)
    described = [_invoice(item, currency, scene, due=status != "paid") for item in invoices]
    return [f"You have {count(len(invoices), kind)}: {spoken_list(described)}."]


def _of_amount(invoices: list[Item], cents: int, currency: str, scene: Scene) -> list[str]:
    """The invoices of the amount asked about, each with what it was for and whether it is
    paid; when none is, said so, and the invoices there are."""
    found = [i for i in invoices if int(i.get("amount_cents") or 0) == cents]
    if not found:
        described = [_invoice(item, currency, scene, due=False) for item in invoices]
        return [
            f"I don't see an invoice for {money(cents, currency)}. "
            f"Your invoices are: {spoken_list(described)}."
        ]
    told = []
    for item in found:
        paid = item.get("status") == "paid"
        what = item.get("description")
        said = (
            f"The {money(cents, currency)} invoice was for {lower_first(str(what))}"
            if what
            else (f"The {money(cents, currency)} invoice")
        )
        told.append(f"{said}, and it's {'paid' if paid else 'still open'}.")
    return told


def _paid_and_open(invoices: list[Item], currency: str, scene: Scene) -> list[str]:
    """The whole history, paid apart from still open: "what have I paid?" must not hear a
    paid bill read with a due day, as if still owed."""
    paid = [i for i in invoices if i.get("status") == "paid"]
    still_open = [i for i in invoices if i.get("status") == "open"]
    sentences = []
    if paid:
        described = [_invoice(item, currency, scene, due=False) for item in paid]
        sentences.append(f"You've paid {count(len(paid), 'invoice')}: {spoken_list(described)}.")
    if still_open:
        described = [_invoice(item, currency, scene) for item in still_open]
        lead = "Still open" if paid else f"You have {count(len(still_open), 'open invoice')}"
        sentences.append(f"{lead}: {spoken_list(described)}.")
    return sentences


_OVERDUE = rx(r"\b(?:overdue|past due|late)\b")
_NONE_LATE = "None of your bills is past due."
_SIZE_ASKED = rx(r"\b(?:largest|biggest|highest|smallest|lowest|cheapest)\b")


def _size_asked(scene: Scene) -> re.Match[str] | None:
    """ "largest", "smallest" said of the bills (in their own words, when another ask is
    beside them: "my highest priority task and what I owe" asks no bill by its size)."""
    if _SIZE_ASKED.search(scene.said) is None:
        return None
    own = [i.clause for i in scene.intents if i.kind == "billing" and i.clause]
    return _SIZE_ASKED.search(" ".join(own) if own else scene.said)


def _overdue_asked(invoices: list[Item], scene: Scene) -> list[str] | None:
    """ "which of my bills are overdue?": those, and only those (was: every open one read
    out, and "One of them is overdue"); None when it was not asked (a cheap word test)."""
    if "due" not in scene.said and "late" not in scene.said:
        return None
    own = [i.clause for i in scene.intents if i.kind == "billing" and i.clause]
    if not _OVERDUE.search(" ".join(own) if own else scene.said):
        return None
    today = scene.now.date()
    late = [i for i in invoices if (due := parse_day(i.get("due_on"))) is not None and due < today]
    if not late:
        return [_NONE_LATE]  # and what is owed, as asked alone
    described = [_invoice(item, str(item.get("currency") or "USD"), scene) for item in late]
    verb = "is" if len(late) == 1 else "are"
    return [f"{count(len(late), 'open invoice')} {verb} overdue: {spoken_list(described)}."]


def _owed(invoices: list[Item], balance: int, currency: str) -> str | None:
    """What is owed, when one balance would not say it: bills in two currencies are owed in
    each (the CRM's one balance adds euros to dollars: "$190.00" for $150 and €40), and a
    balance below zero is a credit, nothing owed. None otherwise (the balance is said)."""
    totals: dict[str, int] = {}
    for item in invoices:
        code = str(item.get("currency") or currency).upper()
        totals[code] = totals.get(code, 0) + int(item.get("amount_cents") or 0)
    if len(totals) > 1:
        return "You owe " + join_and([money(cents, code) for code, cents in totals.items()])
    if balance < 0:
        return f"You don't owe anything: you have a credit of {money(-balance, currency)}"
    return None


def open_invoices(result: ToolResult, scene: Scene) -> list[str]:
    payload = result.result
    currency = str(payload.get("currency") or "USD")
    invoices = [i for i in payload.get("invoices") or [] if isinstance(i, dict)]
    if (
        (named := bill_named(scene.said)) is not None
        and _OWED.search(scene.said)
        and not [i for i in invoices if named.lower() in str(i.get("description") or "").lower()]
    ):
        # "if anything's still owed on the haircut…": that visit's bill, not the balance
        return [f"You don't owe anything on your {lower_first(named)}."]
    balance = payload.get("balance_cents")
    if not isinstance(balance, int):
        balance = sum(int(i.get("amount_cents") or 0) for i in invoices)
    if not invoices:
        if balance:
            return [f"Your balance is {money(balance, currency)}, with no open invoices."]
        return ["You have no open invoices, so you don't owe anything right now."]
    late = _overdue_asked(invoices, scene)
    if late and late[0] != _NONE_LATE:
        return late
    if len(invoices) > 1 and (size := _size_asked(scene)) is not None:
        # "which is my largest open invoice?": that one (was: every one read out)
        small = size.group(0) in ("smallest", "lowest", "cheapest")
        pick = (min if small else max)(invoices, key=lambda i: int(i.get("amount_cents") or 0))
        word = "smallest" if small else "largest"
        return [f"Your {word} open invoice is {_invoice(pick, currency, scene)}."]
    described = [_invoice(item, currency, scene) for item in invoices]
    noun = count(len(invoices), "open invoice")
    owed = _owed(invoices, balance, currency)
    if owed is not None and len(invoices) == 1 and invoices[0].get("amount_cents") == balance:
        sentences = [f"{owed}, from {_invoice(invoices[0], currency, scene, amount=False)}."]
    elif owed is not None:
        sentences = [f"{owed}, across {noun}: {spoken_list(described)}."]
    elif len(invoices) == 1:
        only = invoices[0]
        # The balance is that one invoice: say the amount once.
        same = only.get("amount_cents") == balance
        sentences = [
            f"Your balance is {money(balance, currency)}, "
            f"{'from' if same else 'with'} {_invoice(only, currency, scene, amount=not same)}."
        ]
    else:
        sentences = [
            f"Your balance is {money(balance, currency)}, across {noun}: {spoken_list(described)}."
        ]
    today = scene.now.date()
    overdue = [
        i for i in invoices if (due := parse_day(i.get("due_on"))) is not None and due < today
    ]
    if len(overdue) == 1 and len(invoices) == 1:
        sentences.append("It's overdue.")
    elif overdue:
        sentences.append(
            f"{number(len(overdue)).capitalize()} of them "
            f"{'is' if len(overdue) == 1 else 'are'} overdue."
        )
    return [*(late or []), *sentences]


def nothing_owed_on_the_bill_named(scene: Scene) -> bool:
    """ "if we owe more than $100 on the checkup, remind me to pay it": the bill named is
    not owed on, as the invoices read this turn show (so no to-do to pay it is offered)."""
    said = scene.said
    if "ow" not in said or (named := bill_named(said)) is None or not _OWED.search(said):
        return False
    read = [
        result
        for result in scene.results
        if result.ok
        and result.call.tool_name in ("crm.getOpenInvoices", "crm.listInvoices")
        and isinstance(result.result, dict)
    ]
    if not read:
        return False
    return not any(
        isinstance(invoice, dict)
        and invoice.get("status") == "open"
        and named.lower() in str(invoice.get("description") or "").lower()
        for result in read
        for invoice in result.result.get("invoices") or []
    )
