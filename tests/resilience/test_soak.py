"""A bounded soak: 20 sessions × 10 turns with random faults on 10 % of CRM requests."""

from __future__ import annotations

from tests.resilience.soak import soak


async def test_soak_every_call_finishes_once_and_no_write_is_lost_or_doubled(
    crm_url: str, crm_token: str
) -> None:
    """Under random faults (slow and lost-reply writes among them) every turn ends, every
    call finishes once, and what each turn said of its write matches the CRM."""
    report = await soak(crm_url, crm_token, sessions=20, turns=10, fault_rate=0.1, seed=3)
    assert report.problems == []
    assert sum(report.statuses.values()) == 200
    told = (
        report.writes_reported_ok
        + report.writes_reported_failed
        + report.writes_reported_unconfirmed
    )
    assert told == 200
    assert (report.mismatches, report.doubles) == (0, 0), report.figures()
    assert report.writes_reported_ok > 150, report.figures()
    faults_seen = sum(n for code, n in report.outcomes.items() if code != "ok")
    assert report.calls > 400
    assert report.statuses["ok"] < 200 or faults_seen == 0
