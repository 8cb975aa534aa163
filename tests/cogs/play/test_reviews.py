"""The classic board's post-mortem through Discord (SimCord): the final board says it is
looking back while the solver runs in its worker, then is edited once with the lesson; and
after a loss the bot knows its answer to the member's other replies too."""

import re

import engine
from engine import Memory, get_game, solver
from gameflow.postmortem import WorkerGone
from tests.cogs.conftest import message_by_id
from tests.engine.test_classic import assert_proven
from tests.gameflow.test_reviews import best_column

CLASSIC = "connect4-7x6"
RULES = get_game(CLASSIC)
ALSO = "I also worked out my answer to each of your other replies there."


def review_field(message):
    return next((f.value for f in message.embeds[0].fields if f.name == "Looking back"), None)


async def test_a_lost_7x6_game_says_looking_back_then_the_lesson_in_one_edit(
    world, simcord_bot, monkeypatch
):
    w = world
    edits = []  # each edit of a board by the bot: the message as it was just before
    http = simcord_bot.http
    edit_message = http.edit_message

    async def edit_spied(channel_id, message_id, **fields):
        edits.append(review_field(next(m for m in w.channel.history() if m.id == message_id)))
        return await edit_message(channel_id, message_id, **fields)

    monkeypatch.setattr(http, "edit_message", edit_spied)
    await w.alice.slash(w.channel, "connect4 play", board="7x6", first="bot")
    while True:
        board = w.channel.last_message
        assert review_field(board) is None  # no post-mortem before the end
        running = simcord_bot.service.running.running_game(w.channel.id)
        moves, game_id = list(running.moves), running.id
        result = await w.alice.slash(w.channel, "connect4 move", column=best_column(moves))
        assert not result.ephemeral, result.response.content
        if simcord_bot.service.running.running_game(w.channel.id) is None:
            break
    await w.env.settle()
    final = w.channel.last_message
    # one edit of the final board, made while it said it was looking back
    assert edits == ["🔍 looking back at this game…"]
    lesson = review_field(final)  # in a line, its move counted as the game counts them
    assert lesson.startswith("At move ") and " and lost: column " in lesson
    played = re.search(r"I dropped in column (\d) and lost", lesson).group(1)  # the one it names
    assert lesson.endswith(f"I won't play column {played} there again. {ALSO}")
    assert "From there" not in lesson
    game = await simcord_bot.service.store.game(game_id)
    assert game.review == "done" and game.message_id == final.id


async def play_to_the_end(start, move, service):
    """Start a 7×6 game (the bot first) and beat it with perfect moves; the last answer."""
    result = await start()
    channel_id = result.response.message.channel.id
    while (running := service.running.running_game(channel_id)) is not None:
        result = await move(best_column(running.moves))
        assert not result.ephemeral, result.response.content
    return result


async def lose_a_classic_game(member, channel, service, env):
    """A 7×6 game in ``channel`` that the bot (first) loses to ``member``'s perfect moves,
    its post-mortem shown: the final board."""
    await play_to_the_end(
        lambda: member.slash(channel, "connect4 play", board="7x6", first="bot"),
        lambda column: member.slash(channel, "connect4 move", column=column),
        service,
    )
    await env.settle()
    return channel.last_message


async def test_a_game_in_a_dm_with_the_bot_gets_its_lesson_too(world, simcord_bot):
    alice = world.alice.user
    result = await play_to_the_end(
        lambda: alice.slash("connect4 play", board="7x6", first="bot"),
        lambda column: alice.slash("connect4 move", column=column),
        simcord_bot.service,
    )
    await world.env.settle()
    lesson = review_field(result.response.message)
    assert lesson is not None and lesson.startswith("At move ")


async def test_without_the_solver_the_final_board_says_it_learns_by_the_rules(world, simcord_bot):
    w = world
    simcord_bot.service.reviews.worker.available = False  # as TTT_SOLVER=off makes it
    await play_to_the_end(
        lambda: w.alice.slash(w.channel, "connect4 play", board="7x6", first="bot"),
        lambda column: w.alice.slash(w.channel, "connect4 move", column=column),
        simcord_bot.service,
    )
    await w.env.settle()
    final = w.channel.last_message
    assert review_field(final).startswith("No solver is installed here")
    assert not simcord_bot.service.reviews.worker.started


async def test_a_review_cut_short_by_a_restart_runs_again_and_edits_its_board(
    world, simcord_bot, new_bot
):
    w = world

    async def killed_midway(*args):
        raise WorkerGone("killed")  # each time: the review stays pending in the store

    simcord_bot.service.reviews.worker.post_mortem = killed_midway
    await play_to_the_end(
        lambda: w.alice.slash(w.channel, "connect4 play", board="7x6", first="bot"),
        lambda column: w.alice.slash(w.channel, "connect4 move", column=column),
        simcord_bot.service,
    )
    await w.env.settle()
    board = w.channel.last_message
    assert review_field(board).startswith("I couldn't look back at this game just now")
    restarted = new_bot()
    await w.env.restart_bot(restarted)
    assert len(restarted.service.reviews.recovered) == 1
    await w.env.settle()
    lesson = review_field(message_by_id(w.channel, board.id))
    assert lesson.startswith("At move ")
    assert await restarted.service.store.pending_reviews() == []


def brain_lines(result) -> list[str]:
    """The brain's line for each column, 1 to 7."""
    legend = result.response.embeds[0].description.split("\n\n")[1]  # under the board
    return [line for line in legend.splitlines() if line[:1].isdigit()]


async def test_after_a_loss_the_bot_knows_its_answer_to_a_reply_the_member_did_not_play(
    world, simcord_bot
):
    w = world
    await w.alice.slash(w.channel, "connect4 play", board="7x6", first="bot")
    moves = []
    while (running := simcord_bot.service.running.running_game(w.channel.id)) is not None:
        column = best_column(running.moves)
        await w.alice.slash(w.channel, "connect4 move", column=column)
        moves = [*running.moves, column - 1]
    await w.env.settle()
    assert review_field(w.channel.last_message).endswith(ALSO)
    # a reply alice did not play: the position it makes, where the game's own post-mortem
    # (unwidened) knows nothing of some column the solver decides
    narrow = Memory(game=CLASSIC)
    engine.learn(narrow, moves, bot=1, widen=False)
    codes = [RULES.empty, *RULES.replay(moves)[:-1]]
    deviation = None
    for ply in range(1, len(moves), 2):  # alice to move
        for column, child, _key in RULES.moves(codes[ply]):
            if column == moves[ply] or RULES.moves(child) is None:
                continue
            scores = solver.score_all(child)
            known = engine.outlook_plies(narrow, RULES.spell(child))
            if any(score and known[c] is None for c, score in scores.items()):
                deviation = ([*moves[:ply], column], scores)
                break
        if deviation:
            break
    assert deviation is not None
    deviated, scores = deviation
    brain = await w.alice.slash(
        w.channel, "connect4 brain", moves=" ".join(str(m + 1) for m in deviated)
    )
    lines = brain_lines(brain)
    assert len(lines) == 7
    for column, line in enumerate(lines):
        score = scores.get(column)
        if score is None:  # a draw, or a full column: nothing is kept
            assert not line.endswith("more move") and not line.endswith("more moves")
            continue
        word = "wins" if score[0] == "win" else "loses"
        assert line.endswith(f"{word} in {score[1]} more move" + ("s" if score[1] != 1 else ""))
    # and every fact it keeps is proven (by the independent solver too where it reaches)
    stored = await simcord_bot.service.store.load_facts(w.guild.id, CLASSIC)
    assert_proven(Memory.stored(stored, game=CLASSIC))
