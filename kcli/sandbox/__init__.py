"""Local KRaft clusters for rehearsal, demos and tests: the emulator (kcli.sandbox.emulator, not Kafka)
and real Kafka nodes (kcli.sandbox.kafka), two sibling engines; the modules here are what both use.
Importing this package is cheap."""
