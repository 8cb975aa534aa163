"""Big memories for tests and benchmarks: lessons from games of random moves on both sides,
which reach far more positions than the bot's own play."""

from __future__ import annotations

import random

from engine import Memory, get_game


def learn_random_games(memory: Memory, games: int, rng: random.Random) -> Memory:
    rules = get_game(memory.game)
    for _ in range(games):
        code, moves = rules.empty, []
        while options := rules.moves(code):
            move, code, _key = rng.choice(options)
            moves.append(move)
        memory.learn(moves)
    return memory
