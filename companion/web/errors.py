"""Clear JSON answers for requests that cannot be carried out.

Every refusal is ``{"error": <code>, "message": <what is wrong and what to do>}`` with a 4xx
status; the browser translates the codes it knows and shows the message otherwise. A refused
request has changed nothing: the checks run before anything is asked of the table, and the
referee refuses before it writes an event.
"""

from __future__ import annotations

from typing import Any


class ApiError(Exception):
    """A request refused with ``status``, a stable ``code`` and a message for a person."""

    def __init__(self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None,
                 **extra: Any):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


def bad_request(message: str, code: str = "bad_request") -> ApiError:
    return ApiError(400, code, message)
