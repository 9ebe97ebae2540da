"""The synthetic table for Altitude (the card mountain): card mountains laid by hand, the deck,
the discard pile, cards shown, photographed with the shared camera, light, optics and arms.

``deck`` (the cards a deck holds, read from a manifest file), ``faces`` (card faces and backs as
textures), ``scene`` (what lies on the table), ``render`` (drawing it), ``truth`` (what an ideal
reader reports and how much of each card shows), ``generate`` (random positions and shots),
``corpus`` (rendered corpora and scoring), ``sequence`` (videos with arms between positions) and
``enrol`` (the cards shown one by one to the camera, as ``companion calibrate cards`` sees them).
"""
