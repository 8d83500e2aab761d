"""Typed wire calls per tool area: build kio requests, call Admin, map responses to ops values."""
