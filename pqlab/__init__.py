"""pqlab: post-quantum cryptography library, test and benchmark framework for small processors."""

from pathlib import Path

__version__ = "0.1.0"

ROOT = Path(__file__).resolve().parent.parent
"""The project checkout: lib/, harness/, platforms/ live here."""


class PqlabError(Exception):
    """An error the user must see: carries a complete, self-explaining message."""
