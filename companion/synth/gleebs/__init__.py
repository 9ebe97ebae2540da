"""The synthetic table for Gleeb's and Grues: the printed 4×4 board and its pyramids, drawn as a
webcam would see them, with exact ground truth.

A :class:`~companion.synth.gleebs.scene.GleebsScene` (what is on the table: the board where it
lies, the stacks on its squares, loose pyramids beside it, an arm) and a shared
:class:`~companion.synth.scene.Shot` (camera, light, table top, sensor) go into
:func:`~companion.synth.gleebs.render.render`; out come the frame and its
:class:`~companion.synth.gleebs.truth.GleebsTruth`. :mod:`.generate` draws random positions and
photographs, :mod:`.calibration_shot` the colour calibration a user makes, :mod:`.sequence`
videos of hands moving pieces, and :mod:`.corpus` the benchmark's corpus and its score.
"""
