"""Reading Altitude (the card mountain) from a camera: each player's brick pyramid of cards card
by card, the discard pile's top card, the drawn card while it is shown, the cards kept at the end.

Split by job: ``layout`` (where each seat's area and the central piles lie, overridable by a
settings file), ``locate`` (the camera's pose from the table markers), ``rectify`` (areas of the
table seen from straight above), ``faces`` (enrolled cards and matching their visible parts),
``mountain`` (finding the cards of a mountain and their slots), ``piles`` (the deck, the discard
pile, the shown drawn card, kept cards), ``hands`` (an arm over the table) and ``reader`` (all of
it behind ``make_reader``).
"""
