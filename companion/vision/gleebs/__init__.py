"""Reading Gleeb's and Grues from a camera: the pyramids on the printed 4×4 board.

:mod:`.geometry` holds what the pyramids physically are (sizes, how they nest and where each
one seats on the one below); :mod:`.reader` turns a frame into the observation documented in
``docs/observation/gleebs-and-grues.md``.
"""
