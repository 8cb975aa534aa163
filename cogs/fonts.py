"""The font files the bot's pictures draw with, beside matplotlib's own DejaVu (Latin,
Greek, Cyrillic): IPAexGothic for Japanese, which the ``matplotlib-fontja`` package ships.
"""

from __future__ import annotations

from pathlib import Path


def japanese_font_file() -> Path:
    """IPAexGothic's file, found without importing its package: importing it changes
    matplotlib's settings."""
    import importlib.util

    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("matplotlib_fontja", name="matplotlib_fontja")  # a dependency
    return Path(spec.submodule_search_locations[0], "fonts", "ipaexg.ttf")
