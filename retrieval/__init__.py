"""Hearth retrieval package."""
