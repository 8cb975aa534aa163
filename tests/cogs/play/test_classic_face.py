"""The classic Connect Four board (7 columns × 6 rows) through Discord: the default of
``/connect4``, drawn with its last stone and its winning four, two rows of column
buttons, autocomplete 1–7, its stats (no count of the ways to beat the bot) and its
brain, and the levels. Every fact the bot keeps is judged by the exact solver (and by the
independent one where it can reach: see ``tests.engine.test_classic.assert_proven``)."""

import random
import sqlite3

import pytest

import engine
from engine import Board, Mark, Memory, get_game
from tests.cogs.play.test_connect4 import KEYCAPS, board_of, columns_of, drop, winning_squares
from tests.engine.test_classic import assert_proven

CLASSIC = "connect4-7x6"
# Alice (X, first) against the bot's day-one policy: it answers 4 on 4, takes 4 again,
# blocks 2 but cannot block both ends of 3 4 5 as well
WINNING_LINE = (4, 3, 5, 6)
BOT_REPLIES = (4, 4, 2)


def rows_of(message) -> list[list[str]]:
    return [line.split() for line in message.embeds[0].description.splitlines()[:6]]


async def memory_of(bot, guild_id: int) -> Memory:
    return await bot.service.memory(guild_id, CLASSIC)


@pytest.mark.parametrize("click", [False, True], ids=["slash", "buttons"])
async def test_the_default_board_is_7x6_won_with_its_last_stone_and_four_marked(
    world, simcord_bot, click
):
    w = world
    result = await w.alice.slash(w.channel, "connect4 play")
    message = result.response.message
    assert "Connect Four (7×6)" in message.embeds[0].title
    assert board_of(message, 7, 6) == "." * 42  # seven columns, keycaps 1–7 under them
    assert message.embeds[0].description.splitlines()[6].split() == KEYCAPS[:7]
    # seven buttons in two rows, 4 + 3: seven in one row are too narrow on a phone
    assert [len(row.children) for row in message.components] == [4, 3]
    assert sorted(columns_of(message)) == list(range(1, 8))
    for n, column in enumerate(WINNING_LINE):
        await drop(w, w.alice, column, click=click)
        board = w.channel.last_message
        if n < len(BOT_REPLIES):
            reply = BOT_REPLIES[n]
            assert f"I dropped in column {reply}" in board.embeds[0].description
            # the bot's stone, dropped last, is the top of its column and a heart
            top = next(row for row in rows_of(board) if row[reply - 1] != "⚪")
            assert top[reply - 1] == "💛"
            assert sum(row.count("💛") + row.count("❤️") for row in rows_of(board)) == 1
    final = w.channel.last_message
    assert board_of(final, 7, 6) == "." * 21 + "...O..." * 2 + ".OXXXX."
    assert "wins!" in final.embeds[0].description
    assert winning_squares(final, 6) == 4  # the winning four stand out, as on 4×4
    assert "💛" not in final.embeds[0].description  # the last stone is one of the four
    # short on a phone: the emoji board shows the end, with no seven dead buttons under it
    assert columns_of(final) == {} and len(final.components) == 1
    assert final.components[-1].children[0].label == "Rematch"
    assert_proven(await memory_of(simcord_bot, w.guild.id))


async def test_it_never_drops_a_stone_under_your_four_and_its_brain_says_why(world):
    """The bot opens in the centre and stacks it; alice (people's columns 4 4 2 2 1) builds
    a four that column 3 would hand her: the day-one default (3, the first free from the
    centre out) drops its stone right under it, the bot now plays 5 instead."""
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="7x6", first="bot")
    for column in (4, 4, 2, 2, 1):
        await drop(w, w.alice, column)
    board = w.channel.last_message
    assert "I dropped in column 5" in board.embeds[0].description
    rules = get_game(CLASSIC)
    before = Board.from_moves((3, 3, 3, 3, 3, 1, 3, 1, 2, 0), game=CLASSIC).code
    assert rules.fours(rules.play(before, 2), Mark.O) == [2]  # column 3 would hand her four
    brain = await w.alice.slash(w.channel, "connect4 brain", moves="4 4 4 4 4 2 4 2 3 1")
    text = brain.response.embeds[0].description
    assert (
        "I would play **column 5** here: the first column from the centre out not known to "
        "lose and with no four for you on top of it." in text
    )
    # late in a game, every free column (2, 3 and 7) lets the player to move make four on
    # top of it: then the first of them from the centre out, and the brain says so
    late = (3, 0, 5, 2, 5, 2, 3, 6, 3, 0, 5, 3, 1, 6, 4, 5, 2, 5, 3, 3, 0, 2, 4, 5, 0, 4)
    late += (4, 0, 4, 0, 4)
    code = Board.from_moves(late, game=CLASSIC).code
    assert rules.lookahead(code) == (None, None, 1 << 1 | 1 << 2 | 1 << 6)
    brain = await w.alice.slash(
        w.channel, "connect4 brain", moves=" ".join(str(m + 1) for m in late)
    )
    assert (
        "I would play **column 3** here: every column not known to lose lets you make four "
        "on top of it, so the first of them." in brain.response.embeds[0].description
    )


