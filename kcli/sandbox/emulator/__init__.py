"""The emulator engine of the sandbox: controllers and brokers on loopback in one Python process.

They speak the real Kafka protocol (kio types) and persist their state as a real __cluster_metadata-0
log. The package itself imports nothing, so importing any of its modules loads only what that module
needs; the handle tests and scripts start a cluster with is kcli.sandbox.emulator.handle.Sandbox.
"""
