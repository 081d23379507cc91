"""Request bodies the stub accepts, validated strictly at the edge.

Every body model forbids unknown fields and is parsed in strict mode from the
raw JSON, so malformed JSON, wrong types, missing fields and unknown fields all
become a 400 `invalid_request` whose message names the field.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal, TypeVar

from pydantic import AwareDatetime, BaseModel, ConfigDict, StringConstraints, ValidationError

from crm_stub.errors import InvalidRequest

E164 = re.compile(r"^\+[1-9]\d{1,14}$")
# Deliberately simple: one @, a dot in the domain, no spaces. Real checks are the CRM's job.
EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

Priority = Literal["low", "normal", "high"]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]
LongText = Annotated[str, StringConstraints(max_length=4000)]
Phone = Annotated[str, StringConstraints(pattern=E164.pattern)]
Email = Annotated[str, StringConstraints(pattern=EMAIL.pattern, max_length=254)]


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class CustomerPatch(Body):
    email: Email | None = None
    phone: Phone | None = None


class AppointmentBooking(Body):
    service: Text
    starts_at: AwareDatetime


class AppointmentMove(Body):
    starts_at: AwareDatetime


class TaskDraft(Body):
    title: Text
    description: LongText | None = None
    priority: Priority = "normal"
    due_on: dt.date | None = None


class TaskPatch(Body):
    title: Text | None = None
    description: LongText | None = None
    priority: Priority | None = None
    due_on: dt.date | None = None


class TicketDraft(Body):
    subject: Text
    body: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=4000)]


class Empty(Body):
    """The body of an action (cancel, complete): nothing, or `{}`."""


BodyT = TypeVar("BodyT", bound=Body)


def parse_body(model: type[BodyT], raw: bytes) -> BodyT:
    """Validate a raw JSON body, or raise InvalidRequest naming the offending field."""
    if not raw.strip():
        if model is Empty:
            return model()
        raise InvalidRequest("request body must be a JSON object")
    try:
        return model.model_validate_json(raw)
    except ValidationError as exc:
        raise InvalidRequest(describe(exc)) from None


def describe(exc: ValidationError) -> str:
    """One line per problem, each naming its field: `due_on: Input should be a valid date`."""
    problems = []
    for error in exc.errors(include_url=False):
        if error["type"] == "json_invalid":
            problems.append(f"malformed JSON: {error['msg']}")
            continue
        if error["type"] == "model_type":
            problems.append("request body must be a JSON object")
            continue
        field = ".".join(str(part) for part in error["loc"]) or "body"
        message = "unknown field" if error["type"] == "extra_forbidden" else error["msg"]
        if error["type"] == "string_pattern_mismatch":
            message = _PATTERN_MESSAGES.get(field, message)
        problems.append(f"{field}: {message}")
    return "; ".join(problems)


_PATTERN_MESSAGES = {
    "phone": "must be an E.164 number such as +14155550101",
    "email": "must be an email address such as name@example.com",
}


def fields_set(body: Body) -> dict[str, object]:
    """The fields the client actually sent (null included), for partial updates."""
    return {name: getattr(body, name) for name in body.model_fields_set}
