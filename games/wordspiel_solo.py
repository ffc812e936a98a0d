"""WordSpiel solitaire: what happens after a word or a no-word draw when one player plays alone.

The sheet's solitaire: a card comes from the draw pile after every word while the hand
holds cards; taking the pile's last card gives one last chance to make a word; an empty
hand wins. Kept apart from :mod:`games.wordspiel` (the rounds game) because these rules
replace, rather than add to, the multi-player ones.
"""

from __future__ import annotations

from dataclasses import replace

from games.base import Step, Turn
from games.wordspiel_state import SpielState


def after_word(new: SpielState, player: str, cards: int, summary: str) -> Step:
    """The hand is empty (won), or it was the last chance (lost), or a card is added."""
    if new.hands[0] == 0:
        new = replace(new, in_play=False, result="won")
        return Step(new, (Turn(player, -cards, summary + ": the hand is empty"),), summary)
    if new.last_chance or not new.pile:  # an empty pile always gave the last chance first
        new = replace(new, in_play=False, result="lost")
        return Step(new, (Turn(player, -cards, summary + ": the last chance is gone"),), summary)
    new = replace(new, hands=(new.hands[0] + 1,), pile=new.pile - 1, last_chance=new.pile == 1)
    summary += "; a card from the draw pile"
    if new.last_chance:
        summary += " (the last: one last chance)"
    return Step(new, (Turn(player, 1 - cards, summary),), summary)


def no_word(base: SpielState, player: str) -> Step:
    """No word: take the draw pile's top card, or lose when the pile is empty."""
    if not base.pile:
        new = replace(base, in_play=False, result="lost")
        summary = "no word and no card left to draw: the game is lost"
        return Step(new, (Turn(player, 0, summary),), summary)
    new = replace(base, hands=(base.hands[0] + 1,), pile=base.pile - 1, last_chance=base.pile == 1)
    summary = "no word: a card from the draw pile" + (" (the last)" if new.last_chance else "")
    return Step(new, (Turn(player, 1, summary),), summary)
