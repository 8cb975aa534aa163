"""One game's slash commands, written once for every game: :class:`GameFace` declares what
differs (the group's name, texts, the move's option name, the boards, extra commands), and
:func:`game_group` writes the commands, each one line into what every game shares (the
``TicTacToe`` cog, :class:`cogs.table.Table`).

The commands are made per game as instances and ``add_command``, never as subclasses of
``app_commands.Group``: discord.py collects a Group subclass's commands once, from the first
class, and would silently ignore a subclass's own. Option types are module-level (or
``choices``), because annotations are read as strings in this module's namespace.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

import discord
from discord import app_commands

from gameflow import GameService
from gameflow.game import TITLES
from gameflow.puzzles import PUZZLE_GAMES
from i18n import N_, Msg

from .challenges import ChallengeDesk
from .questions import Questions
from .replays import show_history
from .replies import Refusal

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
]
# a game with puzzles ranks by them too (cogs.puzzles)
PUZZLE_RANKING = Choice(name="puzzles solved (7x6)", value="puzzles")

# installable to a server, and to a member's own account: then usable in DMs, group DMs
# and servers that have not added the bot (see cogs.places)
INSTALLS = app_commands.AppInstallationType(guild=True, user=True)
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=True)


class Host(Protocol):
    """What a game's commands call: the cog every game shares (:class:`cogs.table.Table`)."""

    service: GameService
    questions: Questions
    challenges: ChallengeDesk

    async def may_post(self, interaction: discord.Interaction) -> bool: ...

    async def start_game(
        self, interaction: discord.Interaction, first: str, game: str, level: str = "learning"
    ) -> None: ...

    async def play_move(
        self, interaction: discord.Interaction, number: int, command: str
    ) -> None: ...

    def legal_choices(
        self, interaction: discord.Interaction, current: str | int, command: str
    ) -> list[app_commands.Choice[int]]: ...

    async def resign_game(self, interaction: discord.Interaction, command: str) -> None: ...

    async def show_board(self, interaction: discord.Interaction, command: str) -> None: ...

    async def show_brain(
        self, interaction: discord.Interaction, moves: str | None, game_name: str
    ) -> None: ...

    async def show_leaderboard(
        self, interaction: discord.Interaction, by: str, game: str
    ) -> None: ...

    async def show_stats(
        self,
        interaction: discord.Interaction,
        game: str,
        member: discord.User | discord.Member | None = None,
    ) -> None: ...


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
    extras: Callable[[Host], list[app_commands.Command]] = field(default=lambda table: [])
    title: Msg | None = None  # every board's games together, as a history names them

    @property
    def command(self) -> str:
        return f"/{self.group}"


def game_group(face: GameFace, table: Host) -> app_commands.Group:
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
        if by == "puzzles":  # the puzzle records: their own cog's
            await interaction.client.get_cog("Puzzles").show_leaderboard(interaction, game)
        else:
            await table.show_leaderboard(interaction, by, game)

    stats_options = app_commands.describe(
        member="Whose record to show beside the server's (yours if left out)"
    )

    if len(boards) == 1:

        @group.command(name="play", description=texts["play"])
        @play_options
        async def play(
            interaction: discord.Interaction, first: str = "me", level: str = "learning"
        ) -> None:
            await table.start_game(interaction, first, game, level)

        @challenge_command
        @challenge_options
        async def challenge(
            interaction: discord.Interaction,
            opponent: discord.User | None = None,  # a Member when in this server
            first: str = "random",
        ) -> None:
            if await table.may_post(interaction):
                await table.challenges.issue(interaction, opponent, first, game)

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
            await table.start_game(interaction, first, board_game(board), level)

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
            if await table.may_post(interaction):
                await table.challenges.issue(interaction, opponent, first, board_game(board))

    @group.command(name="move", description=texts["move"])
    @app_commands.rename(number=face.move)
    @app_commands.describe(number=texts["move.number"])
    async def move(interaction: discord.Interaction, number: int) -> None:
        await table.play_move(interaction, number, command)

    @move.autocomplete("number")
    async def legal_moves(
        interaction: discord.Interaction, current: str | int
    ) -> list[app_commands.Choice[int]]:
        return table.legal_choices(interaction, current, command)

    @group.command(name="resign", description="Give up the game you are playing in this channel")
    async def resign(interaction: discord.Interaction) -> None:
        await table.resign_game(interaction, command)

    @group.command(
        name="board", description="Show this channel's game again, at the bottom of the chat"
    )
    async def show_board(interaction: discord.Interaction) -> None:
        await table.show_board(interaction, command)

    if len(boards) == 1:

        @brain_command
        @app_commands.describe(moves=texts["brain.moves"])
        async def brain(interaction: discord.Interaction, moves: str | None = None) -> None:
            await table.show_brain(interaction, moves, game)

        @group.command(name="leaderboard", description=texts["leaderboard"])
        @leaderboard_options
        async def leaderboard(interaction: discord.Interaction, by: str = "lessons") -> None:
            await leaderboard_of(interaction, by, game)

        @group.command(name="stats", description=texts["stats"])
        @stats_options
        async def stats(
            interaction: discord.Interaction, member: discord.User | None = None
        ) -> None:
            await table.show_stats(interaction, game, member)

    else:

        @brain_command
        @app_commands.describe(moves=texts["brain.moves"], board=texts["brain.board"])
        @app_commands.choices(board=choices)
        async def brain_on(
            interaction: discord.Interaction,
            moves: str | None = None,
            board: str = choices[0].value,
        ) -> None:
            await table.show_brain(interaction, moves, board_game(board))

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
            await table.show_stats(interaction, board_game(board), member)

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
            await show_history(table.service, interaction, member, (game,), TITLES[game])

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
                title = face.title or TITLES[game]
                await show_history(table.service, interaction, member, played, title)
                return
            played = board_game(board)
            await show_history(table.service, interaction, member, (played,), TITLES[played])

    for extra in face.extras(table):
        group.add_command(extra)
    return group
