"""Boards drawn, not photographed: the renderer (sets, tables, light, camera), the randomised
scenes and styles, and the training that fits the reader's models on them. The readers never
import it; tests, benchmarks, the demo camera and training do.
"""
