"""Reading a 7×6 board back from a message's JSON (the fake Discord's, the benchmarks'),
as a person reads it: its stones, and what it says under "Looking back"."""

from __future__ import annotations

from cogs.utils.boards import EMPTY_HOLE, LAST, WINNING, ConnectFourLook
from engine import Mark

STONES = {
    EMPTY_HOLE: ".",
    **{ConnectFourLook.marks[mark]: mark.name for mark in Mark},
    **{symbol: mark.name for mark, symbol in WINNING.items()},
    **{symbol: mark.name for mark, symbol in LAST.items()},
}
LOOKING_BACK = "🔍 looking back at this game…"


def classic_position(board: dict) -> str:
    """The 7×6 position drawn in a board message, row by row from the top."""
    rows = board["embeds"][0]["description"].splitlines()[:6]
    return "".join(STONES[s] for row in rows for s in row.split())


def looking_back(board: dict | None) -> str | None:
    """What a board message says under "Looking back", if anything."""
    fields = (board or {}).get("embeds", [{}])[0].get("fields") or []
    return next((f["value"] for f in fields if f["name"] == "Looking back"), None)
