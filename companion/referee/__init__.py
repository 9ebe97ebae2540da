"""Judge: the referee that turns observations into verdicts, and the session that folds the
event log into the current state."""

from companion.referee.referee import Referee, RefereeError  # noqa: F401
from companion.referee.session import GameSession, ReplayError  # noqa: F401
