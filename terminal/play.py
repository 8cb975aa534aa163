"""``python -m terminal play``: a game against the bot, and on the classic board its
post-mortem, told in a sentence or two."""

from __future__ import annotations

import engine
from gameflow import GameError, GameService, Turn
from gameflow.words import suggested_text, verdict_text

from .common import PLAYER, board_text, channel_of, error_text, move_text, plural, say


def show(turn: Turn) -> None:
    if turn.bot_cell is not None:
        verb = "play" if turn.game.rules.move_word == "cell" else "drop in"
        print(f"I {verb} {move_text(turn.game.rules, turn.bot_cell)}.")
    print(board_text(turn.game.board))


ENDINGS = {
    "player_won": "You win! I'll learn from this.",
    "bot_won": "I win.",
    "draw": "It's a draw.",
    "resigned": "You resigned.",
    "abandoned": "Game abandoned.",
}


async def play(service: GameService, server: int, first: str, game: str) -> int:
    channel = channel_of(server)
    try:
        turn = await service.start(server, channel, PLAYER, bot_first=first == "bot", game=game)
    except GameError:  # a game left from an earlier session: go on with it
        running = service.running.running_game(channel)
        turn = Turn(running, memory_size=len(await service.memory(server, running.kind)))
        print(f"Your earlier game of {running.rules.title} goes on.")
    rules = turn.game.rules
    word, count = rules.move_word, rules.move_count
    print(f"You are {turn.game.player_mark.name}. I know {turn.memory_size} lessons.")
    show(turn)
    while turn.game.running:
        try:
            typed = input(f"Your {'move' if word == 'cell' else word} (1-{count}, q to quit): ")
            typed = typed.strip()
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave, as q does
            print()
            typed = "q"
        if typed.lower() in ("q", "quit"):
            await service.end_game(channel, PLAYER, guild_id=server)
            say("Bye: the game was abandoned, and nothing was learned from it.")
            return 0
        if not typed.isdigit():
            say(f"{typed!r} is not a {word}: type a number from 1 to {count}.")
            continue
        try:
            turn = await service.move(channel, PLAYER, int(typed))
        except GameError as error:
            say(error_text(error))
            continue
        show(turn)
    print(ENDINGS[turn.game.result])
    for lesson in turn.lessons:
        whose = "my" if lesson.player is turn.game.bot_mark else "your"
        where = ("to " if rules.move_word == "cell" else "in ") + move_text(rules, lesson.cell)
        say(
            f"Learned: {position_text(turn.game.moves[: lesson.ply])}, {whose} move {where} "
            f"is a {lesson.outcome.value}."
        )
    await look_back(service, turn)
    return 0


async def look_back(service: GameService, turn: Turn) -> None:
    """The classic board's post-mortem of a game the bot did not win, as the game flow
    runs it (the solver in its worker process), told in a sentence or two."""
    game = turn.game
    if service.reviews.rules_only(game):
        say("No solver on this machine: on this board I learn by the rules alone.")
    if not turn.reviewing:
        return
    print("🔍 Looking back at this game…")
    outcome = await service.review(game.id)
    if outcome is None:
        say("I couldn't look back at this game now; I will at the next start.")
        return
    say(lesson_text(outcome.verdict, outcome.new_facts))
    if outcome.verdict is not None and (told := suggested_text(outcome.game, outcome.verdict)):
        say(told)
    if outcome.verdict is not None:  # the replay's step of that number shows the move
        server = f" --server {game.guild_id}" if game.guild_id else ""
        step = outcome.verdict.ply + 1
        say(f"See it again: python -m terminal replay {game.id}{server}, then type {step}.")


def lesson_text(verdict: engine.Verdict | None, new: int) -> str:
    """The post-mortem's lesson as the board in Discord says it (its move counted as the
    game counts them: the replay's step), with how far the win was from there."""
    learned = f" ({plural(new, 'new lesson')}.)"
    if verdict is None:
        return f"I looked back: no other column of mine would have done better.{learned}"
    # as on the board: the widened post-mortem valued each reply the player did not play
    learned = f" I also worked out my answer to each of your other replies there.{learned}"
    if verdict.played == "draw":
        return f"I looked back. {verdict_text(verdict)} I won't miss it there again.{learned}"
    return (
        f"I looked back. {verdict_text(verdict)} From there you could force a win in "
        f"{plural(verdict.opponent_moves, 'move')}. I won't play it there again.{learned}"
    )


LISTED_MOVES = 6  # a longer game's position is named by its length and its last moves
LAST_MOVES = 3


def position_text(moves: tuple[int, ...]) -> str:
    """The position a lesson is about, by the moves that led to it: "after 1, 4 and 2";
    after a long game, "after 13 moves (… 4, 3 and 3)"."""
    if not moves:
        return "on the empty board"
    names = [str(move + 1) for move in moves]
    shown = names if len(names) <= LISTED_MOVES else names[-LAST_MOVES:]
    listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
    return f"after {listed}" if shown is names else f"after {len(names)} moves (… {listed})"
