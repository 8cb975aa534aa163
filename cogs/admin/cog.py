"""``/ttt-admin``: server managers only, checked by Discord and again by the bot."""

from __future__ import annotations

import io
import logging

import discord
from discord import app_commands
from discord.ext import commands

from cogs.admin.render import brain_change_text, memory_file_name, settings_embed
from cogs.admin.training import Trainings
from cogs.play.posts import BoardPosts
from cogs.puzzles.render import daily_field
from cogs.utils.boards import look_of
from cogs.utils.questions import AnswerButton, Question, Questions
from cogs.utils.replies import CheckingShown, answer, in_time, private, refuse, update
from cogs.utils.server_tools import ChannelId, manager
from gameflow import GameError, GameService, ImportPlan
from gameflow.brain import check_file_size
from gameflow.game import BOARDS
from i18n import N_, Nn_

log = logging.getLogger(__name__)

TICTACTOE = "tictactoe"
# the memories an admin command may work on: each game's, per server
GAME_CHOICES = [
    app_commands.Choice(name=str(look_of(game).title), value=game)  # translated on sync
    for game in BOARDS
]


# Choices that say what they do in the picker, in the admin's language (the descriptions
# once named the English values, which the picker showed translated)
IMPORT_MODES = [
    app_commands.Choice(name="add its lessons to mine (default)", value="merge"),
    app_commands.Choice(name="replace my memory with it", value="replace"),
]
OPPONENTS = [
    app_commands.Choice(name="random moves", value="random"),
    app_commands.Choice(name="self-play: I play both sides", value="self"),
    app_commands.Choice(name="a teacher who plays the lines that beat me", value="teacher"),
]

# the questions before what cannot be undone (their buttons: cogs.utils.questions)
QUESTIONS = {
    "reset": Question(
        None,
        N_("Cancelled: I forgot nothing."),
        N_("No answer in time: I forgot nothing."),
    ),
    "import": Question(
        N_("Import"),
        N_("Cancelled: nothing was imported."),
        N_("No answer in time: nothing was imported."),
        harmless=frozenset({"merge"}),  # adds lessons, destroys none
    ),
    "erase": Question(
        N_("Delete everything"),
        N_("Cancelled: nothing was deleted."),
        N_("No answer in time: nothing was deleted."),
    ),
}

BOTH_DAILY = N_(
    "Give either `daily_puzzle` (a channel) or `no_daily_puzzle`, not both: nothing was changed."
)


def which_game(command):
    """The "game" option of a command that works on one memory, every game and board named
    (written out for the translators; a test checks that it names each of GAME_CHOICES).
    A describe per command: discord.py takes the descriptions out of the dict it is given."""
    return app_commands.describe(
        game="Which game's memory: Tic-tac-toe (the default), Connect Four (7×6, 4×4 or 5×4)"
    )(command)


