"""The guardrails package plugged into the app's seams (app/hooks.py)."""
