"""Failed calls said plainly: what could not be done, and why, by the system at fault.

Never hidden and never the customer's fault: "I couldn't check your billing: the
billing system didn't answer in time." A write that timed out may still have gone
through, so the answer says so instead of inviting a duplicate.
"""

from __future__ import annotations

from assistant.language.patterns import rx
from assistant.models.embedded.scene import ACTION_OF, SYSTEM_OF, Scene
from assistant.models.embedded.tasks import title
from assistant.models.embedded.write_tools import WRITE_TOOLS
from assistant.schema import ToolResult


def _action(result: ToolResult, scene: Scene) -> str:
    tool = result.call.tool_name
    arguments = result.call.arguments
    if tool in ("crm.completeTask", "crm.updateTask", "crm.deleteTask"):
        task = scene.earlier(arguments.get("task_id"))
        if task is not None:
            verb = {
                "crm.completeTask": f"mark {title(task)} as complete",
                "crm.updateTask": f"update {title(task)}",
                "crm.deleteTask": f"delete {title(task)}",
            }
            return verb[tool]
    if tool == "crm.addTask" and arguments.get("title"):
        return f"add the task {arguments['title']}"
    if tool == "crm.bookAppointment" and arguments.get("service"):
        return f"book your {str(arguments['service']).lower()}"
    if tool in ("crm.cancelAppointment", "crm.rescheduleAppointment"):
        visit = scene.earlier(arguments.get("appointment_id"))
        if visit is not None and isinstance(visit.get("service"), str):
            doing = "cancel" if tool == "crm.cancelAppointment" else "move"
            return f"{doing} your {visit['service'].lower()}"
    return ACTION_OF.get(tool, "finish one of the steps")


# The id argument of a write to one item, and the key of the listing that holds it.
_LISTED_UNDER = {"task_id": "tasks", "appointment_id": "appointments"}


def _still_listed(result: ToolResult, scene: Scene) -> bool | None:
    """Whether a listing made after the refused write still holds its item (by its id, or
    by its title or service and time as last seen); None when none was made since."""
    position = next((i for i, r in enumerate(scene.results) if r is result), None)
    if position is None:
        return None
    for key, field in _LISTED_UNDER.items():
        item_id = result.call.arguments.get(key)
        if item_id is None:
            continue
        seen = scene.earlier(item_id) or {}
        for later in scene.results[position + 1 :]:
            body = later.result if later.ok else None
            items = body.get(field) if isinstance(body, dict) else None
            if not isinstance(items, list):
                continue
            return any(
                isinstance(item, dict)
                and (
                    item.get("id") == item_id
                    or (field == "tasks" and seen and item.get("title") == seen.get("title"))
                    or (
                        field == "appointments"
                        and seen
                        and (item.get("service"), item.get("starts_at"))
                        == (seen.get("service"), seen.get("starts_at"))
                    )
                )
                for item in items
            )
    return None


def _gone_before(result: ToolResult, scene: Scene) -> bool:
    """Whether the listing of its kind read this turn before the refused write (for its
    own check, or as a step before it) already did not hold its item: the item had gone
    (cancelled, deleted or done elsewhere) before the write was sent."""
    position = next((i for i, r in enumerate(scene.results) if r is result), None)
    if position is None:
        return False
    before = (*scene.checked, *scene.results[:position])
    for key, field in _LISTED_UNDER.items():
        item_id = result.call.arguments.get(key)
        if item_id is None:
            continue
        listings = [
            r.result[field]
            for r in before
            if r.ok and isinstance(r.result, dict) and isinstance(r.result.get(field), list)
        ]
        if not listings:
            return False
        return not any(
            isinstance(item, dict) and item.get("id") == item_id for item in listings[-1]
        )
    return False


# A refusal the CRM itself gave (422 invalid_state: it cannot apply as things stand),
# not arguments the assistant could not put together.
_REFUSED_BY_CRM = rx(r"\banswered 422\b")
_CLASH = rx(r"\bidempotency\b")
_TAKEN = rx(r"\b(?:belongs to another|already (?:in use|taken|registered)|taken)\b")


