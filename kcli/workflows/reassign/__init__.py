"""The reassignment actions as async workflows over the Admin client (the CLI runs one of them).

Each workflow reads what it needs, validates before changing anything (a KcliError, exit 1, when
the cluster refutes the request), then changes the cluster and returns a result value for
kcli.render.reassign. Wire calls live in kcli.client.api.{topics,reassign,log_dirs,configs}; the
models they work on live in kcli.ops.reassign.
"""
