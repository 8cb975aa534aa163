"""The schema step that makes the classic board cheap at a big server's scale (issue 34),
written once for both databases (``data/sqlite_steps.py`` and ``data/postgres_steps.py``
each add it as their next version, with their own column types and triggers):

* the classic board's facts move into ``classic_facts``, packed: a row per batch of facts
  learned together, each fact an 8-byte big-endian entry ``key << 7 | lost << 6 | plies``
  (``engine.tables``' layout; 63 plies: none) instead of a row of 42 characters. The
  conversion reads each stored position (42 characters of X, O and '.', row by row from
  the top) into its canonical code in SQL (:func:`classic_key_sql`) and packs each batch
  (a game's facts, or a server's facts from no game) in key order;
* the bot's losses per 50 games against it are counted as games end (``loss_blocks``),
  and its last 50 games, a member's games by level and a long learning curve's samples
  are read off indexes, so that no stats query sorts or counts a server's history.
"""

from __future__ import annotations

from .shards import CLASSIC

WIDTH, HEIGHT = 7, 6
LOSS_BLOCK = 50  # the classic board's losses are counted per this many games against the bot
PLAYED = "('bot_won', 'player_won', 'draw', 'resigned')"  # played to the end, or resigned
NO_PLIES = 63


def _code_sql(column: str, mirrored: bool) -> str:
    """The position's bitboard code (``engine.connect4``: a column of 7 bits, its stones
    from the bottom, 1 for X, and a 1 above its top stone), as a sum: a column's field is
    1 + the sum over its stones of 2**row * (2 for X, 1 for O), since its stones fill it
    from the bottom. ``mirrored``: of the left-right mirror."""
    base = sum(1 << (HEIGHT + 1) * c for c in range(WIDTH))
    terms = [str(base)]
    for index in range(WIDTH * HEIGHT):
        row, c = divmod(index, WIDTH)
        shift = (HEIGHT + 1) * (WIDTH - 1 - c if mirrored else c) + (HEIGHT - 1 - row)
        terms.append(
            f"{1 << shift} * CAST(CASE substr({column}, {index + 1}, 1)"
            " WHEN 'X' THEN 2 WHEN 'O' THEN 1 ELSE 0 END AS BIGINT)"
        )
    return "(" + " + ".join(terms) + ")"


def classic_key_sql(column: str = "position") -> str:
    """SQL for the canonical key of a stored classic position: the smaller of its code
    and its mirror's (``engine.connect4.ConnectFour.key``)."""
    code, mirror = _code_sql(column, False), _code_sql(column, True)
    return f"(CASE WHEN {code} < {mirror} THEN {code} ELSE {mirror} END)"


def classic_entry_sql() -> str:
    """SQL for a stored classic fact's packed entry, from its position, outcome and plies."""
    return (
        f"(({classic_key_sql()} * 128) + (CASE WHEN outcome = 'loss' THEN 64 ELSE 0 END)"
        f" + COALESCE(plies, {NO_PLIES}))"
    )


def packed_facts_sql(pack: str) -> str:
    """The statement that moves the classic board's facts into ``classic_facts``, a batch
    per server and game that taught them; ``pack``: the database's aggregate of entries
    into a big-endian blob in key order, with ``{entry}`` where the entry goes."""
    return (
        "INSERT INTO classic_facts (guild_id, game, game_id, learned_at, taught, facts)"
        f" SELECT guild_id, game, game_id, MAX(learned_at), COUNT(*), {pack.format(entry='entry')}"
        f" FROM (SELECT guild_id, game, game_id, learned_at, {classic_entry_sql()} AS entry"
        f" FROM facts WHERE game = '{CLASSIC}') AS packed GROUP BY guild_id, game, game_id"
    )


def loss_blocks_sql() -> str:
    """The statement that counts the classic board's losses per block of
    :data:`LOSS_BLOCK` games against the bot so far (a trigger counts them from then on)."""
    return (
        "INSERT INTO loss_blocks (guild_id, game, block, games, losses)"
        f" SELECT guild_id, game, (n - 1) / {LOSS_BLOCK}, COUNT(*),"
        " SUM(CASE WHEN result = 'player_won' THEN 1 ELSE 0 END) FROM (SELECT guild_id, game,"
        " result, ROW_NUMBER() OVER (PARTITION BY guild_id, game ORDER BY id) AS n FROM games"
        f" WHERE game = '{CLASSIC}' AND opponent_id IS NULL AND result IN {PLAYED}) AS played"
        f" GROUP BY guild_id, game, (n - 1) / {LOSS_BLOCK}"
    )


def next_block_sql() -> str:
    """SQL, inside a trigger on ``games``, for the block a game just played counts in."""
    return (
        f"COALESCE((SELECT CASE WHEN games < {LOSS_BLOCK} THEN block ELSE block + 1 END"
        " FROM loss_blocks WHERE guild_id = NEW.guild_id AND game = NEW.game"
        " ORDER BY block DESC LIMIT 1), 0)"
    )


# the indexes every stats query reads, the same on both databases
STATS_INDEXES = (
    # the bot's last games against members played to the end: a LIMIT reads only those
    "CREATE INDEX games_played_against_the_bot ON games (guild_id, game, id, result)"
    f" WHERE opponent_id IS NULL AND result IN {PLAYED}",
    # a member's record by level: grouped straight off the index
    "CREATE INDEX games_by_level ON games (guild_id, game, player_id, level, result)"
    " WHERE opponent_id IS NULL",
    # the learning curve's points by games: a long curve is sampled off it, a row a step
    "CREATE INDEX curve_by_games ON curve (guild_id, game, games, id)",
    # a server's batches of classic facts with their counts (its count of facts is read
    # off this index alone), and a game's batches (its lessons, forget-me)
    "CREATE INDEX classic_facts_by_guild ON classic_facts (guild_id, game, taught)",
    "CREATE INDEX classic_facts_by_game ON classic_facts (game_id) WHERE game_id IS NOT NULL",
)
