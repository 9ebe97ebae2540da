"""The running program: one process owns the camera, the serial link and the game.

* :mod:`bus`: every event, numbered, for the dashboard's push channel (with catch-up);
* :mod:`feed`: the camera view, encoded once per frame and shared by every viewer;
* :mod:`table`: the :class:`Table` that ties the referee, the camera loop, the board and the bus.
"""
