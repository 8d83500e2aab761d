"""An emulated KRaft cluster on loopback for rehearsal, demos and tests (not Kafka itself).

Controllers and brokers speak the real Kafka protocol (kio types) and persist their state as a
real __cluster_metadata-0 log. Importing this package is cheap; the cluster loads when started.
"""

from kcli.sandbox.handle import Sandbox, SandboxError

__all__ = ["Sandbox", "SandboxError"]
