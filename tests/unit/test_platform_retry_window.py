"""A platform's retry is answered as before; the same words in a later call are run."""

from __future__ import annotations

from assistant.transports.platform_calls import RETRY_WITHIN_S
from assistant.transports.platform_retry import LastAnswer


def test_the_same_request_later_is_no_retry() -> None:
    """Within a platform's retry time the same request is its retry; a minute on, with no
    call id to tell them apart, it is the caller's next call opening the same way (was:
    answered as before, "Done" said and nothing done)."""
    answered = LastAnswer()
    answered.keep("asked", "chatcmpl-t_1", "Done.", "ok")
    given = answered.for_retry("asked")
    assert given is not None
    assert answered.retried("asked", RETRY_WITHIN_S, now=given.at + 5)
    assert not answered.retried("asked", RETRY_WITHIN_S, now=given.at + RETRY_WITHIN_S + 1)
    assert not answered.retried("other", RETRY_WITHIN_S, now=given.at + 5)
