"""The referee's dashboard: a Flask application served by waitress inside the process that owns
the table (camera, board and game), opened on a tablet beside the table.

* :func:`create_app` builds the application for a :class:`~companion.runtime.table.Table`;
* :func:`serve` runs it in a background thread and returns a handle (``.url``, ``.stop()``).

The page, its API (``docs/api.md``) and how to use it at the table (``docs/dashboard.md``).
Flask and waitress are imported only when an application is built or served.
"""

from __future__ import annotations

from companion.web.app import WebConfig, create_app
from companion.web.server import ServerHandle, serve

__all__ = ["create_app", "serve", "ServerHandle", "WebConfig"]
