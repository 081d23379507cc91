"""The file format: it round-trips, and a file of another version is refused by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from assistant.recording.format import (
    FORMAT_VERSION,
    RecordingFormatError,
    read_recording,
    recording_lines,
    write_recording,
)
from assistant.tools.catalog import Catalog
from tests.recording.conversations import record_everything


async def test_a_recording_reads_and_writes_back_identically(
    tmp_path: Path, catalog: Catalog
) -> None:
    """Parsing then writing a recording gives the same lines: nothing is lost or reshaped."""
    path = await record_everything(tmp_path, catalog)
    copy = tmp_path / "copy.jsonl"
    write_recording(copy, read_recording(path))
    assert copy.read_text() == path.read_text()
    assert list(recording_lines(read_recording(copy))) == path.read_text().splitlines()


async def test_an_older_format_version_is_refused_naming_the_version(
    tmp_path: Path, catalog: Catalog
) -> None:
    """Version 0 in the header: a clear refusal saying which version and what to do."""
    path = await record_everything(tmp_path, catalog)
    lines = path.read_text().splitlines()
    header = json.loads(lines[0])
    header["format_version"] = 0
    path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    with pytest.raises(RecordingFormatError) as refused:
        read_recording(path)
    message = str(refused.value)
    assert f"{path}:1: recording format version 0 is not supported" in message
    assert f"format version {FORMAT_VERSION} only; record the conversation again" in message


def test_a_file_without_a_header_is_refused(tmp_path: Path) -> None:
    """A first line that is not the header: refused, naming the file and line."""
    path = tmp_path / "bad.jsonl"
    path.write_text('{"kind": "user", "turn": 1, "text": "hi"}\n')
    with pytest.raises(RecordingFormatError, match=r"bad.jsonl:1: the first line must be"):
        read_recording(path)


def test_a_broken_record_is_refused_naming_its_line(tmp_path: Path) -> None:
    """A record with a wrong field: refused with the line number and the field."""
    header = {
        "kind": "header",
        "format_version": FORMAT_VERSION,
        "backend": "embedded",
        "catalog_digest": "x",
        "customer": None,
        "started_at": "2021-03-01T00:00:00Z",
    }
    path = tmp_path / "broken.jsonl"
    path.write_text(json.dumps(header) + '\n{"kind": "user", "turn": "one", "text": "hi"}\n')
    with pytest.raises(RecordingFormatError, match=r"broken.jsonl:2: user.turn"):
        read_recording(path)
