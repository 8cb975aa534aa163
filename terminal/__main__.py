"""Play and manage the bot from a terminal, with no Discord token (seed 001's console game).

python -m terminal play                  a game against this memory (you move first)
python -m terminal play --first bot      the bot moves first
python -m terminal --game connect4 play  Connect Four 4x4 (or connect4-5x4, or the classic
                                         connect4-7x6); every command takes --game,
                                         tictactoe by default
python -m terminal train random 100000   train: random, self or teacher, 1 to 1,000,000
python -m terminal stats                 the record, the lessons, the ways to beat it
python -m terminal export memory.json    the memory as a ttt-memory file
python -m terminal import memory.json    load one (--replace to take it instead; --yes)
python -m terminal history               your last finished games, every board unless
                                         --game names one
python -m terminal replay 12             game 12 again, move by move (Enter, q to quit)

Everything goes through the same game flow and database as the bot (``.env`` and
``DATABASE_PATH`` as for ``python bot.py``). ``--server ID`` works on a Discord server's
memory; without it, on the terminal's own (server 0). Each game has its own memory.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import signal
import sys
import textwrap
import time
from pathlib import Path

from dotenv import load_dotenv

import engine
from bot import HOME, ConfigError, Settings, fail
from cogs.render.replay import describe_learned, others_text, outcome_for, result_text
from data import PastGame, SchemaTooNewError, Store, StoreOpenError
from engine import Mark
from gameflow import BrainFigures, Game, GameError, GameService, Turn
from gameflow.replays import ReplayStep, replay_step
from gameflow.training import MAX_GAMES, OPPONENTS, TrainingProgress
from i18n import ENGLISH

PLAYER = 0  # the person at the terminal
TICTACTOE = "tictactoe"


def plural(count: int, noun: str) -> str:
    """The terminal speaks English (Discord's words are in :mod:`i18n`'s catalogs)."""
    return f"{count:,} {noun}{'s' * (count != 1)}"


def channel_of(server: int) -> int:
    """The terminal's own "channel" in a server: negative, so no Discord id can collide."""
    return -1 - server


def board_text(board: engine.Board) -> str:
    """Tic-tac-toe as seed 001 draws it: marks on taken cells, numbers on free ones.
    Connect Four: rows from the top, ``.`` for a hole, the column numbers under them."""
    rules = board.game
    if rules.move_word == "cell":
        cells = [board.cell(i).name if board.cell(i) else str(i + 1) for i in range(9)]
        return "\n".join(" ".join(cells[r : r + 3]) for r in (0, 3, 6))
    position, width = board.position, rules.width
    rows = [" ".join(position[r : r + width]) for r in range(0, len(position), width)]
    return "\n".join([*rows, " ".join(str(c + 1) for c in range(width))])


def move_text(rules: engine.Game, move: int) -> str:
    return f"{move + 1}" if rules.move_word == "cell" else f"column {move + 1}"


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
        running = service.running_game(channel)
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
            print("Bye: the game was abandoned, and nothing was learned from it.")
            return 0
        if not typed.isdigit():
            print(f"{typed!r} is not a {word}: type a number from 1 to {count}.")
            continue
        try:
            turn = await service.move(channel, PLAYER, int(typed))
        except GameError as error:
            print(error_text(error))
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
        print("No solver on this machine: on this board I learn by the rules alone.")
    if not turn.reviewing:
        return
    print("🔍 Looking back at this game…")
    outcome = await service.review(game.id)
    if outcome is None:
        print("I couldn't look back at this game now; I will at the next start.")
        return
    say(lesson_text(outcome.verdict, outcome.new_facts))


