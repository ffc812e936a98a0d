"""The kiosk's screens. Each is a Kivy ``Screen`` that reads the session in ``prepare()``
and calls the session (never the engine) when a button is tapped."""

from __future__ import annotations

from typing import Any


def build_screens(app: Any) -> list[Any]:
    from kiosk.app.screens.calibrate_screen import CalibrateScreen
    from kiosk.app.screens.challenge import ChallengeScreen
    from kiosk.app.screens.club_screen import ClubScreen
    from kiosk.app.screens.correct import CorrectScreen
    from kiosk.app.screens.end import EndScreen
    from kiosk.app.screens.entry import EntryScreen
    from kiosk.app.screens.game import GameScreen
    from kiosk.app.screens.history import HistoryScreen
    from kiosk.app.screens.names import NamesScreen
    from kiosk.app.screens.option_form import LettersScreen
    from kiosk.app.screens.place import PlaceScreen
    from kiosk.app.screens.resume import ResumeScreen
    from kiosk.app.screens.settings_screen import SettingsScreen
    from kiosk.app.screens.start import StartScreen
    from kiosk.app.screens.tally import TallyScreen

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
