"""Run printkit as ``python -m printkit``."""

from printkit.cli import main

main()
