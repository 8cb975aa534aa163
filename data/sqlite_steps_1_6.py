"""SQLite's schema versions 1 to 6, the tic-tac-toe years (shipped: never edited). The
later ones, and the whole history, are in ``data/sqlite_steps.py``."""

# Each entry moves the schema from version i to i + 1: statements run in one transaction.
EARLY: tuple[tuple[str, ...], ...] = (
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
)
