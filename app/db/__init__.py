"""Persistence: SQLAlchemy 2.0 async models, the session factory, migrations and repositories."""
