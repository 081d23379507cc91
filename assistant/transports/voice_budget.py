"""The websocket's budgets for a caller on a voice platform (Retell, ConversationRelay).

A websocket client whose message is too long, over its rate, or sent to a saturated
server gets an `error` frame and no turn (PROTOCOL.md). A caller cannot read a frame:
they hear a short line instead, and no turn runs. The same limits hold on every way in
(`max_text_chars`, the session's and the customer's messages per minute, saturation),
checked in the same order, so a message refused by one check charges no budget.

A long utterance is never cut to its first characters and run: its last words may take
back what the first ones asked ("add a task to call the plumber … no wait, don't").
"""

from __future__ import annotations

import logging
from typing import Final

from assistant.conversation import STORE_DOWN_ANSWER
from assistant.errors import StoreUnavailable
from assistant.metrics import Metrics
from assistant.settings import Settings
from assistant.transports.ratelimit import SessionLimits
from assistant.transports.saturation import Saturation

log = logging.getLogger(__name__)

TOO_LONG_LINE: Final = (
    "Sorry, that was more than I can take in at once. Could you tell me again, a little at a time?"
)
BUSY_LINE: Final = (
    "Sorry, I'm a little overwhelmed right now. Could you say that again in a moment?"
)
# The shared session store is down: nothing was acted on, and the caller hears that.
STORE_DOWN_LINE: Final = STORE_DOWN_ANSWER


async def refusal_line(
    text: str,
    *,
    settings: Settings,
    budgets: SessionLimits,
    metrics: Metrics,
    saturation: Saturation | None,
) -> str | None:
    """What the caller hears instead of a turn for `text`, or None when it may run."""
    if len(text) > settings.max_text_chars:
        log.warning(
            "voice: a %d-character utterance is over the %d limit; not run",
            len(text),
            settings.max_text_chars,
        )
        return TOO_LONG_LINE
    try:
        refusal = await budgets.admit()
    except StoreUnavailable as exc:
        log.warning("voice: not run: %s", exc)
        return STORE_DOWN_LINE
    if refusal is not None:
        metrics.rate_limited.labels(refusal.scope).inc()
        log.info("voice: over the %s's message budget; not run", refusal.scope)
        return BUSY_LINE
    if saturation is not None and saturation.retry_after_s() is not None:
        metrics.turns_refused.inc()
        return BUSY_LINE
    return None


__all__ = ["BUSY_LINE", "STORE_DOWN_LINE", "TOO_LONG_LINE", "refusal_line"]
