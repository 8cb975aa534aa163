"""Each server's own settings: how long a game may sit idle, and where games may start.

All servers' settings are read at start-up and kept; a change is stored before it is
kept, so what an admin is told is what the bot does after a restart too.
"""

from __future__ import annotations

from dataclasses import replace

from data import GuildSettings, Store
from i18n import N_

from .errors import GameError, busy_means_unchanged

__all__ = ["GuildSettings", "ServerSettings", "channel_list"]  # GuildSettings: the stored shape

MIN_TIMEOUT_MINUTES, MAX_TIMEOUT_MINUTES = 1, 1440


def channel_list(channel_ids) -> str:
    return ", ".join(f"<#{c}>" for c in sorted(channel_ids))


class ServerSettings:
    def __init__(self, store: Store, *, default_timeout_seconds: float) -> None:
        self.store = store
        self.default_timeout_seconds = default_timeout_seconds
        self._by_guild: dict[int, GuildSettings] = {}

    async def load(self) -> None:
        self._by_guild = await self.store.guild_settings()

    def forget(self, guild_id: int) -> None:
        """The server's data was deleted: its settings are the defaults again."""
        self._by_guild.pop(guild_id, None)

    def of(self, guild_id: int) -> GuildSettings:
        return self._by_guild.get(guild_id, GuildSettings())

    def timeout_seconds(self, guild_id: int) -> float:
        minutes = self.of(guild_id).timeout_minutes
        return self.default_timeout_seconds if minutes is None else minutes * 60

    def check_channel(self, guild_id: int, channel_id: int) -> None:
        """Refuse a game in a channel this server has not opened to games."""
        allowed = self.of(guild_id).play_channels
        if allowed is not None and channel_id not in allowed:
            raise GameError(
                N_(
                    "This server's games start only in some channels, and this is not one of "
                    "them. Play in {channels}.",
                    channels=channel_list(allowed),
                )
            )

    async def change(
        self,
        guild_id: int,
        *,
        timeout_minutes: int | None = None,
        allow_channel: int | None = None,
        disallow_channel: int | None = None,
        every_channel: bool = False,
    ) -> GuildSettings:
        """Change any of a server's settings at once; if any change is refused, none is made."""
        settings = self.of(guild_id)
        if timeout_minutes is not None:
            settings = replace(settings, timeout_minutes=_checked_timeout(timeout_minutes))
        if every_channel:
            if allow_channel is not None or disallow_channel is not None:
                raise GameError(
                    N_(
                        "Choose either every channel or a channel to allow or disallow, not "
                        "both. Nothing was changed."
                    )
                )
            settings = replace(settings, play_channels=None)
        if allow_channel is not None:
            channels = (settings.play_channels or frozenset()) | {allow_channel}
            settings = replace(settings, play_channels=channels)
        if disallow_channel is not None:
            channels = _without(settings.play_channels, disallow_channel)
            settings = replace(settings, play_channels=channels)
        if settings != self.of(guild_id):
            await self._save(guild_id, settings)
        return settings

    async def _save(self, guild_id: int, settings: GuildSettings) -> GuildSettings:
        with busy_means_unchanged():
            await self.store.save_guild_settings(guild_id, settings)
        self._by_guild[guild_id] = settings
        return settings


def _checked_timeout(minutes: int) -> int:
    if (
        isinstance(minutes, bool)
        or not isinstance(minutes, int)
        or not (MIN_TIMEOUT_MINUTES <= minutes <= MAX_TIMEOUT_MINUTES)
    ):
        raise GameError(
            N_(
                "The idle timeout must be {least} to {most} minutes (a day), not {minutes}. "
                "Nothing was changed.",
                least=MIN_TIMEOUT_MINUTES,
                most=MAX_TIMEOUT_MINUTES,
                minutes=str(minutes),
            )
        )
    return minutes


def _without(channels: frozenset[int] | None, channel_id: int) -> frozenset[int]:
    if channels is None:
        raise GameError(
            N_(
                "Games may start in every channel now, so there is none to take away. "
                "To limit them, allow the channels where they may start. Nothing was changed."
            )
        )
    if channel_id not in channels:
        raise GameError(
            N_(
                "Games already don't start in {channel}; they start in {channels}. "
                "Nothing was changed.",
                channel=f"<#{channel_id}>",
                channels=channel_list(channels),
            )
        )
    if channels == {channel_id}:
        raise GameError(
            N_(
                "{channel} is the only channel where games may start. Allow another first, "
                "or allow every channel. Nothing was changed.",
                channel=f"<#{channel_id}>",
            )
        )
    return channels - {channel_id}
