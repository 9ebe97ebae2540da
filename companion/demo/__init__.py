"""``companion demo``: a scripted game played through the whole chain, with no camera and no
board: the synthetic table stands in for the camera, the emulated board for the LEDs and
display, and the dashboard serves on localhost."""
