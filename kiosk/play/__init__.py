"""A game at the table, whatever shows it: the session that applies events and logs them
(:mod:`~kiosk.play.session`), what each game asks of the screens (:mod:`~kiosk.play.playbook`),
corrections, the street's moves, the turn timer, the sound output and the words on screen.
No Kivy here: the screens and the command line both stand on it.
"""
