"""Every rule of Altitude (the card mountain) that a verdict can cite.

Each :class:`RuleRef` names its place in the French rule text (``montagne-de-cartes.fr.txt``:
the section, and the sentence quoted in French guillemets, which a test checks against the text)
or the ruling of ``docs/rulings.md`` it comes from, and says to the player what went wrong, in
French and in English. Ids are stable: logs, tests and translations refer to them.
"""

from __future__ import annotations

from companion.games.base import RuleRef

GAME = "altitude"

_ASSEMBLY = "Principe d'assemblage des montagnes"
_TURN = "Démarrage de la partie, mise en place"
_SPECIAL = "Utilisation des cartes « spéciales »"
_POINTS = "Points particuliers"


def _r(id: str, paragraph: str, fr: str, en: str) -> RuleRef:
    return RuleRef(id=id, paragraph=paragraph, fr=fr, en=en)


# -- the value rule and the shape of a mountain ----------------------------------------------

VALUE_HIGHER = _r(
    "alt.value.higher",
    f"{_ASSEMBLY} — « La carte posée doit être supérieure aux cartes qu'elle recouvre. »",
    "Une carte doit être strictement plus forte que chacune des cartes qu'elle recouvre.",
    "A card must be strictly higher than each card it covers.",
)
BASE_MAX = _r(
    "alt.base.max",
    f"{_ASSEMBLY} — « Le nombre de carte maximum pour la base est de 10. »",
    "La base compte déjà 10 cartes : on ne peut plus l'agrandir.",
    "The base already has 10 cards: it cannot grow any more.",
)
STRUCTURE_TWO = _r(
    "alt.structure.two",
    f"{_ASSEMBLY} — « Chaque carte (hormis pour la base) doit reposer sur deux cartes de "
    "valeurs inférieures. »",
    "Hors de la base, une carte doit reposer à cheval sur deux cartes de la rangée du dessous.",
    "Above the base, a card must rest across two cards of the row below.",
)
TOUCH = _r(
    "alt.touch",
    f"{_POINTS} — « Chaque nouvelle carte posée dans une montagne doit toucher une carte "
    "existante. »",
    "Une nouvelle carte doit toucher une carte de la montagne : la base se prolonge sans trou.",
    "A new card must touch a card of the mountain: the base grows without a gap.",
)

# -- special cards ----------------------------------------------------------------------------

AVALANCHE_OWN = _r(
    "alt.avalanche.own",
    f"{_SPECIAL} — « Les « avalanches » ne peuvent être posées que dans la montagne d'un "
    "adversaire. »",
    "Une avalanche ne se pose que dans la montagne d'un adversaire, jamais dans la sienne.",
    "An avalanche is laid only in an opponent's mountain, never in one's own.",
)
AVALANCHE_COVER = _r(
    "alt.avalanche.cover",
    f"{_SPECIAL} — « Aucune carte ne peut être posée dessus, sauf une carte « téléphérique ». »",
    "Seul un téléphérique peut recouvrir une avalanche.",
    "Only a téléphérique may cover an avalanche.",
)
SAINT_BERNARD_BUILD = _r(
    "alt.saint-bernard.build",
    f"{_SPECIAL} — « Les « Saint-Bernards » sont à utiliser pour ôter une carte « avalanche » "
    "de sa montagne. »",
    "Un Saint-Bernard ne se pose pas dans une montagne : il sert à ôter une avalanche.",
    "A Saint-Bernard is not built into a mountain: it removes an avalanche.",
)
RESCUE_AVALANCHE = _r(
    "alt.rescue.avalanche",
    f"{_SPECIAL} — « Les « Saint-Bernards » sont à utiliser pour ôter une carte « avalanche » "
    "de sa montagne. »",
    "Un Saint-Bernard n'ôte qu'une carte avalanche, pas une autre carte.",
    "A Saint-Bernard removes only an avalanche card, not any other card.",
)
RESCUE_SAINT_BERNARD = _r(
    "alt.rescue.saint-bernard",
    f"{_SPECIAL} — « On peut supprimer une carte avalanche en utilisant une carte "
    "« Saint-Bernard ». »",
    "Seule une carte Saint-Bernard permet d'ôter une avalanche.",
    "Only a Saint-Bernard card can remove an avalanche.",
)
RESCUE_OWN = _r(
    "alt.rescue.own",
    f"{_SPECIAL} — « Un joueur peut supprimer une carte avalanche de sa montagne »",
    "Un Saint-Bernard ôte une avalanche de sa propre montagne, pas de celle d'un adversaire.",
    "A Saint-Bernard removes an avalanche from one's own mountain, not from an opponent's.",
)
RESCUE_UNCOVERED = _r(
    "alt.rescue.uncovered",
    "Rulings — Turn: a Saint-Bernard removes an uncovered avalanche",
    "Cette avalanche est recouverte (par un téléphérique) : on ne peut plus l'ôter.",
    "This avalanche is covered (by a téléphérique): it can no longer be removed.",
)
RESCUE_DRAW = _r(
    "alt.rescue.draw",
    f"{_SPECIAL} — « Un joueur peut supprimer une carte avalanche de sa montagne, il doit "
    "alors, à son tour de jouer : »",
    "Ôter une avalanche se fait en piochant, à son tour : plus possible une fois la pioche "
    "épuisée.",
    "Removing an avalanche is done on one's turn, with a draw: not once the deck is out.",
)

