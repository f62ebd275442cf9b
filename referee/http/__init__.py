"""The HTTP layer: the only part of the referee that knows about requests."""
