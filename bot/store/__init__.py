"""The store: SQLAlchemy models, engines and the unit of work (SQLite or PostgreSQL)."""
