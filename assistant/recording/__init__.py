"""Recorded conversations: record a session to JSON Lines, replay it, pin behaviour.

    format.py    the file format (records, version, read/write)
    recorder.py  recording: `instrument()` once per app, `Recorder.open(session)` per
                 session, whose `wrap_emit(emit)` is what the engine is given
    replay.py    stand-ins answering the engine from a recording
    runner.py    a replay through the real engine, compared and reported
    compare.py   normalisation (ids, timings, concurrent order) and the diff

`assistant replay PATH… [--update] [--models recorded|live]` is assistant/replay.py.
"""
