"""Fixtures that start the kcli sandbox cluster."""
