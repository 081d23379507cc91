"""Spoken answers for billing: open invoices and the balance."""

from __future__ import annotations

from datetime import date
from functools import lru_cache

from assistant.models.embedded.scene import Item, Scene
from assistant.schema import ToolResult
from assistant.speech import count, due_day, lower_first, money, number, parse_day, spoken_list


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


def by_status(result: ToolResult, scene: Scene) -> list[str]:
    """Invoices by status ("open", "paid", "all"): each with its amount and what it was."""
    status = str(result.call.arguments.get("status") or "all")
    payload = result.result
    currency = str(payload.get("currency") or "USD")
    invoices = [i for i in payload.get("invoices") or [] if isinstance(i, dict)]
    kind = "invoice" if status == "all" else f"{status} invoice"
    if not invoices:
        return [f"You have no {kind}s."]
    if status == "all" and {i.get("status") for i in invoices} <= {"paid", "open"}:
        return _paid_and_open(invoices, currency, scene)
    # (a paid one's due day is past and settled: not said, as if still owed)
    described = [_invoice(item, currency, scene, due=status != "paid") for item in invoices]
    return [f"You have {count(len(invoices), kind)}: {spoken_list(described)}."]


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


def open_invoices(result: ToolResult, scene: Scene) -> list[str]:
    payload = result.result
    currency = str(payload.get("currency") or "USD")
    invoices = [i for i in payload.get("invoices") or [] if isinstance(i, dict)]
    balance = payload.get("balance_cents")
    if not isinstance(balance, int):
        balance = sum(int(i.get("amount_cents") or 0) for i in invoices)
    if not invoices:
        if balance:
            return [f"Your balance is {money(balance, currency)}, with no open invoices."]
        return ["You have no open invoices, so you don't owe anything right now."]
    described = [_invoice(item, currency, scene) for item in invoices]
    noun = count(len(invoices), "open invoice")
    if len(invoices) == 1:
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
    return sentences
