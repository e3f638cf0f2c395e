"""English and French for the pages: the language from a switch (cookie) or Accept-Language.

Card and bonus names come from the engine's own tables (``engine.names``); the words of the
pages are in :data:`FRENCH`, keyed by their English text, so a missing entry falls back to
English rather than breaking a page.
"""

from __future__ import annotations

from flask import Flask, g, request

from engine.cards import Card
from engine.names import Language, card_name, category_name
from engine.scoring import Category

LANGUAGE_COOKIE = "lang"

FRENCH: dict[str, str] = {
    "Mille Bornes scorekeeper": "Marqueur de 1000 Bornes",
    "Your table": "Votre table",
    "Create a table": "Créer une table",
    "Table name": "Nom de la table",
    "Create": "Créer",
    "Join a table": "Rejoindre une table",
    "Share link or table key": "Lien de partage ou clé de la table",
    "Join": "Rejoindre",
    "Open": "Ouvrir",
    "Players": "Joueurs",
    "Add a player": "Ajouter un joueur",
    "Add": "Ajouter",
    "Name": "Nom",
    "Games": "Parties",
    "New game": "Nouvelle partie",
    "Start the game": "Commencer la partie",
    "Seated players": "Joueurs à table",
    "Side": "Camp",
    "Team": "Équipe",
    "Rules variants": "Variantes",
    "Scoreboard": "Tableau des scores",
    "Enter a hand": "Saisir une manche",
    "Hand": "Manche",
    "Hands": "Manches",
    "Total": "Total",
    "Leader": "En tête",
    "Game over": "Partie terminée",
    "wins": "gagne",
    "Tie between": "Égalité entre",
    "Distance": "Distance",
    "Cards by value": "Cartes par valeur",
    "or a plain total (km)": "ou un total (km)",
    "200 km cards played": "Cartes 200 jouées",
    "Safeties": "Bottes",
    "coup-fourré": "coup fourré",
    "Who completed the trip?": "Qui a terminé la manche ?",
    "Nobody (deck exhausted)": "Personne (pioche épuisée)",
    "Delayed action (completed after the draw pile ran out)": "Couronnement (fini après la pioche)",
    "Extension called by": "Allonge annoncée par",
    "Nobody": "Personne",
    "Claims (optional, checked by the rules)": "Annonces (facultatif, vérifiées)",
    "Preview": "Aperçu",
    "Save the hand": "Enregistrer la manche",
    "Save the correction": "Enregistrer la correction",
    "Correct": "Corriger",
    "Undo the last hand": "Annuler la dernière manche",
    "Undo": "Annuler",
    "Abandon the game": "Abandonner la partie",
    "Abandon": "Abandonner",
    "Cancel": "Retour",
    "Are you sure?": "Vous êtes sûr ?",
    "History": "Historique",
    "Download CSV": "Télécharger en CSV",
    "Statistics": "Statistiques",
    "played": "jouées",
    "won": "gagnées",
    "win rate": "victoires",
    "average hand": "manche moyenne",
    "best hand": "meilleure manche",
    "shutouts": "capots",
    "Share this table": "Partager cette table",
    "Scan to join from another phone": "Scannez pour rejoindre depuis un autre téléphone",
    "in progress": "en cours",
    "finished": "terminée",
    "abandoned": "abandonnée",
    "The hand was refused": "La manche est refusée",
    "This hand was changed on another phone; here is the current version.": (
        "Cette manche a été modifiée sur un autre téléphone ; voici la version actuelle."
    ),
    "Score chart": "Courbe des scores",
    "No hand yet.": "Aucune manche pour l'instant.",
    "No game yet.": "Aucune partie pour l'instant.",
    "Back to the table": "Retour à la table",
    "Back to the game": "Retour à la partie",
    "target": "objectif",
    "Result": "Résultat",
    "lost": "perdue",
    "tied": "égalité",
    "Play in the app": "Jouer dans l'appli",
    "No cards needed: the app deals and keeps the rules. Computer players fill the empty seats.": (
        "Sans cartes : l'appli distribue et fait respecter les règles. Des joueurs virtuels "
        "prennent les places libres."
    ),
    "Seat": "Place",
    "Computer": "Ordinateur",
    "random": "hasard",
    "greedy": "glouton",
    "strong": "fort",
    "search": "réfléchi",
    "Deal": "Distribuer",
    "Each player's link": "Le lien de chaque joueur",
    "Each link opens one seat and shows its cards: give it to that player only. The links are "
    "shown this once.": (
        "Chaque lien ouvre une place et montre ses cartes : ne le donnez qu'à ce joueur. Les liens "
        "ne sont montrés qu'une fois."
    ),
    "Play this seat here": "Jouer cette place ici",
    "you": "vous",
    "the hand is over": "la manche est finie",
    "draw pile": "pioche",
    "Coup-fourré!": "Coup fourré !",
    "was played on your side. Lay your safety out of turn?": (
        "a été posée sur votre camp. Poser votre botte hors tour ?"
    ),
    "Let it go": "Laisser passer",
    "Draw": "Piocher",
    "Go on": "Continuer",
    "was played on your side.": "a été posée sur votre camp.",
    "700 km exactly!": "700 bornes pile !",
    "Extend the trip to 1,000 km, or stop the hand here?": (
        "Allonger à 1000 bornes, ou arrêter la manche ici ?"
    ),
    "Extend to 1,000": "Allonger à 1000",
    "Stop at 700": "Arrêter à 700",
    "Your move": "À vous",
    "play or discard a card.": "jouez ou défaussez une carte.",
    "Waiting for": "On attend",
    "Your hand": "Votre main",
    "On": "Sur",
    "Play": "Jouer",
    "Discard": "Défausser",
    "Tableaux": "Jeux posés",
    "Battle": "Bataille",
    "Speed": "Vitesse",
    "corrected": "corrigée",
    "Last moves": "Derniers coups",
    "has played": "a joué",
    "on": "sur",
    "discarded": "a défaussé",
    "laid a coup-fourré": "a fait un coup fourré",
    "laid no coup-fourré": "n'a pas fait de coup fourré",
    "called the extension": "a annoncé l'allonge",
    "stopped at 700": "s'est arrêté à 700",
    "No move yet.": "Aucun coup pour l'instant.",
    "The game has moved on since this page was shown.": (
        "La partie a avancé depuis l'affichage de cette page."
    ),
    "in the app": "dans l'appli",
    "Played in the app: the hands come from the moves.": (
        "Jouée dans l'appli : les manches viennent des coups joués."
    ),
    # Screens
    "Undo hand %(number)s?": "Annuler la manche %(number)s ?",
    "Correct hand %(number)s": "Corriger la manche %(number)s",
    "Game %(number)s": "Partie %(number)s",
    "Share link": "Lien de partage",
    "Play seat %(number)s here": "Jouer la place %(number)s ici",
    "Player": "Joueur",
    "Rematch": "Revanche",
    "Same sides, same seats, same variants.": "Mêmes camps, mêmes places, mêmes variantes.",
}


def language() -> Language:
    """The language of this request: the switch's cookie, else the browser's preference."""
    if "language" not in g:
        chosen = request.args.get(LANGUAGE_COOKIE) or request.cookies.get(LANGUAGE_COOKIE)
        if chosen not in (Language.EN, Language.FR):
            chosen = request.accept_languages.best_match([Language.EN, Language.FR], Language.EN)
        g.language = Language(chosen)
    return Language(g.language)


def translate(text: str, **variables: object) -> str:
    """``text`` in the request's language, its ``%(name)s`` places filled from ``variables``
    (the call form of gettext's, so a sentence keeps its numbers where each language puts them)."""
    translated = FRENCH.get(text, text) if language() is Language.FR else text
    return translated % variables if variables else translated


def category_label(category: str) -> str:
    """A score category's name in the request's language."""
    return category_name(Category(category), language())


def card_label(card: str) -> str:
    """A card's printed name in the request's language."""
    return card_name(Card(card), language())


def init_app(app: Flask) -> None:
    """Make the translation helpers available to every template."""
    app.jinja_env.globals.update(
        _=translate, language=language, category_label=category_label, card_label=card_label
    )
