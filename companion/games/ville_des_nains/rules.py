"""Every rule of La Ville des Nains a verdict can cite.

Each :class:`RuleRef` names its place in the French rule text (the section, and the sentence
quoted in guillemets, which a test checks against the text) or the ruling of ``docs/rulings.md``
it comes from, and says to a player, in French and in English, what the move did wrong.
"""

from __future__ import annotations

from companion.games.base import RuleRef

GAME = "ville-des-nains"


def _r(id: str, paragraph: str, fr: str, en: str) -> RuleRef:
    return RuleRef(id=id, paragraph=paragraph, fr=fr, en=en)


# -- turn and dice ------------------------------------------------------------------------------

TURN_ORDER = _r(
    "vdn.turn.order",
    "Déroulement — « On joue dans le sens des aiguilles d'une montre. »",
    "Ce n'est pas le tour de ce joueur : on joue dans le sens des aiguilles d'une montre.",
    "It is not this player's turn: play goes clockwise.",
)
DICE_NONE = _r(
    "vdn.dice.none",
    "Les cartes de construction — « Les couleurs, elles, sont indiquées par les dés. »",
    "Une pierre a été prise sans dé : il faut d'abord lancer les dés, à son tour.",
    "A stone was taken with no die for it: roll the dice first, on your turn.",
)
DICE_COLOUR = _r(
    "vdn.dice.colour",
    "1. Choisir les pierres, face PLAGE — « Prends des pierres dans la couleur indiquée par les "
    "dés. »",
    "Aucun dé ne montre cette couleur (ni de face blanche libre) : mauvaise couleur de pierre.",
    "No die shows this colour (and no white face is left): a stone of the wrong colour.",
)
DICE_ONE_PER_DIE = _r(
    "vdn.dice.one-per-die",
    "Rulings — Per die: one stone per die",
    "Une seule pierre par dé : le dé de cette couleur a déjà donné sa pierre.",
    "One stone per die: the die of this colour has already given its stone.",
)
DICE_ALL_OR_NOTHING = _r(
    "vdn.dice.all-or-nothing",
    "1. Choisir les pierres, face PIERRE — « Si la couleur manque pour une ou plusieurs formes, tu "
    "ne peux rien prendre. »",
    "Une couleur des dés ne donnait aucune pierre utile : ce tour, on ne prend rien.",
    "One die's colour gave no stone you could use: this turn you take nothing.",
)

# -- building ----------------------------------------------------------------------------------

STONE_ORDER = _r(
    "vdn.stone.order",
    "2. Construire les tours, face PIERRE — « Tu dois cependant poser les pierres en respectant "
    "l'ordre de la construction (ex : le toit vient tout au-dessus). »",
    "Ce n'est pas la forme que la carte demande maintenant : respecte l'ordre de construction.",
    "This is not the shape the card asks for now: follow the building order.",
)
WHITE_SHAPE = _r(
    "vdn.white.shape",
    "Face blanche sur les dés, face PIERRE — « Chaque face blanche sur un dé te permet de choisir "
    "la couleur que tu veux. Regarde alors de quelle forme tu as besoin. »",
    "La face blanche laisse choisir la couleur, pas la forme : prends la forme dont tu as besoin.",
    "A white face lets you choose the colour, not the shape: take the shape you need.",
)
BUILD_FINISHED = _r(
    "vdn.build.finished",
    "Rulings — Per die: a die yields a stone only in a shape the player can place now; a finished "
    "building needs none",
    "Cette construction est déjà terminée : on n'y ajoute plus de pierre.",
    "This building is already finished: no more stones go on it.",
)
BEACH_FULL = _r(
    "vdn.build.beach-full",
    "Les deux maisons d'un joueur sont terminées, face PLAGE — « Chaque fois que tu as fini une "
    "tour (7 pierres l'un sur l'autre), tu prends une nouvelle carte et tu continues à "
    "construire. »",
    "Cette tour a déjà 7 pierres : elle est finie, commence une nouvelle tour.",
    "This tower already has 7 stones: it is finished, start a new tower.",
)
GIVE = _r(
    "vdn.give",
    "Les deux maisons d'un joueur sont terminées — « S'il n'y a plus de cartes disponibles, tu "
    "lances tout de même les dés et tu offres tes couleurs aux autres joueurs pour les aider à "
    "construire plus vite. »",
    "On n'offre ses couleurs aux autres que lorsqu'on n'a plus rien à construire et plus de carte "
    "à prendre.",
    "You give your colours to others only when you have nothing left to build and no card left "
    "to take.",
)

# -- blue faces, game 1 -------------------------------------------------------------------------