# -- the turn ---------------------------------------------------------------------------------

TURN_ORDER = _r(
    "alt.turn.order",
    f"{_TURN} — « Tour à tour, chacun doit piocher une carte de la pioche »",
    "Ce n'est pas le tour de ce joueur.",
    "It is not this player's turn.",
)
TURN_DOUBLE = _r(
    "alt.turn.double",
    f"{_POINTS} — « Dès que la montagne d'un joueur atteint 5 étages (animaux compris), il joue "
    "deux fois à chaque tour. »",
    "Ce joueur a une montagne de 5 étages : il joue une seconde fois avant de passer la main.",
    "This player's mountain has 5 étages: they play a second time before the next player.",
)
TURN_DRAW = _r(
    "alt.turn.draw",
    f"{_POINTS} — « On ne peut pas passer son tour : Il faut piocher une carte à chaque tour. »",
    "On ne peut pas passer son tour : il faut piocher une carte.",
    "A player cannot pass: a card must be drawn every turn.",
)
HAND_FOUR = _r(
    "alt.hand.four",
    f"{_POINTS} — « On doit toujours avoir 4 cartes dans sa main, ni plus ni moins. »",
    "La main compte toujours 4 cartes : prendre la carte piochée en main oblige à poser une "
    "carte de sa main dans sa montagne.",
    "The hand always holds 4 cards: taking the drawn card into hand means laying a hand card "
    "in one's own mountain.",
)
OPPONENT_STARTED = _r(
    "alt.opponent.started",
    f"{_POINTS} — « On ne peut pas poser de carte dans la montagne d'un adversaire avant qu'il "
    "n'ait commencé à la bâtir. »",
    "Cet adversaire n'a pas encore commencé sa montagne : on ne peut rien y poser.",
    "This opponent has not started a mountain yet: nothing can be laid in it.",
)
HAND_OWN = _r(
    "alt.hand.own",
    f"{_POINTS} — « Une carte issue d'une « main » doit être placée dans la montagne de son "
    "joueur. »",
    "Une carte de la main se pose dans sa propre montagne ; seule la carte piochée peut aller "
    "chez un adversaire.",
    "A hand card goes into one's own mountain; only the drawn card may go to an opponent.",
)
DISCARD_HAND = _r(
    "alt.discard.hand",
    f"{_POINTS} — « On ne peut pas rejeter de carte issue de sa main dans la défausse. »",
    "On ne jette pas une carte de sa main dans la défausse : seule la carte piochée peut y aller.",
    "A hand card cannot be thrown on the discard: only the drawn card may go there.",
)
DISCARD_TAKE = _r(
    "alt.discard.take",
    f"{_POINTS} — « On ne peut pas reprendre une carte de la défausse »",
    "On ne reprend pas une carte de la défausse : on pioche dans la pioche.",
    "A card cannot be taken back from the discard: one draws from the deck.",
)

# -- replacement ------------------------------------------------------------------------------

REPLACE_COVERED = _r(
    "alt.replace.covered",
    f"{_POINTS} — « Chaque carte recouverte (même à moitié) ne peut plus être remplacée. »",
    "Cette carte est recouverte (même à moitié) : on ne peut plus la remplacer.",
    "This card is covered (even by half): it can no longer be replaced.",
)
REPLACE_AVALANCHE = _r(
    "alt.replace.avalanche",
    "Rulings — Turn: replacement keeps the value rule, and an avalanche cannot be replaced",
    "Une avalanche ne se remplace pas : seul un Saint-Bernard l'ôte.",
    "An avalanche cannot be replaced: only a Saint-Bernard removes it.",
)
REPLACE_HAND = _r(
    "alt.replace.hand",
    f"{_POINTS} — « On ne peut pas remplacer une carte de sa montagne avec une carte issue de "
    "sa main. »",
    "On remplace une carte seulement avec la carte piochée, pas avec une carte de sa main.",
    "A card is replaced only with the drawn card, not with a hand card.",
)
REPLACE_OWN = _r(
    "alt.replace.own",
    f"{_TURN} — « Remplacer une carte de sa montagne qui n'est pas encore recouverte "
    "(seulement avec la carte piochée). »",
    "On ne remplace une carte que dans sa propre montagne.",
    "A card can be replaced only in one's own mountain.",
)

#: every rule, by id
RULES: dict[str, RuleRef] = {
    rule.id: rule
    for rule in (
        VALUE_HIGHER, BASE_MAX, STRUCTURE_TWO, TOUCH,
        AVALANCHE_OWN, AVALANCHE_COVER, SAINT_BERNARD_BUILD,
        RESCUE_AVALANCHE, RESCUE_SAINT_BERNARD, RESCUE_OWN, RESCUE_UNCOVERED, RESCUE_DRAW,
        TURN_ORDER, TURN_DOUBLE, TURN_DRAW, HAND_FOUR, OPPONENT_STARTED, HAND_OWN,
        DISCARD_HAND, DISCARD_TAKE,
        REPLACE_COVERED, REPLACE_AVALANCHE, REPLACE_HAND, REPLACE_OWN,
    )
}
