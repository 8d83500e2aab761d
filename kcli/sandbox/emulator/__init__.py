"""The emulator engine of the sandbox: controllers and brokers on loopback in one Python process.

They speak the real Kafka protocol (kio types) and persist their state as a real __cluster_metadata-0
log. Importing this package is cheap; the cluster loads when started.
"""

from kcli.sandbox.emulator.handle import Sandbox, SandboxError

__all__ = ["Sandbox", "SandboxError"]
