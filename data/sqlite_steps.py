"""SQLite's schema, as the steps that build it: versions 1 to 6 in
``data/sqlite_steps_1_6.py``, then the rest here. ``data/migrations.py`` runs them, each
tracked with ``PRAGMA user_version``; ``data/postgres_steps.py`` is PostgreSQL's twin."""

from __future__ import annotations

from .classic_schema import (
    CLASSIC,
    PLAYED,
    STATS_INDEXES,
    loss_blocks_sql,
    next_block_sql,
    packed_facts_sql,
)
from .sqlite_steps_1_6 import EARLY

# Puzzle ratings (data/ratings.py): each puzzle's, kept with it, and how far it looks (its
# prior's distance: NULL for a puzzle cut before), its first answers counted (what an
# answer's update was computed from), and posing near a member's rating off an index. The
# numbers are engine.ratings.puzzle_prior(kind, None) as shipped: a win 1500 ± 250, a
# hold 1700 ± 250, in hundredths. The same SQL on both databases (PostgreSQL's step 10).
PUZZLE_RATINGS = (
    "ALTER TABLE puzzles ADD COLUMN plies INTEGER",
    "ALTER TABLE puzzles ADD COLUMN mu INTEGER NOT NULL DEFAULT 150000",
    "ALTER TABLE puzzles ADD COLUMN sigma INTEGER NOT NULL DEFAULT 25000",
    "ALTER TABLE puzzles ADD COLUMN answers INTEGER NOT NULL DEFAULT 0",
    "UPDATE puzzles SET mu = 170000 WHERE kind = 'hold'",
    "CREATE INDEX puzzles_by_rating ON puzzles (guild_id, game, mu, id)",
    # the order first answers counted in (the server's tried count then), for a
    # rebuild; NULL for those given before puzzle ratings (a rebuild replays them
    # first, by when they were posed)
    "ALTER TABLE puzzle_tries ADD COLUMN ordinal INTEGER",
)