def lesson_text(verdict: engine.Verdict | None, new: int) -> str:
    learned = f" ({plural(new, 'new lesson')}.)"
    if verdict is None:
        return f"I looked back: no other column of mine would have done better.{learned}"
    move = f"my move {verdict.move_number} (column {verdict.column + 1})"
    if verdict.played == "draw":
        return (
            f"I looked back: {move} let a win go; column {verdict.held + 1} would have won. "
            f"I won't miss it there again.{learned}"
        )
    held = "won" if verdict.held_outcome == "win" else "held"
    return (
        f"I looked back: {move} lost, and column {verdict.held + 1} would have {held}. "
        f"From there you could force a win in {plural(verdict.opponent_moves, 'move')}. "
        f"I won't play it there again.{learned}"
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


def columns() -> int:
    """The terminal's width (80 when it cannot tell), less one: a line that fills the last
    column wraps on some terminals, and a wrapped bar cannot redraw in place."""
    return shutil.get_terminal_size((80, 24)).columns - 1


BAR = (10, 30)  # the progress bar's narrowest and widest


def progress_line(p: TrainingProgress, width: int | None = None) -> str:
    """The bar and its figures on one line of at most ``width`` characters (the terminal's),
    redrawn in place: the bar narrows first, then the least needed figures go."""
    width = columns() if width is None else width
    figures = [f"{p.played:,}/{p.games:,} games", f"{p.learned:,} new lessons"]
    if p.state == "running" and p.seconds_left:
        figures.append(f"{p.seconds_left:,.0f} s left")
    figures.append(f"{p.games_per_second:,.0f} games/s")
    while True:
        text = " · ".join(figures)
        bar = min(BAR[1], width - len(text) - 1)
        if bar >= BAR[0] or len(figures) == 1:
            break
        figures.pop()  # the speed first, then the time left, then the lessons
    bar = max(bar, 0)
    filled = round(bar * p.played / p.games)
    line = f"{'█' * filled}{'░' * (bar - filled)} {text}"[:width]
    return f"\r{line.ljust(width)}"  # spaces over what a longer line left


def say(text: str) -> None:
    """A line of output, wrapped at the terminal's width."""
    print(textwrap.fill(text, columns(), break_on_hyphens=False))


def change_text(before: BrainFigures, after: BrainFigures) -> str:
    if after.ways_to_beat_as_x is None:  # the classic board: no exhaustive search
        return f"lessons {before.lessons:,} → {after.lessons:,}"
    return (
        f"lessons {before.lessons:,} → {after.lessons:,}; ways to beat me as X "
        f"{before.ways_to_beat_as_x:,} → {after.ways_to_beat_as_x:,}, as O "
        f"{before.ways_to_beat_as_o:,} → {after.ways_to_beat_as_o:,}"
    )


async def train(service: GameService, server: int, opponent: str, games: int, game: str) -> int:
    run = await service.trainer.start(server, channel_of(server), PLAYER, opponent, games, game)
    progress = None
    try:
        async for progress in run.updates():
            print(progress_line(progress), end="", flush=True)
    except (KeyboardInterrupt, asyncio.CancelledError):
        run.cancel(PLAYER)  # Ctrl-C: what was saved stays
        print("\nCancelled: the lessons shown were saved.")
        return 1
    print()
    say(f"Done: {change_text(progress.before, progress.after)}.")
    return 0


async def stats(service: GameService, server: int, game: str) -> int:
    record = await service.record(server, game=game)
    figures = await service.brain.figures(server, game)
    say(
        f"{plural(record.games, 'game')} against me: I won {record.bot_wins:,}, lost "
        f"{record.bot_losses:,}, drew {record.draws:,}; {record.unfinished:,} abandoned."
    )
    if figures.ways_to_beat_as_x is None:  # the classic board: no exhaustive search
        say(f"{plural(figures.lessons, 'lesson')}.")
        return 0
    say(
        f"{plural(figures.lessons, 'lesson')}. Ways to beat me as X (moving first): "
        f"{figures.ways_to_beat_as_x:,}; as O (moving second): {figures.ways_to_beat_as_o:,}."
    )
    return 0


async def export(service: GameService, server: int, path: Path, game: str) -> int:
    document = await service.brain.export(server, game)
    try:
        path.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    except OSError as error:
        raise GameError(f"Cannot write {path}: {error.strerror or error}.") from None
    print(f"Wrote {len(document['facts']):,} lessons to {path}.")
    return 0


async def import_(
    service: GameService, server: int, path: Path, replace: bool, yes: bool, game: str
) -> int:
    try:
        data = path.read_bytes()
    except OSError as error:
        raise GameError(f"Cannot read {path}: {error.strerror or error}.") from None
    plan = await service.brain.plan_import(server, data, "replace" if replace else "merge", game)
    if plan.changes_nothing:
        print(f"Nothing to import: I know all {plural(plan.known, 'lesson')} in {path} already.")
        return 0
    dropped = f", and {plural(plan.dropped, 'lesson')} of mine dropped" if plan.dropped else ""
    say(
        f"{plan.new:,} new lessons, {plan.known:,} known already{dropped}; "
        f"{change_text(plan.before, plan.after)}."
    )
    if not yes:
        try:
            answer = input("Import? [y/N] ").strip().lower()
        except EOFError:
            answer = ""
        if answer not in ("y", "yes"):
            print("Nothing was imported.")
            return 1
    await service.brain.apply_import(plan)
    print("Imported.")
    return 0


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


# how a game ended for the person at the terminal (cogs.render.replay.outcome_for)
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
        print("No finished games here yet: play one with python -m terminal play.")
        return 0
    print(f"{plural(len(pasts), 'finished game')} of yours here, newest first:")
    id_width = max(2, *(len(str(past.game.id)) for past in pasts))  # "ID" at least
    print(history_line(id_width, "ID", *HISTORY_COLUMNS))
    for past in pasts:
        print(history_line(id_width, str(past.game.id), *past_game_cells(past)))
    print("Watch one again: python -m terminal replay ID.")
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
    game = replay_step(finished, 0).game
    x, o = object_of(who(game, Mark.X)), object_of(who(game, Mark.O))
    told = (
        f"Game {game_id}, {game.rules.title}: {x} (X) vs {o} (O), "
        f"{plural(len(game.moves), 'move')}, ended {when(finished.ended_at)}."
    )
    say(told)
    for step in range(len(game.moves) + 1):
        shown = replay_step(finished, step)
        show_step(shown)
        if step == shown.total:
            break
        try:
            typed = input("Enter: the next move, q: quit. ")
        except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: leave, as q does
            print()
            return 0
        if typed.strip().lower() in ("q", "quit"):
            return 0
    return 0


def game_number(text: str) -> int:
    if not text.isdigit() or int(text) == 0:
        raise argparse.ArgumentTypeError(
            f"replay takes a game's ID, as history shows it, not {text!r}"
        )
    return int(text)


# the game flow's hints name Discord's commands; the terminal's are these
TERMINAL_WORDS = (
    ("`/ttt-admin export`", "`python -m terminal export`"),
    ("`mode: replace`", "`--replace`"),
)


def error_text(error: GameError) -> str:
    """A refusal in the terminal's words; a memory file of another game says which
    ``--game`` takes it."""
    text = str(error)
    for discord_words, terminal_words in TERMINAL_WORDS:
        text = text.replace(discord_words, terminal_words)
    if isinstance(error.__cause__, engine.WrongGameError):
        text += f" Add `--game {error.__cause__.found.name}` to import it into that memory."
    return text


def server_id(text: str) -> int:
    if not text.isdigit():  # a Discord ID is a whole number, never negative
        raise argparse.ArgumentTypeError(f"--server takes a server's ID (digits), not {text!r}")
    return int(text)


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, not usage and a message
        self.exit(2, f"{self.prog}: {message}. See {self.prog} --help.\n")


COMMANDS = {
    "play": "play a game",
    "train": "train against a practice opponent",
    "stats": "the record, the lessons, the ways to beat the bot",
    "export": "write the memory to a file",
    "import": "load a memory file, proof-checked",
    "history": "your last finished games here",
    "replay": "a finished game again, move by move",
}


def where(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """--server and --game, before the command or after it; only the top level has
    defaults (a command's would overwrite what was given before it)."""
    parser.add_argument(
        "--server",
        type=server_id,
        default=0 if top else argparse.SUPPRESS,
        help="a Discord server's ID (default 0: the terminal's)",
    )
    parser.add_argument(
        "--game",
        choices=list(engine.GAMES),
        default=None if top else argparse.SUPPRESS,  # None: tictactoe, or history's every game
        help="which game and memory (default: tictactoe, and every game for history; "
        "connect4 is 4x4, connect4-7x6 the classic board)",
    )


def parser() -> argparse.ArgumentParser:
    top = OneLineParser(
        prog="python -m terminal",
        description="Play and manage the bot: tic-tac-toe and Connect Four.",
    )
    where(top, top=True)
    commands = top.add_subparsers(dest="command", required=True)
    for name, help_ in COMMANDS.items():
        where(commands.add_parser(name, help=help_), top=False)
    play_ = commands.choices["play"]
    play_.add_argument("--first", choices=("me", "bot"), default="me")
    train_ = commands.choices["train"]
    train_.add_argument("opponent", choices=OPPONENTS)
    train_.add_argument("games", type=int, help=f"1 to {MAX_GAMES:,}")
    export_ = commands.choices["export"]
    export_.add_argument("file", type=Path)
    import__ = commands.choices["import"]
    import__.add_argument("file", type=Path)
    import__.add_argument("--replace", action="store_true", help="take it instead of merging")
    import__.add_argument("--yes", action="store_true", help="do not ask")
    commands.choices["replay"].add_argument("id", type=game_number, help="as history shows it")
    return top


async def run(args: argparse.Namespace, settings: Settings) -> int:
    store = await Store.open(settings.database_path)
    service = GameService(
        store, timeout_seconds=settings.game_timeout_minutes * 60, clock=time.time
    )
    try:
        await service.load()  # resumes a post-mortem an earlier session left unfinished
        game = args.game or TICTACTOE
        if args.command == "history":
            return await history(service, args.server, [game] if args.game else list(engine.GAMES))
        if args.command == "replay":
            return await replay(service, args.server, args.id)
        if args.command == "play":
            return await play(service, args.server, args.first, game)
        if args.command == "train":
            return await train(service, args.server, args.opponent, args.games, game)
        if args.command == "stats":
            return await stats(service, args.server, game)
        if args.command == "export":
            return await export(service, args.server, args.file, game)
        return await import_(service, args.server, args.file, args.replace, args.yes, game)
    finally:
        await service.close()  # its post-mortems' worker, if one started
        await store.close()


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    # Ctrl-C interrupts what it interrupts (a prompt, a training) as KeyboardInterrupt:
    # asyncio's own handler would only cancel the run, after the prompt took one more line
    signal.signal(signal.SIGINT, _interrupt)
    load_dotenv(HOME / ".env")
    try:
        settings = Settings.from_env()
        return asyncio.run(run(args, settings))
    except ConfigError as error:
        return fail(f"Configuration error: {error}. See .env.example.")
    except (StoreOpenError, SchemaTooNewError) as error:
        return fail(f"Database error: {error}.")
    except GameError as error:
        return fail(error_text(error))
    except KeyboardInterrupt:
        return 1


if __name__ == "__main__":
    sys.exit(main())
