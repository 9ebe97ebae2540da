"""The referee's dashboard: a Flask application served by waitress inside the process that owns
the table (camera, board and game), opened on a tablet beside the table.

* :func:`create_app` builds the application for a :class:`~companion.runtime.table.Table`;
* :func:`serve` runs it in a background thread and returns a handle (``.url``, ``.stop()``).

The page, its API (``docs/api.md``) and how to use it at the table (``docs/dashboard.md``).
"""

from __future__ import annotations

from typing import Any


def create_app(table: Any, config: Any):
    """The dashboard's Flask application for ``table`` (see :mod:`companion.web.app`)."""
    from companion.web.app import create_app as _create

    return _create(table, config)


def serve(table: Any, **kwargs: Any):
    """Serve the dashboard in a background thread (see :func:`companion.web.server.serve`)."""
    from companion.web.server import serve as _serve

    return _serve(table, **kwargs)


__all__ = ["create_app", "serve"]
