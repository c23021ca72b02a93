"""Hearth guardrails package."""
