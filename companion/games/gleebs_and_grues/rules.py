"""Every rule of Gleeb's and Grues a move can break, quotable in a verdict.

Each rule is a module constant and an entry of :data:`RULES`. ``paragraph`` names the section of
the French text and quotes the sentence verbatim (a test checks every quote against the shipped
text), or names the ruling of ``RULINGS.md`` it comes from. Ids are stable: logs and
translations refer to them.
"""

from __future__ import annotations

from companion.games.base import RuleRef

SETUP_THREE_SQUARES = RuleRef(
    id="gg.setup.three-squares",
    paragraph="Situation initiale — « Posez les trois pyramides noires aléatoirement sur trois "
              "cases du plateau. »",
    fr="Les trois grues vont sur trois cases différentes, une grue par case.",
    en="The three grues go on three different squares, one grue per square.",
)

PLACE_EMPTY_SQUARE = RuleRef(
    id="gg.place.empty-square",
    paragraph="Phase de placement — « Les joueurs placent tour à tour un blaireau à la fois sur "
              "une case vide du plateau. »",
    fr="Un blaireau se place sur une case vide, pas sur une autre pyramide.",
    en="A gleeb is placed on an empty square, not on another pyramid.",
)

PLACE_IN_TURN = RuleRef(
    id="gg.place.in-turn",
    paragraph="Phase de placement — « Les joueurs placent tour à tour un blaireau à la fois »",
    fr="Ce blaireau est à l'adversaire : c'est à son propriétaire de le placer, à son tour.",
    en="That gleeb is the opponent's: its owner places it, in their own turn.",
)

TURN_GLEEB_FIRST = RuleRef(
    id="gg.turn.gleeb-first",
    paragraph="Phase de déplacement — « D'abord le déplacement d'un blaireau, puis le "
              "déplacement d'une grue. »",
    fr="Le tour commence par le déplacement d'un blaireau ; la grue se déplace ensuite.",
    en="A turn starts with a gleeb step; the grue moves afterwards.",
)

TURN_GRUE_SECOND = RuleRef(
    id="gg.turn.grue-second",
    paragraph="Phase de déplacement — « D'abord le déplacement d'un blaireau, puis le "
              "déplacement d'une grue. Les deux étapes sont obligatoires. »",
    fr="Après le blaireau, c'est une grue qui se déplace, pas un second blaireau.",
    en="After the gleeb step comes a grue step, not a second gleeb step.",
)

MOVE_STRAIGHT_LINE = RuleRef(
    id="gg.move.straight-line",
    paragraph="Phase de déplacement — « Les blaireaux et les grues peuvent se déplacer aussi loin "
              "qu'ils le souhaitent en ligne droite. »",
    fr="Les pièces se déplacent en ligne droite, le long d'une ligne ou d'une colonne.",
    en="Pieces move in a straight line, along a row or a column.",
)

MOVE_NO_DIAGONAL = RuleRef(
    id="gg.move.no-diagonal",
    paragraph="Phase de déplacement — « Aucun d'eux ne peut se déplacer en diagonale. »",
    fr="Aucun déplacement en diagonale : seulement le long d'une ligne ou d'une colonne.",
    en="No diagonal moves: only along a row or a column.",
)

GLEEB_OWN = RuleRef(
    id="gg.gleeb.own",
    paragraph="Déplacement des blaireaux — « Si cela est possible, le joueur doit déplacer l'un "
              "des blaireaux qu'il contrôle. »",
    fr="Le joueur déplace l'un de ses propres blaireaux, pas ceux de l'adversaire.",
    en="A player moves one of their own gleebs, not the opponent's.",
)

GLEEB_WHOLE_STACK = RuleRef(
    id="gg.gleeb.whole-stack",
    paragraph="Déplacement des blaireaux — « La pile entière se déplace en bloc »",
    fr="Une pile se déplace en entier : on ne sépare pas le blaireau du sommet de sa pile.",
    en="A stack moves whole: the top gleeb is not lifted off its stack.",
)

GLEEB_LAND_ON_GLEEB = RuleRef(
    id="gg.gleeb.land-on-gleeb",
    paragraph="Déplacement des blaireaux — « Il doit terminer son déplacement sur un autre "
              "blaireau. »",
    fr="Un blaireau termine son déplacement sur un autre blaireau, jamais sur une case vide.",
    en="A gleeb ends its move on another gleeb, never on an empty square.",
)

GLEEB_NOT_ON_GRUE = RuleRef(
    id="gg.gleeb.not-on-grue",
    paragraph="Déplacement des grues — « Une pile surmontée d'une grue est considérée comme une "
              "grue et non comme un blaireau. »",
    fr="Un blaireau ne monte pas sur une grue, ni sur une pile immobilisée par une grue.",
    en="A gleeb does not land on a grue, nor on a stack pinned by a grue.",
)

GLEEB_SAME_COLOUR = RuleRef(
    id="gg.gleeb.same-colour",
    paragraph="Déplacement des blaireaux — « Les blaireaux ne peuvent pas monter sur un blaireau "
              "de couleur identique. »",
    fr="Un blaireau ne monte pas sur un blaireau de sa couleur (le sommet de la pile compte).",
    en="A gleeb does not land on a gleeb of its own colour (the top of each stack counts).",
)

GRUE_SAME_SIZE = RuleRef(
    id="gg.grue.same-size",
    paragraph="Déplacement des grues — « Les grues doivent terminer leur déplacement sur un "
              "blaireau de même taille qu'elles ou sur une case vide. »",
    fr="Une grue ne se pose que sur une case vide ou sur un blaireau de sa taille.",
    en="A grue lands only on an empty square or on a gleeb of its own size.",
)

GRUE_MUST_COVER = RuleRef(
    id="gg.grue.must-cover",
    paragraph="Déplacement des grues — « S'il est possible de déplacer une grue sur un blaireau, "
              "cela est obligatoire. »",
    fr="Une grue pouvait couvrir un blaireau : c'est obligatoire, pas une case vide.",
    en="A grue could cover a gleeb: that is compulsory, not an empty square.",
)

GRUE_PINNED = RuleRef(
    id="gg.grue.pinned",
    paragraph="Déplacement des grues — « Cette pile reste sur le plateau, mais la grue ne peut "
              "plus être déplacée jusqu'à la fin de la partie. »",
    fr="Cette grue immobilise une pile : ni elle ni sa pile ne bougent jusqu'à la fin.",
    en="That grue pins a stack: neither moves again until the end of the game.",
)

GRUE_NOT_ON_GRUE = RuleRef(
    id="gg.grue.not-on-grue",
    paragraph="Rulings — grue step",
    fr="Une grue ne se pose ni sur une autre grue ni sur une pile immobilisée.",
    en="A grue lands neither on another grue nor on a pinned stack.",
)

RULES: dict[str, RuleRef] = {
    rule.id: rule
    for rule in (
        SETUP_THREE_SQUARES,
        PLACE_EMPTY_SQUARE,
        PLACE_IN_TURN,
        TURN_GLEEB_FIRST,
        TURN_GRUE_SECOND,
        MOVE_STRAIGHT_LINE,
        MOVE_NO_DIAGONAL,
        GLEEB_OWN,
        GLEEB_WHOLE_STACK,
        GLEEB_LAND_ON_GLEEB,
        GLEEB_NOT_ON_GRUE,
        GLEEB_SAME_COLOUR,
        GRUE_SAME_SIZE,
        GRUE_MUST_COVER,
        GRUE_PINNED,
        GRUE_NOT_ON_GRUE,
    )
}
