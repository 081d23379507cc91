"""The widget and the terminal client name tools in the same words, for every tool."""

from __future__ import annotations

import re

from assistant.chat_view import TOOL_DONE, TOOL_SUBJECT
from assistant.settings import PROJECT_ROOT, load_settings
from assistant.tools.catalog import load_catalog

WORDS_JS = (PROJECT_ROOT / "assistant" / "web" / "words.js").read_text()


def js_table(name: str) -> dict[str, str]:
    body = WORDS_JS.split(f"const {name} = {{", 1)[1].split("};", 1)[0]
    return dict(re.findall(r'"([^"]+)": "([^"]+)"', body))


def test_widget_and_terminal_share_their_tool_words() -> None:
    """words.js and chat_view.py say the same for each tool, and know every catalog tool."""
    assert js_table("TOOL_LABELS") == TOOL_DONE
    assert js_table("TOOL_SUBJECTS") == TOOL_SUBJECT
    settings = load_settings()
    catalog = {tool.name for tool in load_catalog(settings.resolve(settings.tools_path)).tools}
    assert catalog <= TOOL_DONE.keys()
    assert set(js_table("TOOL_PROGRESS")) == catalog
