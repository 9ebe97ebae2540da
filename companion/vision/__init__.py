"""See: frames in, observations out. Knows optics and pieces, never rules (no game imports)."""
