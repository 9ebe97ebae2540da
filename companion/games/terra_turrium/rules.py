"""Every rule of Terra Turrium a verdict can cite.

Each :class:`RuleRef` names its place in the French rule text (the section and the sentence
quoted between « », which a test checks against the text) or the ruling of ``docs/rulings.md``
it comes from (``Rulings — <topic>``), and tells a player in French and in English what the move
did wrong. Ids are stable: logs, tests and translations refer to them.
"""

from __future__ import annotations

from companion.games.base import RuleRef

GAME = "terra-turrium"


def _r(id: str, paragraph: str, fr: str, en: str) -> RuleRef:
    return RuleRef(id=id, paragraph=paragraph, fr=fr, en=en)


# -- setting up --------------------------------------------------------------------------------

LAYOUT_TERRITORY = _r(
    "tt.layout.territory",
    "Mise en place — « Chaque joueur choisit ensuite une couleur et dispose ses 6 drapeaux sur le "
    "territoire correspondant. »",
    "Les drapeaux se disposent au départ sur le territoire de leur couleur.",
    "At the start, flags are laid out on the territory of their own colour.",
)
LAYOUT_FREE = _r(
    "tt.layout.free",
    "Rulings — flag layout: before the first turn each player lays out its six flags on free "
    "constructions of its own territory, one flag per construction",
    "Un drapeau se pose au départ sur une construction libre : pas sur une case vide, ni sur un "
    "autre drapeau.",
    "A flag is laid out on a free construction: not on an empty square, nor on another flag.",
)

# -- the turn ----------------------------------------------------------------------------------

TURN_ORDER = _r(
    "tt.turn.order",
    "Déroulement du jeu — « Chaque tour de jeu se déroule en 3 phases que le joueur actif "
    "effectue dans l'ordre. »",
    "Les trois phases se jouent dans l'ordre : prendre des cubes, les poser, puis déplacer les "
    "drapeaux.",
    "The three phases come in order: take blocks, put them down, then move flags.",
)

# -- phase 1: taking blocks --------------------------------------------------------------------

TAKE_FLAG = _r(
    "tt.take.flag",
    "1. Prendre un ou plusieurs cubes — « On ne peut jamais prendre un cube occupé par un "
    "drapeau. »",
    "On ne prend jamais un cube d'une tour qui porte un drapeau.",
    "A block is never taken from a tower that carries a flag.",
)
TAKE_MAX = _r(
    "tt.take.max",
    "1. Prendre un ou plusieurs cubes — « On ne peut jamais retirer plus de 3 cubes du plateau de "
    "jeu dans le même tour. »",
    "Pas plus de 3 cubes retirés du plateau dans un même tour.",
    "No more than 3 blocks may be taken from the board in one turn.",
)
TAKE_ONE_FOREIGN = _r(
    "tt.take.one-foreign",
    "1. Prendre un ou plusieurs cubes — « De plus, on ne peut prendre qu’un seul cube dans les "
    "territoires adverses à chaque tour, à condition qu'il soit sur une construction "
    "extérieure. »",
    "Un seul cube par tour dans chaque territoire adverse (un territoire neutre compte comme "
    "adverse).",
    "Only one block per turn from each foreign territory (a neutral territory counts as "
    "foreign).",
)
TAKE_EXTERIOR = _r(
    "tt.take.exterior",
    "1. Prendre un ou plusieurs cubes — « Une construction est considérée comme extérieure si on "
    "peut tracer une ligne entre sa base et le bord du plateau sans traverser une autre "
    "construction. »",
    "Dans un territoire adverse, on ne prend un cube que sur une construction extérieure (une "
    "ligne droite vide jusqu'au bord).",
    "In a foreign territory a block may only be taken from an exterior construction (an empty "
    "straight line to the board edge).",
)

# -- phase 2: putting blocks down --------------------------------------------------------------

PLACE_FREE = _r(
    "tt.place.free",
    "2. Poser le ou les cubes — « Après avoir retiré des cubes du plateau, le joueur les place sur "
    "n’importe quelles cases ou constructions libres. »",
    "Un cube se pose sur une case vide ou une construction libre, jamais sur un drapeau.",
    "A block goes on an empty square or a free construction, never under a flag.",
)
PLACE_TAKEN = _r(
    "tt.place.taken",
    "2. Poser le ou les cubes — « Après avoir retiré des cubes du plateau, le joueur les place »",
    "On ne pose que les cubes retirés du plateau pendant ce tour.",
    "Only the blocks taken from the board this turn may be put down.",
)
PLACE_ALL = _r(
    "tt.place.all",
    "Rulings — take: every block taken is put back on the board in phase 2",
    "Tous les cubes pris doivent être reposés sur le plateau avant la fin du tour.",
    "Every block taken must be put back on the board before the turn ends.",
)

# -- phase 3: flags ----------------------------------------------------------------------------

