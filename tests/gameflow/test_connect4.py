"""Connect Four through the game flow: the same service, store and memory cache as
tic-tac-toe, each server with a memory, counters and curve per game. Every fact learned is
judged by the exact solver."""

import random

import pytest

from gameflow import GameError
from tests.engine.connect4_oracle import solver
from tests.gameflow.test_service import reopen

GUILD, CHANNEL, OTHER_CHANNEL, ALICE, BOB = 1, 10, 11, 100, 200
FOUR = "connect4"


def assert_true_by_the_solver(memory) -> None:
    judge = solver(memory.game.width, memory.game.height)
    assert all(f.outcome.value == judge.true_outcome(f.position) for f in memory)


async def test_a_connect4_game_is_played_by_columns_won_learned_and_kept(service, tmp_path):
    turn = await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game=FOUR)
    assert turn.game.kind == FOUR and turn.game.command == "/connect4"
    # Alice stacks column 2; the naive bot takes the leftmost column each time
    for _ in range(3):
        turn = await service.move(CHANNEL, ALICE, 2)
        assert turn.bot_cell == 0
    turn = await service.move(CHANNEL, ALICE, 2)
    assert turn.game.result == "player_won" and turn.lessons
    assert turn.game.board.position == ".X..OX..OX..OX.."
    memory = await service.memory(GUILD, FOUR)
    assert len(memory) == len(turn.lessons) and memory.game.name == FOUR
    assert len(await service.memory(GUILD)) == 0  # tic-tac-toe's memory knows nothing of it
    assert_true_by_the_solver(memory)
    fresh = await reopen(service, tmp_path)
    assert await fresh.memory(GUILD, FOUR) == memory
    assert (await fresh.scoreboard.record(GUILD, game=FOUR)).bot_losses == 1
    assert (await fresh.scoreboard.record(GUILD)).games == 0
    stats = await fresh.scoreboard.stats(GUILD, ALICE, game=FOUR)
    assert stats.facts == len(memory) and stats.player.bot_losses == 1
    top, _ = await fresh.scoreboard.leaderboard(GUILD, ALICE, "lessons", game=FOUR)
    assert [(s.player_id, s.lessons) for s in top] == [(ALICE, len(memory))]
    (point,) = await fresh.scoreboard.curve(GUILD, game=FOUR)
    assert point.lessons == len(memory)
    await fresh.store.close()


@pytest.mark.parametrize(
    ("column", "says"),
    [(5, "There is no column 5. Pick a free column from 1 to 4"), (0, "no column 0")],
)
async def test_a_column_out_of_range_is_refused_and_changes_nothing(service, column, says):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game=FOUR)
    with pytest.raises(GameError, match=says):
        await service.move(CHANNEL, ALICE, column)
    assert service.running.running_game(CHANNEL).moves == ()


async def test_a_full_column_is_refused_naming_the_free_ones(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game=FOUR)
    await service.move(CHANNEL, ALICE, 1)  # the bot answers in column 1 too
    await service.move(CHANNEL, ALICE, 1)
    with pytest.raises(GameError, match=r"Column 1 is full\. Free columns: 2, 3, 4\."):
        await service.move(CHANNEL, ALICE, 1)
    assert service.running.running_game(CHANNEL).moves == (0, 0, 0, 0)


async def test_one_game_per_channel_across_both_games(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game=FOUR)
    with pytest.raises(GameError, match=r"have a game of Connect Four \(4×4\).*/connect4"):
        await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    with pytest.raises(GameError, match="already playing in this channel"):
        await service.start(GUILD, CHANNEL, BOB, bot_first=False)
    # a tic-tac-toe move into a Connect Four game is refused, and the reverse
    with pytest.raises(GameError, match=r"is Connect Four \(4×4\): play it with `/connect4 move`"):
        await service.move(CHANNEL, ALICE, 1, command="/ttt")
    await service.start(GUILD, OTHER_CHANNEL, BOB, bot_first=False)
    with pytest.raises(GameError, match=r"is Tic-tac-toe: play it with `/ttt move`"):
        await service.move(OTHER_CHANNEL, BOB, 1, command="/connect4")
    with pytest.raises(GameError, match=r"Start one with `/connect4 play`"):
        await service.move(99, BOB, 1, command="/connect4")


async def test_the_bot_moving_first_plays_the_leftmost_column(service):
    turn = await service.start(GUILD, CHANNEL, ALICE, bot_first=True, game="connect4-5x4")
    assert turn.game.moves == (0,) and turn.game.board.position.count("X") == 1


