"""The synthetic table for La Ville des Nains: stones, dice and the kobold's tower drawn at true
size with exact ground truth, under the Haut les Cubes renderer's cameras, lights, optics and
arms (:mod:`companion.synth.optics`, :mod:`companion.synth.textures`, :mod:`companion.synth.generate`).

:mod:`.scene` (what lies on the table), :mod:`.render` (drawing it), :mod:`.truth` (the ideal
observation and what the camera can see), :mod:`.generate` (random plausible positions and
shots), :mod:`.corpus` (corpora and scoring), :mod:`.colour_shot` (the colour calibration a
user makes), :mod:`.sequence` (videos with arms moving pieces between still positions).
"""
