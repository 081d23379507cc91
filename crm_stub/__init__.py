"""The CRM stub: a real HTTP CRM over SQLite with fault injection (shared/CRM_API.md)."""
