"""The synthetic table: game positions drawn as a webcam would see them, with exact ground truth.

It serves the tests, the benchmarks and the demo (``docs/synthetic-table.md``). A
:class:`~companion.synth.scene.Scene` (what is on the table) and a
:class:`~companion.synth.scene.Shot` (how it is photographed) go into
:func:`~companion.synth.render.render`; out comes the frame and its
:class:`~companion.synth.truth.Truth`. :mod:`companion.synth.sequence` makes videos with hands
moving pieces, and :class:`~companion.synth.sequence.SyntheticSource` serves them as frames.
"""
