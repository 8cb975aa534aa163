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
import signal
import sys
import time
from pathlib import Path

from dotenv import load_dotenv

import engine
from bot import HOME, ConfigError, Settings, fail
from data import SchemaTooNewError, Store, StoreOpenError
from gameflow import GameError, GameService
from gameflow.training import MAX_GAMES, OPPONENTS

from .common import TICTACTOE, error_text
from .history import game_number, history, replay
from .memory import export, import_, stats, train
from .play import play


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
