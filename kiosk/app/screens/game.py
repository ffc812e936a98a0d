"""The game screen: whose turn (huge), the scores, the table, the timer ring, big buttons.

It redraws from the session after every action and animates only the timer ring, which
changes once a second while it runs. Everything else is kept in a :class:`StillLayer` (one
off-screen picture, re-rendered only when something in it changes) and the ring is drawn on
top of it, over a place kept for it in the layout: a redraw for the ring repaints the ring, not
the whole screen. Turn entry, challenges and history are their own screens.
"""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.widget import Widget

from kiosk.app.screens import tables
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, FitText, Panel, Text
from kiosk.app.widgets.ring import RingView
from kiosk.app.widgets.still import StillLayer, cover_window
from kiosk.play import playbook


class _Prompt(Text):
    """The words under the ring, which a finger may tap like the ring itself."""

    on_tap: Any = None

    def on_touch_down(self, touch: Any) -> bool:
        if self.on_tap is not None and self.collide_point(*touch.pos) and self.text:
            self.on_tap()
            return True
        return bool(super().on_touch_down(touch))


class GameScreen(KioskScreen):
    screen_name = "game"
    #: The scores' digits: the street's tile letters are held to at least half their height.
    SCORE_FONT = theme.LARGE
    #: Word on the Street's card row: a finger-sized New card button and no taller (the street
    #: below it needs the height).
    CARD_ROW = 60
    #: The top row (whose turn, the info and news lines) and the most it grows to for news of
    #: three lines: every pixel it does not need goes to the table.
    TOP_ROW = 68
    TOP_ROW_MOST = 96

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.remove_widget(self.body)
        self.still = StillLayer()
        self.still.add_widget(self.body)
        self.add_widget(self.still)
        self._tick_event: Any = None
        from kiosk.files import paths
        from kiosk.files.timer_keep import TimerKeep

        #: The time left of a running turn, on disk (see kiosk.files.timer_keep).
        self._keep = TimerKeep(paths.data_dir() / "timer.json")
        self._kept: tuple[Any, ...] = ()
        self._timer_game: int | None = None
        #: The log id of the game the news line speaks of: another game's news is never shown.
        self._news_game: int | None = None
        self.top_row = top = BoxLayout(size_hint_y=None, height=self.TOP_ROW, spacing=theme.GAP)
        self.mover = Text("", size=theme.HUGE, bold=True, color=theme.ACCENT, halign="left", size_hint_x=0.42)
        self.mover.tid = "game.mover"
        top.add_widget(self.mover)
        side = BoxLayout(orientation="vertical", size_hint_x=0.58)
        self.info = FitText(
            "", size=theme.SMALL, color=theme.MUTED, halign="right", size_hint_y=None, height=24
        )
        self.info.tid = "game.info"
        self.news = Text("", size=theme.SMALL, color=theme.ACCENT, halign="right")
        self.news.tid = "game.news"
        side.add_widget(self.info)
        side.add_widget(self.news)
        self._fit_top = Clock.create_trigger(self._grow_top, -1)
        self.news.bind(text=self._fit_top, width=self._fit_top)
        top.add_widget(side)
        self.body.add_widget(top)
        # The timer column runs the full height beside the card row and the table: the ring
        # gets the card row's height too (its digits stay large), the street the full width
        # left of it.
        main = BoxLayout(spacing=theme.GAP)
        left = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.card_row = BoxLayout(size_hint_y=None, height=self.CARD_ROW, spacing=theme.GAP)
        self.category = Text("", size=theme.LARGE, bold=True)
        self.category.tid = "game.category"
        card_panel = Panel()
        card_panel.add_widget(self.category)
        self.card_row.add_widget(card_panel)
        self.card_row.add_widget(
            BigButton(
                "New card",
                tid="game.card",
                on_tap=self.draw_card,
                size_hint_x=None,
                width=150,
                face=theme.INFO,
            )
        )
        left.add_widget(self.card_row)
        middle = BoxLayout(spacing=theme.GAP)
        self.scores = BoxLayout(orientation="vertical", spacing=4, size_hint_x=None, width=210)
        middle.add_widget(self.scores)
        self.table = tables.TablePanel()
        middle.add_widget(self.table)
        left.add_widget(middle)
        main.add_widget(left)
        timer_box = BoxLayout(orientation="vertical", size_hint_x=None, width=200, spacing=4)
        # The ring's place in the layout; the ring itself is drawn over it, outside the still
        # layer, so its once-a-second change does not repaint the rest of the screen.
        ring_place = Widget()
        timer_box.add_widget(ring_place)
        self.ring = RingView(size_hint=(None, None))
        self.ring.on_tap = self.ring_tapped

        def follow(*_: Any) -> None:
            self.ring.pos, self.ring.size = ring_place.pos, ring_place.size

        ring_place.bind(pos=follow, size=follow)
        self.add_widget(self.ring)
        # The timer's state in words under the ring: PAUSED, TIME!, what a tap on the ring does.
        self.ring_hint = _Prompt(
            "", size=theme.BODY, bold=True, color=theme.MUTED, size_hint_y=None, height=50
        )
        self.ring_hint.on_tap = self.ring_tapped
        self.ring_hint.tid = "game.timer_state"
        timer_box.add_widget(self.ring_hint)
        self.mute_button = BigButton(
            "Sound on", tid="game.mute", face=theme.PANEL, size=theme.SMALL, on_tap=self.toggle_mute
        )
        self.mute_button.size_hint_y, self.mute_button.height = None, theme.TOUCH
        timer_box.add_widget(self.mute_button)
        main.add_widget(timer_box)
        self.body.add_widget(main)
        self.buttons = BoxLayout(size_hint_y=None, height=theme.TOUCH + 2, spacing=theme.GAP)
        self.timer_button = BigButton(
            "Start timer", tid="game.timer", on_tap=self.toggle_timer, face=theme.INFO
        )
        self.buttons.add_widget(self.timer_button)
        self.buttons.add_widget(
            BigButton("Turn", tid="game.turn", on_tap=self.enter_turn, accent=True, size=theme.LARGE)
        )
        self.challenge_button = BigButton(
            "Challenge", tid="game.challenge", on_tap=self.challenge, face=theme.BAD
        )
        self.buttons.add_widget(self.challenge_button)
        self.buttons.add_widget(BigButton("Undo", tid="game.undo", on_tap=self.undo))
        self.buttons.add_widget(BigButton("Menu", tid="game.menu", on_tap=lambda: self.app.go("history")))
        self.demo_button: BigButton | None = None
        self.body.add_widget(self.buttons)

    # ------------------------------------------------------------------ drawing
    def prepare(self, fresh: bool = False, **_context: Any) -> None:
        game = self.session.game
        if game is None:
            Clock.schedule_once(lambda _dt: self.app.go("start"), 0)
            return
        if self.app.demo is not None and self.demo_button is None:
            self.demo_button = BigButton("Demo step", tid="game.demo", on_tap=self.demo_step, face=theme.GOOD)
            self.buttons.add_widget(self.demo_button, index=len(self.buttons.children))
        timer = self.app.timer
        seconds, _note = self.session.turn_length()  # the note was said when the game was resumed
        if timer is not None and (fresh or timer.seconds != seconds):
            # A new game, or one resumed after a restart: the timer takes this game's length.
            timer.reset(seconds)
        self._restore_timer(game)
        self.refresh()

    def on_enter(self, *_: Any) -> None:
        cover_window(True)
        self.tick(0)

    def on_leave(self, *_: Any) -> None:
        cover_window(False)
        if self._tick_event is not None:
            self._tick_event.cancel()
            self._tick_event = None

    def _restore_timer(self, game: Any) -> None:
        """A game shown for the first time since start (or since it was left): its timer comes
        back paused with the time it had, and the news line says so."""
        if self._timer_game == self.session.game_id:
            return
        self._timer_game = self.session.game_id
        timer = self.app.timer
        kept = self._keep.load(self.session.game_id)
        if timer is None or not timer.enabled or kept is None or kept.remaining >= (timer.seconds or 0):
            return
        timer.restore(kept.remaining)
        if kept.running:
            from kiosk.play.turn_timer import digits

            left = digits(kept.remaining)
            self.show_news(
                f"The timer was running when the kiosk stopped: {left}{'' if ':' in left else ' s'} left, "
                "paused. Tap Resume to go on."
            )

    def refresh(self) -> None:
        """Redraw everything but the timer from the session's game."""
        game = self.session.game
        if game is None:
            return
        guide = playbook.guide(game.name)
        if self.session.game_id != self._news_game:
            self.news.text = ""
        if game.is_over():
            Clock.schedule_once(lambda _dt: self.app.go("end"), 0)
        self.mover.text = f"{game.to_move} to play" if game.to_move else "Game over"
        self.info.text = tables.info_line(game)
        if not self.news.text and game.turns:
            self.show_news(f"last: {game.turns[-1].player} {game.turns[-1].summary}")
        self._draw_scores(game, guide)
        self._show_mute(bool(self.app.settings.section("timer").get("mute", False)))
        self.table.show(game, self.app.camera)
        show_card = game.name == "word-on-the-street"
        self.card_row.height = self.CARD_ROW if show_card else 0
        self.card_row.opacity = 1 if show_card else 0
        self.card_row.disabled = not show_card
        if show_card:
            self.category.text = self.app.current_category() or "Tap New card for a category"
        self.challenge_button.disabled = self.session.challenge_target() is None

    def _grow_top(self, *_: Any) -> None:
        """The top row as tall as the news needs (two lines fit the usual height, a third
        takes more), never less than :attr:`TOP_ROW`."""
        from kivy.core.text.markup import MarkupLabel

        width = self.news.width - 8
        need = 0
        if self.news.text.strip() and width > 1:
            core = MarkupLabel(text=self.news.text, font_size=theme.SMALL, text_size=(width, None))
            core.refresh()
            need = core.texture.size[1]
        self.top_row.height = max(self.TOP_ROW, min(self.TOP_ROW_MOST, self.info.height + need + 4))

    def show_news(self, message: str) -> None:
        """What the last action did, under the game's info (whole: the font shrinks to fit)."""
        self.news.text = message
        self._news_game = self.session.game_id

    def _draw_scores(self, game: Any, guide: playbook.Guide) -> None:
        self.scores.clear_widgets()
        # Word on the Street's street needs the width; its two teams' counts go on the info line.
        street = game.name == "word-on-the-street"
        self.scores.width = 0 if street else 210
        self.scores.opacity = 0 if street else 1
        if street:
            return
        scores = game.scores()
        extra = tables.score_extras(game)
        for i, name in enumerate(game.players):
            mover = name == game.to_move
            row = Panel(bg=list(theme.ACCENT if mover else theme.PANEL), padding=(8, 0))
            row.tid = f"game.row.{i}"
            colour = theme.ACCENT_TEXT if mover else theme.TEXT
            label = f"{name}\n[size={theme.SMALL}]{extra[name]}[/size]" if name in extra else name
            row.add_widget(Text(label, size=theme.BODY, bold=True, color=colour, halign="left"))
            score = Text(
                str(scores.get(name, 0)),
                size=self.SCORE_FONT,
                bold=True,
                color=colour,
                size_hint_x=0.4,
                halign="right",
            )
            score.tid = f"game.score.{i}"
            row.add_widget(score)
            self.scores.add_widget(row)
        self.scores.add_widget(
            Text(
                f"({guide.score_label}{', lowest wins' if guide.lower_wins else ''})",
                size=theme.SMALL,
                color=theme.MUTED,
                size_hint_y=None,
                height=30,
            )
        )

    def tick(self, _dt: float = 0) -> None:
        """Draw the timer, then sleep until the ring or the digits next change (not 30 times a
        second: the screen is redrawn only when a pixel changes). Idle or paused, it looks
        twice a second, for the physical button."""
        if self._tick_event is not None:
            self._tick_event.cancel()
            self._tick_event = None
        wait = self._draw_timer()
        if self.manager is not None and self.manager.current == self.name:
            # A little after the change: Kivy's clock may run an event a few ms early (it
            # compares with the frame's start), and a tick just before the digits change
            # would redraw the ring for nothing and again a moment later.
            self._tick_event = Clock.schedule_once(self.tick, 0.5 if wait is None else wait + 0.03)

    def _draw_timer(self) -> float | None:
        timer = self.app.timer
        if timer is None or not timer.enabled:
            self.ring_hint.text = ""
            self.ring.show([(0, 0, 0)] * 12, "--", theme.MUTED)
            self.timer_button.disabled = True
            return None
        self.timer_button.disabled = False
        view = timer.view()
        phase = view.phase
        colour = theme.BAD if phase == "expired" else theme.WARN if phase == "warning" else theme.TEXT
        self.ring.show(view.frame, "TIME!" if phase == "expired" else view.digits, colour)
        game = self.session.game
        after = playbook.time_up(game).hint if game is not None and not game.is_over() else "next turn"
        hint, hint_colour = {
            "paused": ("PAUSED\n[size=18]tap the ring: full time[/size]", theme.ACCENT),
            "expired": (f"Time is up!\n[size=18]tap here: {after}[/size]", theme.BAD),
            "idle": ("[size=18]tap Start timer[/size]", theme.MUTED),
        }.get(phase, ("", theme.MUTED))
        if self.ring_hint.text != hint:
            self.ring_hint.text, self.ring_hint.color = hint, hint_colour
        label = {"running": "Pause", "warning": "Pause", "paused": "Resume"}.get(phase, "Start timer")
        if phase == "expired":
            label = "Restart timer"
        if self.timer_button.text != label:
            self.timer_button.text = label
        kept = (self.session.game_id, view.digits, phase)
        if kept != self._kept:  # once a second while it runs, and at every start, pause and reset
            self._kept = kept
            self._keep.save(self.session.game_id, view.remaining, phase in ("running", "warning"))
        return view.next_change

    # ------------------------------------------------------------------ taps
    def toggle_timer(self) -> None:
        if self.app.timer is not None:
            self.app.timer.toggle()
            self.tick(0)

    def toggle_mute(self) -> None:
        """Sound off (or on again) with one tap: the buzzer, the speaker and the voice."""
        muted = self.app.toggle_mute()
        self._show_mute(muted)

    def _show_mute(self, muted: bool) -> None:
        self.mute_button.text = "Muted: tap for sound" if muted else "Sound on"
        self.mute_button.set_face(theme.WARN if muted else theme.PANEL, dark_text=muted)

    def reset_timer(self) -> None:
        """Back to a full turn (the physical button does the same when held)."""
        if self.app.timer is not None and self.app.timer.enabled:
            self.app.timer.reset()
            self.tick(0)

    def ring_tapped(self) -> None:
        """A tap on the ring or the words under it: when time is up, the turn passes as the sheet
        says (``playbook.time_up``); otherwise the turn's time is full again."""
        timer = self.app.timer
        if timer is None or not timer.enabled:
            return
        if timer.view().phase == "expired":
            self.time_up()
        else:
            self.reset_timer()

    def time_up(self) -> None:
        """The turn's time ran out: record what the sheet says (or open turn entry for the
        player's choice), then the next player's turn starts with a full timer running."""
        game = self.session.game
        if game is None or game.is_over():
            return
        ruling = playbook.time_up(game)
        if ruling.event is None:
            self.app.go("entry", time_up=ruling.title)
            return
        player = game.to_move
        result = self.session.submit(ruling.event)
        if not result.ok:
            self.app.warn(result.message)
            return
        if game.name == "word-on-the-street":
            self.app.turn_over()  # the card goes to the back of the tray
        self.after_turn(ruling.event, start=True)
        after = self.session.game
        if after is not None and after.to_move:
            self.show_news(f"Time ran out for {player}. Now {after.to_move} to play: the timer is running.")
        self.refresh()
        self.tick(0)

    def enter_turn(self) -> None:
        """Turn entry; filled in with the play the camera saw, when it saw one."""
        self.app.go("entry", prefill=self.app.take_camera_prefill())

    def challenge(self) -> None:
        self.app.go("challenge")

    def undo(self) -> None:
        result = self.session.undo()
        if result.ok:
            self.show_news(result.message)
        else:
            self.app.warn(result.message)
        self.refresh()

    def draw_card(self) -> None:
        """Draw the category; the timer starts with it, as the sheet has the timer flipped then."""
        self.app.draw_category()
        timer = self.app.timer
        if timer is not None and timer.enabled and timer.view().phase in ("idle", "paused"):
            timer.toggle()
        self.refresh()

    def demo_step(self) -> None:
        if self.app.demo is None:
            return
        message = self.app.demo.step(self.session)
        if message:
            self.show_news(message)
        self.refresh()

    def after_turn(self, event: dict[str, Any] | None = None, start: bool = False) -> None:
        """A turn was scored: the timer resets for the next player. The WordSpiel flip starts
        it (rule D: the dealer flips the top card and starts the timer), and so does a turn
        passed because its time ran out (``start``): the next player's time runs at once.
        Word on the Street's next turn starts with its card, which starts the timer."""
        game = self.session.game
        timer = self.app.timer
        if timer is not None and game is not None:
            timer.reset(self.session.turn_length()[0])
            if not timer.enabled or game.is_over():
                return
            if start and game.name == "word-on-the-street":
                self.app.draw_category()
            if start or (event is not None and event.get("type") == "start_round"):
                timer.toggle()
