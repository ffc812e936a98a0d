"""Every GUI scenario by name, for ``driver.py``.

A scenario is a generator over a :class:`driver.UI`; every ``yield`` gives the app a frame
(or the seconds yielded). They find widgets by test id and tap them with real touches —
never the session. The five games are in ``play_games.py``, the other situations in
``play_situations.py``, the shared steps in ``play_steps.py``.
"""

from play_club import club_qr
from play_evening import (
    evening_demo,
    evening_option_a,
    evening_option_b,
    evening_tosswords_a,
    evening_tosswords_b,
    evening_upwords_a,
    evening_upwords_b,
    evening_wordspiel_a,
    evening_wordspiel_b,
    evening_wots_a,
    evening_wots_b,
)
from play_faults import bad_setting_start, hung_camera, logged_bad_timer
from play_flow import (
    banner_strip,
    demo_own_game,
    stacked_letters,
    timer_runs_out,
    toss_entry,
    upwords_agree,
)
from play_games import option, tosswords, upwords, wordspiel, wots
from play_keep import correct_turn, demo_asks, keep_games, upwords_board
from play_names import name_hint
from play_option import option_taught, option_teach
from play_settings import (
    demo_calibrate,
    dictionary_choice,
    markers_from_photo,
    no_camera_calibrate,
    pins_bad_file,
    pins_clash,
    pins_saved,
    settings_bottom,
    technician_late_lift,
)
from play_situations import (
    audit,
    damaged_settings,
    demo,
    demo_street,
    disk_full,
    idle,
    live_camera,
    live_camera_asks,
    live_street_asks,
    no_word_list,
    overlaps_known,
    resume_part1,
    resume_part2,
    settings_and_stats,
    timer,
)
from play_street import demo_street_correction, demo_street_turn
from play_timer import mute_keeps_timer, timer_cut_part1, timer_cut_part2

__all__ = [
    "audit",
    "bad_setting_start",
    "banner_strip",
    "club_qr",
    "correct_turn",
    "damaged_settings",
    "demo",
    "demo_asks",
    "demo_calibrate",
    "demo_own_game",
    "demo_street",
    "demo_street_correction",
    "demo_street_turn",
    "dictionary_choice",
    "disk_full",
    "evening_demo",
    "evening_option_a",
    "evening_option_b",
    "evening_tosswords_a",
    "evening_tosswords_b",
    "evening_upwords_a",
    "evening_upwords_b",
    "evening_wordspiel_a",
    "evening_wordspiel_b",
    "evening_wots_a",
    "evening_wots_b",
    "hung_camera",
    "idle",
    "keep_games",
    "live_camera",
    "live_camera_asks",
    "live_street_asks",
    "logged_bad_timer",
    "markers_from_photo",
    "mute_keeps_timer",
    "name_hint",
    "no_camera_calibrate",
    "no_word_list",
    "option",
    "option_taught",
    "option_teach",
    "overlaps_known",
    "pins_bad_file",
    "pins_clash",
    "pins_saved",
    "resume_part1",
    "resume_part2",
    "settings_and_stats",
    "settings_bottom",
    "stacked_letters",
    "technician_late_lift",
    "timer",
    "timer_cut_part1",
    "timer_cut_part2",
    "timer_runs_out",
    "toss_entry",
    "tosswords",
    "upwords",
    "upwords_agree",
    "upwords_board",
    "wordspiel",
    "wots",
]
