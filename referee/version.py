"""The package version, which is also the contract's `info.version` and the explorer page's."""

__version__ = "1.1.0"
