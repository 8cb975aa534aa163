"""The 7×6 board offered by ``/connect4 play board:7x6``, for the tests and benchmarks of
its post-mortem until the board's own face (its look, buttons and default) is in: one
place, so that it goes in one change when that lands."""

from __future__ import annotations

import operator

from cogs.boards import LOOKS, ConnectFourLook
from cogs.connect4 import CONNECT4

CLASSIC = "connect4-7x6"


class RowsOfFour(ConnectFourLook):
    """The columns' buttons in rows of at most four, as Discord takes at most five."""

    def component_rows(self, prefix, code, disabled):
        rows = super().component_rows(prefix, code, disabled)
        buttons = [button for row in rows for button in row["components"]]
        return [{"type": 1, "components": buttons[i : i + 4]} for i in range(0, len(buttons), 4)]


def offer_classic_board(setitem=operator.setitem) -> None:
    """Offer the board (``setitem``: a test's ``monkeypatch.setitem``, to undo it after)."""
    setitem(CONNECT4.boards, "7x6", CLASSIC)
    setitem(LOOKS, CLASSIC, RowsOfFour(CLASSIC))


# reading a 7×6 board back from a message's JSON (the fake Discord's, the benchmarks')
STONES = {"🔴": "X", "🟡": "O", "🟥": "X", "🟨": "O", "⚪": "."}
LOOKING_BACK = "🔍 looking back at this game…"


def classic_position(board: dict) -> str:
    """The 7×6 position drawn in a board message, row by row from the top."""
    rows = board["embeds"][0]["description"].splitlines()[:6]
    return "".join(STONES[s] for row in rows for s in row.split())


def looking_back(board: dict | None) -> str | None:
    """What a board message says under "Looking back", if anything."""
    fields = (board or {}).get("embeds", [{}])[0].get("fields") or []
    return next((f["value"] for f in fields if f["name"] == "Looking back"), None)