async def test_a_full_column_is_off_and_autocomplete_offers_the_free_ones_1_to_7(world):
    w = world
    await w.alice.slash(w.channel, "connect4 play")
    offered = await w.alice.autocomplete(w.channel, "connect4 move", "column", "")
    assert [c["value"] for c in offered] == [1, 2, 3, 4, 5, 6, 7]
    assert offered[0]["name"] == "column 1"  # its number once
    for _ in range(3):  # alice and the bot (centre first) fill column 4
        await drop(w, w.alice, 4)
    board = w.channel.last_message
    columns = columns_of(board)
    assert columns[4]["disabled"] and not any(columns[c]["disabled"] for c in (1, 2, 3, 5, 6, 7))
    offered = await w.alice.autocomplete(w.channel, "connect4 move", "column", "")
    assert [c["value"] for c in offered] == [1, 2, 3, 5, 6, 7]
    typed = await w.alice.autocomplete(w.channel, "connect4 move", "column", "7")
    assert [c["value"] for c in typed] == [7]
    refused = await w.alice.slash(w.channel, "connect4 move", column=4)
    assert refused.ephemeral
    assert "Column 4 is full. Free columns: 1, 2, 3, 5, 6, 7." in refused.response.content
    refused = await w.alice.slash(w.channel, "connect4 move", column=8)
    assert refused.ephemeral and "There is no column 8" in refused.response.content
    assert w.channel.last_message.id == board.id  # nothing posted


async def test_the_minis_keep_their_boards_and_their_own_memories(world, simcord_bot):
    w = world
    for board, width in (("4x4", 4), ("5x4", 5)):
        result = await w.alice.slash(w.channel, "connect4 play", board=board)
        message = result.response.message
        assert board_of(message, width) == "." * width * 4
        assert [len(row.children) for row in message.components] == [width]  # one row
        await w.alice.slash(w.channel, "connect4 resign")
    mini = await simcord_bot.service.memory(w.guild.id, "connect4")
    for _ in range(4):  # alice stacks column 2 on 4x4 and wins: only 4x4 learns
        if simcord_bot.service.running.running_game(w.channel.id) is None:
            await w.alice.slash(w.channel, "connect4 play", board="4x4")
        await drop(w, w.alice, 2)
    assert len(mini) > 0 and len(await memory_of(simcord_bot, w.guild.id)) == 0


async def test_stats_on_7x6_tell_lessons_by_source_and_recent_losses_not_ways_to_beat(
    world, simcord_bot, pictures
):
    from cogs.pictures.chart import figure

    w = world
    empty = await w.alice.slash(w.channel, "connect4 stats")
    fields = {f.name: f.value for f in empty.response.embeds[0].fields}
    assert "Connect Four (7×6)" in empty.response.embeds[0].title
    assert fields["Lately"] == "no game against me yet"
    await w.alice.slash(w.channel, "connect4 play")
    for column in WINNING_LINE:
        await drop(w, w.alice, column)
    await w.alice.slash(w.channel, "connect4 play", first="bot")
    await w.alice.slash(w.channel, "connect4 resign")  # a win for the bot
    memory = await memory_of(simcord_bot, w.guild.id)
    with_plies = sum(1 for _, _, plies in memory.distances() if plies is not None)
    await pictures.started()
    stats = await w.alice.slash(w.channel, "connect4 stats", board="7x6")
    embed = stats.response.embeds[0]
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Lessons learned"] == f"{len(memory):,}" and len(memory) > 0
    assert fields["Where they came from"] == (
        f"{with_plies:,} from looking back at games, {len(memory) - with_plies:,} by the rules"
    )
    # from the players' side, as the record beside it ("2 games against me: 1 win, …")
    assert fields["Lately"] == "members won 1 of the last 2 games"
    assert not any("When I play" in name or "beat" in value for name, value in fields.items())
    assert "2 games" in fields["This server"]
    assert embed.image.url == "attachment://learning-curve.png"
    # the curve's bottom: losses per 50 games, not ways to beat
    losses = await simcord_bot.service.scoreboard.losses_by_block(w.guild.id, CLASSIC)
    assert losses == [(2, 1)]
    points = await simcord_bot.service.scoreboard.curve(w.guild.id, CLASSIC)
    assert points and all(p.beat_x is None and p.beat_o is None for p in points)
    bottom = figure(points, "curve", losses=losses).axes[1]
    # two games: not yet a block of 50, so the line is what it is, the losses so far
    assert bottom.get_ylabel() == "my losses so far" and bottom.get_legend() is None
    losses_line, _ = bottom.get_lines()
    assert (
        losses_line.get_xydata().tolist() == [[0, 1], [2, 1]]
        and losses_line.get_drawstyle() == "steps-pre"
    )


