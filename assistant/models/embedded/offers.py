"""The offer of a support case, asked after what no tool does: one wording, which the
dialogue state recognises when a yes answers it."""

from __future__ import annotations

OFFER = "Would you like me to open a support case?"
