"""The Kivy touchscreen app: the composition root (:mod:`~kiosk.app.wiring`) that builds every
part, the app itself, the demo, and its screens and widgets.
"""
