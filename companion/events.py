"""The one list of event names.

Every event the referee emits is named here. The same names feed the log (those that change the
game), the dashboard's push channel (all of them) and the LED board (those in
:data:`BOARD_EVENTS`), so a new kind of event is added in one place.
"""

from __future__ import annotations

# -- events that are part of a game's record (stored in the log, replayed) --------------------
GAME_STARTED = "game.started"          # game, players, options, seed: the parameters
MOVE_JUDGED = "move.judged"            # the referee settled a move: move, notation, verdict, scores
MOVE_REVISED = "move.revised"          # a later adjustment in the same turn replaced the move
MOVE_CORRECTED = "move.corrected"      # a person replaced a misread move with the real one
MOVE_UNDONE = "move.undone"            # a person took a move back
VERDICT_CONFIRMED = "verdict.confirmed"  # a person confirmed a disputed verdict
VERDICT_OVERRIDDEN = "verdict.overridden"  # the table let an illegal move stand
ILLEGAL_RETRACTED = "illegal.retracted"  # the pieces were put back after an illegal move
QUESTION_ASKED = "question.asked"      # the referee needs a person: candidates as choices
QUESTION_ANSWERED = "question.answered"  # a person chose
UNEXPLAINED = "observation.unexplained"  # nothing explains the table: nearest candidates
GAME_ENDED = "game.ended"              # outcome

RECORD_EVENTS = (
    GAME_STARTED, MOVE_JUDGED, MOVE_REVISED, MOVE_CORRECTED, MOVE_UNDONE, VERDICT_CONFIRMED,
    VERDICT_OVERRIDDEN, ILLEGAL_RETRACTED, QUESTION_ASKED, QUESTION_ANSWERED, UNEXPLAINED,
    GAME_ENDED,
)

# -- live status (pushed, not part of the record) ---------------------------------------------
CAMERA_STATUS = "camera.status"        # connected / reconnecting / lost, fps
BOARD_STATUS = "board.status"          # the LED board: connected / reconnecting / lost / absent
CALIBRATION_STATUS = "calibration.status"
SCENE_STILL = "scene.still"            # the stillness gate opened / closed, hand over the table
OVERLAY_STATUS = "overlay.status"      # the reader's drawings on the camera view on / off
HEARTBEAT = "heartbeat"

STATUS_EVENTS = (CAMERA_STATUS, BOARD_STATUS, CALIBRATION_STATUS, SCENE_STILL, OVERLAY_STATUS,
                 HEARTBEAT)

ALL_EVENTS = RECORD_EVENTS + STATUS_EVENTS

#: events the LED/score board reacts to
BOARD_EVENTS = (
    GAME_STARTED, MOVE_JUDGED, MOVE_REVISED, MOVE_CORRECTED, MOVE_UNDONE, VERDICT_OVERRIDDEN,
    ILLEGAL_RETRACTED, QUESTION_ASKED, QUESTION_ANSWERED, UNEXPLAINED, GAME_ENDED,
)
