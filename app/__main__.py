"""`python -m app serve` / `python -m app users create NAME --admin`."""

from __future__ import annotations

from app.cli import main

raise SystemExit(main())
