"""How beatable is each level? ``python -m bench.levels``

A bot trained until nobody can beat it (tic-tac-toe, and Connect Four 4x4) plays at each
level of ``/ttt play level:`` (``gameflow.service.LEVELS``: a random legal move instead of
its choice at that rate) against two players: a random one, and one who plays, whenever
one exists, a move that keeps a forced win against the bot's own policy (the teacher,
who knows the bot's choices but not its dice). Prints how often each player wins.
"""

from __future__ import annotations

import argparse
import random

import engine
from bench._common import unbeatable
from engine import Board, Mark, Memory, winning_replies
from engine.policy import choose_code
from gameflow.service import LEVELS


def play(memory: Memory, rate: float, bot: Mark, teacher: bool, rng: random.Random) -> int:
    """1 if the player beat the bot, else 0."""
    board, game = Board(game=memory.game), memory.game

    def policy(code: int) -> int:
        return choose_code(memory, code)

    while not board.is_game_over():
        if board.turn is bot:
            move = (
                rng.choice(board.legal_moves)
                if rng.random() < rate
                else engine.choose_move(memory, board)
            )
        else:
            wins = winning_replies(policy, bot, board.code, game) if teacher else []
            move = wins[0] if wins else rng.choice(board.legal_moves)
        board.push(move)
    return int(board.winner is not None and board.winner is not bot)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{'game':10} {'level':9} {'rate':>5} {'random player wins':>19} {'teacher wins':>13}")
    for game in ("tictactoe", "connect4"):
        memory = unbeatable(game, args.seed)
        for level, rate in LEVELS.items():
            shares = []
            for teacher in (False, True):
                won = sum(
                    play(memory, rate, (Mark.X, Mark.O)[n % 2], teacher, rng)
                    for n in range(args.games)
                )
                shares.append(won / args.games)
            print(f"{game:10} {level:9} {rate:>5.0%} {shares[0]:>19.1%} {shares[1]:>13.1%}")


if __name__ == "__main__":
    main()
