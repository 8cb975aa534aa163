"""/ttt brain: a private look inside the memory, agreeing with the engine."""

import random

import pytest

import engine
from engine import LOSS, WIN, Board
from tests.cogs.admin.test_brain_tools import imported, trained_document
from tests.cogs.play.test_games import play_line

SQUARES = {"🟩": WIN, "🚫": LOSS, "⬜": None}
MARKS = {"❌": "X", "⭕": "O"}


def read_view(result):
    """The embed's board back as (position, {free cell: outcome}) and the chosen cell."""
    assert result.ephemeral
    text = result.response.embeds[0].description
    symbols = [s for line in text.splitlines()[:3] for s in line.split()]
    assert len(symbols) == 9, text
    position = "".join(MARKS.get(s, ".") for s in symbols)
    known = {i: SQUARES[s] for i, s in enumerate(symbols) if s in SQUARES}
    choice = int(text.split("I would play **")[1].split("**")[0]) - 1
    return position, known, choice, text


async def test_anyone_may_look_at_the_channels_game_and_it_changes_nothing(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])  # the bot learns 3 (then 4) lose there
    await w.alice.slash(w.channel, "ttt play")
    await w.alice.slash(w.channel, "ttt move", cell=1)
    game = w.env.bot.service.running.running_game(w.channel.id)
    before = len(await w.env.bot.service.memory(w.guild.id))
    position, known, choice, text = read_view(await w.bob.slash(w.channel, "ttt brain"))
    assert position == game.board.position
    memory = await w.env.bot.service.memory(w.guild.id)
    assert known == engine.outlook(memory, game.board)
    assert choice == engine.choose_move(memory, game.board)
    assert "For ❌, the player to move" in text
    assert len(await w.env.bot.service.memory(w.guild.id)) == before


async def test_learned_facts_show_with_the_reason_for_the_choice(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])  # X 1, O 2, X 4, O 3, X 7: the bot (O) lost
    _, known, choice, text = read_view(await w.alice.slash(w.channel, "ttt brain", moves="1 2 4"))
    assert "For ⭕, the player to move" in text
    assert known[2] is LOSS  # O's move to 3 there lost
    assert choice == 4 and "the first cell not known to lose" in text
    _, known, choice, text = read_view(await w.alice.slash(w.channel, "ttt brain", moves="1 2 4 3"))
    assert known[6] is WIN and choice == 6 and "a proven win" in text


@pytest.mark.parametrize(
    ("moves", "says"),
    [
        ("5 x", "`x` is not a cell"),
        ("5 10", "`10` is not a cell"),
        ("5 5", "Cell 5 is played twice"),
        ("1 4 2 5 3 9", "over after 5 moves (X wins)"),
        ("1 4 2 5 3", "the game is over (X wins)"),
    ],
)
async def test_bad_moves_get_one_private_line(world, moves, says):
    result = await world.alice.slash(world.channel, "ttt brain", moves=moves)
    assert result.ephemeral and says in result.response.content
    assert not result.response.embeds


async def test_no_game_and_no_moves_says_what_to_give(world):
    result = await world.alice.slash(world.channel, "ttt brain")
    assert result.ephemeral and "`/ttt brain moves: 5 1 9`" in result.response.content


async def test_the_view_agrees_with_the_engine_on_every_free_cell_of_many_positions(world):
    w = world
    await imported(w, trained_document(400, seed=4))  # a memory that knows some, not all
    memory = await w.env.bot.service.memory(w.guild.id)
    rng = random.Random(3)
    for _ in range(25):
        board = Board()
        for _ in range(rng.randrange(1, 7)):
            board.push(rng.choice(board.legal_moves))
            if board.is_game_over():
                board.pop()
                break
        moves = " ".join(str(c + 1) for c in board.moves)
        result = await w.bob.slash(w.channel, "ttt brain", moves=moves)
        position, known, choice, _ = read_view(result)
        assert position == board.position
        assert known == engine.outlook(memory, board)
        assert choice == engine.choose_move(memory, board)
