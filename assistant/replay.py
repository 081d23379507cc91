"""`assistant replay PATH… [--update] [--models recorded|live] [--html OUT.html]`.

Replays recorded conversations. Exit status: 0 when every recording replays the same,
1 when any differs, 2 when a file cannot be replayed (unreadable, or of another format
version). With `--html OUT.html` it draws the recordings' turns on a time axis
(assistant/timeline_page.py) into OUT.html instead of replaying them.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.settings import Settings, load_settings

# The engine and its grammar (a second or two to import) are imported by what replays,
# not by `add_arguments`: `assistant --help` and `assistant token` need none of them.
if TYPE_CHECKING:
    from assistant.recording.runner import Models


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="recordings (.jsonl), or directories of them"
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="rewrite each differing recording with what the replay sent "
        "(after a deliberate change)",
    )
    parser.add_argument(
        "--models",
        choices=["recorded", "live"],
        default="recorded",
        help="recorded: the recorded decisions and narrations (tests the engine); "
        "live: the configured models against the recorded tool results",
    )
    parser.add_argument(
        "--html",
        metavar="OUT.html",
        default=None,
        help="instead of replaying, write a timeline of every turn (decision, "
        "acknowledgement, each tool call, narration) to this HTML file",
    )


def recording_paths(paths: list[str]) -> list[Path]:
    """The files named, with each directory expanded to its *.jsonl files, sorted."""
    found: list[Path] = []
    for name in paths:
        path = Path(name)
        found.extend(sorted(path.glob("*.jsonl")) if path.is_dir() else [path])
    return found


async def replay_all(paths: list[Path], settings: Settings, models: Models, *, update: bool) -> int:
    from assistant.recording.format import RecordingFormatError
    from assistant.recording.runner import replay_file
    from assistant.tools.catalog import load_catalog

    catalog = load_catalog(settings.resolve(settings.tools_path))
    status = 0
    for path in paths:
        try:
            report = await replay_file(
                path, catalog=catalog, settings=settings, models=models, update=update
            )
        except RecordingFormatError as exc:
            print(f"ERROR {exc}", file=sys.stderr)
            status = 2
            continue
        print(report.render())
        if not report.ok and status == 0:
            status = 1
    return status


def write_timeline(paths: list[Path], out: Path) -> int:
    from assistant.recording.format import RecordingFormatError, read_recording
    from assistant.timeline import recording_timelines
    from assistant.timeline_page import render_page

    sections = []
    for path in paths:
        try:
            sections.append((path.name, recording_timelines(read_recording(path))))
        except RecordingFormatError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    try:
        out.write_text(render_page(sections, title="Turn timeline"), encoding="utf-8")
    except OSError as exc:
        print(f"error: cannot write {out}: {exc.strerror}", file=sys.stderr)
        return 2
    turns = sum(len(turns) for _, turns in sections)
    print(f"wrote {out}: {turns} turns from {len(sections)} recordings")
    return 0


def run(args: argparse.Namespace) -> int:
    config = Path(args.config) if getattr(args, "config", None) else None
    settings = load_settings(config)
    paths = recording_paths(args.paths)
    if not paths:
        print("error: no recordings found", file=sys.stderr)
        return 2
    if args.html:
        return write_timeline(paths, Path(args.html))
    return asyncio.run(replay_all(paths, settings, args.models, update=args.update))
