"""Tool logic independent of the wire: pure models, parsing, planning, checks."""
