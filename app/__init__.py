"""Hearth app package."""
