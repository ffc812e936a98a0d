"""Club night's kiosk side: the ``[club]`` settings, the game log as the outbox, and the MQTT
client thread that publishes it.
"""
