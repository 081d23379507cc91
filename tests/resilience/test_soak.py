"""A bounded soak: 20 sessions × 5 turns with random faults on 10 % of CRM requests
(`python -m bench.soak` soaks longer)."""

from __future__ import annotations

from bench.soak_run import soak


async def test_soak_every_call_finishes_once_and_no_write_is_lost_or_doubled(
    crm_url: str, crm_token: str
) -> None:
    """Under random faults (slow and lost-reply writes among them) every turn ends, every
    call finishes once, and what each turn said of its write matches the CRM."""
    report = await soak(crm_url, crm_token, sessions=20, turns=5, fault_rate=0.1, seed=3)
    assert report.problems == []
    assert sum(report.statuses.values()) == 100
    told = (
        report.writes_reported_ok
        + report.writes_reported_failed
        + report.writes_reported_unconfirmed
    )
    assert told == 100
    assert (report.mismatches, report.doubles) == (0, 0), report.figures()
    assert report.writes_reported_ok > 75, report.figures()
    faults_seen = sum(n for code, n in report.outcomes.items() if code != "ok")
    assert report.calls > 200
    assert report.statuses["ok"] < 100 or faults_seen == 0
