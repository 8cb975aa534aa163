"""Play and manage the bot from a terminal, with no Discord token (seed 001's console game).

python -m terminal play                  a game against this memory (you move first)
python -m terminal play --first bot      the bot moves first
python -m terminal --board 7x6 play      Connect Four on the classic board (or the minis,
                                         4x4 and 5x4: boards as Discord names them);
                                         every command takes --board, 3x3 (tic-tac-toe)
                                         by default
python -m terminal train random 100000   train: random, self or teacher, 1 to 1,000,000
python -m terminal stats                 the record, the lessons, the ways to beat it
python -m terminal export memory.json    the memory as a ttt-memory file
python -m terminal import memory.json    load one (--replace to take it instead; --yes)
python -m terminal history               your last finished games, every board unless
                                         --board names one
python -m terminal replay 12             game 12 again, move by move (Enter, q to quit)
python -m terminal ratings --rebuild     every rating recomputed from the stored games
                                         and puzzle answers

Everything goes through the same game flow and database as the bot (``.env`` and
``DATABASE_PATH`` as for ``python bot.py``). ``--server ID`` works on a Discord server's
memory; without it, on the terminal's own (server 0). Each board has its own memory.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
import time
from pathlib import Path

from dotenv import load_dotenv

import engine
from data import SchemaTooNewError, Store, StoreOpenError
from gameflow import GameError, GameService
from gameflow.config import HOME, ConfigError, Settings
from gameflow.training import MAX_GAMES, OPPONENTS

from .common import BOARDS, DEFAULT_BOARD, SIZES, error_text, fail, wrapped
from .history import game_number, history, replay
from .memory import export, import_, ratings, stats, train
from .play import play


def server_id(text: str) -> int:
    if not text.isdigit():  # a Discord ID is a whole number, never negative
        raise argparse.ArgumentTypeError(f"--server takes a server's ID (digits), not {text!r}")
    return int(text)


class OneLineParser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one message, not usage and a message
        self.exit(2, wrapped(f"{self.prog}: {message}. See {self.prog} --help.") + "\n")


class Replaced(argparse.Action):
    """``--game``, as the terminal named the boards before it named them as Discord does
    (``--game connect4`` was 4x4, where ``/connect4`` plays 7x6): one line says what
    replaced it, rather than a name that means another board here than there."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        board = SIZES.get(values)
        if board is None:
            names = f"{', '.join(list(BOARDS)[:-1])} or {list(BOARDS)[-1]}"
            parser.error(f"--game is now --board: {names}, as Discord names the boards")
        title = engine.get_game(values).title
        parser.error(
            f"--game {values} is now --board {board} ({title}): boards are named as Discord "
            "names them (/connect4 plays 7x6, the classic board)"
        )


COMMANDS = {
    "play": "play a game",
    "train": "train against a practice opponent",
    "stats": "the record, the lessons, the ways to beat the bot",
    "export": "write the memory to a file",
    "import": "load a memory file, proof-checked",
    "history": "your last finished games here",
    "replay": "a finished game again, move by move",
    "ratings": "ratings: --rebuild recomputes them all from the stored games and puzzle answers",
}


def where(parser: argparse.ArgumentParser, *, top: bool) -> None:
    """--server and --board, before the command or after it; only the top level has
    defaults (a command's would overwrite what was given before it)."""
    parser.add_argument(
        "--server",
        type=server_id,
        default=0 if top else argparse.SUPPRESS,
        help="a Discord server's ID (default 0: the terminal's)",
    )
    parser.add_argument(
        "--board",
        choices=list(BOARDS),
        default=None if top else argparse.SUPPRESS,  # None: 3x3, or history's every board
        help="which board and memory, as Discord names them: 3x3 tic-tac-toe (the default; "
        "history: every board), 7x6 Connect Four's classic board, 4x4 or 5x4 its minis",
    )
    parser.add_argument(
        "--game", action=Replaced, default=argparse.SUPPRESS, help=argparse.SUPPRESS
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
    commands.choices["ratings"].add_argument(
        "--rebuild", action="store_true", help="recompute every rating from the stored games"
    )
    return top


async def run(args: argparse.Namespace, settings: Settings) -> int:
    store = await Store.open(settings.database_path)
    service = GameService(
        store, timeout_seconds=settings.game_timeout_minutes * 60, clock=time.time
    )
    try:
        await service.load()  # resumes a post-mortem an earlier session left unfinished
        game = BOARDS[args.board or DEFAULT_BOARD]
        if args.command == "history":
            return await history(
                service, args.server, [game] if args.board else list(BOARDS.values())
            )
        if args.command == "ratings":
            return await ratings(service, args.rebuild)
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
