"""The emulator engine of the sandbox: controllers and brokers on loopback in one Python process."""
