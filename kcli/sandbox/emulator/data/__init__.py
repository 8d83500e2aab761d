"""The emulator's data plane: partition logs kept on disk in Kafka's layout, replicated to followers.

interface.py is the contract other parts build on (PartitionLogs); records.py reads and builds
RecordBatch v2. What the data plane needs of the cluster (leaders, replicas, log dirs, topic
configs) comes in through the small Protocols of topology.py, never by importing the cluster.
"""
