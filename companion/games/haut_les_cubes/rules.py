"""Every rule of Haut les Cubes a verdict can cite.

Each :class:`RuleRef` names its place in the French rule text (section and the sentence quoted,
which a test checks against the text) or the ruling of ``docs/rulings.md`` it comes from, and
says what went wrong in French and in English.
"""

from __future__ import annotations

from companion.games.base import RuleRef

GAME = "haut-les-cubes"


def _r(id: str, paragraph: str, fr: str, en: str) -> RuleRef:
    return RuleRef(id=id, paragraph=paragraph, fr=fr, en=en)


PLACEMENT_CONTACT = _r(
    "hlc.placement.contact",
    "Placement des géants — « Lorsque un Géant est au sol, il doit toujours se trouver au contact "
    "d'un cube, sur une case du plateau ou une case imaginaire si celui-ci est dépassé. »",
    "Un géant au sol doit toucher un cube : cette case est trop loin de la montagne.",
    "A giant on the ground must touch a cube: this square is too far from the mountain.",
)
PLACEMENT_GROUND = _r(
    "hlc.placement.ground",
    "Rulings — first placement: giants are first placed on free table squares touching a cube, "
    "never on a cube top",
    "Au début de la partie, les géants se posent au sol, pas sur un cube.",
    "At the start the giants are placed on the ground, not on a cube.",
)
PLACEMENT_ORDER = _r(
    "hlc.placement.order",
    "Préparation de la partie — « Chaque joueur place dans l'ordre du jeu son Géant sur l'une des "
    "cases au sol au contact des cubes »",
    "Les géants se placent dans l'ordre du jeu : ce n'est pas le tour de ce géant.",
    "Giants are placed in turn order: it is not this giant's turn.",
)
TURN_ORDER = _r(
    "hlc.turn.order",
    "Pose des cartes — « Chaque joueur doit poser à son tour une carte. »",
    "Ce n'est pas le tour de ce joueur.",
    "It is not this player's turn.",
)
COMPULSORY = _r(
    "hlc.compulsory",
    "Pose des cartes — « Il est obligé d'effectuer l'action qu'elle indique si c'est possible, "
    "même si cela ne l'arrange pas. »",
    "L'action de la carte était possible : elle est obligatoire.",
    "The card's action was possible, so it had to be done.",
)
CARD_POOL = _r(
    "hlc.cards.pool",
    "Rulings — card pool: 85 cards minus those seen played since the last reshuffle; a card with "
    "no copy left cannot have been played",
    "Toutes les cartes de ce type ont déjà été jouées depuis le dernier mélange.",
    "Every card of this design has already been played since the last shuffle.",
)
NAPOZLA_RESERVE = _r(
    "hlc.napozla.reserve",
    "« Napozla » (pose d'un cube) — « Le joueur prend un cube dans sa réserve, et le pose où il "
    "le veut en respectant les règles de placement des cubes. »",
    "Ce joueur n'a plus de cube dans sa réserve.",
    "This player has no cube left in reserve.",
)
NAPOZLA_FULL_BASE = _r(
    "hlc.napozla.full-base",
    "« Napozla » (pose d'un cube) — « On doit toujours poser un cube sur une base totalement "
    "pleine. Jamais de vide sous un cube. »",
    "Il y a du vide sous ce cube : sa base doit être totalement pleine.",
    "There is a gap under this cube: its base must be completely full.",
)
NAPOZLA_CONTACT = _r(
    "hlc.napozla.contact",
    "« Napozla » (pose d'un cube) — « Lorsque l'on pose un cube, il doit toujours être en contact "
    "avec un autre cube (même en diagonale). »",
    "Ce cube ne touche aucun autre cube : on ne démarre pas une nouvelle montagne à distance.",
    "This cube touches no other cube: a new mountain may not be started at a distance.",
)
NAPOZLA_ALIGN = _r(
    "hlc.napozla.align",
    "« Napozla » (pose d'un cube) — « On doit toujours superposer exactement les cases présentes "
    "sur chaque face de cube. »",
    "Les cases de ce cube ne sont pas alignées sur celles des autres cubes.",
    "This cube's squares are not lined up with the other cubes' squares.",
)
NAPOZLA_GIANT = _r(
    "hlc.napozla.giant",
    "Rulings — contact: a cube may not be placed on a cell occupied by a giant",
    "On ne pose pas un cube sur une case occupée par un géant.",
    "A cube may not be placed on a square where a giant stands.",
)
MOAVEOU_ADJACENT = _r(
    "hlc.moaveou.adjacent",
    "« Moavéou » (déplacement) — « Le Géant du joueur se déplace sur une des huit cases "
    "contiguës. Il faut que cette case soit libre. »",
    "Avec Moavéou, le géant va sur une des huit cases voisines, pas plus loin.",
    "With Moavéou the giant moves to one of the eight neighbouring squares, no further.",
)
MOAVEOU_CLIMB = _r(
    "hlc.moaveou.climb",
    "« Moavéou » (déplacement) — « Attention on ne peut grimper que d'une hauteur de 1 cube avec "
    "cette carte. »",
    "Avec Moavéou on ne grimpe que d'un cube à la fois.",
    "With Moavéou a giant climbs only one cube at a time.",
)
SQUARE_VALID = _r(
    "hlc.square.valid",
    "Placement des géants — « Lorsque un Géant est au sol, il doit toujours se trouver au contact "
    "d'un cube »",
    "Un géant au sol doit rester au contact d'un cube : cette case est trop loin.",
    "A giant on the ground must stay in contact with a cube: this square is too far.",
)
NENLEVSA_FREE_TOP = _r(
    "hlc.nenlevsa.free-top",
    "« Nenlèvsá » (retrait d'un cube) — « Il choisit le cube qu'il veut à condition qu'il n'y ait "
    "ni cube ni Géant dessus. »",
    "On ne retire pas un cube sur lequel se trouve un cube ou un géant.",
    "A cube with a cube or a giant on it may not be removed.",
)
NENLEVSA_LAST_CUBE = _r(
    "hlc.nenlevsa.last-cube",
    "Rulings — Nenlèvsa may not remove the last cube on the table",
    "On ne retire pas le dernier cube de la table.",
    "The last cube on the table may not be removed.",
)
NENLEVSA_ISOLATED = _r(
    "hlc.nenlevsa.isolated",
    "« Nenlèvsá » (retrait d'un cube) — « Si un Géant est isolé, on le replace automatiquement "
    "sur la case imaginaire la plus proche, au contact d'une montagne. »",
    "Un géant isolé se replace sur la case libre la plus proche au contact d'une montagne.",
    "An isolated giant goes to the nearest free square touching a mountain.",
)
POUSSTOIA_SAME_HEIGHT = _r(
    "hlc.pousstoia.same-height",
    "« Poussto » (bousculade) — « Le Géant pousse un autre Géant se trouvant à son contact et à "
    "la même hauteur . »",
    "On ne pousse qu'un géant voisin à la même hauteur.",
    "Only a neighbouring giant at the same height may be pushed.",
)
POUSSTOIA_DIRECTION = _r(
    "hlc.pousstoia.direction",
    "« Poussto » (bousculade) — « La victime est déplacée sur une des trois cases libres "
    "adjacentes dans la direction de la poussée »",
    "Le géant poussé va sur une des trois cases devant lui, dans le sens de la poussée.",
    "The pushed giant goes to one of the three squares ahead of it, in the push direction.",
)
POUSSTOIA_UPHILL = _r(
    "hlc.pousstoia.uphill",
    "Rulings — Pousstoia: the victim lands on a square not higher than its own (option "
    "push_uphill)",
    "On ne pousse pas un géant vers une case plus haute.",
    "A giant may not be pushed up onto a higher square.",
)
POUSSTOIA_PUSHER = _r(
    "hlc.pousstoia.pusher",
    "« Poussto » (bousculade) — « Le géant pousseur reste en place ou prend la place de sa "
    "victime selon son choix. »",
    "Le pousseur reste en place ou prend la place de sa victime, rien d'autre.",
    "The pusher stays where it is or takes its victim's place, nothing else.",
)
POUSSTOIA_VOID = _r(
    "hlc.pousstoia.void",
    "« Poussto » (bousculade) — « Si aucune case n'est libre, ou si il n'y a pas de Géant à "
    "pousser à proximité, on peut pousser dans le vide et ainsi se déplacer strictement sur le "
    "même niveau. »",
    "Pousser dans le vide, c'est un pas vers une case voisine strictement au même niveau, et "
    "seulement quand aucun géant ne peut être poussé.",
    "Pushing into the void is one step to a neighbouring square at exactly the same level, and "
    "only when no giant can be pushed.",
)
HOPLA_HIGH = _r(
    "hlc.hopla.high",
    "« Hopla ! » (saut de géant) — « On place le Géant sur une case adjacente en hauteur. Peu "
    "importe la hauteur de cette case. »",
    "Un saut en hauteur va sur une case voisine plus haute.",
    "A high jump goes to a higher neighbouring square.",
)
HOPLA_LONG = _r(
    "hlc.hopla.long",
    "« Hopla ! » (saut de géant) — « Le Géant est placé sur n'importe quelle case libre du jeu à "
    "la même hauteur ou plus bas. »",
    "Un saut en longueur va sur une case libre à la même hauteur ou plus bas.",
    "A long jump goes to a free square at the same height or lower.",
)
TVAVOARTOA_TARGET = _r(
    "hlc.tvavoartoa.target",
    "« Tvavoartoa ! » (Lance-pierre) — « On peut donc cibler n'importe quel Géant qui n'est pas "
    "sur une case contiguë au sien. »",
    "Le lance-pierre vise un géant qui n'est pas sur une case voisine du tireur.",
    "The slingshot targets a giant that is not on a square next to the shooter.",
)
TVAVOARTOA_LANDING = _r(
    "hlc.tvavoartoa.landing",
    "« Tvavoartoa ! » (Lance-pierre) — « On déplace le Géant visé sur une de ses huit cases "
    "contiguës (libre). »",
    "Le géant visé va sur une de ses huit cases voisines libres.",
    "The targeted giant goes to one of its eight free neighbouring squares.",
)
TVAVOARTOA_UPHILL = _r(
    "hlc.tvavoartoa.uphill",
    "Rulings — Tvavoartoa: the target lands on a square not higher than its own (option "
    "slingshot_uphill)",
    "Le lance-pierre ne fait pas monter le géant visé.",
    "The slingshot may not send its target up onto a higher square.",
)
TVAVOARTOA_SELF = _r(
    "hlc.tvavoartoa.self",
    "Rulings — Tvavoartoa cannot target the shooter's own giant",
    "Le lance-pierre ne vise pas le géant du tireur.",
    "The slingshot cannot target the shooter's own giant.",
)

RULES: dict[str, RuleRef] = {
    value.id: value for value in list(globals().values()) if isinstance(value, RuleRef)
}
