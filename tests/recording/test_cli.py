"""`assistant replay PATH…`: exit status 0 when all match, 1 on a difference, 2 when refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.__main__ import main
from assistant.tools.catalog import Catalog
from tests.recording.conversations import record_everything
from tests.recording.test_replay import edit_event


@pytest.fixture
async def recorded(tmp_path: Path, catalog: Catalog) -> Path:
    return await record_everything(tmp_path / "recordings", catalog)


def test_a_matching_recording_exits_0(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nothing changed: PASS and status 0."""
    assert main(["replay", str(recorded)]) == 0
    assert capsys.readouterr().out.startswith(f"PASS {recorded} (5 turns,")


def test_a_difference_exits_1_and_prints_the_diff(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One edited event: FAIL, the diff names it, status 1; --update then makes it pass."""
    edit_event(recorded, 5, "answer.done", text="Goodbye.")
    assert main(["replay", str(recorded.parent)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {recorded}" in out
    assert "turn 5 'hello':" in out and "(answer.done): text differ" in out
    assert main(["replay", "--update", str(recorded)]) == 1
    assert main(["replay", str(recorded)]) == 0


def test_an_older_format_is_refused_with_status_2(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A version-0 file: not replayed, the message names the version, status 2."""
    lines = recorded.read_text().splitlines()
    header = {**json.loads(lines[0]), "format_version": 0}
    recorded.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    assert main(["replay", str(recorded)]) == 2
    assert "recording format version 0 is not supported" in capsys.readouterr().err
