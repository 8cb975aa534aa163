"""``/connect4``: play Connect Four against the bot, on a 4×4 board (the default) or 5×4.

A declaration only: the commands are every game's (:func:`cogs.game_commands.game_group`),
over what every game shares (:class:`cogs.table.Table`): the same game flow, boards, clicks,
challenges and sweep. One game per channel, whatever the game.
"""

from __future__ import annotations

from .game_commands import GameFace

CONNECT4 = GameFace(
    group="connect4",
    about="Play Connect Four against a bot that learns from its losses",
    boards={"4x4": "connect4", "5x4": "connect4-5x4"},
    move="column",
    texts={
        "play": "Challenge me to a game of Connect Four in this channel",
        "play.board": "4x4 (the default) or 5x4: a wider board, much longer to master",
        "board": "4x4 (the default) or 5x4",
        "move": "Drop a stone in a column: 1 is the leftmost",
        "move.number": "The column, from 1 (left) to 4, or 5 on the 5x4 board",
        "brain.moves": "Columns in play order, such as 2 3 3 (the channel's game if left out)",
        "brain.board": "4x4 (the default) or 5x4, for moves",
        "leaderboard": "Who taught me most Connect Four here, or beat me most",
        "stats": "This server's Connect Four record against me, and yours",
    },
)
