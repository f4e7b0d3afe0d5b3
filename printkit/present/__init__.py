"""Presentation beside the backends: score tables as text, the host HTML page."""
