"""The synthetic table for Terra Turrium: the printed board, towers of blocks and flags, drawn as
a webcam sees them, with exact ground truth.

:mod:`.scene` (what is on the table), :mod:`.render` (drawing it with the shared camera, optics,
lights and arms of :mod:`companion.synth`), :mod:`.truth` and :mod:`.photo` (the frame and its
truth), :mod:`.generate` (random plausible positions and shots), :mod:`.sequence` (videos with
an arm moving pieces), :mod:`.corpus` (corpora and scoring), :mod:`.colour_shot` (a colour
calibration under a shot's light) and :mod:`.tuning` (fitting the reader's height scorer).
"""
