"""The classic board's post-mortem where the bot is no member (a group DM with a member's
own install): its final board is edited with the lesson through the interaction's own
response, and nothing else is tried in that channel."""

import asyncio

from engine import get_game, solver
from tests.classic_board import LOOKING_BACK, classic_position, looking_back
from tests.fakediscord import User
from tests.test_user_installs import tried_to_reach

RULES = get_game("connect4-7x6")


async def test_a_group_dm_board_gets_its_lesson_through_the_interaction(fake, bot):
    group, ann = fake.group_dm(), User(4001, "ann")
    turn = await fake.answered(
        await fake.slash(ann, "connect4 play", group, board="7x6", first="bot")
    )
    while looking_back(turn.message) is None and "wins!" not in str(turn.message["embeds"]):
        column = solver.best_columns(RULES.parse(classic_position(turn.message)))[0] + 1
        turn = await fake.answered(await fake.slash(ann, "connect4 move", group, column=column))
        assert turn.kind == "message" and not turn.ephemeral, turn.text
    assert looking_back(turn.message) == LOOKING_BACK
    for _ in range(600):  # the worker starts, loads its book and looks back: a few seconds
        if looking_back(turn.message) != LOOKING_BACK:
            break
        await asyncio.sleep(0.05)
    assert looking_back(turn.message).startswith("At move ")  # the game's count of moves
    assert tried_to_reach(fake, group) == []
