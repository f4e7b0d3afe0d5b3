"""Pure game rules: scoring and turn logic over the typed model. No I/O, no rendering."""
