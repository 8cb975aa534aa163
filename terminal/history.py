"""``python -m terminal history`` and ``replay``: your last finished games, and one of them
again, move by move, told as a replay in Discord tells it."""

from __future__ import annotations

import argparse
import time

from data import PastGame
from engine import Mark
from gameflow import Game, GameError, GameService
from gameflow.replays import ReplayStep
from gameflow.words import describe_learned, others_text, outcome_for, result_text
from i18n import ENGLISH

from .common import PLAYER, board_text, move_text, plural, say


def when(seconds: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(seconds))


def member_name(member_id: int | None) -> str:
    """A member of a Discord server's game; 0 or ``None``: one who asked to be forgotten."""
    return f"member {member_id}" if member_id else "a former member"


def who(game: Game, mark: Mark) -> str:
    """Who played ``mark``: "I" (the bot), "you" (against the bot), or a member."""
    member = game.member_playing(mark)
    if member is None:
        return "I"
    return "you" if game.vs_bot else member_name(member)


def object_of(subject: str) -> str:
    """A subject as an object: "me" for "I"."""
    return "me" if subject == "I" else subject


# how a game ended for the person at the terminal (gameflow.words.outcome_for)
OUTCOMES = {
    "won": "you won",
    "lost": "you lost",
    "draw": "a draw",
    "resigned": "you resigned",
    "abandoned": "abandoned",
}


HISTORY_COLUMNS = ("Ended", "Game", "How it ended", "Lessons")
HISTORY_WIDTHS = (16, 16, 21)  # the widest: "Connect Four 7×6", "you resigned (medium)"


def history_line(id_width: int, number: str, *cells: str) -> str:
    """A row of the history: a game's number, then its columns, in the widths above."""
    padded = [f"{cell:<{width}}" for cell, width in zip(cells, HISTORY_WIDTHS, strict=False)]
    return "  ".join([f"{number:>{id_width}}", *padded, *cells[len(HISTORY_WIDTHS) :]])


def past_game_cells(past: PastGame) -> tuple[str, str, str, str]:
    """One finished game: when it ended, which game, how it ended for you (and at which
    level, if easier), and how many of the lessons it taught are still known."""
    game = Game.from_record(past.game)
    result = OUTCOMES[outcome_for(game, PLAYER)]
    if not game.vs_bot:
        result += " vs a member"
    elif game.level != "learning":
        result += f" ({game.level})"
    return when(past.ended_at), game.rules.title, result, f"{past.lessons:,}"


async def history(service: GameService, server: int, games: list[str]) -> int:
    pasts = await service.replays.history(server, PLAYER, games)
    if not pasts:
        say("No finished games here yet: play one with python -m terminal play.")
        return 0
    print(f"{plural(len(pasts), 'finished game')} of yours here, newest first:")
    id_width = max(2, *(len(str(past.game.id)) for past in pasts))  # "ID" at least
    print(history_line(id_width, "ID", *HISTORY_COLUMNS))
    for past in pasts:
        print(history_line(id_width, str(past.game.id), *past_game_cells(past)))
    say("Watch one again: python -m terminal replay ID.")
    return 0


def ended_text(game: Game) -> str:
    """How a replayed game ended, told after its last move (as a replay in Discord tells
    it, with "you" or a member for a mention)."""
    return result_text(
        game, ENGLISH, lambda member: "You" if game.vs_bot else member_name(member).capitalize()
    )


def step_text(shown: ReplayStep) -> str:
    """Where a replay is, and who played what to get there."""
    game, mark = shown.game, shown.mover
    if shown.played is None:
        return f"The start: {mark.name} moves first ({object_of(who(game, mark))})."
    verb = "played" if game.rules.move_word == "cell" else "dropped in"
    where = move_text(game.rules, shown.played)
    return f"Move {shown.step} of {shown.total}: {who(game, mark)} {verb} {where}."


def show_step(shown: ReplayStep) -> None:
    """One position of a replay: the board, the move, what the bot learned there."""
    print()
    print(board_text(shown.board))
    told = [step_text(shown)]
    if shown.lesson is not None:
        told.append(describe_learned(shown.lesson, shown.game, ENGLISH))
    if shown.others:
        told.extend(others_text(shown.others, shown.game, ENGLISH))
    if shown.step == shown.total:
        told.append(ended_text(shown.game))
    for text in told:
        say(text)


async def replay(service: GameService, server: int, game_id: int) -> int:
    finished = await service.store.finished_game(game_id)
    if finished is None or finished.game.guild_id != server:
        raise GameError(
            f"There is no finished game {game_id} here: python -m terminal history lists "
            "them (add --server ID for a server's)."
        )
    first = await service.replays.at(finished, 0)
    game = first.game
    x, o = object_of(who(game, Mark.X)), object_of(who(game, Mark.O))
    told = (
        f"Game {game_id}, {game.rules.title}: {x} (X) vs {o} (O), "
        f"{plural(len(game.moves), 'move')}, ended {when(finished.ended_at)}."
    )
    say(told)
    if first.taught:  # where to go straight to: the moves that taught, the lesson first
        lesson = "" if first.marked is None else f"; the lesson: move {first.marked + 1}"
        moves = ", ".join(str(step) for step in first.taught)
        at = "move" if len(first.taught) == 1 else "moves"
        say(f"It taught me something at {at} {moves}{lesson}.")
    step = 0
    while True:
        shown = await service.replays.at(finished, step)
        show_step(shown)
        if step == shown.total:
            break
        try:
            typed = input("Enter: the next move, a number: that move, q: quit. ").strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave, as q does
            print()
            return 0
        if typed.lower() in ("q", "quit"):
            return 0
        # a move's number goes there (held to the game, as Discord's replay does)
        step = min(int(typed), shown.total) if typed.isdigit() else step + 1
    return 0


def game_number(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(
            f"replay takes a game's ID, as history shows it, not {text!r}"
        )
    return int(text)
