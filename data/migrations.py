"""Schema versions, applied in order and tracked with ``PRAGMA user_version``."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence

import aiosqlite

from .classic_schema import (
    CLASSIC,
    PLAYED,
    STATS_INDEXES,
    loss_blocks_sql,
    next_block_sql,
    packed_facts_sql,
)
from .errors import SchemaTooNewError, StaleGameError

# Each entry moves the schema from version i to i + 1: statements run in one transaction.
# Append; never edit a shipped one.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """
    CREATE TABLE facts (
        guild_id   INTEGER NOT NULL,
        position   TEXT    NOT NULL,  -- canonical board right after a move, 9 chars of X O .
        outcome    TEXT    NOT NULL CHECK (outcome IN ('win', 'loss')),
        learned_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, position)
    ) WITHOUT ROWID""",
        """
    CREATE TABLE games (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        player_id  INTEGER NOT NULL,
        bot_mark   TEXT    NOT NULL CHECK (bot_mark IN ('X', 'O')),
        moves      TEXT    NOT NULL,  -- cells 0..8 in play order, e.g. '4012'
        result     TEXT    NOT NULL,  -- 'running' or how it ended
        message_id INTEGER,
        started_at REAL    NOT NULL,
        updated_at REAL    NOT NULL,
        ended_at   REAL
    )""",
        # one running game per channel, enforced by the database itself
        "CREATE UNIQUE INDEX one_running_game_per_channel ON games (channel_id)"
        " WHERE result = 'running'",
        "CREATE INDEX games_by_guild_player ON games (guild_id, player_id, result)",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ),
    (
        # who ended a game by hand (a moderator's /ttt-admin end-game), if anyone did
        "ALTER TABLE games ADD COLUMN ended_by INTEGER",
        """
    CREATE TABLE guild_settings (
        guild_id        INTEGER PRIMARY KEY,
        timeout_minutes INTEGER,  -- NULL: the bot's GAME_TIMEOUT_MINUTES
        play_channels   TEXT      -- channel ids, space-separated; NULL: every channel
    )""",
    ),
    (
        """
    CREATE TABLE trainings (
        id         INTEGER PRIMARY KEY,
        guild_id   INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER,           -- the live progress message
        started_by INTEGER NOT NULL,
        opponent   TEXT    NOT NULL,
        games      INTEGER NOT NULL,  -- asked for
        played     INTEGER NOT NULL,  -- saved so far
        learned    INTEGER NOT NULL,  -- new lessons saved so far
        status     TEXT    NOT NULL,  -- running, done, cancelled, interrupted, failed
        ended_by   INTEGER,           -- the admin who cancelled it
        started_at REAL    NOT NULL,
        updated_at REAL    NOT NULL
    )""",
        "CREATE INDEX trainings_running ON trainings (status) WHERE status = 'running'",
    ),
    (
        # the game a fact was learned from, to credit its players; NULL: training or import
        "ALTER TABLE facts ADD COLUMN game_id INTEGER",
        # The learning curve: what the bot knew each time that changed (after a game that
        # taught it something, a training, an import or a reset); in between it is flat
        """
    CREATE TABLE curve (
        id       INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        games    INTEGER NOT NULL,  -- the server's finished games at that moment
        lessons  INTEGER NOT NULL,
        beat_x   INTEGER NOT NULL,  -- ways to beat the bot playing X
        beat_o   INTEGER NOT NULL,
        training INTEGER NOT NULL DEFAULT 0  -- 1: after a training, not a game
    )""",
        "CREATE INDEX curve_by_guild ON curve (guild_id, id)",
        # what the bot knew after a game that taught it something: the curve's next point
        "ALTER TABLE games ADD COLUMN lessons_after INTEGER",
        "ALTER TABLE games ADD COLUMN beat_x_after INTEGER",
        "ALTER TABLE games ADD COLUMN beat_o_after INTEGER",
        # Counters kept in each game's own transaction, so stats never count the history
        """
    CREATE TABLE server_counts (
        guild_id   INTEGER PRIMARY KEY,
        games      INTEGER NOT NULL,  -- finished
        bot_wins   INTEGER NOT NULL,  -- won by the bot, or resigned
        bot_losses INTEGER NOT NULL,
        draws      INTEGER NOT NULL,
        unfinished INTEGER NOT NULL   -- abandoned
    )""",
        """
    CREATE TABLE player_counts (
        guild_id   INTEGER NOT NULL,
        player_id  INTEGER NOT NULL,
        games      INTEGER NOT NULL,
        bot_wins   INTEGER NOT NULL,
        bot_losses INTEGER NOT NULL,  -- the player's wins
        draws      INTEGER NOT NULL,
        unfinished INTEGER NOT NULL,
        lessons    INTEGER NOT NULL,  -- facts first learned from their games
        -- when each figure last grew: on the leaderboard, who got there first ranks first
        games_at   REAL    NOT NULL,
        wins_at    REAL    NOT NULL,
        lessons_at REAL    NOT NULL,
        PRIMARY KEY (guild_id, player_id)
    ) WITHOUT ROWID""",
        """
    INSERT INTO server_counts
    SELECT guild_id, COUNT(*), SUM(result IN ('bot_won', 'resigned')),
           SUM(result = 'player_won'), SUM(result = 'draw'), SUM(result = 'abandoned')
    FROM games WHERE result != 'running' GROUP BY guild_id""",
        """
    INSERT INTO player_counts
    SELECT guild_id, player_id, COUNT(*), SUM(result IN ('bot_won', 'resigned')),
           SUM(result = 'player_won'), SUM(result = 'draw'), SUM(result = 'abandoned'),
           0, MAX(COALESCE(ended_at, updated_at)),
           COALESCE(MAX(CASE WHEN result = 'player_won' THEN ended_at END), 0), 0
    FROM games WHERE result != 'running' GROUP BY guild_id, player_id""",
        # The counters follow the games table inside the very statement that changes it:
        # no extra round trip per game, and no way for a write to miss them.
        """
    CREATE TRIGGER count_a_finished_game AFTER UPDATE OF result ON games
    WHEN OLD.result = 'running' AND NEW.result != 'running'
    BEGIN
        INSERT INTO server_counts VALUES (
            NEW.guild_id, 1, NEW.result IN ('bot_won', 'resigned'), NEW.result = 'player_won',
            NEW.result = 'draw', NEW.result = 'abandoned')
        ON CONFLICT (guild_id) DO UPDATE SET
            games = games + 1, bot_wins = bot_wins + excluded.bot_wins,
            bot_losses = bot_losses + excluded.bot_losses, draws = draws + excluded.draws,
            unfinished = unfinished + excluded.unfinished;
        INSERT INTO player_counts VALUES (
            NEW.guild_id, NEW.player_id, 1, NEW.result IN ('bot_won', 'resigned'),
            NEW.result = 'player_won', NEW.result = 'draw', NEW.result = 'abandoned', 0,
            NEW.ended_at, CASE WHEN NEW.result = 'player_won' THEN NEW.ended_at ELSE 0 END, 0)
        ON CONFLICT (guild_id, player_id) DO UPDATE SET
            games = games + 1, bot_wins = bot_wins + excluded.bot_wins,
            bot_losses = bot_losses + excluded.bot_losses, draws = draws + excluded.draws,
            unfinished = unfinished + excluded.unfinished, games_at = excluded.games_at,
            wins_at = CASE WHEN excluded.bot_losses THEN excluded.wins_at ELSE wins_at END;
        INSERT INTO curve (guild_id, games, lessons, beat_x, beat_o)
        SELECT NEW.guild_id, games, NEW.lessons_after, NEW.beat_x_after, NEW.beat_o_after
        FROM server_counts WHERE guild_id = NEW.guild_id AND NEW.lessons_after IS NOT NULL;
    END""",
        """
    CREATE TRIGGER uncount_a_deleted_game AFTER DELETE ON games
    WHEN OLD.result != 'running'
    BEGIN
        UPDATE server_counts SET
            games = games - 1, bot_wins = bot_wins - (OLD.result IN ('bot_won', 'resigned')),
            bot_losses = bot_losses - (OLD.result = 'player_won'),
            draws = draws - (OLD.result = 'draw'),
            unfinished = unfinished - (OLD.result = 'abandoned')
        WHERE guild_id = OLD.guild_id;
        UPDATE player_counts SET
            games = games - 1, bot_wins = bot_wins - (OLD.result IN ('bot_won', 'resigned')),
            bot_losses = bot_losses - (OLD.result = 'player_won'),
            draws = draws - (OLD.result = 'draw'),
            unfinished = unfinished - (OLD.result = 'abandoned')
        WHERE guild_id = OLD.guild_id AND player_id = OLD.player_id;
    END""",
        # a lesson is credited to the game's player only if it really was new
        """
    CREATE TRIGGER credit_a_lesson AFTER INSERT ON facts WHEN NEW.game_id IS NOT NULL
    BEGIN
        UPDATE player_counts SET lessons = lessons + 1, lessons_at = NEW.learned_at
        WHERE (guild_id, player_id)
            = (SELECT guild_id, player_id FROM games WHERE id = NEW.game_id);
    END""",
    ),
    (
        # Games between members: the player's opponent is a member, not the bot. They play
        # bot_mark (the mark of the player's opponent, whoever that is); NULL: the bot
        "ALTER TABLE games ADD COLUMN opponent_id INTEGER",
        # Invitations to play, one per channel, answered with buttons within their time
        """
    CREATE TABLE challenges (
        -- never reused: an old invitation's buttons must not answer a newer one
        id            INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id      INTEGER NOT NULL,
        channel_id    INTEGER NOT NULL UNIQUE,
        challenger_id INTEGER NOT NULL,
        opponent_id   INTEGER,            -- NULL: open to any member
        first         TEXT    NOT NULL CHECK (first IN ('me', 'them', 'random')),
        message_id    INTEGER,
        expires_at    REAL    NOT NULL
    )""",
        # the record of games between members, next to the record against the bot
        "ALTER TABLE server_counts ADD COLUMN member_games INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE server_counts ADD COLUMN member_decided INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE server_counts ADD COLUMN member_draws INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE server_counts ADD COLUMN member_unfinished INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE player_counts ADD COLUMN member_games INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE player_counts ADD COLUMN member_wins INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE player_counts ADD COLUMN member_losses INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE player_counts ADD COLUMN member_draws INTEGER NOT NULL DEFAULT 0",
        "DROP TRIGGER count_a_finished_game",
        """
    CREATE TRIGGER count_a_game_against_the_bot AFTER UPDATE OF result ON games
    WHEN OLD.result = 'running' AND NEW.result != 'running' AND NEW.opponent_id IS NULL
    BEGIN
        INSERT INTO server_counts (guild_id, games, bot_wins, bot_losses, draws, unfinished)
        VALUES (
            NEW.guild_id, 1, NEW.result IN ('bot_won', 'resigned'), NEW.result = 'player_won',
            NEW.result = 'draw', NEW.result = 'abandoned')
        ON CONFLICT (guild_id) DO UPDATE SET
            games = games + 1, bot_wins = bot_wins + excluded.bot_wins,
            bot_losses = bot_losses + excluded.bot_losses, draws = draws + excluded.draws,
            unfinished = unfinished + excluded.unfinished;
        INSERT INTO player_counts (guild_id, player_id, games, bot_wins, bot_losses, draws,
            unfinished, lessons, games_at, wins_at, lessons_at)
        VALUES (
            NEW.guild_id, NEW.player_id, 1, NEW.result IN ('bot_won', 'resigned'),
            NEW.result = 'player_won', NEW.result = 'draw', NEW.result = 'abandoned', 0,
            NEW.ended_at, CASE WHEN NEW.result = 'player_won' THEN NEW.ended_at ELSE 0 END, 0)
        ON CONFLICT (guild_id, player_id) DO UPDATE SET
            games = games + 1, bot_wins = bot_wins + excluded.bot_wins,
            bot_losses = bot_losses + excluded.bot_losses, draws = draws + excluded.draws,
            unfinished = unfinished + excluded.unfinished, games_at = excluded.games_at,
            wins_at = CASE WHEN excluded.bot_losses THEN excluded.wins_at ELSE wins_at END;
        INSERT INTO curve (guild_id, games, lessons, beat_x, beat_o)
        SELECT NEW.guild_id, games + member_games, NEW.lessons_after, NEW.beat_x_after,
               NEW.beat_o_after
        FROM server_counts WHERE guild_id = NEW.guild_id AND NEW.lessons_after IS NOT NULL;
    END""",
        # A member game's winner: the player, the opponent, or whoever did not resign
        """
    CREATE TRIGGER count_a_game_between_members AFTER UPDATE OF result ON games
    WHEN OLD.result = 'running' AND NEW.result != 'running' AND NEW.opponent_id IS NOT NULL
    BEGIN
        INSERT INTO server_counts (guild_id, games, bot_wins, bot_losses, draws, unfinished,
            member_games, member_decided, member_draws, member_unfinished)
        VALUES (
            NEW.guild_id, 0, 0, 0, 0, 0, 1,
            NEW.result IN ('player_won', 'opponent_won', 'resigned'), NEW.result = 'draw',
            NEW.result = 'abandoned')
        ON CONFLICT (guild_id) DO UPDATE SET
            member_games = member_games + 1,
            member_decided = member_decided + excluded.member_decided,
            member_draws = member_draws + excluded.member_draws,
            member_unfinished = member_unfinished + excluded.member_unfinished;
        INSERT INTO player_counts (guild_id, player_id, games, bot_wins, bot_losses, draws,
            unfinished, lessons, games_at, wins_at, lessons_at, member_games, member_wins,
            member_losses, member_draws)
        SELECT NEW.guild_id, me, 0, 0, 0, 0, 0, 0, NEW.ended_at, 0, 0, 1,
               COALESCE(me = winner, 0), COALESCE(me != winner, 0), NEW.result = 'draw'
        FROM (SELECT NEW.player_id AS me UNION ALL SELECT NEW.opponent_id),
             (SELECT CASE NEW.result
                 WHEN 'player_won' THEN NEW.player_id
                 WHEN 'opponent_won' THEN NEW.opponent_id
                 WHEN 'resigned' THEN CASE WHEN NEW.ended_by = NEW.player_id
                     THEN NEW.opponent_id ELSE NEW.player_id END
              END AS winner)
        WHERE true
        ON CONFLICT (guild_id, player_id) DO UPDATE SET
            member_games = member_games + 1, member_wins = member_wins + excluded.member_wins,
            member_losses = member_losses + excluded.member_losses,
            member_draws = member_draws + excluded.member_draws, games_at = excluded.games_at;
        INSERT INTO curve (guild_id, games, lessons, beat_x, beat_o)
        SELECT NEW.guild_id, games + member_games, NEW.lessons_after, NEW.beat_x_after,
               NEW.beat_o_after
        FROM server_counts WHERE guild_id = NEW.guild_id AND NEW.lessons_after IS NOT NULL;
    END""",
        # Only games against the bot are ever deleted (forget-me); a member who asks to be
        # forgotten is taken out of games between members instead, which keep counting
        # for the other player.
        "DROP TRIGGER uncount_a_deleted_game",
        """
    CREATE TRIGGER uncount_a_deleted_game AFTER DELETE ON games
    WHEN OLD.result != 'running' AND OLD.opponent_id IS NULL
    BEGIN
        UPDATE server_counts SET
            games = games - 1, bot_wins = bot_wins - (OLD.result IN ('bot_won', 'resigned')),
            bot_losses = bot_losses - (OLD.result = 'player_won'),
            draws = draws - (OLD.result = 'draw'),
            unfinished = unfinished - (OLD.result = 'abandoned')
        WHERE guild_id = OLD.guild_id;
        UPDATE player_counts SET
            games = games - 1, bot_wins = bot_wins - (OLD.result IN ('bot_won', 'resigned')),
            bot_losses = bot_losses - (OLD.result = 'player_won'),
            draws = draws - (OLD.result = 'draw'),
            unfinished = unfinished - (OLD.result = 'abandoned')
        WHERE guild_id = OLD.guild_id AND player_id = OLD.player_id;
    END""",
        """
    CREATE TRIGGER refuse_to_delete_a_game_between_members BEFORE DELETE ON games
    WHEN OLD.result != 'running' AND OLD.opponent_id IS NOT NULL
    BEGIN
        SELECT RAISE(ABORT, 'a finished game between members is never deleted');
    END""",
        # a lesson from a game between members credits both of its players
        "DROP TRIGGER credit_a_lesson",
        """
    CREATE TRIGGER credit_a_lesson AFTER INSERT ON facts WHEN NEW.game_id IS NOT NULL
    BEGIN
        UPDATE player_counts SET lessons = lessons + 1, lessons_at = NEW.learned_at
        WHERE guild_id = NEW.guild_id AND player_id IN (
            SELECT player_id FROM games WHERE id = NEW.game_id
            UNION SELECT opponent_id FROM games WHERE id = NEW.game_id);
    END""",
    ),
    (
        # Bumped by every change to a server's facts that is not one of its games (a
        # reset, an import): another process's cached memory of that server is then
        # stale, and its next learning notices and reads the memory afresh.
        """
    CREATE TABLE memory_versions (
        guild_id INTEGER PRIMARY KEY,
        version  INTEGER NOT NULL
    )""",
    ),
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
)

SCHEMA_VERSION = len(MIGRATIONS)


class _PackedEntries:
    """SQLite's aggregate of packed classic entries: a big-endian blob, in key order
    (PostgreSQL has ``string_agg(int8send(…))``)."""

    def __init__(self) -> None:
        self.entries: list[int] = []

    def step(self, entry: int) -> None:
        self.entries.append(entry)

    def finalize(self) -> bytes:
        return b"".join(entry.to_bytes(8, "big") for entry in sorted(self.entries))


def register_functions(conn: sqlite3.Connection) -> None:
    """What the migrations call besides SQLite's own functions (on every connection that
    may run them)."""
    conn.create_aggregate("pack_entries", 1, _PackedEntries)


async def migrate(db: aiosqlite.Connection) -> int:
    """Bring the schema up to date; return the version it was at before."""
    await db._execute(register_functions, db._conn)
    ((version,),) = await db.execute_fetchall("PRAGMA user_version")
    if version > SCHEMA_VERSION:
        raise SchemaTooNewError(
            f"the database is at schema version {version}, newer than this bot's "
            f"{SCHEMA_VERSION}; upgrade the bot or point DATABASE_PATH at another file"
        )
    for target in range(version + 1, SCHEMA_VERSION + 1):
        # the version bump commits with the schema change, so a crash leaves either or neither
        await run_in_transaction(
            db,
            [
                *((sql, ()) for sql in MIGRATIONS[target - 1]),
                (f"PRAGMA user_version = {target}", ()),
            ],
        )
    return version


class Rows(list):
    """Parameters for one statement run once per row (``executemany``): one thread trip."""


async def run(db: aiosqlite.Connection, sql: str, params: Sequence = ()) -> list:
    """Execute to completion in the connection's thread and return the rows.

    No cursor outlives the call: a half-read one keeps its statement busy and makes the
    next COMMIT fail with "SQL statements in progress".
    """
    if isinstance(params, Rows):
        await (await db.executemany(sql, params)).close()
        return []
    return list(await db.execute_fetchall(sql, params))


async def run_in_transaction(
    db: aiosqlite.Connection,
    statements: Iterable[tuple[str, Sequence]],
    *,
    require_row: bool = False,
    rows_of: int = 0,
) -> list:
    """All of the statements land, or none. Returns the rows of the first one (or of
    the one at index ``rows_of``).

    With ``require_row``, the first statement must return a row (a guarded
    ``UPDATE … RETURNING``); if it returns none, everything is rolled back and
    ``StaleGameError`` is raised.

    The whole transaction runs in the connection's thread in one trip: each trip costs
    about 60 µs of CPU, and a game's end is several statements. Being one call there, it
    also lands whole even if the request that asked for it is cancelled meanwhile.
    """
    # aiosqlite has no public call for "run this in the connection's thread"; _execute is
    # what each of its own methods uses (pinned in pyproject.toml, checked by the tests)
    return await db._execute(_transaction, db._conn, list(statements), require_row, rows_of)


def _transaction(
    conn: sqlite3.Connection,
    statements: list[tuple[str, Sequence]],
    require_row: bool,
    rows_of: int,
) -> list:
    own = len(statements) == 1 and not isinstance(statements[0][1], Rows)
    if not own:  # one plain statement is its own transaction
        conn.execute("BEGIN IMMEDIATE")
    try:
        wanted = _statements(conn, statements, require_row, rows_of)
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    if not own:
        conn.execute("COMMIT")
    return wanted


def _statements(
    conn: sqlite3.Connection,
    statements: list[tuple[str, Sequence]],
    require_row: bool,
    rows_of: int,
) -> list:
    wanted: list = []
    for index, (sql, params) in enumerate(statements):
        if isinstance(params, Rows):
            conn.executemany(sql, params).close()
            rows = []
        else:
            cursor = conn.execute(sql, params)
            rows = cursor.fetchall()
            cursor.close()  # a half-read cursor would keep the COMMIT from running
        if index == 0 and require_row and not rows:
            raise StaleGameError("the game changed since it was read; nothing was written")
        if index == rows_of:
            wanted = rows
    return wanted


async def run_transactions(db: aiosqlite.Connection, batch: list[tuple]) -> list:
    """Several transactions, each ``(statements, require_row, rows_of)`` as for
    :func:`run_in_transaction`, in one trip to the connection's thread and one commit.
    Each is whole or not at all (a savepoint of its own); gives each one's
    ``(True, rows)`` or ``(False, error)``."""
    return await db._execute(_transactions, db._conn, batch)


def _transactions(conn: sqlite3.Connection, batch: list[tuple]) -> list[tuple[bool, object]]:
    if len(batch) == 1:
        try:
            return [(True, _transaction(conn, *batch[0]))]
        except Exception as error:
            return [(False, error)]
    try:
        conn.execute("BEGIN IMMEDIATE")
    except Exception as error:  # busy: none of them can run
        return [(False, error)] * len(batch)
    outcomes: list[tuple[bool, object]] = []
    try:
        for statements, require_row, rows_of in batch:
            conn.execute("SAVEPOINT asked")
            try:
                outcomes.append((True, _statements(conn, statements, require_row, rows_of)))
            except Exception as error:
                if not conn.in_transaction:  # SQLite undid the whole batch: tell them all
                    raise
                conn.execute("ROLLBACK TO asked")
                outcomes.append((False, error))
            conn.execute("RELEASE asked")
        conn.execute("COMMIT")
    except Exception as error:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        return [(False, error)] * len(batch)
    return outcomes
