"""The test suite; `tests.support` holds helpers shared by its modules."""
