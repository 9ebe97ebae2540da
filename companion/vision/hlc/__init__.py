"""Reading Haut les Cubes from one frame: the cubes' lattice and heights, the giants, the card.

See :mod:`companion.vision.hlc.reader` for the method, ``docs/observation.md`` for what it reports.
"""
