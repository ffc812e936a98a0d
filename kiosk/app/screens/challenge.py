"""Challenge: the word under challenge, the kind, then the ruling in very large type.

Steps, each skipped when the game does not need it: pick the kind (Word on the Street has
three), the word (an Upwords play can form several), the challenger (Option charges a wrong
one 10 points); then the word authority rules — or, for a word-selection challenge, the
table votes — and the verdict, its reason, its rule and what happens now fill the screen.
One tap on "Undo ruling" takes it back.
"""

from __future__ import annotations

from typing import Any

from kivy.uix.boxlayout import BoxLayout

from games.rulings import Ruling
from kiosk.app.screens.base import KioskScreen
from kiosk.app.widgets import theme
from kiosk.app.widgets.basics import BigButton, Text
from kiosk.play import playbook
from kiosk.play.wording import consequence


class ChallengeScreen(KioskScreen):
    screen_name = "challenge"

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self.bar = self.title_bar("Challenge", BigButton("Back", tid="challenge.back", on_tap=self.back))
        self.body.add_widget(self.bar)
        self.word = Text("", size=theme.HUGE, bold=True, size_hint_y=None, height=70)
        self.word.tid = "challenge.word"
        self.body.add_widget(self.word)
        self.area = BoxLayout(orientation="vertical", spacing=theme.GAP)
        self.body.add_widget(self.area)
        self.choice: dict[str, Any] = {}
        self.target_word = ""
        self.votes = {"accept": 0, "reject": 0}
        self.ruling: Ruling | None = None

    # ------------------------------------------------------------------ flow
    def prepare(self, **_context: Any) -> None:
        self.choice = {}
        self.ruling = None
        target = self.session.challenge_target()
        if target is None:
            self.app.warn("There is no word to challenge: a challenge comes right after a word is played.")
            self.area.clear_widgets()
            self.word.text = ""
            return
        self.word.text = self.target_word = target.word
        owner = f"{target.player}'" if target.player.endswith("s") else f"{target.player}'s"
        self.bar.title.text = f"Challenge {owner} word" if target.player else "Challenge"
        self.next_step()

    def _word_row(self, shown: bool) -> None:
        """The challenged word in large type while the table decides; with the ruling it goes
        to the title ("The ruling on FUN") and its row to the verdict, which needs the height
        (under a message strip the two did not fit, and the verdict ran over the word)."""
        self.word.height, self.word.opacity = (70, 1) if shown else (0, 0)

    def next_step(self) -> None:
        self._word_row(True)
        game = self.session.game
        guide = playbook.guide(game.name)
        if len(guide.kinds) > 1 and "kind" not in self.choice:
            return self._ask(
                "What is challenged?",
                [
                    (k.label, f"challenge.kind.{k.key}", lambda k=k: self._pick("kind", k.key))
                    for k in guide.kinds
                ],
            )
        if game.name == "upwords" and "word" not in self.choice:
            words = playbook.upwords_words(game)
            if len(words) > 1:
                return self._ask(
                    "Which word?",
                    [
                        (w, f"challenge.word.{i}", lambda w=w: self._pick("word", w))
                        for i, w in enumerate(words)
                    ],
                )
            self.choice["word"] = words[0] if words else None
        if guide.challenger_named and "by" not in self.choice:
            target = self.session.challenge_target()
            others = [p for p in game.players if p != target.player]
            if len(others) == 1:
                self.choice["by"] = others[0]
            else:
                return self._ask(
                    "Who challenges?",
                    [(p, f"challenge.by.{i}", lambda p=p: self._pick("by", p)) for i, p in enumerate(others)],
                )
        if self.choice.get("kind") == "selection":
            return self._vote()
        if self.ruling is None:
            self.ruling = self.session.rule(self.choice.get("kind", ""), word=self.choice.get("word"))
            if self.ruling is None:
                return self._by_hand()
        if (
            self.choice.get("kind") == "spelling"
            and not self.ruling.legal
            and "first_error" not in self.choice
        ):
            return self._first_error()
        self.commit()

    def _pick(self, key: str, value: Any) -> None:
        self.choice[key] = value
        if key == "word":
            self.word.text = value
        self.next_step()

    def _ask(self, question: str, options: list[tuple[str, str, Any]]) -> None:
        self.area.clear_widgets()
        self.area.add_widget(Text(question, size=theme.LARGE, size_hint_y=None, height=50))
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH + 30)
        for label, tid, tap in options:
            row.add_widget(BigButton(label, tid=tid, on_tap=tap, size=theme.BODY))
        self.area.add_widget(row)
        self.area.add_widget(BoxLayout())

    def _by_hand(self) -> None:
        """No word list: the table decides, and the log records that the players ruled."""
        self.app.warn(self.session.authority_problem() or "The word list is not available: rule by hand.")
        target = self.session.challenge_target()
        game = self.session.game

        def decide(legal: bool) -> None:
            self.ruling = Ruling(
                legal,
                "decided at the table (no word list)",
                f"{game.title}: players' ruling",
                word=target.word,
                game=game.name,
                source="players",
            )
            self.next_step()

        self._ask(
            "No word list here: the table decides. Is the word allowed?",
            [
                ("LEGAL", "challenge.hand.legal", lambda: decide(True)),
                ("ILLEGAL", "challenge.hand.illegal", lambda: decide(False)),
            ],
        )

    def _first_error(self) -> None:
        word = self.session.challenge_target().word
        self._ask(
            "Misspelt. Tap the first wrong letter:",
            [
                (ch, f"challenge.letter.{i}", lambda i=i: self._pick("first_error", i))
                for i, ch in enumerate(word)
            ],
        )

    def _vote(self) -> None:
        self.area.clear_widgets()
        card = self.app.current_category() or self.app.played_category
        question = (
            f"Does {self.target_word} fit the card [b]{card}[/b]? Each player taps once."
            if card
            else f"Does {self.target_word} fit the category card? Each player taps once."
        )
        asked = Text(question, size=theme.LARGE, size_hint_y=None, height=76)
        asked.tid = "challenge.vote.card"
        self.area.add_widget(asked)
        row = BoxLayout(spacing=theme.GAP)
        self.accept = BigButton(
            "Accept\n0",
            tid="challenge.vote.accept",
            face=theme.GOOD,
            size=theme.LARGE,
            on_tap=lambda: self._count("accept"),
        )
        self.reject = BigButton(
            "Reject\n0",
            tid="challenge.vote.reject",
            face=theme.BAD,
            size=theme.LARGE,
            on_tap=lambda: self._count("reject"),
        )
        row.add_widget(self.accept)
        row.add_widget(self.reject)
        self.area.add_widget(row)
        bottom = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH)
        bottom.add_widget(BigButton("Start again", tid="challenge.vote.reset", on_tap=self._vote_reset))
        bottom.add_widget(
            BigButton("Count the votes", tid="challenge.vote.done", accent=True, on_tap=self.commit)
        )
        self.area.add_widget(bottom)
        self.votes = {"accept": 0, "reject": 0}

    def _count(self, side: str) -> None:
        self.votes[side] += 1
        self.accept.text = f"Accept\n{self.votes['accept']}"
        self.reject.text = f"Reject\n{self.votes['reject']}"

    def _vote_reset(self) -> None:
        self._vote()

    def commit(self) -> None:
        details = {k: v for k, v in self.choice.items() if k != "word"}
        if self.choice.get("kind") == "selection":
            if sum(self.votes.values()) == 0:
                self.app.warn("Nobody has voted yet.")
                return
            details["votes"] = dict(self.votes)
        result = self.session.challenge(self.ruling, word=self.choice.get("word"), **details)
        if not result.ok:
            self.app.warn(result.message)
            return
        self.app.news(result.message)
        self.show_verdict(result)

    # ------------------------------------------------------------------ the verdict
    def show_verdict(self, result: Any) -> None:
        game = self.session.game
        guide = playbook.guide(game.name)
        kind = next(
            (k for k in guide.kinds if k.key == self.choice.get("kind", guide.kinds[0].key)), guide.kinds[0]
        )
        self.area.clear_widgets()
        ruling = result.ruling
        if ruling is not None:
            verdict, colour = ruling.verdict, theme.GOOD if ruling.legal else theme.BAD
            reason, rule = ruling.reason, ruling.rule
            then = kind.if_legal if ruling.legal else kind.if_illegal
        else:
            accepted = self.votes["accept"] > self.votes["reject"]
            verdict = (
                "ACCEPTED"
                if accepted
                else "REJECTED"
                if self.votes["reject"] > self.votes["accept"]
                else "TIED VOTE"
            )
            colour = theme.GOOD if accepted else theme.BAD
            reason = f"{self.votes['accept']} accept, {self.votes['reject']} reject"
            rule, then = (
                "Word on the Street, 'Word Selection Challenge'",
                kind.if_illegal if not accepted else kind.if_legal,
            )
        big = Text(verdict, size=theme.GIANT, bold=True, color=colour, size_hint_y=None, height=96)
        big.tid = "challenge.verdict"
        self.area.add_widget(big)
        self.area.add_widget(Text(reason, size=theme.LARGE, size_hint_y=None, height=48))
        self.area.add_widget(Text(rule, size=theme.SMALL, color=theme.MUTED, size_hint_y=None, height=28))
        said = f"Now: {consequence(result.message or then, result.turns, guide.unit, guide.side)}"
        now = Text(said, size=theme.BODY, color=theme.ACCENT)
        now.tid = "challenge.now"
        self.area.add_widget(now)
        row = BoxLayout(spacing=theme.GAP, size_hint_y=None, height=theme.TOUCH)
        row.add_widget(BigButton("Undo ruling", tid="challenge.undo", on_tap=self.undo))
        if ruling is not None and not ruling.legal and ruling.source == "dictionary":
            row.add_widget(
                BigButton("Allow: house word", tid="challenge.house", on_tap=self.house_word, face=theme.INFO)
            )
        row.add_widget(BigButton("Back to game", tid="challenge.ok", accent=True, on_tap=self.back))
        self.area.add_widget(row)
        self.word.text = self.session.game.events[-1].get("word") or self.word.text
        self._word_row(False)
        self.bar.title.text = f"The ruling on {self.word.text}" if self.word.text else "The ruling"
        self.app.say(f"{verdict}. {reason}")

    def house_word(self) -> None:
        """The table knows the word: keep it as a house word for this game and rule again."""
        game = self.session.game
        word = self.choice.get("word") or self.target_word
        added = self.session.add_house_word(word, game.name)
        if not added.ok:
            self.app.warn(added.message)
            return
        self.app.warn(added.message, "info")
        undone = self.session.undo()
        if not undone.ok:
            self.app.warn(undone.message)
            return
        self.ruling = None
        self.choice.pop("first_error", None)
        self.next_step()

    def back(self) -> None:
        self.app.go("game")
