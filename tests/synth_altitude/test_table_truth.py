"""The synthetic Altitude table draws each card where the shared camera model puts it, paints a
higher étage over the cards it rests on, and its truth is the observation the rules engine
expects: mountain slots counted from the leftmost base card, the discard's top only, kept cards
face up or as backs, an arm over the table flagged."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.synth.altitude.corpus import corpus, score
from companion.synth.altitude.deck import load_deck
from companion.synth.altitude.generate import random_hand, random_mountain_slots
from companion.synth.altitude.photo import photograph
from companion.synth.altitude.render import CARD_ID, HAND_ID, render_table
from companion.synth.altitude.scene import AltitudeScene, Mountain, MountainCard, PileCard
from companion.synth.altitude.truth import make_truth
from companion.vision.altitude.layout import DEFAULT_LAYOUT, card_corners

from .altitude_views import clean_shot, view

MINI = load_deck("mini")
LAY = DEFAULT_LAYOUT


def _mountain(seat: str = "red") -> Mountain:
    # the rule text's mountain, laid from pos -1: the leftmost base card is the reader's pos 0
    return Mountain(seat, (150.0, 56.0), (
        MountainCard(1, -1, "m08", (1.0, -0.5, 1.5)), MountainCard(1, 0, "m05", (-1.2, 0.4, -1.0)),
        MountainCard(1, 1, "m02", (0.3, 1.1, 0.5)), MountainCard(2, -1, "m09", (0.8, 0.2, -2.0)),
        MountainCard(2, 0, "tel2", (-0.6, -0.9, 1.0)), MountainCard(3, -1, "m13", (0.0, 0.7, 0.3))))


def test_a_card_is_drawn_where_the_view_projects_it():
    scene = AltitudeScene(MINI, discard=(PileCard("m07", (3.0, -2.0), 8.0),))
    v = view(20.0, target=LAY.discard.centre, dist=(-0.2, 0.06, 0.001, -0.001, 0.0))
    out = render_table(scene, clean_shot(v))
    (card,) = out.laid
    mask = (out.ids == CARD_ID).astype(np.uint8)
    corners = card_corners(card.centre, card.angle_deg, LAY.card_mm)
    poly = v.project(np.column_stack([corners, np.full(4, card.z)])).astype(np.float32)
    filled = np.zeros_like(mask)
    cv2.fillConvexPoly(filled, np.round(poly).astype(np.int32), 1)
    assert mask.sum() > 3000
    # the card's pixels are the projected card, give or take its edge
    assert abs(int(filled.sum()) - int(mask.sum())) < 0.04 * filled.sum()
    assert int((mask & filled).sum()) > 0.97 * mask.sum()
    # a white border and a printed face: brighter than the grey laminate around it
    inside = out.image[mask.astype(bool)].astype(float).mean()
    ring = cv2.dilate(filled, np.ones((25, 25), np.uint8)) - cv2.dilate(filled, np.ones((9, 9), np.uint8))
    assert out.image[ring.astype(bool)].astype(float).mean() < inside + 60


def test_a_mountains_truth_counts_slots_from_the_leftmost_base_card_and_upper_etages_cover():
    scene = AltitudeScene(MINI, mountains=(_mountain(),))
    photo = photograph(scene, clean_shot(view(0.0, target=(250.0, 120.0), height=550.0)))
    truth = photo.truth
    slots = {(p.get("etage"), p.get("pos")): p.get("card") for p in truth.observation.pieces}
    assert slots == {(1, 0): "m08", (1, 1): "m05", (1, 2): "m02", (2, 0): "m09", (2, 1): "tel2",
                     (3, 0): "m13"}
    assert {p.zone for p in truth.observation.pieces} == {"player:red"}
    by_card = {c.card: c for c in truth.cards}
    # the top card and the right base card lie free; a card under two cards shows under half
    assert by_card["m13"].visible > 0.97 and not by_card["m13"].covered
    assert by_card["m02"].covered and 0.6 < by_card["m02"].visible < 0.85
    assert by_card["m05"].covered and 0.3 < by_card["m05"].visible < 0.6
    # painted bottom first: the higher étage's pixels are where the cards overlap
    ids = render_table(scene, clean_shot(view(0.0, target=(250.0, 120.0), height=550.0))).ids
    laid = [c.card for c in scene.laid()]
    assert laid.index("m13") > laid.index("m09") > laid.index("m08")
    assert (ids == CARD_ID + laid.index("m13")).sum() > (ids == CARD_ID + laid.index("m05")).sum()


def test_only_the_discards_top_is_reported_and_kept_cards_face_down_are_backs():
    kept = (("blue", (PileCard("stb1"), PileCard(None, (1.0, 0.0), 2.0))),)
    scene = AltitudeScene(MINI, discard=(PileCard("m01"), PileCard("m04", (4.0, 2.0), 6.0)),
                          deck_size=6, drawn=PileCard("m12", (1.0, 1.0), 3.0), kept=kept)
    v = view(10.0, height=900.0, hfov=78.0)
    truth = photograph(scene, clean_shot(v)).truth
    got = sorted((p.zone, p.kind, p.get("card")) for p in truth.observation.pieces)
    assert got == [("discard", "card", "m04"), ("drawn", "card", "m12"),
                   ("hand:blue", "card", "stb1"), ("hand:blue", "card_back", None)]
    assert not truth.hand and not truth.hand_over_table


def test_an_arm_over_the_table_is_in_the_truth_and_hides_cards():
    scene = AltitudeScene(MINI, mountains=(_mountain(),), discard=(PileCard("m01"),))
    rng = np.random.default_rng(4)
    target = LAY.seat("red").to_table(np.array([[180.0, 60.0]]))[0]
    with_arm = scene.with_hand(random_hand(rng, scene, (float(target[0]), float(target[1]))))
    v = view(15.0, height=900.0, hfov=78.0)
    shot = clean_shot(v)
    rendered = render_table(with_arm, shot)
    truth = make_truth(with_arm, shot, rendered)
    assert truth.hand and truth.hand_over_table
    assert (rendered.ids == HAND_ID).sum() > 2000
    bare = photograph(scene, shot).truth
    seen = {c.card: c.visible for c in truth.cards}
    assert sum(seen.values()) < sum(c.visible for c in bare.cards) - 0.3


def test_random_pyramids_rest_every_card_on_two():
    rng = np.random.default_rng(11)
    for _ in range(50):
        slots = set(random_mountain_slots(rng, int(rng.integers(1, 8)), 5))
        for k, p in slots:
            if k > 1:
                assert (k - 1, p) in slots and (k - 1, p + 1) in slots


def test_the_corpus_is_the_same_every_time_and_its_truth_scores_perfectly():
    a = list(corpus(2, seed=21))
    b = list(corpus(2, seed=21))
    for x, y in zip(a, b):
        assert np.array_equal(x.image, y.image)
        assert x.truth.to_json() == y.truth.to_json()
    for item in a:
        s = score(item.truth, item.truth.observation)
        assert s["cards"] > 0 and s["cards_right"] == s["cards"] and s["extra"] == 0


def test_the_score_counts_a_misread_a_missed_and_an_extra_card():
    scene = AltitudeScene(MINI, mountains=(_mountain(),), discard=(PileCard("m01"),))
    truth = photograph(scene, clean_shot(view(0.0, height=900.0, hfov=78.0))).truth
    pieces = list(truth.observation.pieces)
    wrong = [p for p in pieces if p.get("card") != "m13"]  # the top card missed
    i = next(n for n, p in enumerate(wrong) if p.get("card") == "m08")
    wrong[i] = type(wrong[i])("card", zone="player:red", attrs={"card": "m06", "etage": 1, "pos": 0})
    wrong.append(type(wrong[i])("card", zone="player:red", attrs={"card": "m03", "etage": 4, "pos": 0}))
    s = score(truth, type(truth.observation)(game="altitude", pieces=tuple(wrong)))
    assert s["cards"] == 7 and s["cards_right"] == 5 and s["extra"] == 1
    # the top card lies free (missed); m08, m09, tel2 and m02 carry one card (m08 misread);
    # m05 carries two
    assert (s["full"], s["full_right"]) == (1, 0)
    assert (s["quarter"], s["quarter_right"]) == (4, 3)
    assert (s["half"], s["half_right"]) == (1, 1)
    assert (s["discard"], s["discard_right"]) == (1, 1)


@pytest.mark.parametrize("arm", [False, True])
def test_a_hand_frame_scores_only_whether_it_was_taken_for_a_position(arm):
    scene = AltitudeScene(MINI, mountains=(_mountain(),))
    if arm:
        scene = scene.with_hand(random_hand(np.random.default_rng(2), scene, (200.0, 100.0)))
    truth = photograph(scene, clean_shot(view(0.0, height=900.0, hfov=78.0))).truth
    s = score(truth, truth.observation.__class__(game="altitude", pieces=truth.observation.pieces))
    assert s["hand_read_as_position"] == int(arm)
    assert s["cards"] == (0 if arm else 6)
