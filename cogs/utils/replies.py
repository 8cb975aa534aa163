"""Answering an interaction in time, and truthfully, whatever the game flow does.

Discord drops an interaction's first response after 3 seconds; the person then sees
"This interaction failed" even if their move was saved. A request that is not done after
``DEFER_AFTER`` is deferred, so its answer (or its apology) can follow for 15 minutes.
Every apology says what really happened: whether the request's change was saved or not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

from gameflow import GameError
from gameflow.errors import DATABASE_LOST_MIDWAY, DATABASE_UNREACHABLE, StoreUnavailableError
from i18n import N_, Language, Msg, language

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFER_AFTER = 1.5  # seconds: well inside Discord's 3, leaving room for the network
UNKNOWN_INTERACTION = 10062  # Discord's code for an interaction past its deadline

# In Interaction.extras: what settles the request's place in the member's posting limit
# (set when the request was checked against it), called once with whether it posted
ON_POST = "ttt-on-post"


def _settle_post(interaction: discord.Interaction, *, posted: bool) -> None:
    settle = interaction.extras.pop(ON_POST, None)
    if settle is not None:
        settle(posted)


def now() -> float:
    """discord.py's clock, which tests can move: a question's deadline, a post's minute."""
    return discord.utils.utcnow().timestamp()


NOTHING_CHANGED = N_("Something went wrong on my side, and nothing was changed. Please try again.")


def private(interaction: discord.Interaction) -> Language:
    """The language of an answer only the person sees: theirs."""
    return language(interaction.locale)


def public(interaction: discord.Interaction) -> Language:
    """The language of a message the channel sees: the server's (outside a server, the
    person's)."""
    if interaction.guild_id is None:
        return language(interaction.locale)
    return language(interaction.guild_locale)


def server_language(client: discord.Client, guild_id: int | None) -> Language:
    """The language of a message the bot posts on its own (a timeout, a training after a
    restart): the server's, as the bot knows it."""
    guild = client.get_guild(guild_id) if guild_id is not None else None
    return language(guild.preferred_locale if guild is not None else None)


class Refusal(discord.app_commands.AppCommandError):
    """A command refused before it ran (an option it cannot take); the message says what
    to do instead, privately, and nothing changed."""

    def __init__(self, message: Msg) -> None:
        super().__init__(str(message))
        self.message = message


SAVED_NOT_SHOWN = N_(
    "That went through and is saved, but I couldn't show the board. `/ttt board` shows it."
)


async def refuse(interaction: discord.Interaction, message: Msg | str) -> None:
    """Answer privately, in the person's language, or as privately as Discord still
    allows; nothing has changed."""
    _settle_post(interaction, posted=False)
    text = private(interaction).say(message)
    response = interaction.response
    if not response.is_done():
        await response.send_message(text, ephemeral=True)
    elif response.type is discord.InteractionResponseType.deferred_channel_message:
        # A deferred slash command's visibility was fixed when it was deferred (public, for
        # the board it expected), so the answer replaces the "thinking…" placeholder.
        await interaction.edit_original_response(content=text, embed=None, view=None)
    else:
        await interaction.followup.send(text, ephemeral=True)


async def post(interaction: discord.Interaction, **fields) -> None:
    """A new message for the channel in answer to a click (the clicked message stays as
    it is), whether or not the click was deferred meanwhile; counted toward the posting
    limit (see :data:`ON_POST`)."""
    if interaction.response.is_done():  # deferred as an update: a follow-up is a new message
        await interaction.followup.send(**fields)
    else:
        await interaction.response.send_message(**fields)
    _settle_post(interaction, posted=True)


async def in_time(
    interaction: discord.Interaction, request: Awaitable[T], *, private: bool = False
) -> T | None:
    """Run a game-flow request, deferring the interaction if it is slow.

    A deferred slash command's answer is public, unless ``private``.

    Returns its result, or ``None`` after the person was told why it did not happen
    (a :class:`GameError`, or an unforeseen failure, which is also logged).
    """
    # A timer, not a task and a wait: this runs on every move, and most requests take
    # well under a millisecond.
    deferring: list[asyncio.Task[None]] = []
    timer = asyncio.get_running_loop().call_later(
        DEFER_AFTER, lambda: deferring.append(asyncio.ensure_future(defer(interaction, private)))
    )
    try:
        return await request
    except GameError as error:
        await _settle(timer, deferring)
        await refuse(interaction, error.message)
    except StoreUnavailableError as error:  # logged once per outage, by the store
        await _settle(timer, deferring)
        await _apologise(
            interaction, DATABASE_LOST_MIDWAY if error.maybe_written else DATABASE_UNREACHABLE
        )
    except Exception:
        log.exception("request failed before anything was saved")
        await _settle(timer, deferring)
        await _apologise(interaction, NOTHING_CHANGED)
    finally:
        await _settle(timer, deferring)
    return None


