"""The fonts the bot's pictures draw with, and what they can write: matplotlib's own
DejaVu (Latin, Greek, Cyrillic), then IPAexGothic for Japanese, which the
``matplotlib-fontja`` package ships. The learning curve and a game's picture share them.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path


def japanese_font_file() -> Path:
    """IPAexGothic's file, found without importing its package: importing it changes
    matplotlib's settings."""
    spec = importlib.util.find_spec("matplotlib_fontja")
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError("matplotlib_fontja", name="matplotlib_fontja")  # a dependency
    return Path(spec.submodule_search_locations[0], "fonts", "ipaexg.ttf")


@functools.cache
def font_files(bold: bool = False) -> tuple[Path, ...]:
    """DejaVu first, then IPAexGothic (which has no bold). matplotlib is imported on the
    first picture only (it is big)."""
    import matplotlib

    dejavu = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    return (dejavu / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"), japanese_font_file())


@functools.cache
def charmap(path: Path) -> frozenset[int]:
    """The characters a font file has."""
    from matplotlib.ft2font import FT2Font

    return frozenset(FT2Font(str(path)).get_charmap())


def drawable(text: str) -> bool:
    """Whether the fonts can write ``text``: Latin, Greek, Cyrillic and Japanese; not
    emoji, nor scripts such as Korean (which would be drawn as empty boxes)."""
    files = font_files()
    return all(any(ord(c) in charmap(p) for p in files) for c in text if not c.isspace())
