"""``/ttt``: play tic-tac-toe against the bot. A declaration: the commands are every game's
(:func:`cogs.game_commands.game_group`), over what every game shares
(:class:`cogs.table.Table`), plus what only ``/ttt`` has: ``help``, and ``forget-me`` with its
answer (a question the ``TicTacToe`` cog routes here: see :data:`cogs.questions.QUESTIONS`).
"""

from __future__ import annotations

import discord
from discord import app_commands

from gameflow.places import is_own_bot
from i18n import N_

from .game_commands import GameFace, Host
from .places import bot_is_here, place
from .questions import AnswerButton
from .render import forgotten_lines, help_embed
from .replies import in_time, private, refuse, update


async def show_help(interaction: discord.Interaction) -> None:
    admin = bool(  # where /ttt-admin is offered: a server that added the bot
        bot_is_here(interaction)
        and interaction.guild_id
        and interaction.permissions
        and interaction.permissions.manage_guild
    )
    await interaction.response.send_message(
        embed=help_embed(admin=admin, lang=private(interaction)), ephemeral=True
    )


async def ask_to_forget(table: Host, interaction: discord.Interaction) -> None:
    here = place(interaction)
    # every game and board: a member who played only Connect Four has games to delete too
    totals = await in_time(
        interaction, table.service.servers.player_totals(here, interaction.user.id), private=True
    )
    if totals is None:
        return
    record, with_members = totals
    lang = private(interaction)
    if is_own_bot(here):
        if not record.games:
            await refuse(
                interaction, N_("Your own bot has nothing of yours yet: nothing to delete.")
            )
            return
        await table.questions.ask(
            interaction,
            "forget",
            lang.t(
                "Delete your own bot: everything it learned from you outside servers, "
                "with your games and records there? It starts again as if new. This "
                "cannot be undone."
            ),
        )
        return
    if not record.games and not with_members.games:
        await refuse(
            interaction,
            N_("I hold no finished games of yours in this server: nothing to delete."),
        )
        return
    # a title, what goes (a bullet each), what stays, and one closing line
    question = [
        f"**{lang.t('Delete your games and records in this server?')}**",
        *forgotten_lines(record, with_members, lang),
        lang.t("What I learned from those games stays, but no longer names you."),
        lang.t("This cannot be undone."),
    ]
    await table.questions.ask(interaction, "forget", "\n".join(question))


async def forget_answered(
    table: Host, interaction: discord.Interaction, button: AnswerButton
) -> None:
    go, _ = await table.questions.settle(interaction, button)
    if not go:
        return
    here = place(interaction)
    if is_own_bot(here):
        erased = await in_time(interaction, table.service.servers.erase_server(here))
        if erased is not None:
            await update(
                interaction,
                content=private(interaction).t(
                    "🗑️ Deleted your own bot, with your games and records. It starts "
                    "again as if new."
                ),
                view=None,
            )
        return
    forgotten = await in_time(
        interaction, table.service.servers.forget_player(here, interaction.user.id)
    )
    if forgotten is not None:
        lang = private(interaction)
        await update(
            interaction,
            content="\n".join(
                [
                    lang.t("🗑️ Deleted, with your records:"),
                    *forgotten_lines(*forgotten, lang),
                    lang.t("What I learned from those games stays, but no longer names you."),
                ]
            ),
            view=None,
        )


def extras(table: Host) -> list[app_commands.Command]:
    @app_commands.command(
        name="help", description="How to play me, and how I learn (only you see it)"
    )
    async def help_command(interaction: discord.Interaction) -> None:
        await show_help(interaction)

    @app_commands.command(
        name="forget-me",
        description="Delete your games and records here, of tic-tac-toe and Connect Four",
    )
    async def forget_me(interaction: discord.Interaction) -> None:
        await ask_to_forget(table, interaction)

    return [help_command, forget_me]


TTT = GameFace(
    group="ttt",
    about="Play tic-tac-toe against a bot that learns from its losses",
    boards={"3x3": "tictactoe"},
    move="cell",
    texts={
        "play": "Challenge me to a game of tic-tac-toe in this channel",
        "move": "Play a cell: 1 2 3 on the top row, 7 8 9 on the bottom",
        "move.number": "The cell to play, from 1 (top left) to 9 (bottom right)",
        "brain.moves": "Cells in play order, such as 5 1 9 (the channel's game if left out)",
        "leaderboard": "Who taught me most in this server, or beat me most",
        "stats": "This server's record against me, and yours",
    },
    extras=extras,
)
