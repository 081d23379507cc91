"""Model backends by name: the one place that turns `settings.backend` into models.

    models = build_models(settings, catalog)       # serve, replay --models live, tests

A backend is a function from the settings and the catalog to a `ModelSet`: the
planner, the narrator, and the helpers a remote model needs (the deterministic
follow-up planner, and a narrator that still speaks results when the model is down).
Adding a backend is one entry in `BACKENDS` (see docs/architecture.md).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Final

from assistant.errors import ConfigError
from assistant.models.base import Narrator, Planner
from assistant.settings import Settings
from assistant.tools.catalog import Catalog


@dataclass(frozen=True, slots=True)
class ModelSet:
    """The models one engine runs with."""

    planner: Planner
    narrator: Narrator
    # For model backends: plans the deterministic follow-ups of a chained round.
    follow_up: Planner | None = None
    # For model backends: speaks the results when the model cannot be reached.
    fallback_narrator: Narrator | None = None

    def missing(self, tool_names: Iterable[str]) -> list[str]:
        """What the models lack for these tools (a describer, a failure phrasing…):
        each model that keeps per-tool knowledge says so through a `missing` method."""
        names = list(tool_names)
        lacking: list[str] = []
        for model in (self.planner, self.narrator, self.follow_up, self.fallback_narrator):
            check = getattr(model, "missing", None)
            if check is not None:
                lacking.extend(item for item in check(names) if item not in lacking)
        return lacking

    def closers(self) -> list[Callable[[], Awaitable[object]]]:
        """The `aclose` of every model that holds a connection (a model backend's client)."""
        models = (self.planner, self.narrator, self.follow_up, self.fallback_narrator)
        return [closer for model in models if (closer := getattr(model, "aclose", None))]


Backend = Callable[[Settings, Catalog], ModelSet]


def _embedded(settings: Settings, catalog: Catalog) -> ModelSet:
    from assistant.models.embedded import EmbeddedNarrator, EmbeddedPlanner

    return ModelSet(EmbeddedPlanner(), EmbeddedNarrator())


def _openai(settings: Settings, catalog: Catalog) -> ModelSet:
    from assistant.models.embedded import EmbeddedNarrator, EmbeddedPlanner
    from assistant.models.openai_compat import build_openai_models

    planner, narrator = build_openai_models(settings, catalog)
    return ModelSet(planner, narrator, EmbeddedPlanner(), EmbeddedNarrator())


def _replay(settings: Settings, catalog: Catalog) -> ModelSet:
    # Recorded answers need a recording: recording/runner.recorded_models builds them.
    raise ConfigError(
        "backend: 'replay' answers from recordings and runs under `assistant replay "
        "FILE…`; `serve` needs --backend embedded or openai"
    )


# Imported lazily inside each builder: the openai backend pulls in the `openai` client.
BACKENDS: Final[dict[str, Backend]] = {
    "embedded": _embedded,
    "openai": _openai,
    "replay": _replay,
}


def build_models(settings: Settings, catalog: Catalog) -> ModelSet:
    """The models of `settings.backend`; ConfigError naming the known ones otherwise."""
    backend = BACKENDS.get(settings.backend)
    if backend is None:
        known = ", ".join(sorted(BACKENDS))
        raise ConfigError(f"backend: unknown model backend {settings.backend!r}; use {known}")
    return backend(settings, catalog)


__all__ = ["BACKENDS", "Backend", "ModelSet", "build_models"]
