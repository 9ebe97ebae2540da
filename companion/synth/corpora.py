"""What the per-game corpora of rendered frames share: an item (the scene, the camera shot and
the rendered photo with its truth) and the reading of the keyword ranges that narrow what is
drawn (``tilt_deg=20`` or ``tilt_deg=(0, 10)``, ``light="dim"``, ``hand_probability=0.3``, any
field of the game's ranges dataclass)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Callable, Iterator


@dataclass(frozen=True)
class CorpusItem:
    """One rendered frame of a corpus, with what drew it."""

    index: int
    scene: Any
    shot: Any
    photo: Any

    @property
    def image(self):
        return self.photo.image

    @property
    def truth(self):
        return self.photo.truth

    @property
    def tilt_deg(self) -> float:
        return float(self.shot.view.pose.tilt_deg)

    @property
    def light(self) -> str:
        return self.shot.light.name


def rendered_corpus(n: int, seed: int, ranges: dict[str, Any], ranges_type: type,
                    corpus_item: Callable[..., tuple[Any, Any]],
                    photograph: Callable[[Any, Any], Any],
                    item_type: type = CorpusItem) -> Iterator[Any]:
    """``n`` rendered frames of the corpus ``seed``: ``corpus_item(seed, i, ranges, ...)`` draws
    each scene and shot, ``photograph`` renders it. Unknown ranges are refused."""
    ranges = dict(ranges)
    tilt = ranges.pop("tilt_deg", None)
    light = ranges.pop("light", None)
    hand = float(ranges.pop("hand_probability", 0.0))
    unknown = set(ranges) - {f.name for f in fields(ranges_type)}
    if unknown:
        raise ValueError(f"unknown corpus ranges: {', '.join(sorted(unknown))}")
    fixed_tilt = None
    if isinstance(tilt, (int, float)):
        fixed_tilt = float(tilt)
    elif tilt is not None:
        ranges["tilt_deg"] = (float(tilt[0]), float(tilt[1]))
    drawn = ranges_type(**ranges)
    for i in range(n):
        scene, shot = corpus_item(seed, i, drawn, hand_probability=hand, light=light,
                                  tilt_deg=fixed_tilt)
        yield item_type(i, scene, shot, photograph(scene, shot))
