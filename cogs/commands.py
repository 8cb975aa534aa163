"""``/ttt`` and ``/connect4``, declared once: :class:`GameFace` declares what differs between
the groups (the group's name, texts, the move's option name, extra commands; the boards
are the game flow's, :data:`gameflow.game.BOARDS`), and :func:`game_group` writes the
commands in the order Discord lists them, each one line into its feature
(:class:`Features`).

The commands are made per game as instances and ``add_command``, never as subclasses of
``app_commands.Group``: discord.py collects a Group subclass's commands once, from the first
class, and would silently ignore a subclass's own. Option types are module-level (or
``choices``), because annotations are read as strings in this module's namespace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import discord
from discord import app_commands

from cogs.brain.cog import Brain
from cogs.play.cog import Play
from cogs.puzzles.cog import PuzzleDesk
from cogs.replays.cog import Replays, show_history
from cogs.scores.cog import Scores
from cogs.servers.cog import Servers
from cogs.utils.replies import Refusal
from gameflow.game import BOARDS, boards_of
from gameflow.puzzles import PUZZLE_GAMES
from i18n import N_, Msg

Choice = app_commands.Choice
# Each choice says what it means in the picker, in the member's language: a bare value
# ("me", "bot") read the wrong way round for whoever wants the bot to start.
FIRST = [Choice(name="you (default)", value="me"), Choice(name="the bot", value="bot")]
SIDES = [
    Choice(name="you", value="me"),
    Choice(name="your opponent", value="them"),
    Choice(name="drawn by lot (default)", value="random"),
]
LEVELS = [
    Choice(name="learning (default): all I know", value="learning"),
    Choice(name="medium: a random move now and then", value="medium"),
    Choice(name="easy: random moves often", value="easy"),
]
RANKINGS = [
    Choice(name="lessons taught (default)", value="lessons"),
    Choice(name="wins against me", value="wins"),
    Choice(name="games played", value="games"),
    Choice(name="rating (established only)", value="rating"),
]
# a game with puzzles ranks by them too (cogs.puzzles)
PUZZLE_RANKING = Choice(name="puzzles solved (7x6)", value="puzzles")

# installable to a server, and to a member's own account: then usable in DMs, group DMs
# and servers that have not added the bot (see cogs.utils.places)
INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


@dataclass(frozen=True)
class Features:
    """The features the commands lead into: each subcommand is one line into one of them."""

    play: Play
    brain: Brain
    scores: Scores
    replays: Replays
    puzzles: PuzzleDesk
    servers: Servers


@dataclass(frozen=True)
class GameFace:
    """One game's slash commands, as data.

    ``boards``: each board's choice (as members type it) and its game's name; the first is
    the default, and a single board gives no ``board`` option. ``texts``: the descriptions
    that are the game's own, by command (``"play"``) or command and option
    (``"move.number"``); a game with boards also says ``"play.board"``, ``"brain.board"``
    and ``"board"`` (the other commands' option). ``extras``: commands of this game only,
    after the shared ones."""

    group: str
    about: str
    boards: Mapping[str, str]
    move: str
    texts: Mapping[str, str]
    extras: Callable[[Features], list[app_commands.Command]] = field(default=lambda features: [])
    title: Msg | None = None  # every board's games together, as a history names them

    @property
    def command(self) -> str:
        return f"/{self.group}"


def game_group(face: GameFace, features: Features) -> app_commands.Group:
    """``/<face.group>``: play, challenge, move, resign, board, brain, leaderboard, stats,
    history, then the face's extras, in that order (the order Discord shows and the sync
    digest hashes)."""
    group = app_commands.Group(
        name=face.group,
        description=face.about,
        allowed_installs=INSTALLS,
        allowed_contexts=CONTEXTS,
    )
    texts, command, boards = face.texts, face.command, face.boards
    game = next(iter(boards.values()))  # the default board's
    choices = [app_commands.Choice(name=size, value=size) for size in boards]

    def board_game(board: str) -> str:
        """The game a board option names; a forged one (Discord offers only these) is
        refused privately."""
        if board not in boards:
            raise Refusal(
                N_(
                    "The board must be one of {choices}, not `{board}`.",
                    choices=", ".join(boards),
                    board=str(board),
                )
            )
        return boards[board]

    # What every game says alike, written once: each decorator below is applied in the
    # branch that runs (one board, or a choice of boards), so exactly once per group.
    def play_options(command):
        described = app_commands.describe(first="Who moves first", level="How hard I play")
        return app_commands.choices(first=FIRST, level=LEVELS)(described(command))

    challenge_command = group.command(
        name="challenge",
        description="Challenge a member (or anyone) to a game I watch and learn from",
    )

    def challenge_options(command):
        described = app_commands.describe(
            opponent="The member to challenge (leave it out: anyone here may accept)",
            first="Who moves first",
        )
        return app_commands.choices(first=SIDES)(described(command))

    brain_command = group.command(
        name="brain", description="See, privately, what I know about a position"
    )

    rankings = RANKINGS + [PUZZLE_RANKING] * any(b in PUZZLE_GAMES for b in boards.values())

    def leaderboard_options(command):
        return app_commands.choices(by=rankings)(
            app_commands.describe(by="What to rank members by")(command)
        )

    async def leaderboard_of(interaction: discord.Interaction, by: str, game: str) -> None:
        if by == "puzzles":  # the puzzle records: their own feature's
            await features.puzzles.show_leaderboard(interaction, game)
        else:
            await features.scores.show_leaderboard(interaction, by, game)

    stats_options = app_commands.describe(
        member="Whose record to show beside the server's (yours if left out)"
    )

    if len(boards) == 1:

        @group.command(name="play", description=texts["play"])
        @play_options
        async def play(
            interaction: discord.Interaction, first: str = "me", level: str = "learning"
        ) -> None:
            await features.play.start_game(interaction, first, game, level)

        @challenge_command
        @challenge_options
        async def challenge(
            interaction: discord.Interaction,
            opponent: discord.User | None = None,  # a Member when in this server
            first: str = "random",
        ) -> None:
            await features.play.challenge(interaction, opponent, first, game)

    else:

        @group.command(name="play", description=texts["play"])
        @play_options
        @app_commands.describe(board=texts["play.board"])
        @app_commands.choices(board=choices)
        async def play_on(
            interaction: discord.Interaction,
            first: str = "me",
            board: str = choices[0].value,
            level: str = "learning",
        ) -> None:
            await features.play.start_game(interaction, first, board_game(board), level)

        @challenge_command
        @challenge_options
        @app_commands.describe(board=texts["board"])
        @app_commands.choices(board=choices)
        async def challenge_on(
            interaction: discord.Interaction,
            opponent: discord.User | None = None,  # a Member when in this server
            first: str = "random",
            board: str = choices[0].value,
        ) -> None:
            await features.play.challenge(interaction, opponent, first, board_game(board))

    @group.command(name="move", description=texts["move"])
    @app_commands.rename(number=face.move)
    @app_commands.describe(number=texts["move.number"])
    async def move(interaction: discord.Interaction, number: int) -> None:
        await features.play.play_move(interaction, number, command)

    @move.autocomplete("number")
    async def legal_moves(
        interaction: discord.Interaction, current: str | int
    ) -> list[app_commands.Choice[int]]:
        return features.play.legal_choices(interaction, current, command)

    @group.command(name="resign", description="Give up the game you are playing in this channel")
    async def resign(interaction: discord.Interaction) -> None:
        await features.play.resign_game(interaction, command)

    @group.command(
        name="board", description="Show this channel's game again, at the bottom of the chat"
    )
    async def show_board(interaction: discord.Interaction) -> None:
        await features.play.show_board(interaction, command)

    if len(boards) == 1:

        @brain_command
        @app_commands.describe(moves=texts["brain.moves"])
        async def brain(interaction: discord.Interaction, moves: str | None = None) -> None:
            await features.brain.show_brain(interaction, moves, game)

        @group.command(name="leaderboard", description=texts["leaderboard"])
        @leaderboard_options
        async def leaderboard(interaction: discord.Interaction, by: str = "lessons") -> None:
            await leaderboard_of(interaction, by, game)

        @group.command(name="stats", description=texts["stats"])
        @stats_options
        async def stats(
            interaction: discord.Interaction, member: discord.User | None = None
        ) -> None:
            await features.scores.show_stats(interaction, game, member)

    else:

        @brain_command
        @app_commands.describe(moves=texts["brain.moves"], board=texts["brain.board"])
        @app_commands.choices(board=choices)
        async def brain_on(
            interaction: discord.Interaction,
            moves: str | None = None,
            board: str = choices[0].value,
        ) -> None:
            await features.brain.show_brain(interaction, moves, board_game(board))

        @group.command(name="leaderboard", description=texts["leaderboard"])
        @leaderboard_options
        @app_commands.describe(board=texts["board"])
        @app_commands.choices(board=choices)
        async def leaderboard_on(
            interaction: discord.Interaction,
            by: str = "lessons",
            board: str = choices[0].value,
        ) -> None:
            await leaderboard_of(interaction, by, board_game(board))

        @group.command(name="stats", description=texts["stats"])
        @app_commands.describe(board=texts["board"])
        @stats_options
        @app_commands.choices(board=choices)
        async def stats_on(
            interaction: discord.Interaction,
            board: str = choices[0].value,
            member: discord.User | None = None,
        ) -> None:
            await features.scores.show_stats(interaction, board_game(board), member)

    history_command = group.command(
        name="history",
        description="Your last 25 finished games here, or a member's, to watch again "
        "(only you see it)",
    )
    history_member = app_commands.describe(member="Whose games (yours if left out)")
    if len(boards) == 1:

        @history_command
        @history_member
        async def history(
            interaction: discord.Interaction, member: discord.User | None = None
        ) -> None:
            await show_history(
                features.replays.service, interaction, member, (game,), BOARDS[game].title
            )

    else:

        @history_command
        @history_member
        @app_commands.describe(board=texts["history.board"])
        @app_commands.choices(board=choices)
        async def history_on(
            interaction: discord.Interaction,
            member: discord.User | None = None,
            board: str | None = None,
        ) -> None:
            if board is None:  # every board
                played = tuple(boards.values())
                title = face.title or BOARDS[game].title
                await show_history(features.replays.service, interaction, member, played, title)
                return
            played = board_game(board)
            await show_history(
                features.replays.service, interaction, member, (played,), BOARDS[played].title
            )

    for extra in face.extras(features):
        group.add_command(extra)
    return group


def ttt_extras(features: Features) -> list[app_commands.Command]:
    @app_commands.command(
        name="help", description="How to play me, and how I learn (only you see it)"
    )
    async def help_command(interaction: discord.Interaction) -> None:
        await features.servers.show_help(interaction)

    @app_commands.command(
        name="forget-me",
        description="Delete your games and records here, of tic-tac-toe and Connect Four",
    )
    async def forget_me(interaction: discord.Interaction) -> None:
        await features.servers.ask_to_forget(interaction)

    return [help_command, forget_me]


TTT = GameFace(
    group="ttt",
    about="Play tic-tac-toe against a bot that learns from its losses",
    boards=boards_of("/ttt"),
    move="cell",
    texts={
        "play": "Challenge me to a game of tic-tac-toe in this channel",
        "move": "Play a cell: 1 2 3 on the top row, 7 8 9 on the bottom",
        "move.number": "The cell to play, from 1 (top left) to 9 (bottom right)",
        "brain.moves": "Cells in play order, such as 5 1 9 (the channel's game if left out)",
        "leaderboard": "Who taught me most in this server, or beat me most",
        "stats": "This server's record against me, and yours",
    },
    extras=ttt_extras,
)

# Connect Four: the classic 7×6 board (the default) or a mini, 4×4 or 5×4. The texts that
# list the boards are written out, for the translators (a test checks that they name
# every board and its width).
CONNECT4_BOARDS = boards_of("/connect4")
# the boards with puzzles (the classic board's: see gameflow.puzzles)
PUZZLE_BOARDS = [
    app_commands.Choice(name=size, value=size)
    for size, game in CONNECT4_BOARDS.items()
    if game in PUZZLE_GAMES
]


def connect4_extras(features: Features) -> list[app_commands.Command]:
    @app_commands.command(
        name="puzzle",
        description="A puzzle from this server's games: find the only winning column "
        "(only you see it)",
    )
    @app_commands.describe(board="The board: 7x6, the classic board (the minis have none)")
    @app_commands.choices(board=PUZZLE_BOARDS)
    async def puzzle(interaction: discord.Interaction, board: str = PUZZLE_BOARDS[0].value) -> None:
        await features.puzzles.pose(interaction, CONNECT4_BOARDS.get(board, board))

    return [puzzle]


CONNECT4 = GameFace(
    group="connect4",
    about="Play Connect Four against a bot that learns from its losses",
    boards=CONNECT4_BOARDS,
    move="column",
    texts={
        "play": "Challenge me to a game of Connect Four in this channel",
        "play.board": "7x6 (the default, the classic board), or a mini: 4x4 or 5x4",
        "board": "7x6 (the default, the classic board), or a mini: 4x4 or 5x4",
        "move": "Drop a stone in a column: 1 is the leftmost",
        "move.number": "The column, from 1 (left) to 7 on 7x6, 4 on 4x4, 5 on 5x4",
        "brain.moves": "Columns in play order, such as 4 4 3 (the channel's game if left out)",
        "brain.board": "7x6 (the default, the classic board), or a mini: 4x4 or 5x4, for moves",
        "leaderboard": "Who taught me most Connect Four here, or beat me most",
        "stats": "This server's Connect Four record against me, and yours",
        "history.board": "Which board's games (every board if left out)",
    },
    title=N_("Connect Four, every board"),
    extras=connect4_extras,
)

FACES = (TTT, CONNECT4)  # in the order Discord lists them


def game_groups(features: Features) -> list[app_commands.Group]:
    """Every game's group, in the order Discord lists them: ``/ttt``, then ``/connect4``."""
    return [game_group(face, features) for face in FACES]