async def _settle(timer: asyncio.TimerHandle, deferring: list[asyncio.Task[None]]) -> None:
    """Stop the deferral timer; if it went off, let the deferral finish first, as what
    follows answers in its place."""
    timer.cancel()
    if deferring:
        await deferring.pop()


async def show(interaction: discord.Interaction, render: Callable[[], Awaitable[None]]) -> None:
    """Show what a saved request did; if that fails, say it was saved all the same."""
    try:
        await render()
    except Exception:
        log.exception("a saved request could not be shown")
        await _apologise(interaction, SAVED_NOT_SHOWN)


async def answer(
    interaction: discord.Interaction, *, private: bool = False, **fields
) -> int | None:
    """Send the answer, or put it in place of "thinking…" if the request was deferred.

    Returns the answer's message id (from Discord's reply: no extra call to fetch it).
    A public answer is counted toward the posting limit if the request was checked
    against it (see :data:`ON_POST`).
    """
    if interaction.response.is_done():
        if "file" in fields:
            fields["attachments"] = [fields.pop("file")]
        message_id = (await interaction.edit_original_response(**fields)).id
    else:
        message_id = (
            await interaction.response.send_message(ephemeral=private, **fields)
        ).message_id
    _settle_post(interaction, posted=not private)
    return message_id


async def update(interaction: discord.Interaction, **fields) -> None:
    """Edit the message whose button was clicked, whether or not the click was deferred."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def defer(interaction: discord.Interaction, private: bool = False) -> None:
    """Acknowledge now, answer later (up to 15 minutes); once only."""
    if interaction.response.is_done():  # deferred already (before slow work): once is all
        return
    if interaction.type is discord.InteractionType.component and not private:
        await interaction.response.defer()  # the clicked message is updated when ready
    else:  # a click answered privately (a replay opened) gets a private message of its own
        await interaction.response.defer(thinking=True, ephemeral=private)


def past_deadline(error: BaseException) -> bool:
    """Whether ``error`` is Discord's refusal of a first response past its 3 seconds (a
    stall, or the network): no response of any kind can reach the person now."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


async def acknowledge(interaction: discord.Interaction) -> None:
    """Acknowledge a click whose outcome shows elsewhere (a message the bot edits). Past
    Discord's deadline, what the click did stands: logged as a warning, as any answer
    that came too late."""
    try:
        await interaction.response.defer()
    except discord.NotFound as error:
        if not past_deadline(error):
            raise
        button = (interaction.data or {}).get("custom_id")
        log.warning("the click on %s came past Discord's deadline", button)


async def _apologise(interaction: discord.Interaction, message: Msg) -> None:
    try:
        await refuse(interaction, message)
    except (discord.HTTPException, RuntimeError):  # gone, or the bot is closing: logged above
        log.warning("could not deliver the apology for interaction %s", interaction.id)


class CheckingShown:
    """A big file takes seconds to check: once the answer is deferred, say how far the
    check is, at most every ``every`` seconds (an edit of the deferred answer)."""

    def __init__(self, interaction: discord.Interaction, every: float = 2.0) -> None:
        self.interaction, self.every = interaction, every
        self._loop = asyncio.get_running_loop()
        self._shown = self._loop.time()
        self._editing: asyncio.Task | None = None
        self._over = False

    def __call__(self, done: int, total: int) -> None:
        now = self._loop.time()
        if self._over or not self.interaction.response.is_done() or not total:
            return
        if now - self._shown < self.every or (self._editing and not self._editing.done()):
            return
        self._shown = now
        text = private(self.interaction).t(
            "Checking the file: {percent}% done…", percent=100 * done // total
        )
        self._editing = asyncio.ensure_future(self._edit(text))

    async def _edit(self, text: str) -> None:
        with contextlib.suppress(discord.HTTPException):  # progress only: the answer follows
            await self.interaction.edit_original_response(content=text)

    async def over(self) -> None:
        """No more progress; the one on its way lands before the answer that follows."""
        self._over = True
        if self._editing is not None:
            await self._editing
