"""The table board: a microcontroller beside the table with one light per seat and a score
display, driven by the referee over a serial line.

What the rest of the product uses:

``hardware.link.BoardLink(port="auto", *, on_status=None)``
    The link, in its own thread. ``start()``, ``stop()``; ``status`` is one of
    ``connected``, ``connecting``, ``reconnecting``, ``lost``, ``absent``, and
    ``on_status(status, detail)`` is called at every change (from the link's thread).
    ``port`` is ``"auto"`` (find the board by USB vendor/product id; ``absent`` when there is
    none), a device path (``/dev/ttyACM0``), or any pyserial URL (``loop://``,
    ``socket://host:port``, ``rfc2217://host:port``). ``send(verb, *args)`` queues a command and
    returns at once; the link handshakes, resends, reconnects with backoff and restores the
    whole display after every reconnection by itself.

``hardware.driver.BoardDriver(link)``
    ``handle(event_type, data, status)``: call it for every referee event (types from
    ``companion.events``) with the game's status after it; it never blocks and never raises.
    Seat lights follow the turn, flashes follow verdicts, the display follows the scores, the
    amber pulse shows while the referee waits for an answer, the winner shows at the end. The
    mapping is the one table ``hardware.driver.REACTIONS``.

``hardware.emulated.EmulatedBoard()``
    A board in Python behind a pseudo-terminal: ``start()`` returns the ``/dev/pts/N`` path a
    ``BoardLink`` (or any serial tool) can open, ``snapshot()`` gives the LED colours, the 8
    display characters and the brightness for the dashboard and the demo, ``stop()``.
    ``python -m hardware.emulated`` runs one and prints its port.

Also here: ``protocol`` (the line format; ``firmware_docs/PROTOCOL.md`` describes it for
people), ``settings`` (the board's lasting state and the rules of its commands), ``model`` (the
firmware's behaviour in Python, which the emulated board runs), ``ports`` (finding boards by USB
id), ``colours`` and ``segments`` (seat colours, the 7-segment font), ``firmware`` (building
``firmware_docs/`` with its Makefile) and ``simulated`` (the real firmware in the simavr AVR
emulator, for tests and the benchmark).

This package imports neither Flask nor the games; the games never import it.
"""
