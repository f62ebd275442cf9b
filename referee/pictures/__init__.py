"""Pictures of matches: the printable Generala sheet, as SVG and as a one-page PDF (`sheet`
lays it out, `canvas` writes it)."""
