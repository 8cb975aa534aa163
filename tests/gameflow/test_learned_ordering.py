"""The classic board's board model through the game flow (issue 43): fitted from scratch
off the loop when a memory is read back, kept true after a reset and an import, refitted
after a game that taught, used at the learning level only, and shown by the brain."""

import json
import random
import threading

import pytest

import engine
from engine import get_game
from engine.ordering import BoardModel, fit_memory
from gameflow import memories as memories_module
from gameflow.brain_view import CLASSIC_WHY
from gameflow.memories import classic_facts
from tests.engine.test_classic_transport import learned_memory
from tests.gameflow.test_reviews import best_column

GUILD, CHANNEL, ALICE = 1, 10, 100
CLASSIC = "connect4-7x6"
RULES = get_game(CLASSIC)


async def store_random_facts(service, count: int, seed: int = 4) -> None:
    """``count`` facts of random play stored for GUILD in batches, as games store them
    (made up: the cache and the model read them, nothing checks them here)."""
    rng = random.Random(seed)
    facts: dict[int, tuple[str, int | None]] = {}
    while len(facts) < count:
        code = RULES.empty
        while options := RULES.moves(code):
            _move, code, key = rng.choice(options)
            facts.setdefault(key, (rng.choice(("win", "loss")), rng.choice((None, 7, 12))))
    rows = [(key, outcome, plies) for key, (outcome, plies) in facts.items()]
    for at in range(0, len(rows), 200):
        await service.store.add_facts(
            GUILD, classic_facts(CLASSIC, rows[at : at + 200]), game=CLASSIC, now=1.0
        )


@pytest.fixture(scope="module")
def proven():
    """A memory of proven facts: the rules and the post-mortems of a few games."""
    return learned_memory(games=8, seed=8)


async def store_memory(service, memory) -> None:
    rows = [
        (key, "win" if value == 1 else "loss", plies) for key, value, plies in memory.distances()
    ]
    await service.store.add_facts(GUILD, classic_facts(CLASSIC, rows), game=CLASSIC, now=1.0)


@pytest.fixture
def fits(monkeypatch):
    """The threads each fit from scratch ran in (the real fit runs: this only watches)."""
    threads = []
    real = memories_module.fitted

    def watched(entries, game):
        threads.append(threading.current_thread())
        return real(entries, game)

    monkeypatch.setattr(memories_module, "fitted", watched)
    return threads


async def test_a_memory_read_back_has_its_model_fitted_in_a_thread_once(service, fits):
    await store_random_facts(service, 5_000)
    first, second = (
        await service.memories.model(GUILD, CLASSIC),
        await service.memories.model(GUILD, CLASSIC),
    )
    assert first is second and len(fits) == 1
    assert threading.current_thread() not in fits
    memory = await service.memory(GUILD, CLASSIC)
    assert first.trained_on == len(memory) >= 5_000
    assert first.weights == fit_memory(memory).weights  # one memory, one model
    assert service.memories.held_model(GUILD, CLASSIC) is first
    # read back afresh (another process, a restart): the same model again
    service.memories.forget_server(GUILD)
    assert service.memories.held_model(GUILD, CLASSIC) is None
    again = await service.memories.model(GUILD, CLASSIC)
    assert again is not first and again.weights == first.weights and len(fits) == 2


async def test_other_games_have_no_model(service, fits):
    assert await service.memories.model(GUILD, "connect4") is None
    assert await service.memories.model(GUILD, "tictactoe") is None
    assert not fits


async def test_a_reset_and_an_import_fit_it_afresh_on_the_new_facts(service, fits):
    await store_random_facts(service, 3_000)
    trained = await service.memories.model(GUILD, CLASSIC)
    assert trained.trained_on >= 3_000
    await service.reset_memory(GUILD, CLASSIC)
    assert service.memories.held_model(GUILD, CLASSIC) is None
    blank = await service.memories.model(GUILD, CLASSIC)
    assert blank.trained_on == 0 and blank.weights == BoardModel().weights
    imported = learned_memory(games=4, seed=8)
    data = json.dumps(engine.export_memory(imported)).encode()
    plan = await service.brain.plan_import(GUILD, data, "replace", CLASSIC)
    await service.brain.apply_import(plan)
    assert service.memories.held_model(GUILD, CLASSIC) is None
    model = await service.memories.model(GUILD, CLASSIC)
    memory = await service.memory(GUILD, CLASSIC)
    assert model.trained_on == len(memory) == len(imported)
    assert model.weights == fit_memory(imported).weights
    assert len(fits) == 3 and threading.current_thread() not in fits