# Each entry moves the schema from version i to i + 1: statements run in one transaction.
# Append; never edit a shipped one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    *EARLY,
    (
        # A second game (Connect Four, on two boards): each server has a memory, counters,
        # a learning curve, games, invitations and trainings per game (engine.GAMES names
        # them). Every row so far is tic-tac-toe. The triggers go first, as they name the
        # tables rebuilt below, and come back counting per game.
        "DROP TRIGGER count_a_game_against_the_bot",
        "DROP TRIGGER count_a_game_between_members",
        "DROP TRIGGER uncount_a_deleted_game",
        "DROP TRIGGER credit_a_lesson",
        # A server's data goes 30 days after the bot leaves it (unless it comes back), or
        # at once when its managers ask: while a server is erased, its finished games
        # between members may go too.
        "CREATE TABLE departures (guild_id INTEGER PRIMARY KEY, left_at REAL NOT NULL)",
        "CREATE TABLE erasing (guild_id INTEGER PRIMARY KEY)",
        "DROP TRIGGER refuse_to_delete_a_game_between_members",
        """
    CREATE TRIGGER refuse_to_delete_a_game_between_members BEFORE DELETE ON games
    WHEN OLD.result != 'running' AND OLD.opponent_id IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM erasing WHERE guild_id = OLD.guild_id)
    BEGIN
        SELECT RAISE(ABORT, 'a finished game between members is never deleted');
    END""",
        "ALTER TABLE games ADD COLUMN game TEXT NOT NULL DEFAULT 'tictactoe'",
        # how hard the bot plays (learning: all it knows; medium, easy: sometimes at random)
        "ALTER TABLE games ADD COLUMN level TEXT NOT NULL DEFAULT 'learning'",
        "ALTER TABLE challenges ADD COLUMN game TEXT NOT NULL DEFAULT 'tictactoe'",
        "ALTER TABLE trainings ADD COLUMN game TEXT NOT NULL DEFAULT 'tictactoe'",
        # a board too large to search after every game (Connect Four 5x4) has its ways to
        # beat the bot counted at trainings, imports and resets only: NULL after a game
        """
    CREATE TABLE curve_by_game (
        id       INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL DEFAULT 'tictactoe',
        games    INTEGER NOT NULL,
        lessons  INTEGER NOT NULL,
        beat_x   INTEGER,
        beat_o   INTEGER,
        training INTEGER NOT NULL DEFAULT 0
    )""",
        "INSERT INTO curve_by_game (id, guild_id, games, lessons, beat_x, beat_o, training)"
        " SELECT id, guild_id, games, lessons, beat_x, beat_o, training FROM curve",
        "DROP TABLE curve",
        "ALTER TABLE curve_by_game RENAME TO curve",
        "CREATE INDEX curve_by_guild ON curve (guild_id, game, id)",
        # the game joins the primary keys: SQLite rebuilds a table to change one
        """
    CREATE TABLE facts_by_game (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL DEFAULT 'tictactoe',
        position   TEXT    NOT NULL,  -- canonical board right after a move, as engine spells it
        outcome    TEXT    NOT NULL CHECK (outcome IN ('win', 'loss')),
        learned_at REAL    NOT NULL,
        game_id    INTEGER,
        PRIMARY KEY (guild_id, game, position)
    ) WITHOUT ROWID""",
        "INSERT INTO facts_by_game SELECT guild_id, 'tictactoe', position, outcome, learned_at,"
        " game_id FROM facts",
        "DROP TABLE facts",
        "ALTER TABLE facts_by_game RENAME TO facts",
        """
    CREATE TABLE memory_versions_by_game (
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL DEFAULT 'tictactoe',
        version  INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game)
    ) WITHOUT ROWID""",
        "INSERT INTO memory_versions_by_game SELECT guild_id, 'tictactoe', version"
        " FROM memory_versions",
        "DROP TABLE memory_versions",
        "ALTER TABLE memory_versions_by_game RENAME TO memory_versions",
        """
    CREATE TABLE server_counts_by_game (
        guild_id          INTEGER NOT NULL,
        game              TEXT    NOT NULL DEFAULT 'tictactoe',
        games             INTEGER NOT NULL,
        bot_wins          INTEGER NOT NULL,
        bot_losses        INTEGER NOT NULL,
        draws             INTEGER NOT NULL,
        unfinished        INTEGER NOT NULL,
        member_games      INTEGER NOT NULL DEFAULT 0,
        member_decided    INTEGER NOT NULL DEFAULT 0,
        member_draws      INTEGER NOT NULL DEFAULT 0,
        member_unfinished INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, game)
    ) WITHOUT ROWID""",
        "INSERT INTO server_counts_by_game SELECT guild_id, 'tictactoe', games, bot_wins,"
        " bot_losses, draws, unfinished, member_games, member_decided, member_draws,"
        " member_unfinished FROM server_counts",
        "DROP TABLE server_counts",
        "ALTER TABLE server_counts_by_game RENAME TO server_counts",
        """
    CREATE TABLE player_counts_by_game (
        guild_id      INTEGER NOT NULL,
        game          TEXT    NOT NULL DEFAULT 'tictactoe',
        player_id     INTEGER NOT NULL,
        games         INTEGER NOT NULL,
        bot_wins      INTEGER NOT NULL,
        bot_losses    INTEGER NOT NULL,
        draws         INTEGER NOT NULL,
        unfinished    INTEGER NOT NULL,
        lessons       INTEGER NOT NULL,
        games_at      REAL    NOT NULL,
        wins_at       REAL    NOT NULL,
        lessons_at    REAL    NOT NULL,
        member_games  INTEGER NOT NULL DEFAULT 0,
        member_wins   INTEGER NOT NULL DEFAULT 0,
        member_losses INTEGER NOT NULL DEFAULT 0,
        member_draws  INTEGER NOT NULL DEFAULT 0,
        learning_wins INTEGER NOT NULL DEFAULT 0,  -- wins against the bot at full strength
        PRIMARY KEY (guild_id, game, player_id)
    ) WITHOUT ROWID""",
        "INSERT INTO player_counts_by_game SELECT guild_id, 'tictactoe', player_id, games,"
        " bot_wins, bot_losses, draws, unfinished, lessons, games_at, wins_at, lessons_at,"
        " member_games, member_wins, member_losses, member_draws, bot_losses"
        " FROM player_counts",
        "DROP TABLE player_counts",
        "ALTER TABLE player_counts_by_game RENAME TO player_counts",
        """
    CREATE TRIGGER count_a_game_against_the_bot AFTER UPDATE OF result ON games
    WHEN OLD.result = 'running' AND NEW.result != 'running' AND NEW.opponent_id IS NULL
    BEGIN
        INSERT INTO server_counts (guild_id, game, games, bot_wins, bot_losses, draws,
            unfinished)
        VALUES (
            NEW.guild_id, NEW.game, 1, NEW.result IN ('bot_won', 'resigned'),
            NEW.result = 'player_won', NEW.result = 'draw', NEW.result = 'abandoned')
        ON CONFLICT (guild_id, game) DO UPDATE SET
            games = games + 1, bot_wins = bot_wins + excluded.bot_wins,
            bot_losses = bot_losses + excluded.bot_losses, draws = draws + excluded.draws,
            unfinished = unfinished + excluded.unfinished;
        INSERT INTO player_counts (guild_id, game, player_id, games, bot_wins, bot_losses,
            draws, unfinished, lessons, games_at, wins_at, lessons_at, learning_wins)
        VALUES (
            NEW.guild_id, NEW.game, NEW.player_id, 1, NEW.result IN ('bot_won', 'resigned'),
            NEW.result = 'player_won', NEW.result = 'draw', NEW.result = 'abandoned', 0,
            NEW.ended_at,
            CASE WHEN NEW.result = 'player_won' AND NEW.level = 'learning'
                 THEN NEW.ended_at ELSE 0 END, 0,
            NEW.result = 'player_won' AND NEW.level = 'learning')
        ON CONFLICT (guild_id, game, player_id) DO UPDATE SET
            games = games + 1, bot_wins = bot_wins + excluded.bot_wins,
            bot_losses = bot_losses + excluded.bot_losses, draws = draws + excluded.draws,
            unfinished = unfinished + excluded.unfinished, games_at = excluded.games_at,
            learning_wins = learning_wins + excluded.learning_wins,
            wins_at = CASE WHEN excluded.learning_wins THEN excluded.wins_at ELSE wins_at END;
        INSERT INTO curve (guild_id, game, games, lessons, beat_x, beat_o)
        SELECT NEW.guild_id, NEW.game, games + member_games, NEW.lessons_after,
               NEW.beat_x_after, NEW.beat_o_after
        FROM server_counts
        WHERE guild_id = NEW.guild_id AND game = NEW.game AND NEW.lessons_after IS NOT NULL;
    END""",
        """
    CREATE TRIGGER count_a_game_between_members AFTER UPDATE OF result ON games
    WHEN OLD.result = 'running' AND NEW.result != 'running' AND NEW.opponent_id IS NOT NULL
    BEGIN
        INSERT INTO server_counts (guild_id, game, games, bot_wins, bot_losses, draws,
            unfinished, member_games, member_decided, member_draws, member_unfinished)
        VALUES (
            NEW.guild_id, NEW.game, 0, 0, 0, 0, 0, 1,
            NEW.result IN ('player_won', 'opponent_won', 'resigned'), NEW.result = 'draw',
            NEW.result = 'abandoned')
        ON CONFLICT (guild_id, game) DO UPDATE SET
            member_games = member_games + 1,
            member_decided = member_decided + excluded.member_decided,
            member_draws = member_draws + excluded.member_draws,
            member_unfinished = member_unfinished + excluded.member_unfinished;
        INSERT INTO player_counts (guild_id, game, player_id, games, bot_wins, bot_losses,
            draws, unfinished, lessons, games_at, wins_at, lessons_at, member_games,
            member_wins, member_losses, member_draws)
        SELECT NEW.guild_id, NEW.game, me, 0, 0, 0, 0, 0, 0, NEW.ended_at, 0, 0, 1,
               COALESCE(me = winner, 0), COALESCE(me != winner, 0), NEW.result = 'draw'
        FROM (SELECT NEW.player_id AS me UNION ALL SELECT NEW.opponent_id),
             (SELECT CASE NEW.result
                 WHEN 'player_won' THEN NEW.player_id
                 WHEN 'opponent_won' THEN NEW.opponent_id
                 WHEN 'resigned' THEN CASE WHEN NEW.ended_by = NEW.player_id
                     THEN NEW.opponent_id ELSE NEW.player_id END
              END AS winner)
        WHERE true
        ON CONFLICT (guild_id, game, player_id) DO UPDATE SET
            member_games = member_games + 1, member_wins = member_wins + excluded.member_wins,
            member_losses = member_losses + excluded.member_losses,
            member_draws = member_draws + excluded.member_draws, games_at = excluded.games_at;
        INSERT INTO curve (guild_id, game, games, lessons, beat_x, beat_o)
        SELECT NEW.guild_id, NEW.game, games + member_games, NEW.lessons_after,
               NEW.beat_x_after, NEW.beat_o_after
        FROM server_counts
        WHERE guild_id = NEW.guild_id AND game = NEW.game AND NEW.lessons_after IS NOT NULL;
    END""",
        """
    CREATE TRIGGER uncount_a_deleted_game AFTER DELETE ON games
    WHEN OLD.result != 'running' AND OLD.opponent_id IS NULL
    BEGIN
        UPDATE server_counts SET
            games = games - 1, bot_wins = bot_wins - (OLD.result IN ('bot_won', 'resigned')),
            bot_losses = bot_losses - (OLD.result = 'player_won'),
            draws = draws - (OLD.result = 'draw'),
            unfinished = unfinished - (OLD.result = 'abandoned')
        WHERE guild_id = OLD.guild_id AND game = OLD.game;
        UPDATE player_counts SET
            games = games - 1, bot_wins = bot_wins - (OLD.result IN ('bot_won', 'resigned')),
            bot_losses = bot_losses - (OLD.result = 'player_won'),
            learning_wins = learning_wins - (OLD.result = 'player_won' AND OLD.level = 'learning'),
            draws = draws - (OLD.result = 'draw'),
            unfinished = unfinished - (OLD.result = 'abandoned')
        WHERE guild_id = OLD.guild_id AND game = OLD.game AND player_id = OLD.player_id;
    END""",
        """
    CREATE TRIGGER credit_a_lesson AFTER INSERT ON facts WHEN NEW.game_id IS NOT NULL
    BEGIN
        UPDATE player_counts SET lessons = lessons + 1, lessons_at = NEW.learned_at
        WHERE guild_id = NEW.guild_id AND game = NEW.game AND player_id IN (
            SELECT player_id FROM games WHERE id = NEW.game_id
            UNION SELECT opponent_id FROM games WHERE id = NEW.game_id);
    END""",
    ),
    (
        # The classic board's facts carry their distance: plies to the end under perfect
        # play (NULL: unknown, as on every other board)
        "ALTER TABLE facts ADD COLUMN plies INTEGER",
        # A game's post-mortem: NULL none needed, 'pending' owed (a kill leaves it so, and
        # it runs again at start), 'done' stored with its facts in one transaction
        "ALTER TABLE games ADD COLUMN review TEXT CHECK (review IN ('pending', 'done'))",
        "CREATE INDEX games_review_pending ON games (id) WHERE review = 'pending'",
    ),
    (
        # A member's history and replays: their last games of a kind in a place, newest
        # first, as a player or as a member's opponent (the index ends in the id, so a
        # LIMIT reads only the rows it shows), and the lessons each game taught
        "CREATE INDEX games_history_by_player ON games (guild_id, player_id, game, id)",
        "CREATE INDEX games_history_by_opponent ON games (guild_id, opponent_id, game, id)"
        " WHERE opponent_id IS NOT NULL",
        "CREATE INDEX facts_by_game_id ON facts (game_id) WHERE game_id IS NOT NULL",
    ),
    (
        # The classic board at a big server's scale (data/classic_schema.py says what and
        # why): its facts packed, a batch a row, about 9 bytes a fact instead of 150
        """
    CREATE TABLE classic_facts (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        game_id    INTEGER,           -- the game that taught them; NULL: none, or forgotten
        learned_at REAL    NOT NULL,
        taught     INTEGER NOT NULL,  -- the first `taught` entries are new facts; the rest
                                      -- give their plies to facts known before
        facts      BLOB    NOT NULL   -- 8-byte big-endian entries, see engine/tables.py
    )""",
        packed_facts_sql("pack_entries({entry})"),
        f"DELETE FROM facts WHERE game = '{CLASSIC}'",
        # each batch credits its game's players with the facts it taught (after the
        # conversion above, which must not credit them twice)
        """
    CREATE TRIGGER credit_classic_lessons AFTER INSERT ON classic_facts
    WHEN NEW.game_id IS NOT NULL AND NEW.taught > 0
    BEGIN
        UPDATE player_counts SET lessons = lessons + NEW.taught, lessons_at = NEW.learned_at
        WHERE guild_id = NEW.guild_id AND game = NEW.game AND player_id IN (
            SELECT player_id FROM games WHERE id = NEW.game_id
            UNION SELECT opponent_id FROM games WHERE id = NEW.game_id);
    END""",
        """
    CREATE TABLE loss_blocks (
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        block    INTEGER NOT NULL,  -- games against the bot played to the end, by 50
        games    INTEGER NOT NULL,
        losses   INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, block)
    ) WITHOUT ROWID""",
        loss_blocks_sql(),
        f"""
    CREATE TRIGGER count_a_classic_block AFTER UPDATE OF result ON games
    WHEN OLD.result = 'running' AND NEW.result IN {PLAYED}
        AND NEW.opponent_id IS NULL AND NEW.game = '{CLASSIC}'
    BEGIN
        INSERT INTO loss_blocks (guild_id, game, block, games, losses)
        SELECT NEW.guild_id, NEW.game, {next_block_sql()}, 1,
               NEW.result = 'player_won' WHERE true
        ON CONFLICT (guild_id, game, block) DO UPDATE SET
            games = games + 1, losses = losses + excluded.losses;
    END""",
        *STATS_INDEXES,
    ),
    (
        # Puzzles cut from a server's 7x6 games (data/puzzles.py): one per position (its
        # canonical code), the moves that reached it, its only answer and the columns its
        # post-mortem proved draws; who was to move there (NULL: the bot; 0: forgotten)
        """
    CREATE TABLE puzzles (
        id        INTEGER PRIMARY KEY AUTOINCREMENT,  -- never reused: buttons name it
        guild_id  INTEGER NOT NULL,
        game      TEXT    NOT NULL,
        key       INTEGER NOT NULL,
        moves     TEXT    NOT NULL,
        kind      TEXT    NOT NULL CHECK (kind IN ('win', 'hold')),
        answer    INTEGER NOT NULL,
        draws     INTEGER NOT NULL,
        game_id   INTEGER,
        player_id INTEGER,
        other_id  INTEGER,
        found     INTEGER NOT NULL,
        beat_bot  INTEGER NOT NULL,
        played_at REAL    NOT NULL,
        line      TEXT,  -- the solution played out, once "Show me" worked it out
        UNIQUE (guild_id, game, key)
    )""",
        "CREATE INDEX puzzles_by_preference ON puzzles (guild_id, game, beat_bot, played_at, id)",
        # who was posed which puzzle, and their first answer (the one that counts)
        """
    CREATE TABLE puzzle_tries (
        guild_id  INTEGER NOT NULL,
        member_id INTEGER NOT NULL,
        puzzle_id INTEGER NOT NULL,
        posed_at  REAL    NOT NULL,
        answer    INTEGER,
        solved    INTEGER,
        PRIMARY KEY (member_id, puzzle_id)
    ) WITHOUT ROWID""",
        "CREATE INDEX puzzle_tries_by_guild ON puzzle_tries (guild_id, member_id)",
        "CREATE INDEX puzzle_tries_by_puzzle ON puzzle_tries (puzzle_id)",
        # solved, tried and the streak, per member and (member 0) per server
        """
    CREATE TABLE puzzle_records (
        guild_id  INTEGER NOT NULL,
        game      TEXT    NOT NULL,
        member_id INTEGER NOT NULL,
        solved    INTEGER NOT NULL,
        tried     INTEGER NOT NULL,
        streak    INTEGER NOT NULL,
        day       INTEGER NOT NULL,  -- days since the epoch (UTC) of the last answer
        solved_at REAL    NOT NULL,  -- the last solve: ties on the leaderboard
        PRIMARY KEY (guild_id, game, member_id)
    ) WITHOUT ROWID""",
        # a server's daily puzzle: its channel (NULL: off) and the day it last posted
        """
    CREATE TABLE daily_puzzles (
        guild_id   INTEGER PRIMARY KEY,
        channel_id INTEGER,
        day        INTEGER NOT NULL,
        puzzle_id  INTEGER,
        message_id INTEGER,
        solved     INTEGER NOT NULL,
        tried      INTEGER NOT NULL
    )""",
        # how far a server's games looked back at before puzzles existed were gone through
        """
    CREATE TABLE puzzle_scans (
        guild_id   INTEGER NOT NULL,
        game       TEXT    NOT NULL,
        scanned_to INTEGER NOT NULL,  -- the last game id gone through
        PRIMARY KEY (guild_id, game)
    ) WITHOUT ROWID""",
    ),
    (
        # Ratings (data/ratings.py): per place, board (a small number) and member (-1: the
        # learning bot), in hundredths of a point; the established ones ranked off an index
        """
    CREATE TABLE ratings (
        guild_id  INTEGER NOT NULL,
        board     INTEGER NOT NULL,
        player_id INTEGER NOT NULL,
        mu        INTEGER NOT NULL,
        sigma     INTEGER NOT NULL,
        PRIMARY KEY (guild_id, board, player_id)
    ) WITHOUT ROWID""",
        "CREATE INDEX ratings_established ON ratings (guild_id, board, mu) WHERE sigma < 11000",
        # the learning bot's rating after each game, and its resets and imports
        """
    CREATE TABLE bot_ratings (
        id       INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        game     TEXT    NOT NULL,
        at       REAL    NOT NULL,
        mu       INTEGER NOT NULL,
        sigma    INTEGER NOT NULL,
        event    TEXT    NOT NULL CHECK (event IN ('game', 'reset', 'import')),
        games    INTEGER NOT NULL
    )""",
        "CREATE INDEX bot_ratings_by_time ON bot_ratings (guild_id, game, at)",
    ),
    (
        # when a day's daily post was claimed: a claim without its message, older than
        # the time a post takes, was cut short (a kill, a failed send) and is resumed
        "ALTER TABLE daily_puzzles ADD COLUMN claimed_at REAL NOT NULL DEFAULT 0",
    ),
    PUZZLE_RATINGS,
)
