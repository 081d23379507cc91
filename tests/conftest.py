"""Shared fixtures live in tests/fixtures/, one module per concern, loaded here."""

pytest_plugins = [
    "tests.fixtures.crm",
    "tests.fixtures.openai_server",
    "tests.fixtures.app",
    "tests.fixtures.redis",
]
