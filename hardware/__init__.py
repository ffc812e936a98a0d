"""The table timer's devices: buzzer, LED ring and button through gpiozero's pin factories."""