@app_commands.guild_only()
@app_commands.allowed_installs(guilds=True, users=False)  # a server's own tools only
@app_commands.default_permissions(manage_guild=True)
class Admin(
    commands.GroupCog,
    group_name="ttt-admin",
    group_description="Manage the tic-tac-toe bot in this server",
):
    def __init__(self, bot: commands.Bot, service: GameService, boards: BoardPosts) -> None:
        self.bot = bot
        self.service = service
        self.boards = boards  # a game ended by hand: its live board redrawn
        self.questions = Questions(QUESTIONS, self.on_answer)
        self.trainings = Trainings(bot, service)  # their progress messages and Cancel
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(self.questions.button, self.trainings.button)
        await self.trainings.load()

    async def cog_unload(self) -> None:
        self.questions.close()
        self.trainings.close()
        self.bot.remove_dynamic_items(self.questions.button, self.trainings.button)

    # --- commands -----------------------------------------------------------------
    @app_commands.command(description="Forget what I learned of one game in this server")
    @which_game
    @app_commands.choices(game=GAME_CHOICES)
    async def reset(self, interaction: discord.Interaction, game: str = TICTACTOE) -> None:
        if not await manager(interaction):
            return
        # read in time: a database outage gets its private answer, as a move does
        memory = await in_time(
            interaction, self.service.memory(interaction.guild_id, game), private=True
        )
        if memory is None:
            return
        count, noun = len(memory), look_of(game).noun
        if not count:
            await refuse(
                interaction,
                N_("I know no {game} lessons in this server: nothing to forget.", game=noun),
            )
            return
        lang = private(interaction)
        # the game and the number, in the question and on its button: a reset forgets one
        # game's memory, never "everything"
        title = lang.tn(
            "Forget {count} {game} lesson learned in this server?",
            "Forget {count} {game} lessons learned in this server?",
            count,
            game=noun,
        )
        await self.questions.ask(
            interaction,
            "reset",
            f"**{title}**\n"
            + lang.t(
                "I will play {game} naively again; what I know of other games stays. "
                "This cannot be undone.",
                game=noun,
            ),
            subject=game,
            yes=Nn_(
                "Forget {count} {game} lesson", "Forget {count} {game} lessons", count, game=noun
            ),
        )

    @app_commands.command(
        name="delete-server-data", description="Delete everything I keep about this server"
    )
    async def delete_server_data(self, interaction: discord.Interaction) -> None:
        if not await manager(interaction):
            return
        await self.questions.ask(
            interaction,
            "erase",
            private(interaction).t(
                "Delete everything I keep about this server: every game's lessons, all games "
                "(running ones too), everyone's records, the learning curves, the settings, "
                "invitations and trainings? I will start again as if new. This cannot be "
                "undone."
            ),
        )

    @app_commands.command(description="Download this server's memory as a file, privately")
    @which_game
    @app_commands.choices(game=GAME_CHOICES)
    async def export(self, interaction: discord.Interaction, game: str = TICTACTOE) -> None:
        if not await manager(interaction):
            return
        # the most Discord takes in one file here (more in a boosted server)
        limit = getattr(
            interaction.guild, "filesize_limit", discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
        )
        made = await in_time(
            interaction,
            self.service.brain.export_file(interaction.guild_id, game, limit),
            private=True,
        )
        if made is None:
            return
        data, count = made
        name = memory_file_name(interaction.guild.name, discord.utils.utcnow().date(), game)
        await answer(
            interaction,
            private=True,
            content=private(interaction).tn(
                "🧠 This server's memory of {game}: {count} lesson. `/ttt-admin import` loads "
                "it into another server.",
                "🧠 This server's memory of {game}: {count} lessons. `/ttt-admin import` loads "
                "it into another server.",
                count,
                game=look_of(game).title,
            ),
            file=discord.File(io.BytesIO(data), filename=name),
        )

    @app_commands.command(name="import", description="Load a memory file made by export")
    @app_commands.describe(
        file="A memory file made by /ttt-admin export",
        mode="Add the file's lessons to my memory, or replace my memory with the file's",
    )
    @which_game
    @app_commands.choices(game=GAME_CHOICES, mode=IMPORT_MODES)
    async def import_(
        self,
        interaction: discord.Interaction,
        file: discord.Attachment,
        mode: str = "merge",
        game: str = TICTACTOE,
    ) -> None:
        if not await manager(interaction):
            return
        try:
            check_file_size(file.size, BOARDS[game].import_bytes)
            data = await file.read()
        except GameError as error:
            await refuse(interaction, error.message)
            return
        except discord.HTTPException:
            await refuse(interaction, N_("I couldn't download that file. Please try again."))
            return
        checking = CheckingShown(interaction)

        async def checked() -> ImportPlan:
            try:
                return await self.service.brain.plan_import(
                    interaction.guild_id, data, mode, game, progress=checking
                )
            finally:  # before the answer, whatever it is
                await checking.over()

        plan = await in_time(interaction, checked(), private=True)
        if plan is None:
            return
        lang = private(interaction)
        file_name, title = file.filename, look_of(game).title
        question = (
            lang.tn(
                "Import **{file}** into my memory of {game}? It would add **{count} new "
                "lesson** to mine ({known} in the file I know already). Every lesson in it "
                "is proven.",
                "Import **{file}** into my memory of {game}? It would add **{count} new "
                "lessons** to mine ({known} in the file I know already). Every lesson in it "
                "is proven.",
                plan.new,
                file=file_name,
                game=title,
                known=plan.known,
            )
            if mode == "merge"
            else lang.tn(
                "Import **{file}** into my memory of {game}? It would replace my {mine} "
                "lessons with its **{count} lesson**. Every lesson in it is proven.",
                "Import **{file}** into my memory of {game}? It would replace my {mine} "
                "lessons with its **{count} lessons**. Every lesson in it is proven.",
                len(plan.document),
                file=file_name,
                game=title,
                mine=plan.before.lessons,
            )
        )
        await self.questions.ask(
            interaction,
            "import",
            f"{question}\n{brain_change_text(plan.before, plan.after, game, lang)}",
            keep=plan,
            subject=mode,  # a merge destroys nothing: its button is not red
        )

    @app_commands.command(description="See or change how I play in this server")
    @app_commands.describe(
        timeout="Minutes a game may sit without a move before it is abandoned (1 to 1440)",
        allow_channel="Let games start in this channel; once one is allowed, only those may",
        disallow_channel="Stop new games from starting in this channel",
        every_channel="True lets games start in every channel again",
        daily_puzzle="Post a Connect Four puzzle in this channel every day",
        no_daily_puzzle="True stops the daily puzzle",
    )
    async def settings(
        self,
        interaction: discord.Interaction,
        timeout: app_commands.Range[int, 1, 1440] | None = None,
        allow_channel: ChannelId | None = None,
        disallow_channel: ChannelId | None = None,
        every_channel: bool = False,
        daily_puzzle: ChannelId | None = None,
        no_daily_puzzle: bool = False,
    ) -> None:
        if not await manager(interaction):
            return
        if daily_puzzle is not None and no_daily_puzzle:
            await refuse(interaction, BOTH_DAILY)
            return
        guild_id = interaction.guild_id
        puzzles = self.service.puzzles

        async def changed():
            # the other settings first: if one is refused, the daily puzzle stays as it was
            settings = await self.service.settings.change(
                guild_id,
                timeout_minutes=timeout,
                allow_channel=allow_channel,
                disallow_channel=disallow_channel,
                every_channel=every_channel,
            )
            if daily_puzzle is not None or no_daily_puzzle:
                await puzzles.set_daily(guild_id, daily_puzzle)
            return settings, await puzzles.daily(guild_id)

        shown = await in_time(interaction, changed(), private=True)
        if shown is not None:
            settings, daily = shown
            asked = (
                timeout is not None
                or allow_channel
                or disallow_channel
                or every_channel
                or daily_puzzle
                or no_daily_puzzle
            )
            lang = private(interaction)
            embed = settings_embed(
                settings,
                self.service.settings.timeout_seconds(guild_id),
                interaction.guild.name,
                lang,
            )
            embed.insert_field_at(2, **daily_field(daily, lang), inline=False)
            await answer(
                interaction,
                private=True,
                content=lang.t("✅ Saved.") if asked else None,
                embed=embed,
            )

    @app_commands.command(name="end-game", description="End a stuck game; nothing is learned")
    @app_commands.describe(channel="The game's channel (this one if left out)")
    async def end_game(
        self,
        interaction: discord.Interaction,
        channel: ChannelId | None = None,
    ) -> None:
        if not await manager(interaction):
            return
        channel_id = channel or interaction.channel_id
        turn = await in_time(
            interaction,
            self.service.end_game(channel_id, interaction.user.id, guild_id=interaction.guild_id),
            private=True,
        )
        if turn is None:
            return
        await answer(
            interaction,
            private=True,
            content=private(interaction).t(
                "🛑 Ended {player}'s game in {channel}.",
                player=f"<@{turn.game.player_id}>",
                channel=f"<#{channel_id}>",
            ),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await self.boards.retire(
            turn,
            N_(
                "🛑 {moderator} ended {player}'s game. Nothing was learned from it. "
                "`{command} play` starts a new one.",
                moderator=f"<@{interaction.user.id}>",
                player=f"<@{turn.game.player_id}>",
                command=turn.game.command,
            ),
        )

    @app_commands.command(description="Train me against a practice opponent; games go on")
    @app_commands.describe(
        opponent="Whom I play the practice games against",
        games="How many games, 1 to 1,000,000",
    )
    @which_game
    @app_commands.choices(game=GAME_CHOICES, opponent=OPPONENTS)
    async def train(
        self,
        interaction: discord.Interaction,
        opponent: str,
        games: app_commands.Range[int, 1, 1_000_000],
        game: str = TICTACTOE,
    ) -> None:
        if await manager(interaction):
            await self.trainings.start(interaction, opponent, games, game)

    # --- answers ------------------------------------------------------------------
    async def on_answer(self, interaction: discord.Interaction, button: AnswerButton) -> None:
        go, plan = await self.questions.settle(interaction, button)
        if not go:
            return
        if button.kind == "reset":
            await self._reset(interaction, button.subject or TICTACTOE)
        elif button.kind == "erase":
            erased = await in_time(
                interaction, self.service.servers.erase_server(interaction.guild_id)
            )
            if erased is not None:
                await self._done(
                    interaction,
                    private(interaction).t(
                        "🗑️ Deleted everything I kept about this server. I start again as if new."
                    ),
                )
        elif plan is None:
            await update(
                interaction,
                content=private(interaction).t(
                    "This import is no longer waiting (I restarted since you asked), so "
                    "nothing was imported. Run `/ttt-admin import` again."
                ),
                view=None,
            )
        else:
            await self._import(interaction, plan)

    async def _reset(self, interaction: discord.Interaction, game: str) -> None:
        forgotten = await in_time(
            interaction, self.service.reset_memory(interaction.guild_id, game)
        )
        if forgotten is not None:
            await self._done(
                interaction,
                private(interaction).tn(
                    "🧹 Done: I forgot {count} {game} lesson learned in this server. Game "
                    "history and running games are kept.",
                    "🧹 Done: I forgot {count} {game} lessons learned in this server. Game "
                    "history and running games are kept.",
                    forgotten,
                    game=look_of(game).noun,
                ),
            )

    async def _import(self, interaction: discord.Interaction, plan: ImportPlan) -> None:
        change = await in_time(interaction, self.service.brain.apply_import(plan))
        if change is not None:
            unbeatable = change.after.ways_to_beat_as_x == change.after.ways_to_beat_as_o == 0
            lang = private(interaction)
            game = plan.document.game.name
            text = (
                lang.t("📥 Imported (merge).")
                if plan.mode == "merge"
                else lang.t("📥 Imported (replace).")
            )
            text += f"\n{brain_change_text(change.before, change.after, game, lang)}"
            if unbeatable:
                text += "\n" + lang.t("Nobody can beat me here now.")
            await self._done(interaction, text)

    @staticmethod
    async def _done(interaction: discord.Interaction, text: str) -> None:
        try:
            await update(interaction, content=text, view=None)
        except discord.HTTPException:  # the change is done; only this message is stale
            log.warning("a change was made, but its question could not be updated", exc_info=True)
