"""``/ttt brain`` and ``/connect4 brain``: what the server's memory knows of a position,
shown privately. Thin: parse, call the game flow (:mod:`gameflow.brain`), render."""

from __future__ import annotations

import discord
from discord.ext import commands

from cogs.brain.render import brain_embed
from cogs.utils.places import place
from cogs.utils.replies import answer, in_time, private, refuse
from gameflow import BOARDS, GameError, GameService, parse_moves
from i18n import N_


class Brain(commands.Cog):
    """What the bot knows of a position, for every game's commands."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        super().__init__()

    async def show_brain(
        self, interaction: discord.Interaction, moves: str | None, game_name: str
    ) -> None:
        command = BOARDS[game_name].command
        lang = private(interaction)
        try:
            if moves is None:
                game = self.service.running.running_game(interaction.channel_id)
                if game is None or game.command != command:
                    raise GameError(
                        N_(
                            "No game is running in this channel. Give the moves to look at, "
                            "such as `{command} brain moves: {example}`.",
                            command=command,
                            example=BOARDS[game_name].example,
                        )
                    )
                game_name = game.kind
                played, title = game.moves, lang.t("🧠 What I know about this channel's game")
            else:
                played = parse_moves(moves, game_name)
                title = (
                    lang.t(
                        "🧠 What I know after {moves}", moves=" ".join(str(c + 1) for c in played)
                    )
                    if played
                    else lang.t("🧠 What I know before the first move")
                )
        except GameError as error:
            await refuse(interaction, error.message)
            return
        here = place(interaction)
        view = await in_time(
            interaction, self.service.brain.view(here, played, game_name), private=True
        )
        if view is not None:
            await answer(interaction, private=True, embed=brain_embed(view, title, lang))