async def lose_to_a_perfect_player(service, level="learning"):
    turn = await service.start(GUILD, CHANNEL, ALICE, bot_first=True, game=CLASSIC, level=level)
    while turn.game.running:
        turn = await service.move(CHANNEL, ALICE, best_column(turn.game.moves))
    return turn


async def test_a_game_that_taught_refits_the_model_and_the_bot_says_where_it_chose(service, proven):
    await store_memory(service, proven)
    model = await service.memories.model(GUILD, CLASSIC)
    turn = await lose_to_a_perfect_player(service)
    assert turn.reviewing
    outcome = await service.review(turn.game.id)
    refitted = service.memories.held_model(GUILD, CLASSIC)
    memory = await service.memory(GUILD, CLASSIC)
    assert refitted is not model and refitted.trained_on > model.trained_on
    assert outcome.new_facts > 0 and len(memory) >= len(proven) + outcome.new_facts
    # the moves whose column the model chose, with its ranking at the time
    game = outcome.game
    assert game.suggested, "a fresh 7x6 game leaves columns open to the model"
    for ply, suggestion in game.suggested:
        assert ply % 2 == 0 and game.moves[ply] == suggestion.column  # the bot is X
        assert game.suggestion_at(ply) is suggestion
        assert suggestion.trained_on >= len(proven)
    assert game.suggestion_at(1) is None  # the player's move
    # said beside the post-mortem's verdict where its move was one of those: on the board
    # (cogs.play.review) and in the terminal (gameflow.words)
    from dataclasses import replace

    import discord

    from cogs.play.review import add_review
    from gameflow.reviews import ReviewOutcome
    from gameflow.words import suggested_text

    assert outcome.verdict is not None
    for ply, suggestion in game.suggested:
        verdict = replace(outcome.verdict, ply=ply)
        said = f"my lessons suggested column {suggestion.column + 1}."
        assert suggested_text(game, verdict).endswith(said)
        embed = add_review(
            discord.Embed(), game, ReviewOutcome(game, verdict, outcome.new_facts), done=True
        )
        assert said in embed.fields[-1].value
    unsuggested = replace(outcome.verdict, ply=1)
    assert suggested_text(game, unsuggested) is None


async def test_the_easier_levels_never_use_the_model(service, fits, proven):
    await store_memory(service, proven)
    turn = await lose_to_a_perfect_player(service, level="medium")
    assert not turn.game.suggested and not fits


async def test_the_brain_shows_the_models_ranking_where_no_column_is_known(service, proven):
    await store_memory(service, proven)
    model = await service.memories.model(GUILD, CLASSIC)
    rng, moves = random.Random(3), ()
    while True:  # a position where no column is known, nor decided by a rule
        moves = tuple(rng.randrange(7) for _ in range(6))
        board = engine.Board.from_moves(moves, game=CLASSIC)
        known = engine.outlook_plies(proven, board)
        if all(v is None for v in known.values()) and not any(RULES.lookahead(board.code)[:2]):
            break
    view = await service.brain.view(GUILD, moves, CLASSIC)
    assert view.trained_on == model.trained_on == len(proven)
    columns = [column for column, _chance in view.ranking]
    open_ = [c for c in range(7) if not RULES.lookahead(board.code)[2] >> c & 1]
    assert sorted(columns) == open_ and view.choice == columns[0]
    assert view.why is CLASSIC_WHY["lessons"] and str(view.why).startswith("the column my lessons")
    assert all(0 < chance < 1 for _column, chance in view.ranking)
    # /connect4 brain says the ranking and what it learned from (cogs.brain.render)
    from cogs.brain.render import brain_embed

    shown = brain_embed(view, "brain").description
    ranked = ", ".join([f"**{columns[0] + 1}**", *(str(c + 1) for c in columns[1:])])
    assert f"My lessons from {len(proven):,} proven positions of this server" in shown
    assert f"rank the open columns: {ranked}." in shown
    # a four to block: a rule decides, and the brain says so, with no ranking
    blocked = await service.brain.view(GUILD, (0, 6, 0, 6, 0), CLASSIC)
    assert blocked.choice == 0 and blocked.ranking == () and blocked.trained_on == 0
    assert "rank the open columns" not in brain_embed(blocked, "brain").description
