"""Understanding what a customer asks: intents, slots, dates, yes and no.

Shared by the embedded planner (which acts on it) and the engine (which uses it to
notice an action a weaker model left undone).
"""

from assistant.language.confirm import is_affirmative, is_negative
from assistant.language.dates import When, find_when
from assistant.language.intents import TOOL_OF, Intent, IntentKind, detect_intents
from assistant.language.scope import unsupported
from assistant.language.smalltalk import ChatKind, classify_chat
from assistant.language.targets import TargetRef

__all__ = [
    "TOOL_OF",
    "ChatKind",
    "Intent",
    "IntentKind",
    "TargetRef",
    "When",
    "classify_chat",
    "detect_intents",
    "find_when",
    "is_affirmative",
    "is_negative",
    "unsupported",
]