BLUE_DRAW = _r(
    "vdn.blue.draw",
    "Face bleue sur les dés — « Bleu est la couleur du kobold. Ramasse une pierre bleue et "
    "regarde si elle porte le symbole du kobold. »",
    "Une face bleue n'a pas été jouée : il fallait piocher une pierre bleue avant de passer le "
    "tour.",
    "A blue face was not played: a blue stone had to be drawn before the turn passed on.",
)
BLUE_COUNT = _r(
    "vdn.blue.count",
    "Rulings — Blue (game 1): one kobold stone drawn per blue die",
    "Une pierre bleue de trop : on en pioche une par face bleue, pas plus.",
    "One blue stone too many: one is drawn per blue face, no more.",
)
BLUE_UNMARKED = _r(
    "vdn.blue.unmarked",
    "Face bleue sur les dés — « Si la pierre bleue ne porte pas ce symbole, pose-la au centre de "
    "la table. »",
    "Cette pierre bleue ne porte pas le symbole du kobold : elle ne détruit rien.",
    "This blue stone has no kobold symbol: it destroys nothing.",
)
BLUE_MARKED_STONE = _r(
    "vdn.blue.marked-stone",
    "Face bleue sur les dés, face PIERRE — « détruire une de tes tours inachevées et remettre "
    "toutes ses pierres sur la table. »",
    "La pierre porte le symbole du kobold : une de tes constructions inachevées doit être "
    "détruite.",
    "The stone carries the kobold symbol: one of your unfinished buildings must be destroyed.",
)
BLUE_MARKED_BEACH = _r(
    "vdn.blue.marked-beach",
    "Face bleue sur les dés, face PLAGE — « Détruire une de tes tours si elle possède moins que 7 "
    "pierres. »",
    "La pierre porte le symbole du kobold : une de tes tours de moins de 7 pierres doit être "
    "détruite.",
    "The stone carries the kobold symbol: one of your towers under 7 stones must be destroyed.",
)
BLUE_FINISHED = _r(
    "vdn.blue.finished",
    "Face bleue sur les dés, face PIERRE — « détruire une de tes tours inachevées et remettre "
    "toutes ses pierres sur la table. »",
    "Une construction terminée ne peut pas être détruite : seulement une inachevée.",
    "A finished building cannot be destroyed: only an unfinished one.",
)
BLUE_OWN = _r(
    "vdn.blue.own",
    "Face bleue sur les dés — « Si le symbole du kobold est présent, tu dois : Face PIERRE "
    "détruire une de tes tours inachevées »",
    "Le kobold pioché détruit une de TES constructions, pas celle d'un autre joueur.",
    "The kobold you drew destroys one of YOUR buildings, not another player's.",
)
BEACH_SEVEN = _r(
    "vdn.blue.beach-seven",
    "Face bleue sur les dés, face PLAGE — « A partir de 7 pierres, une tour ne peut plus être "
    "détruite par un kobold. »",
    "Une tour de 7 pierres ne peut plus être détruite par le kobold.",
    "A tower of 7 stones can no longer be destroyed by the kobold.",
)
NOT_STARTED = _r(
    "vdn.kobold.not-started",
    "Face bleue sur les dés — « Un kobold ne peut naturellement pas détruire des constructions "
    "qui n'ont pas encore été commencées. »",
    "Cette construction n'est pas commencée : il n'y a rien à détruire.",
    "This building has not been started: there is nothing to destroy.",
)

# -- cards -------------------------------------------------------------------------------------

CARDS_NEW = _r(
    "vdn.cards.new",
    "Les deux maisons d'un joueur sont terminées, côté PIERRE — « Si tu as fini tes deux "
    "constructions, tu prends une carte disponible sur la table et tu commences une nouvelle "
    "construction. »",
    "Tes constructions sont finies : prends une nouvelle carte.",
    "Your buildings are finished: take a new card.",
)
CARDS_NEW_BEACH = _r(
    "vdn.cards.new-beach",
    "Les deux maisons d'un joueur sont terminées, face PLAGE — « Chaque fois que tu as fini une "
    "tour (7 pierres l'un sur l'autre), tu prends une nouvelle carte et tu continues à "
    "construire. »",
    "Ta tour est finie : prends une nouvelle carte.",
    "Your tower is finished: take a new card.",
)
CARDS_EARLY = _r(
    "vdn.cards.early",
    "Rulings — New cards: stone side when both buildings are done, beach side at each finished "
    "tower",
    "Pas encore de nouvelle carte : il faut d'abord finir ses constructions.",
    "No new card yet: first finish your buildings.",
)

