"""A server's own settings (:class:`GuildSettings`), and the bot's own notes (``meta``:
keys and values, such as the digest of the commands last synced).
"""

from __future__ import annotations

from dataclasses import dataclass

from .shards import Query


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's own settings; ``None`` means the default."""

    timeout_minutes: int | None = None
    play_channels: frozenset[int] | None = None  # None: games may start in any channel


class SettingsQueries:
    """Servers' settings and the bot's notes."""

    _fetch: Query
    _write: Query

    async def guild_settings(self) -> dict[int, GuildSettings]:
        """Every server's own settings (servers with none are left out)."""
        rows = await self._fetch(
            "SELECT guild_id, timeout_minutes, play_channels FROM guild_settings"
        )
        return {
            guild_id: GuildSettings(
                minutes,
                None if channels is None else frozenset(int(c) for c in channels.split()),
            )
            for guild_id, minutes, channels in rows
        }

    async def save_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        channels = settings.play_channels
        await self._write(
            [
                (
                    "INSERT INTO guild_settings (guild_id, timeout_minutes, play_channels)"
                    " VALUES (?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                    " timeout_minutes = excluded.timeout_minutes,"
                    " play_channels = excluded.play_channels",
                    (
                        guild_id,
                        settings.timeout_minutes,
                        None if channels is None else " ".join(map(str, sorted(channels))),
                    ),
                )
            ]
        )

    async def get_meta(self, key: str) -> str | None:
        rows = await self._fetch("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            [
                (
                    "INSERT INTO meta (key, value) VALUES (?, ?)"
                    " ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, value),
                )
            ]
        )
