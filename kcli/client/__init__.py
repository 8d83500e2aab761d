"""The shared client layer: configuration, connections, cluster discovery and the Admin client.

Import the submodules you need (kcli.client.config, kcli.client.admin, kcli.client.errors,
kcli.client.protocol); this package imports nothing so that `kcli --help` stays fast.
"""
