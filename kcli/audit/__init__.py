"""Fleet audits: cluster snapshots, KRaft metadata history, declarative rules run as Spark jobs.

pyspark is imported only by kcli.audit.job and kcli.audit.metadata_source, and only inside the
functions that run a Spark command; everything else here needs at most pyarrow.
"""
