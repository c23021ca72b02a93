"""Scripts that fit the small classifier heads shipped in guardrails/data (not imported at run
time)."""