async def test_the_brain_on_7x6_gives_each_column_its_proof_and_distance(world, simcord_bot):
    w = world
    await w.alice.slash(w.channel, "connect4 play")
    for column in WINNING_LINE:
        await drop(w, w.alice, column)
    memory = await memory_of(simcord_bot, w.guild.id)
    # what the post-mortem of this game stores (run here, whenever the bot runs it)
    facts = engine.post_mortem(CLASSIC, (3, 3, 2, 3, 4, 1, 5), bot=Mark.O)
    engine.apply_post_mortem(memory, facts)
    before = len(memory)
    # the position where the bot blocked column 2 and lost: every column there is proven
    result = await w.alice.slash(w.channel, "connect4 brain", moves="4 4 3 4 5")
    assert result.ephemeral
    text = result.response.embeds[0].description
    legend = text.split("\n\n")[1]  # under the board
    lines = [line for line in legend.splitlines() if line[:1].isdigit()]
    assert [line.split()[0] for line in lines] == KEYCAPS[:7]  # column by column, 1 to 7
    board = Board.from_moves((3, 3, 2, 3, 4), game=CLASSIC)
    rules = get_game(CLASSIC)
    for column, line in enumerate(lines):
        key = next(k for move, _, k in rules.moves(board.code) if move == column)
        known, plies = memory.known(key), memory.plies(key)
        if not known:
            assert line.endswith("⬜ unknown")
        elif plies is None:
            assert line.endswith(("🟩 a proven win", "🚫 a proven loss"))
        else:
            word = "wins" if known == 1 else "loses"
            assert line.endswith(f"{word} in {plies} more move" + ("s" if plies != 1 else ""))
    assert lines[0].endswith("🚫 loses in 1 more move")  # alice threatens both ends
    assert "I would play **column 2** here: it blocks a four." in text
    assert "Columns: 1 on the left, 7 on the right." in result.response.embeds[0].footer.text
    fresh = await w.alice.slash(w.channel, "connect4 brain", moves="")
    assert fresh.ephemeral
    # alice opened in 4: the widened post-mortem also worked out the bot's answer to her
    # opening in 1 instead (every column there proven, the centre the fastest win)
    opening = await w.alice.slash(w.channel, "connect4 brain", moves="1")
    assert "**column 4** here: the fastest proven win" in opening.response.embeds[0].description
    assert "⬜ unknown" not in opening.response.embeds[0].description
    unseen = await w.alice.slash(w.channel, "connect4 brain", moves="1 1")  # two off the game
    assert "not known to lose" in unseen.response.embeds[0].description  # centre out
    assert "**column 4**" in unseen.response.embeds[0].description
    bad = await w.alice.slash(w.channel, "connect4 brain", moves="8")
    assert bad.ephemeral and "Give columns 1 to 7" in bad.response.content
    assert len(memory) == before  # looking changes nothing


@pytest.mark.parametrize("level", ["easy", "medium"])
async def test_levels_on_7x6_play_at_random_now_and_then_and_still_learn_true(
    world, db_path, simcord_bot, level
):
    w = world
    simcord_bot.service.dice = random.Random(7)
    service, random_replies, games = simcord_bot.service, 0, 0
    while random_replies == 0 or games < 2:
        started = await w.alice.slash(w.channel, "connect4 play", level=level)
        assert f"{level} level" in started.response.message.embeds[0].title
        assert "Connect Four (7×6)" in started.response.message.embeds[0].title
        games += 1
        while (running := service.running.running_game(w.channel.id)) is not None:
            memory = await memory_of(simcord_bot, w.guild.id)
            pick = sorted(running.board.legal_moves)[0]  # alice plays the leftmost column
            after = Board.from_moves((*running.moves, pick), game=CLASSIC)
            best = None if after.is_game_over() else engine.choose_move(memory, after)
            await drop(w, w.alice, pick + 1)
            now = service.running.running_game(w.channel.id)
            if now is not None and best is not None and now.moves[-1] != best:
                random_replies += 1
        await w.env.advance_time(61)  # a minute's allowance of public posts
    assert_proven(await memory_of(simcord_bot, w.guild.id))
    with sqlite3.connect(db_path) as db:
        levels = {
            row[0] for row in db.execute("SELECT level FROM games WHERE game = ?", (CLASSIC,))
        }
    assert levels == {level}
    stats = await w.alice.slash(w.channel, "connect4 stats")
    mine = next(f.value for f in stats.response.embeds[0].fields if f.name.startswith("You"))
    assert f"\n{level}: " in mine


async def test_a_7x6_memory_change_tells_lessons_and_no_count_of_ways_to_beat():
    """What reset, import and training say of a 7×6 memory: nobody can count the ways to
    beat the bot there, so no count is asked of the engine (it refuses), nor shown."""
    from cogs.admin.render import brain_change_text
    from gameflow import BrainFigures

    memory = Memory(game=CLASSIC)
    engine.learn(memory, (3, 3, 2, 3, 4, 1, 5), bot=Mark.O)
    before = await BrainFigures.counted(Memory(game=CLASSIC))
    after = await BrainFigures.counted(memory)
    assert (after.lessons, after.ways_to_beat_as_x, after.ways_to_beat_as_o) == (
        len(memory),
        None,
        None,
    )
    assert len(memory) > 0 and after.snapshot().beat_x is None
    text = brain_change_text(before, after, CLASSIC)
    assert text == f"Lessons: 0 → **{len(memory):,}**"
