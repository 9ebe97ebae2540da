"""Tabletop referee: see the pieces, judge the moves, tell the players.

The package is split by domain, and data flows one way (see ``../shared/DESIGN.md``):

* ``companion.vision``, ``companion.synth`` and the top-level ``calibration`` package *see*:
  frames in, :class:`companion.observation.Observation` out. They know optics and pieces, never
  rules.
* ``companion.games`` and ``companion.referee`` *judge*: observations in, verdicts out.
* ``companion.store``, ``companion.web`` and the top-level ``hardware`` package *tell*: the event
  log, the dashboard and the LED/score board.
"""

__version__ = "0.1.0"