FLAG_POINTS = _r(
    "tt.flag.points",
    "3. Déplacer un drapeau — « Pour cette phase, le joueur dispose de 5 points de mouvement "
    "qu’il peut répartir librement entre ses drapeaux. »",
    "Plus de 5 points de mouvement dépensés dans ce tour.",
    "More than 5 movement points spent this turn.",
)
FLAG_OWN = _r(
    "tt.flag.own",
    "3. Déplacer un drapeau — « Pour cette phase, le joueur dispose de 5 points de mouvement "
    "qu’il peut répartir librement entre ses drapeaux. »",
    "Le joueur actif ne déplace que ses propres drapeaux.",
    "The active player moves only their own flags.",
)
FLAG_CONSTRUCTION = _r(
    "tt.flag.construction",
    "3. Déplacer un drapeau — « On ne peut déplacer un drapeau que sur les cases sur lesquelles "
    "se trouvent une construction. »",
    "Un drapeau ne va que sur une construction, jamais sur une case vide.",
    "A flag only moves onto a construction, never onto an empty square.",
)
FLAG_ONE_PER_CONSTRUCTION = _r(
    "tt.flag.one-per-construction",
    "3. Déplacer un drapeau — « Il ne peut toujours y avoir qu’un seul drapeau par "
    "construction »",
    "Un seul drapeau par construction.",
    "Only one flag per construction.",
)
FLAG_THROUGH = _r(
    "tt.flag.through",
    "3. Déplacer un drapeau — « et un drapeau ne peut pas traverser une construction déjà "
    "occupée. »",
    "Un drapeau ne traverse pas une construction déjà occupée par un drapeau.",
    "A flag may not pass through a construction that already carries a flag.",
)
FLAG_HEIGHT = _r(
    "tt.flag.height",
    "3. Déplacer un drapeau — « Passer sur une construction plus haute ou plus basse est "
    "possible, à condition que la différence de hauteur ne soit que d’un seul cube. »",
    "Un drapeau ne monte ou ne descend que d'un seul cube à la fois.",
    "A flag climbs or drops only one level per step.",
)
CAPTURE_COST = _r(
    "tt.capture.cost",
    "Capturer un drapeau — « Un joueur peut capturer un drapeau adverse en se déplaçant sur la "
    "tour occupée par ce drapeau, mais cela coûte des points de mouvement supplémentaires en "
    "fonction de la différence de hauteur. »",
    "Pas assez de points de mouvement pour cette capture (monter 3, même niveau 2, descendre 1 "
    "au total).",
    "Not enough movement points for this capture (up 3, level 2, down 1 in total).",
)
ATTACK_MAX = _r(
    "tt.attack.max",
    "Attaquer et Défendre — « Chaque joueur a le droit d’effectuer un maximum de 5 attaques au "
    "cours de la partie. »",
    "Ce joueur a déjà fait ses 5 attaques : plus de capture hors de son territoire.",
    "This player has made all 5 attacks: no more captures outside their own territory.",
)

# -- re-entering a captured flag ----------------------------------------------------------------

REENTRY_FREE = _r(
    "tt.reentry.free",
    "Remettre en jeu un drapeau capturé — « Ce dernier pourra les remettre en jeu à son tour, au "
    "cours de la 3e phase, en le plaçant sur n’importe quelle construction extérieure libre. »",
    "Un drapeau capturé revient sur une construction libre, pas sur une case vide ni sur un "
    "drapeau.",
    "A captured flag comes back on a free construction, not on an empty square nor on a flag.",
)
REENTRY_EXTERIOR = _r(
    "tt.reentry.exterior",
    "Remettre en jeu un drapeau capturé — « en le plaçant sur n’importe quelle construction "
    "extérieure libre. »",
    "Un drapeau capturé revient sur une construction extérieure (une ligne droite vide jusqu'au "
    "bord).",
    "A captured flag comes back on an exterior construction (an empty straight line to the "
    "edge).",
)
REENTRY_COST = _r(
    "tt.reentry.cost",
    "Remettre en jeu un drapeau capturé — « Remettre un drapeau capturé en jeu coûte 1 point de "
    "mouvement. »",
    "Plus de point de mouvement pour remettre ce drapeau en jeu.",
    "No movement point left to bring this flag back.",
)
REENTRY_OWN_EDGE = _r(
    "tt.reentry.own-edge",
    "Rulings — flags, option reentry_own_edge: a captured flag re-enters in its owner's own "
    "territory, on the edge row only",
    "Avec cette option, un drapeau capturé revient sur le bord du plateau, dans son propre "
    "territoire.",
    "With this option a captured flag comes back on the board edge, in its own territory.",
)

# -- the end -----------------------------------------------------------------------------------

WIN = _r(
    "tt.win",
    "Fin de partie — « Le premier joueur qui parvient à placer ses 6 drapeaux sur 6 tours de "
    "hauteurs différentes, quel que soit l’emplacement de ses tours, est déclaré vainqueur. »",
    "Six drapeaux sur six tours de hauteurs 1 à 6 : victoire.",
    "Six flags on six towers of heights 1 to 6: a win.",
)
LAST_ROUND = _r(
    "tt.win.last-round",
    "Fin de partie — « Les joueurs qui n’auraient pas encore joué le même nombre de tours peuvent "
    "jouer une dernière fois. »",
    "La partie est finie : le tour de table est terminé.",
    "The game is over: the round has been completed.",
)

RULES: dict[str, RuleRef] = {
    rule.id: rule
    for rule in (
        LAYOUT_TERRITORY, LAYOUT_FREE, TURN_ORDER, TAKE_FLAG, TAKE_MAX, TAKE_ONE_FOREIGN,
        TAKE_EXTERIOR, PLACE_FREE, PLACE_TAKEN, PLACE_ALL, FLAG_POINTS, FLAG_OWN,
        FLAG_CONSTRUCTION, FLAG_ONE_PER_CONSTRUCTION, FLAG_THROUGH, FLAG_HEIGHT, CAPTURE_COST,
        ATTACK_MAX, REENTRY_FREE, REENTRY_EXTERIOR, REENTRY_COST, REENTRY_OWN_EDGE, WIN,
        LAST_ROUND,
    )
}
