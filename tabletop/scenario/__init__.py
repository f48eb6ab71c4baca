"""Scenario files (format 1): schema, loading, saving and the checks beyond the schema."""
