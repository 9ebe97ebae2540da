"""The rule texts, as shipped with the package."""

from __future__ import annotations

from importlib import resources

FILES = {
    "haut-les-cubes": "haut-les-cubes.fr.txt",
    "altitude": "montagne-de-cartes.fr.txt",
    "terra-turrium": "terra-turrium.fr.txt",
    "gleebs-and-grues": "gleebs-and-grues.fr.txt",
    "ville-des-nains": "ville-des-nains.fr.txt",
}


def rule_text(game: str) -> str:
    """The French rule text of ``game``."""
    return resources.files(__name__).joinpath(FILES[game]).read_text(encoding="utf-8")


def normalise(text: str) -> str:
    """Whitespace and markup folded, for checking that a quoted sentence is in the text."""
    return " ".join(text.replace("*", "").replace("\u00a0", " ").split())
