"""Workflows: each runs a sequence of client calls for one tool action (above kcli.client.api,
below the CLI). The models they compute with live in kcli.ops and never touch the network."""
