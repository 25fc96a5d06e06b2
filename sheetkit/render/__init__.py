"""Backends: Scene -> PDF (render.pdf) and Scene -> PNG (render.png)."""
