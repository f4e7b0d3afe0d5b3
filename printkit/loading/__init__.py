"""Loading: TOML/JSON data files, game records and state files into the typed model."""
