"""The metadata shell: commands over the metadata tree, interactive or one-shot."""