async def test_a_game_between_members_is_watched_and_every_lesson_is_true(service):
    challenge = await service.challenges.issue(GUILD, CHANNEL, ALICE, BOB, "me", game=FOUR)
    assert challenge.game == FOUR
    turn = await service.challenges.accept(challenge.id, BOB)
    assert turn.game.kind == FOUR and not turn.game.vs_bot
    for column, member in [(1, ALICE), (2, BOB), (1, ALICE), (2, BOB), (1, ALICE), (3, BOB)]:
        turn = await service.move(CHANNEL, member, column)
    turn = await service.move(CHANNEL, ALICE, 1)
    assert turn.game.result == "player_won" and turn.lessons
    memory = await service.memory(GUILD, FOUR)
    assert_true_by_the_solver(memory)
    assert (await service.scoreboard.records(GUILD, BOB, game=FOUR))[1].lost == 1


async def test_many_games_teach_only_true_facts_on_both_boards(service):
    rng = random.Random(4)
    for game in (FOUR, "connect4-5x4"):
        for n in range(30):
            await service.start(GUILD, CHANNEL, ALICE, bot_first=n % 2 == 1, game=game)
            while (running := service.running.running_game(CHANNEL)) is not None:
                await service.move(CHANNEL, ALICE, rng.choice(running.board.legal_moves) + 1)
        memory = await service.memory(GUILD, game)
        assert len(memory) > 30
        assert_true_by_the_solver(memory)


async def test_a_reset_of_one_game_leaves_the_other_alone(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game=FOUR)
    for _ in range(4):
        await service.move(CHANNEL, ALICE, 2)
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    for cell in (1, 4, 7):
        await service.move(CHANNEL, ALICE, cell)
    tic = len(await service.memory(GUILD))
    assert tic and await service.reset_memory(GUILD, FOUR) > 0
    assert len(await service.memory(GUILD, FOUR)) == 0
    assert len(await service.memory(GUILD)) == tic


async def test_brain_view_export_and_import_per_game(service):
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game=FOUR)
    for _ in range(4):
        await service.move(CHANNEL, ALICE, 2)
    view = await service.brain.view(GUILD, (1, 0, 1, 0, 1), FOUR)
    assert view.choice == 1 and "proven win" not in str(view.why)  # it blocks column 2
    judge = solver(4, 4)
    for move, outcome in view.outlook.items():  # what it claims is true
        if outcome is not None:
            board = view.board.copy()
            board.push(move)
            assert judge.true_outcome(board.position) == outcome.value
    document = await service.brain.export(GUILD, FOUR)
    assert document["game"] == FOUR and document["board"] == "4x4"
    import json

    data = json.dumps(document).encode()
    with pytest.raises(GameError, match="Connect Four 4×4 memory, not a Tic-tac-toe"):
        await service.brain.plan_import(GUILD, data, "merge")
    with pytest.raises(GameError, match="not a Connect Four 5×4"):
        await service.brain.plan_import(GUILD, data, "merge", "connect4-5x4")
    plan = await service.brain.plan_import(GUILD + 1, data, "merge", FOUR)
    await service.brain.apply_import(plan)
    assert await service.memory(GUILD + 1, FOUR) == await service.memory(GUILD, FOUR)


async def test_on_5x4_a_game_adds_lessons_to_the_curve_and_stats_count_the_ways_to_beat(service):
    """5x4's tree is too large to search after every game: its curve gets the lessons and
    no count; stats count the ways to beat it (off the event loop), and so does a training."""
    import engine
    from engine import Mark

    await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game="connect4-5x4")
    for _ in range(4):
        turn = await service.move(CHANNEL, ALICE, 3)
    assert turn.game.result == "player_won" and turn.lessons
    (point,) = await service.scoreboard.curve(GUILD, "connect4-5x4")
    assert point.lessons == len(turn.lessons) and point.beat_x is None and point.beat_o is None
    stats = await service.scoreboard.stats(GUILD, ALICE, "connect4-5x4")
    memory = await service.memory(GUILD, "connect4-5x4")
    assert stats.beatable_as_x.losing_lines == engine.analyse(memory, Mark.X).losing_lines > 0
    assert stats.beatable_as_o.losing_lines == engine.analyse(memory, Mark.O).losing_lines > 0
    # 4x4 is searched after every game, as tic-tac-toe is
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False, game=FOUR)
    for _ in range(4):
        await service.move(CHANNEL, ALICE, 2)
    (four,) = await service.scoreboard.curve(GUILD, FOUR)
    assert four.beat_x == engine.analyse(await service.memory(GUILD, FOUR), Mark.X).losing_lines
