"""The zone that speaks the CRM's times as written, for a customer whose zone is unknown."""

from __future__ import annotations

from typing import Any

import pytest

from assistant.zones import zone_of_offsets


def _visits(*stamps: str) -> dict[str, Any]:
    return {"appointments": [{"id": f"a{i}", "starts_at": s} for i, s in enumerate(stamps)]}


@pytest.mark.parametrize(
    ("documents", "zone"),
    [
        ([_visits("2026-11-30T14:30:00-08:00", "2026-12-03T10:00:00-08:00")], "Etc/GMT+8"),
        ([{"appointment": {"starts_at": "2026-11-30T14:30:00+02:00"}}], "Etc/GMT-2"),
        ([{"id": "a1", "starts_at": "2026-11-30T14:30:00Z"}], "UTC"),
        ([_visits("2026-03-07T10:00:00-08:00", "2026-03-09T10:00:00-07:00")], None),
        ([_visits("2026-11-30T14:30:00+05:30")], None),
        ([_visits("2026-11-30T14:30:00")], None),
        ([{"tasks": [{"id": "t1", "title": "Buy milk"}]}, None, "text"], None),
    ],
    ids=[
        "one-offset",
        "a-single-visit",
        "utc",
        "daylight-saving-between",
        "half-hour",
        "no-offset",
        "no-time",
    ],
)
def test_the_one_offset_of_the_crms_times_names_the_zone(
    documents: list[object], zone: str | None
) -> None:
    """A zone only when every time is at one whole-hour offset (POSIX signs: -08:00 is
    Etc/GMT+8)."""
    assert zone_of_offsets(documents) == zone
