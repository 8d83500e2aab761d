"""One module per Kafka API the sandbox answers, named kNN_<api>.py after its API key."""
