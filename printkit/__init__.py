"""printkit: print-and-play sheets and a table companion for travel games."""

__version__ = "0.1.0"