# -- game 2 ------------------------------------------------------------------------------------

GAME2_BLUE = _r(
    "vdn.game2.blue",
    "Deuxième jeu, pour la couleur bleue — « Le joueur ne reçoit pas de pierre. La couleur bleue "
    "n'a pas de conséquence sur le comportement du kobold : celui-ci ne prend pas de pierre "
    "bleue. »",
    "Au deuxième jeu, une face bleue ne donne rien : seul le kobold pose des pierres bleues.",
    "In game 2 a blue face gives nothing: only the kobold adds blue stones.",
)
GAME2_DICE = _r(
    "vdn.game2.dice",
    "Deuxième jeu, déroulement — « le kobold, quand c'est son tour, ne lance que son dé spécial »",
    "Le kobold ne lance que son dé spécial, pas les dés couleur.",
    "The kobold rolls only its own special die, not the colour dice.",
)
GAME2_KOBOLD_DIE = _r(
    "vdn.game2.kobold-die",
    "Deuxième jeu, préparation — « On choisit le joueur qui joue le rôle du kobold : ce joueur "
    "prend le dé du kobold et les pierres bleues. »",
    "Le dé du kobold appartient au joueur kobold : un nain lance les dés couleur.",
    "The kobold die belongs to the kobold player: a dwarf rolls the colour dice.",
)
GAME2_COUNT = _r(
    "vdn.game2.count",
    "Deuxième jeu, déroulement — « Le nombre qu'il obtient, lui indique le nombre de pierres "
    "bleues qu'il peut ajouter sur sa tour personnelle. »",
    "Plus de pierres bleues que le dé du kobold n'en donne.",
    "More blue stones than the kobold die shows.",
)
GAME2_BLANK = _r(
    "vdn.game2.blank",
    "Deuxième jeu, déroulement — « S'il obtient une face sans points, il ne peut pas ajouter de "
    "pierre sur sa tour. »",
    "Face sans points : le kobold n'ajoute aucune pierre.",
    "A blank face: the kobold adds no stone.",
)
GAME2_DESTROY_FACE = _r(
    "vdn.game2.destroy-face",
    "Deuxième jeu, déroulement — « S'il obtient la face kobold, il peut détruire une construction "
    "inachevée chez un autre joueur. »",
    "Seule la face kobold permet de détruire une construction, une fois.",
    "Only the kobold face lets the kobold destroy a building, once.",
)
GAME2_UNFINISHED = _r(
    "vdn.game2.unfinished",
    "Deuxième jeu, déroulement — « S'il obtient la face kobold, il peut détruire une construction "
    "inachevée chez un autre joueur. »",
    "Le kobold ne détruit qu'une construction inachevée : celle-ci est terminée.",
    "The kobold destroys only an unfinished building: this one is finished.",
)

# -- the end (cited by the outcome, and by a move after it) -------------------------------------

END_CITY = _r(
    "vdn.end.city",
    "Fin de jeu — « Soit quand toutes les constructions sont terminées ; dans un tel cas, la "
    "ville est terminée et les joueurs gagnent tous ensemble. »",
    "La partie est finie : la ville est terminée, les nains ont gagné ensemble.",
    "The game is over: the city is finished, the dwarves won together.",
)
END_BEACH = _r(
    "vdn.end.beach",
    "Rulings — Beach side: the city is finished, and the dwarves win, when no stone is left on "
    "the table before the kobold's twelfth stone",
    "La partie est finie : plus aucune pierre sur la table, les nains ont gagné ensemble.",
    "The game is over: no stone is left on the table, the dwarves won together.",
)
END_KOBOLD = _r(
    "vdn.end.kobold",
    "Fin de jeu — « Soit quand les 12 pierres bleues forment une tour au centre de la table. Dans "
    "un tel cas, le kobold gagne et les enfants perdent tous ensemble. »",
    "La partie est finie : la tour du kobold a ses 12 pierres, le kobold a gagné.",
    "The game is over: the kobold's tower has its 12 stones, the kobold won.",
)
END_KOBOLD_PLAYER = _r(
    "vdn.end.kobold-player",
    "Deuxième jeu, fin de jeu — « Soit quand le kobold pose la douzième pierre bleue sur sa tour. "
    "Dans un tel cas, le kobold gagne et les nains perdent tous ensemble. »",
    "La partie est finie : le kobold a posé sa douzième pierre bleue, il a gagné.",
    "The game is over: the kobold laid its twelfth blue stone and won.",
)

RULES: dict[str, RuleRef] = {
    value.id: value for value in list(globals().values()) if isinstance(value, RuleRef)
}
