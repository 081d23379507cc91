"""The embedded backend: a planner and a narrator with no network and no weights.

The default model: deterministic, fast, and built on `assistant.language` (what was
asked), `assistant.resolve` (which item was meant) and `assistant.speech` (how to say it).
"""

from assistant.models.embedded.narrator import EmbeddedNarrator
from assistant.models.embedded.planner import EmbeddedPlanner

__all__ = ["EmbeddedNarrator", "EmbeddedPlanner"]
