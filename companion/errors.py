"""Errors a user can act on.

A :class:`UserError` reaches the terminal as one line saying what is wrong and what to do,
without a traceback. Anything else is a bug and keeps its traceback.
"""

from __future__ import annotations


class UserError(Exception):
    """Something outside the program is wrong (a file, a device, an argument)."""

    exit_status = 1

    def __init__(self, message: str, *, hint: str | None = None):
        self.message = message
        self.hint = hint
        super().__init__(message if not hint else f"{message} ({hint})")


class BadInput(UserError):
    """A file or request could not be read. ``where`` says where (file and line)."""

    exit_status = 2

    def __init__(self, message: str, *, where: str | None = None, hint: str | None = None):
        self.where = where
        super().__init__(f"{where}: {message}" if where else message, hint=hint)
