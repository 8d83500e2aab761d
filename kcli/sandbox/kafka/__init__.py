"""The sandbox's second engine: real Apache Kafka nodes from a Kafka distribution (`--kafka-home`).

Each node is its own JVM (`kafka.Kafka server.properties`), formatted by Kafka's own StorageTool, with
its data, server.properties and log under the sandbox directory, as an operator runs Kafka. kcli's own
client asks the cluster what it needs (readiness, the active controller, topics to create), so this
layer may use kcli.client, unlike the emulator beside it.
"""
