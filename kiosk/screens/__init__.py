"""The kiosk's screens. Each is a Kivy ``Screen`` that reads the session in ``prepare()``
and calls the session (never the engine) when a button is tapped."""

from __future__ import annotations

from typing import Any


def build_screens(app: Any) -> list[Any]:
    from kiosk.screens.calibrate_screen import CalibrateScreen
    from kiosk.screens.challenge import ChallengeScreen
    from kiosk.screens.club_screen import ClubScreen
    from kiosk.screens.correct import CorrectScreen
    from kiosk.screens.end import EndScreen
    from kiosk.screens.entry import EntryScreen
    from kiosk.screens.game import GameScreen
    from kiosk.screens.history import HistoryScreen
    from kiosk.screens.names import NamesScreen
    from kiosk.screens.option_form import LettersScreen
    from kiosk.screens.place import PlaceScreen
    from kiosk.screens.resume import ResumeScreen
    from kiosk.screens.settings_screen import SettingsScreen
    from kiosk.screens.start import StartScreen
    from kiosk.screens.tally import TallyScreen

    return [
        cls(app)
        for cls in (
            StartScreen,
            ResumeScreen,
            NamesScreen,
            GameScreen,
            EntryScreen,
            PlaceScreen,
            ChallengeScreen,
            HistoryScreen,
            CorrectScreen,
            EndScreen,
            SettingsScreen,
            LettersScreen,
            TallyScreen,
            CalibrateScreen,
            ClubScreen,
        )
    ]
