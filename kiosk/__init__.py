"""The kiosk: the Kivy touchscreen app, the command line, the game log and the wiring of all parts."""