def failure(result: ToolResult, scene: Scene) -> list[str]:
    """One or two sentences for a failed or skipped call."""
    tool = result.call.tool_name
    code = result.error.code if result.error else "internal"
    system = SYSTEM_OF.get(tool, "the system")
    action = _action(result, scene)
    writes = tool in WRITE_TOOLS
    if result.error is not None and result.error.say:
        return [f"I didn't {action}: {result.error.say}"]
    if result.error is not None and result.error.unconfirmed:
        # Sent, and perhaps applied: never "couldn't", never an invitation to repeat it,
        # and no promise either (nothing goes on trying after the turn): asked whether it
        # went through, the next turn looks (assistant.models.embedded.retries).
        return [
            f"I've asked {system} to {action}, but it hasn't confirmed it yet, so it may "
            "already be done.",
            "Ask me in a moment whether it went through and I'll check.",
        ]
    if writes and code == "timeout" and result.attempts == 0:
        return [f"I ran out of time before I could {action}, so nothing was changed."]
    if code == "timeout":
        if writes:
            return [
                f"I couldn't confirm that I was able to {action}: {system} didn't answer in time.",
                "It may still go through, so please check again in a moment before retrying.",
            ]
        return [f"I couldn't {action}: {system} didn't answer in time."]
    if code == "unavailable":
        return [f"I couldn't {action}: {system} is unavailable right now."]
    if code == "circuit_open":
        return [f"I couldn't {action}: {system} is down right now. Please try again shortly."]
    if code == "rate_limited":
        return [f"I couldn't {action}: {system} is busy right now, please try again in a moment."]
    if code == "not_found":
        if writes and (still := _still_listed(result, scene)) is not None:
            if still:
                # Listed afresh after the refusal, and there: the id it was listed by is
                # what the CRM did not find, not the item (her list still shows it).
                return [
                    f"I couldn't {action}: {system} still lists it, but didn't find it by the "
                    "reference it gave me, so nothing was changed.",
                    "Please try again in a moment.",
                ]
            if tool.rpartition(".")[2].startswith("delete"):
                # Listed afresh and gone: what the delete was to bring about holds (the
                # other device deleted it). Was "Sorry, I couldn't delete …", read as a
                # failure of what had happened.
                return [f"I didn't need to {action}: it's already gone."]
            return [f"I couldn't {action}: it doesn't seem to exist anymore."]
        if writes:
            return [f"I couldn't {action}: it doesn't seem to exist anymore."]
        return [f"I couldn't {action}: {system} couldn't find your account details."]
    if code == "permission_denied":
        return [f"I couldn't {action}: that isn't something I'm allowed to do for this account."]
    message = result.error.message if result.error else ""
    if (
        writes
        and code == "invalid_arguments"
        and _REFUSED_BY_CRM.search(message)
        and _gone_before(result, scene)
    ):
        # Read again this turn (at the yes, or as the step before) and already gone: the
        # CRM's refusal is of a thing no longer there, not a failure to be tried again.
        # Was "I didn't get the details quite right" after the office had cancelled it.
        if tool in ("crm.cancelAppointment", "crm.deleteTask"):
            return [f"I didn't need to {action}: it's already gone, so nothing was changed."]
        return [f"I couldn't {action}: it's no longer there, so nothing was changed."]
    if writes and code == "invalid_arguments" and _REFUSED_BY_CRM.search(message):
        # The CRM refused it as things stand: not a mishearing to be said again.
        return [f"I couldn't {action}: {system} didn't accept it, so nothing was changed."]
    if code == "invalid_arguments":
        return [
            f"I couldn't {action}: I didn't get the details quite right. "
            "Could you tell me again, with the details?"
        ]
    if code == "conflict" and _TAKEN.search(result.error.message if result.error else ""):
        # The number or email is on another account: trying again would not help.
        return [
            f"I couldn't {action}: that one is already on another account, so nothing was "
            "changed. Could you check it, or give me a different one?"
        ]
    if code == "conflict" and _CLASH.search(result.error.message if result.error else ""):
        # An idempotency key in use with another body: two writes really did meet.
        return [
            f"I couldn't {action}: it clashed with another change being made at the same "
            "time. Please try again in a moment."
        ]
    if code == "conflict":
        # A refusal of a write sent once (a 409 on its first attempt; one on a resend is
        # reconciled instead): nothing else was being changed, and the CRM applied
        # nothing, so it is said as a refusal, not as a race to try again.
        if writes:
            return [
                f"I couldn't {action}: {system} refused it as a conflict with what it "
                "already holds, so nothing was changed."
            ]
        return [f"I couldn't {action}: {system} refused the request as a conflict."]
    if code == "round_limit":
        return [f"I didn't get to {action} this time. Just ask again and I'll do it."]
    if code == "cancelled":
        return [f"I stopped before I could {action}."]
    return [f"I couldn't {action}: something went wrong on our side."]
