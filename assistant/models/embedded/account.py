"""Spoken answers for the account: profile, contact details, support cases."""

from __future__ import annotations

from assistant.claims import unbacked_claim
from assistant.language.patterns import rx
from assistant.models.embedded.scene import Scene
from assistant.schema import ToolResult
from assistant.speech import count, number, parse_moment, phone, spoken_list

_ASKS = (
    ("email", rx(r"\b(?:email|e-mail)\b")),
    ("phone", rx(r"\b(?:phone|number|cell|mobile)\b")),
    ("name", rx(r"\bname\b")),
    ("tier", rx(r"\b(?:tier|membership|level|status)\b")),
    ("timezone", rx(r"\b(?:timezone|time zone)\b")),
)


def profile(result: ToolResult, scene: Scene) -> list[str]:
    p = result.result
    # The words that asked for the profile: "change my email to … and what phone number do
    # you have" asks for the phone only.
    said = " ".join(i.clause for i in scene.intents if i.kind == "profile" and i.clause)
    asked = [field for field, pattern in _ASKS if pattern.search(said or scene.said)]
    spoken = {
        "email": f"The email on file is {p.get('email')}."
        if p.get("email")
        else "There's no email on file.",
        "phone": f"The phone number on file is {phone(str(p['phone']))}."
        if p.get("phone")
        else "There's no phone number on file.",
        "name": f"Your account is under the name {p.get('name')}." if p.get("name") else "",
        "tier": f"You're on the {str(p.get('tier')).capitalize()} tier." if p.get("tier") else "",
        "timezone": f"Your timezone is set to {p.get('timezone')}." if p.get("timezone") else "",
    }
    for field, value in _changed_now(scene).items():
        # Read beside the change: the same value was told as changed; another is the old one.
        shown = p.get(field)
        spoken[field] = "" if shown == value or not shown else _before_change(field, shown)
    if asked:
        return [spoken[field] for field in asked if spoken[field]]
    parts = []
    if p.get("email"):
        parts.append(f"email {p['email']}")
    if p.get("phone"):
        parts.append(f"phone {phone(str(p['phone']))}")
    name = p.get("name") or "your account"
    sentences = [
        f"Here's what I have on file: {name}" + (f", {', '.join(parts)}." if parts else ".")
    ]
    if spoken["tier"]:
        sentences.append(spoken["tier"])
    return sentences


def _changed_now(scene: Scene) -> dict[str, object]:
    """The contact fields this turn changed, with their new values."""
    return {
        field: value
        for r in scene.results
        if r.ok and r.call.tool_name == "crm.updateContactInfo"
        for field, value in r.call.arguments.items()
        if field in ("email", "phone")
    }


def _before_change(field: str, shown: object) -> str:
    if field == "phone":
        return f"Before the change, the phone number on file was {phone(str(shown))}."
    return f"Before the change, the email on file was {shown}."


def contact_updated(result: ToolResult, scene: Scene) -> list[str]:
    """What the CRM's reply shows: the fields as asked ("Done: ..."), and any field it
    holds otherwise than asked, said as it holds it (not claimed done)."""
    p = result.result
    changed = result.call.arguments
    done: list[str] = []
    otherwise: list[str] = []
    for field, name, say in (("email", "email", str), ("phone", "phone number", phone)):
        if field not in changed:
            continue
        asked, held = str(changed[field]), p.get(field)
        if held is None or _same(field, held, asked):
            done.append(f"your {name} is now {say(asked if held is None else str(held))}")
        else:
            otherwise.append(
                f"Your {name} is showing as {say(str(held))}, not {say(asked)} as I asked."
            )
    if not done and not otherwise:
        return ["I updated your contact details."]
    return ([f"Done: {' and '.join(done)}."] if done else []) + otherwise


def _same(field: str, held: object, asked: str) -> bool:
    if field == "phone":
        return "".join(filter(str.isdigit, str(held))) == "".join(filter(str.isdigit, asked))
    return str(held).strip().lower() == asked.strip().lower()


def _opened(value: object, scene: Scene) -> str:
    moment = parse_moment(value)
    if moment is None:
        return ""
    days = (scene.now.date() - moment.astimezone(scene.now.tzinfo).date()).days
    if days <= 0:
        return "opened today"
    if days == 1:
        return "opened yesterday"
    return f"opened {number(days)} days ago"


def tickets(result: ToolResult, scene: Scene) -> list[str]:
    items = [t for t in result.result.get("tickets") or [] if isinstance(t, dict)]
    items = [t for t in items if t.get("status") not in ("closed", "resolved")]
    if not items:
        return ["You have no open support cases."]
    # "when will they get back to me?": no reply time is on a case, said plainly (was: the
    # case read out as if that answered when)
    when = [_NO_REPLY_TIME] if _WHEN_REPLIED.search(scene.said) else []
    if len(items) == 1:
        ticket = items[0]
        opened = _opened(ticket.get("opened_at"), scene)
        status = str(ticket.get("status") or "open").replace("_", " ")
        detail = f", {opened}" if opened else ""
        state = "" if status == "open" else f" It's {status}."
        told = f"You have one open support case: {ticket.get('subject')}{detail}.{state}"
        return [told.strip(), *when]
    subjects = spoken_list([str(t.get("subject")) for t in items])
    return [f"You have {count(len(items), 'open support case')}: {subjects}.", *when]


_WHEN_REPLIED = rx(
    r"\bwhen\b.*\b(?:get back|hear back|hear from|reply|replies|respond|answer|call me back"
    r"|follow up|get in touch)\b|\bhow long (?:until|till|before|will)\b"
)
_NO_REPLY_TIME = (
    "I can't see when the team will reply; they follow up on open cases with the contact "
    "details on your account."
)


def tickets_by_status(result: ToolResult, scene: Scene) -> list[str]:
    """Support cases by status ("open", "closed", "all"): their subjects."""
    status = str(result.call.arguments.get("status") or "all")
    items = [t for t in result.result.get("tickets") or [] if isinstance(t, dict)]
    kind = "support case" if status == "all" else f"{status} support case"
    if not items:
        return [f"You have no {kind}s."]
    subjects = spoken_list([str(t.get("subject")) for t in items])
    return [f"You have {count(len(items), kind)}: {subjects}."]


def ticket_created(result: ToolResult, scene: Scene) -> list[str]:
    ticket = result.result
    subject = ticket.get("subject") or result.call.arguments.get("subject")
    opened = f"I opened a support case: {subject}."
    if unbacked_claim(opened, [result], {result.call.tool_name}) is not None:
        # "…: I was never refunded for a cancelled visit": the customer's words, quoted, so
        # that they are not heard as a refund or a cancel made now.
        opened = f"I opened a support case: '{subject}'."
    return [opened, "The support team will follow up with you."]
