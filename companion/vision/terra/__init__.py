"""The Terra Turrium camera reader: the height of every square's tower and each flag's colour and
square, on the printed 10 × 10 board (``docs/observation/terra-turrium.md``).

:mod:`.reader` is the entry point (``make_reader``, ``annotate``); :mod:`.kit` holds the pieces'
sizes, :mod:`.locate` finds the board, :mod:`.geometry` projects board millimetres, :mod:`.features`
and :mod:`.model` score each height a square could have, :mod:`.heights` reads them front to
back, :mod:`.flags` finds the flags and :mod:`.hands` an arm over the board.
"""
