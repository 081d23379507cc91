"""`POST /v1/chat/completions`: the custom LLM of Vapi, ElevenLabs, LiveKit and Pipecat.

shared/PLATFORMS.md section 1, exactly. A platform sends the conversation as it knows
it; the last user message is the turn's text, answered by the same conversation
runner, engine, budgets, admission and recording as the websocket. What the platform
hears, streamed: the acknowledgement as soon as the decision is made (before any tool
is awaited), then the answer. Tools run here and never reach the platform, except a
handoff to a person: the response then ends with a call of `platform_transfer_tool`.

A new request for a conversation whose turn is still running is a barge-in: the older
stream ends at once and its turn stops by the usual rules (reads cancelled, a write in
flight finishes and is remembered for the next answer).
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import uuid
from typing import Any, Final

from aiohttp import hdrs, web

from assistant.auth import verify_session
from assistant.conversation import Message
from assistant.errors import AuthError, StoreUnavailable
from assistant.services import SERVICES, SETTINGS, Services
from assistant.settings import Settings
from assistant.transports import platform_calls
from assistant.transports.completions_wire import (
    BadRequest,
    Chunks,
    CompletionRequest,
    error_response,
    parse_request,
    sse,
    tool_call,
)
from assistant.transports.platform_calls import (
    PLATFORM_CALLS,
    PlatformCall,
    PlatformCalls,
    TooManyCalls,
)
from assistant.transports.platform_turns import Spoken, TurnEnd, TurnStream
from assistant.transports.relay_caller import customer_by_phone
from assistant.transports.relay_handoff import (
    HANDOFF_LINE,
    HandoffReason,
    conversation_summary,
    wants_person,
)
from assistant.transports.saturation import SATURATION

log = logging.getLogger(__name__)

PATH: Final = "/v1/chat/completions"


class Caller:
    """Who the Bearer key says is calling: a customer, or a platform naming its caller."""

    def __init__(self, customer_id: str | None, *, platform: bool) -> None:
        self.customer_id = customer_id
        self.platform = platform


def authenticate(request: web.Request, settings: Settings) -> Caller:
    """A platform key (constant-time) or a session token; AuthError otherwise."""
    header = request.headers.get(hdrs.AUTHORIZATION, "")
    scheme, _, key = header.partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key:
        raise AuthError("send your key as 'Authorization: Bearer <key>'")
    given = key.encode()
    matched = False
    for allowed in settings.platform_keys:  # every key compared: no early exit to time
        matched |= hmac.compare_digest(given, allowed.get_secret_value().encode())
    if matched:
        return Caller(None, platform=True)
    claims = verify_session(settings.signing_secret(for_server=True), key)
    return Caller(claims.customer_id, platform=False)


async def chat_completions(request: web.Request) -> web.StreamResponse:
    settings, services = request.app[SETTINGS], request.app[SERVICES]
    try:
        caller = authenticate(request, settings)
    except AuthError as exc:
        return error_response(
            401, f"invalid key: {exc}", type="invalid_request_error", code="invalid_api_key"
        )
    saturation = request.app.get(SATURATION)
    wait_s = saturation.retry_after_s() if saturation is not None else None
    if wait_s is not None:
        services.metrics.turns_refused.inc()
        return error_response(
            503,
            f"the server is busy; try again in {wait_s:g} s",
            type="server_error",
            code="server_busy",
            retry_after_s=wait_s,
        )
    limit = settings.platform_max_body_bytes
    try:
        # The platform's own limit, not the app's (the websocket's frame size).
        body = await request.clone(client_max_size=limit).read()
    except web.HTTPRequestEntityTooLarge:
        return _too_large(f"the body is over {limit} bytes")
    try:
        completion = parse_request(body)
    except BadRequest as exc:
        return error_response(400, str(exc), type="invalid_request_error", code="invalid_request")
    if len(completion.text) > settings.max_text_chars:
        return _too_large(
            f"the last user message is {len(completion.text)} characters; "
            f"the limit is {settings.max_text_chars}"
        )
    trace_id = uuid.uuid4().hex
    claim = _claim(caller, completion)

    async def find_customer() -> str | None:
        if not caller.platform:
            return caller.customer_id
        return await _platform_customer(services, completion, trace_id)

    key = completion.conversation_key(claim)
    try:
        call = await request.app[PLATFORM_CALLS].get(
            key,
            claim,
            find_customer,
            earlier=completion.earlier,
            trace_id=trace_id,
            asked=completion.fingerprint,
            named=completion.named,
            said_between=completion.said_between,
        )
    except TooManyCalls as exc:
        return error_response(
            503, str(exc), type="server_error", code="server_busy", retry_after_s=5
        )
    try:
        await request.app[PLATFORM_CALLS].refresh(
            call, completion.earlier, completion.fingerprint, completion.said_between
        )
        return await _answer(request, call, completion)
    finally:
        call.done()


async def _answer(
    request: web.Request, call: PlatformCall, completion: CompletionRequest
) -> web.StreamResponse:
    services, settings = request.app[SERVICES], request.app[SETTINGS]
    try:
        refusal = await call.budgets.admit()
    except StoreUnavailable as exc:
        log.warning("platform: not run: %s", exc)
        return error_response(
            503,
            "the conversation store cannot be reached just now, so this message was not "
            "acted on and nothing was changed; send it again in a moment",
            type="server_error",
            code="store_unavailable",
            retry_after_s=2.0,
        )
    if refusal is not None:
        services.metrics.rate_limited.labels(refusal.scope).inc()
        return error_response(
            429,
            f"too many messages from this {refusal.scope}; "
            f"try again in {refusal.retry_after_s:g} s",
            type="rate_limit_error",
            code="rate_limit_exceeded",
            retry_after_s=refusal.retry_after_s,
        )
    if call.barge_in():
        log.info("platform: a new request replaces the one still answering")
    answer = Answer(request, call, completion, settings)
    return await answer.run()


def _too_large(message: str) -> web.Response:
    return error_response(413, message, type="invalid_request_error", code="request_too_large")


def _claim(caller: Caller, completion: CompletionRequest) -> str:
    """Who the request says is calling, before any lookup: what a conversation is
    paired with (and, without any conversation id, hashed with the first message)."""
    if not caller.platform:
        return f"customer:{caller.customer_id}"
    if completion.customer_id:
        return f"customer:{completion.customer_id}"
    return f"phone:{completion.phone}" if completion.phone else "unknown"


async def _platform_customer(
    services: Services, completion: CompletionRequest, trace_id: str
) -> str | None:
    """metadata.customer_id, else the caller's number in the CRM; None: unknown caller."""
    if completion.customer_id:
        return completion.customer_id
    if completion.phone:
        customer_id, _ = await customer_by_phone(services.crm, completion.phone, trace_id)
        return customer_id
    return None


