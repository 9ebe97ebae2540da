"""Reading La Ville des Nains from a camera: the dice in the tray, the stones in the pool, each
dwarf's buildings stone by stone and the kobold's blue tower (``docs/observation/ville-des-nains.md``).

There is no printed board: the table markers 0–3 locate the table, and the game's zones lie in
table millimetres (:mod:`.zones`, a default layout a calibration or settings file can override).
:mod:`.kit` holds the pieces' physical numbers, :mod:`.solids` their shapes as convex solids
(shared with the synthetic table, which draws exactly what the reader looks for), and
:mod:`.reader` is the entry point (``make_reader``, ``annotate``).
"""
