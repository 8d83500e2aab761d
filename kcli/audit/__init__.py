"""Fleet audits: cluster snapshots, KRaft metadata history, declarative rules run as Spark jobs.

pyspark is imported only inside the functions that run a Spark command (kcli.audit.session, job,
inputs, metadata_source, storage, shipping, progress); everything else here needs at most pyarrow.
"""
