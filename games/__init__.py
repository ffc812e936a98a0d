"""The pure rules core of tablekeeper.

Everything a referee must know about the five games lives here and nowhere else: the word
authority, the rule engines, the countdown and the transcript format. This package imports
only the standard library, so it runs and is tested anywhere, and the screen, the camera
and the timer can only ever *ask* it.
"""

from games.rulings import IllegalEvent, Ruling

__all__ = ["IllegalEvent", "Ruling"]