class Answer:
    """One request's response: the turn's text as chunks (or one completion), and the
    transfer call when the conversation goes to a person."""

    def __init__(
        self,
        request: web.Request,
        call: PlatformCall,
        completion: CompletionRequest,
        settings: Settings,
    ) -> None:
        self._request = request
        self._call = call
        self._completion = completion
        self._settings = settings
        self._chunks = Chunks(completion.model)
        self._spoken = Spoken()
        self._response: web.StreamResponse | None = None
        self._stream: TurnStream | None = None

    async def run(self) -> web.StreamResponse:
        if self._completion.stream:
            self._response = web.StreamResponse(
                headers={hdrs.CONTENT_TYPE: "text/event-stream", hdrs.CACHE_CONTROL: "no-cache"}
            )
            await self._response.prepare(self._request)
        try:
            transfer = await self._speak()
            finish = "tool_calls" if transfer is not None else "stop"
            if self._response is None:
                completion = self._chunks.completion(self._spoken.text, transfer, finish)
                return web.json_response(completion)
            await self._send(self._chunks.end(finish))
            await self._response.write(b"data: [DONE]\n\n")
            await self._response.write_eof()
        except ConnectionError:  # the platform hung up: the turn stops with it
            self._call.give_up(self._stream)
        except asyncio.CancelledError:
            self._call.give_up(self._stream)
            raise
        return self._response or web.Response(status=499)

    async def _speak(self) -> dict[str, Any] | None:
        """Say the turn's text; the transfer call when it ends with a handoff."""
        text, call = self._completion.text, self._call
        if wants_person(text):
            self._chunks.id = f"chatcmpl-h_{uuid.uuid4().hex[:10]}"
            return await self._hand_off("caller_request", last_request=text)
        fingerprint = self._completion.fingerprint
        # (an unnamed call is known by its first words: a request without history is its
        # first one's late copy when an answer to it was given within a retry's time, on
        # this worker or another; platform_calls.py. Was: run again, and a move by an hour
        # made twice.)
        late_copies = self._completion.with_history or (
            not self._completion.named
            and call.answered.copied(fingerprint, platform_calls.RETRY_WITHIN_S)
        )
        if (answered := call.answered.for_retry(fingerprint, late_copies=late_copies)) is not None:
            log.info("platform: a retried request is answered as before, not run again")
            self._chunks.id = answered.response_id
            await self._say(self._spoken.say("answer", answered.text))
            return None
        message_id = f"m_{uuid.uuid4().hex[:12]}"
        stream = self._stream = call.current = call.frames.open(message_id)
        heard = self._completion.heard(call.records_said)
        call.records_said = call.records_said or self._completion.records_said
        call.conversation.submit(Message(text, message_id, heard))
        self._chunks.id = f"chatcmpl-{message_id}"
        async for item in stream:
            if stream.turn_id is not None:
                self._chunks.id = f"chatcmpl-{stream.turn_id}"
            await self._say(self._spoken.piece(item))
            if isinstance(item, TurnEnd):
                if call.current is stream:
                    call.current = None
                if call.frames.wants_handoff():
                    return await self._hand_off("repeated_failures")
                await call.keep_answer(
                    self._request.app[SERVICES],
                    fingerprint,
                    self._chunks.id,
                    self._spoken.text,
                    item.status,
                )
        return None

    async def _hand_off(
        self, reason: HandoffReason, *, last_request: str | None = None
    ) -> dict[str, Any]:
        session = self._call.conversation.session
        await self._say(self._spoken.say("handoff", HANDOFF_LINE[reason]))
        summary = conversation_summary(list(session.history), session.customer, last_request)
        transfer = tool_call(
            self._settings.platform_transfer_tool, {"reason": reason, "summary": summary}
        )
        if self._response is not None:
            await self._send(self._chunks.tool_calls(transfer))
        log.info("platform: handing the conversation to a person (%s)", reason)
        return transfer

    async def _say(self, piece: str | None) -> None:
        if piece is not None and self._response is not None:
            await self._send(self._chunks.content(piece))

    async def _send(self, chunk: dict[str, Any]) -> None:
        assert self._response is not None
        await self._response.write(sse(chunk))


def setup_routes(app: web.Application) -> None:
    """Adds `POST /v1/chat/completions`; its conversations are closed when the app stops."""
    from assistant.transports.ws import MESSAGE_LIMITS  # the websocket's budgets, shared

    async def open_calls(app: web.Application) -> None:
        settings = app[SETTINGS]
        app[PLATFORM_CALLS] = PlatformCalls(
            app[SERVICES],
            app[MESSAGE_LIMITS],
            settings.platform_idle_s,
            most=settings.max_connections,
        )

    async def close_calls(app: web.Application) -> None:
        if PLATFORM_CALLS in app:
            await app[PLATFORM_CALLS].close_all()

    app.on_startup.append(open_calls)
    app.on_shutdown.append(close_calls)
    app.router.add_post(PATH, chat_completions)


__all__ = ["PATH", "authenticate", "chat_completions", "setup_routes"]
