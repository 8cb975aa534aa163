"""A small fake Discord on loopback: the HTTP API and the gateway websocket, just enough for
this bot, so that ``python bot.py`` can run as a real process in tests (crashes, locks,
start-up errors) and benchmarks.

It keeps Discord's rules that matter to us in real time: an interaction must get its first
response within 3 seconds (later, Discord answers 404 "Unknown interaction"), and a
deferred one can then be completed through its token. ``launch_bot`` starts ``bot.py`` in
a child process pointed at it; nothing in the bot knows it is not talking to Discord.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from tests import WORK_SECONDS

ROOT = Path(__file__).resolve().parent.parent
RESPONSE_DEADLINE = 3.0  # seconds Discord gives for the first response to an interaction
MANAGE_GUILD = 1 << 5
EVERYONE = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 16) | (1 << 31)  # view, send, embed, …
EPHEMERAL = 1 << 6
GUILD_MESSAGES = 1 << 9  # the gateway intent for messages in servers

_ids = itertools.count(int(time.time() * 1000) << 22)


def snowflake() -> int:
    return next(_ids)


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    permissions: int = EVERYONE

    def payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "username": self.name, "discriminator": "0",
                "global_name": self.name, "avatar": None, "bot": False}  # fmt: skip


@dataclass
class Elsewhere:
    """A channel the bot is not in, reached only through a member's own install of the
    app: a group DM (``guild_id`` None), or a channel of a server that has not added it."""

    channel_id: int
    guild_id: int | None


@dataclass
class ChannelOption:
    """A channel option's value as a client sends it: the channel's id, and what Discord
    resolved of it (forged, it can name any channel: a DM's, another server's)."""

    id: int
    type: int = 0  # 0 a text channel, 1 a DM, 3 a group DM, 11 a public thread
    guild_id: int | None = None
    parent_id: int | None = None

    def option(self, name: str) -> dict[str, Any]:
        return {"name": name, "type": 7, "value": str(self.id)}

    def resolved(self) -> dict[str, Any]:
        channel = {
            "id": str(self.id),
            "type": self.type,
            "name": "somewhere",
            "permissions": "0",
            "parent_id": self.parent_id and str(self.parent_id),
        }
        if self.guild_id is not None:
            channel["guild_id"] = str(self.guild_id)
        if self.type in (10, 11, 12):
            channel.update(owner_id=str(self.id), member_count=1, message_count=0)
            channel["thread_metadata"] = {
                "archived": False,
                "auto_archive_duration": 60,
                "archive_timestamp": _now(),
                "locked": False,
            }
        return channel


@dataclass
class Interaction:
    """One interaction the fake sent, and everything the bot answered to it."""

    id: int
    token: str
    channel_id: int
    created: float
    source_message_id: int | None = None
    kind: str | None = None  # the first response: message, deferred, deferred_update, …
    responded_at: float | None = None
    ephemeral: bool = False
    message: dict[str, Any] | None = None  # the response message, as last edited
    followups: list[dict[str, Any]] = field(default_factory=list)
    late: list[str] = field(default_factory=list)  # answers refused for coming too late
    choices: list[dict[str, Any]] | None = None  # autocomplete
    done: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def text(self) -> str:
        """Everything the person was shown, as one string."""
        parts = []
        for message in [self.message, *self.followups]:
            if message:
                parts.append(message.get("content") or "")
                parts += [e.get("description", "") for e in message.get("embeds") or []]
        return "\n".join(p for p in parts if p)


class FakeDiscord:
    def __init__(self, *, reject_token: bool = False) -> None:
        self.app_id = snowflake()
        self.bot = User(snowflake(), "tic-tac-toe")
        self.guild_id = snowflake()
        self.channel_ids = [snowflake(), snowflake()]
        self.owner = User(snowflake(), "owner", EVERYONE | MANAGE_GUILD)
        self.reject_token = reject_token
        self.commands: dict[str, dict[str, Any]] = {}  # name -> registered command
        self.synced = asyncio.Event()
        self.messages: dict[int, dict[str, Any]] = {}  # every message by id
        self.interactions: dict[int, Interaction] = {}
        self.ready = asyncio.Event()
        self.requests: list[tuple[str, str]] = []
        self.elsewhere: dict[int, Elsewhere] = {}  # by channel
        self.intents = 0  # what the bot asked for when it identified
        self.chatter_sent = 0  # members' ordinary messages the bot was sent
        self._sockets: list[web.WebSocketResponse] = []
        self._changed = asyncio.Event()  # set at each request of the bot's (see until)
        self._seq = 0
        self._runner: web.AppRunner | None = None
        self.url = ""

    # --- running it ---------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        app = web.Application()
        app.router.add_route("*", "/api/v10/{tail:.*}", self._http)
        app.router.add_get("/gateway", self._gateway)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        return self

    async def stop(self) -> None:
        for ws in list(self._sockets):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def disconnected(self) -> None:
        """Forget the bot's connection (its process was killed)."""
        self.ready.clear()
        self._sockets.clear()

    # --- what the tests do ----------------------------------------------------------
    async def slash(self, user: User, command: str, channel: int | None = None, /, **options):
        """Send a slash command like ``"ttt move"`` with options; return the interaction."""
        root, *path = command.split()
        registered = self.commands[root]
        leaf: dict[str, Any] = {"name": path[-1], "type": 1, "options": [
            v.option(k) if isinstance(v, ChannelOption)
            else {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v}
            for k, v in options.items()
        ]} if path else {}  # fmt: skip
        data = {"id": registered["id"], "name": root, "type": 1,
                "options": [leaf] if leaf else []}  # fmt: skip
        channels = {str(v.id): v.resolved() for v in options.values()
                    if isinstance(v, ChannelOption)}  # fmt: skip
        if channels:
            data["resolved"] = {"channels": channels}
        return await self._interact(2, user, channel or self.channel_ids[0], data)

    async def click(self, user: User, message_id: int, custom_id: str) -> Interaction:
        message = self.messages[message_id]
        data = {"custom_id": custom_id, "component_type": 2}
        return await self._interact(3, user, int(message["channel_id"]), data, message)

    def group_dm(self) -> int:
        """A group DM where a member uses their own install: its channel."""
        channel_id = snowflake()
        self.elsewhere[channel_id] = Elsewhere(channel_id, None)
        return channel_id

    def server_without_the_bot(self) -> Elsewhere:
        """A server that has not added the bot, and one of its channels."""
        place = Elsewhere(snowflake(), snowflake())
        self.elsewhere[place.channel_id] = place
        return place

    async def _interact(self, kind, user, channel_id, data, message=None) -> Interaction:
        await asyncio.wait_for(self.ready.wait(), WORK_SECONDS)
        interaction = Interaction(snowflake(), f"token-{snowflake()}", channel_id, time.monotonic())
        self.interactions[interaction.id] = interaction
        place = self.elsewhere.get(channel_id)
        if place is not None:
            payload = self._elsewhere(interaction, kind, user, place, data)
            if message is not None:
                interaction.source_message_id = int(message["id"])
                payload["message"] = message
            await self.dispatch("INTERACTION_CREATE", payload)
            return interaction
        payload = {
            "id": str(interaction.id), "application_id": str(self.app_id), "type": kind,
            "token": interaction.token, "version": 1, "data": data,
            "guild_id": str(self.guild_id), "channel_id": str(channel_id),
            "channel": self._channel(channel_id), "locale": "en-US", "guild_locale": "en-US",
            "member": {"user": user.payload(), "roles": [], "joined_at": _now(), "deaf": False,
                       "mute": False, "flags": 0, "permissions": str(user.permissions)},
            "app_permissions": str(EVERYONE), "entitlements": [],
            "authorizing_integration_owners": {"0": str(self.guild_id)}, "context": 0,
            "attachment_size_limit": 25 << 20,
        }  # fmt: skip
        if message is not None:
            interaction.source_message_id = int(message["id"])
            payload["message"] = message
        await self.dispatch("INTERACTION_CREATE", payload)
        return interaction

    def _elsewhere(self, interaction, kind, user, place: Elsewhere, data) -> dict[str, Any]:
        """An interaction where only the member's own install of the app is: the bot is
        not a member there (its guild, if any, is not one of the bot's)."""
        payload = {
            "id": str(interaction.id), "application_id": str(self.app_id), "type": kind,
            "token": interaction.token, "version": 1, "data": data,
            "channel_id": str(place.channel_id), "locale": "en-US", "entitlements": [],
            "authorizing_integration_owners": {"1": str(user.id)},
            "app_permissions": str(EVERYONE), "attachment_size_limit": 25 << 20,
        }  # fmt: skip
        if place.guild_id is None:  # a group DM
            payload["context"] = 2
            payload["user"] = user.payload()
            payload["channel"] = {"id": str(place.channel_id), "type": 3, "recipients": []}
        else:
            payload["context"] = 0
            payload["guild_id"] = str(place.guild_id)
            payload["guild"] = {"id": str(place.guild_id), "locale": "en-US", "features": []}
            payload["guild_locale"] = "en-US"
            payload["channel"] = {"id": str(place.channel_id), "type": 0,
                                  "guild_id": str(place.guild_id), "name": "somewhere",
                                  "position": 0, "permission_overwrites": [], "nsfw": False,
                                  "parent_id": None}  # fmt: skip
            payload["member"] = {"user": user.payload(), "roles": [], "joined_at": _now(),
                                 "deaf": False, "mute": False, "flags": 0,
                                 "permissions": str(user.permissions)}  # fmt: skip
        return payload

    async def until(self, condition: Callable[[], bool], timeout: float = WORK_SECONDS) -> None:
        """Until ``condition()`` holds, looked at after each request of the bot's (a message
        sent or edited): work the bot does on its own, such as a post-mortem's lesson,
        however long it takes, up to a safety deadline."""
        deadline = time.monotonic() + timeout
        while not condition():
            self._changed.clear()
            await asyncio.wait_for(self._changed.wait(), max(0.0, deadline - time.monotonic()))

    async def answered(
        self, interaction: Interaction, timeout: float = WORK_SECONDS
    ) -> Interaction:
        """Wait until the bot has finished answering (a deferred one completed, too)."""
        await asyncio.wait_for(interaction.done.wait(), timeout)
        return interaction

    async def chat(self, user: User, channel_id: int, text: str) -> None:
        """A member writes an ordinary message; like Discord, the fake sends it to the bot
        only if the bot asked for servers' messages (the guild_messages intent)."""
        if not self.intents & GUILD_MESSAGES:
            return
        message = self._new_message(channel_id, {"content": text})
        message["author"] = user.payload()
        del self.messages[int(message["id"])]  # not a board: the tests never look for it
        self.chatter_sent += 1
        member = {"roles": [], "joined_at": _now(), "deaf": False, "mute": False, "flags": 0}
        await self.dispatch("MESSAGE_CREATE", {**message, "member": member})

    def board_messages(self, channel_id: int | None = None) -> list[dict[str, Any]]:
        channel = str(channel_id or self.channel_ids[0])
        return [m for m in self.messages.values() if m["channel_id"] == channel and m["embeds"]]

    # --- the gateway ------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self._seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self._seq, "d": data})
        for ws in list(self._sockets):
            await ws.send_str(frame)

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 41250}}))
        async for msg in ws:
            if msg.type != WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            if frame["op"] == 1:  # heartbeat
                await ws.send_str(json.dumps({"op": 11}))
            elif frame["op"] == 2:  # identify
                self.intents = int(frame["d"].get("intents") or 0)
                self._sockets.append(ws)
                await self.dispatch("READY", {
                    "v": 10, "user": {**self.bot.payload(), "bot": True},
                    "guilds": [{"id": str(self.guild_id), "unavailable": True}],
                    "session_id": "fake-session", "resume_gateway_url": self.url + "/gateway",
                    "application": {"id": str(self.app_id), "flags": 0}, "shard": [0, 1],
                })  # fmt: skip
                await self.dispatch("GUILD_CREATE", self._guild())
                self.ready.set()
        if ws in self._sockets:
            self._sockets.remove(ws)
        return ws

    def _channel(self, channel_id: int) -> dict[str, Any]:
        return {"id": str(channel_id), "type": 0, "guild_id": str(self.guild_id),
                "name": f"games-{self.channel_ids.index(channel_id)}", "position": 0,
                "permission_overwrites": [], "nsfw": False, "parent_id": None}  # fmt: skip

    def _guild(self) -> dict[str, Any]:
        return {
            "id": str(self.guild_id), "name": "Fake server", "icon": None,
            "owner_id": str(self.owner.id), "unavailable": False, "member_count": 2,
            "large": False, "features": [], "emojis": [], "stickers": [], "threads": [],
            "roles": [{"id": str(self.guild_id), "name": "@everyone", "permissions": str(EVERYONE),
                       "position": 0, "color": 0, "hoist": False, "managed": False,
                       "mentionable": False}],
            "channels": [self._channel(c) for c in self.channel_ids],
            "members": [{"user": {**self.bot.payload(), "bot": True}, "roles": [],
                         "joined_at": _now(), "deaf": False, "mute": False, "flags": 0}],
            "voice_states": [], "presences": [], "premium_tier": 0, "preferred_locale": "en-US",
            "verification_level": 0, "default_message_notifications": 0,
            "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
            "system_channel_flags": 0, "afk_timeout": 300, "joined_at": _now(),
        }  # fmt: skip

    # --- the HTTP API -------------------------------------------------------------------
    async def _http(self, request: web.Request) -> web.Response:
        try:
            return await self._answer(request)
        finally:
            self._changed.set()

    async def _answer(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["tail"]
        method = request.method
        self.requests.append((method, path))
        body = await self._body(request)
        parts = path.strip("/").split("/")
        if self.reject_token:
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        if path == "/users/@me":
            return _json({**self.bot.payload(), "bot": True})
        if path == "/oauth2/applications/@me":
            return _json({
                "id": str(self.app_id), "name": "tic-tac-toe", "description": "", "icon": None,
                "bot_public": True, "bot_require_code_grant": False, "verify_key": "0" * 64,
                "owner": self.owner.payload(), "flags": 0, "team": None,
            })  # fmt: skip
        if path in ("/gateway/bot", "/gateway"):
            return _json({"url": self.url + "/gateway", "shards": 1,
                                      "session_start_limit": {"total": 1000, "remaining": 1000,
                                                              "reset_after": 0,
                                                              "max_concurrency": 1}})  # fmt: skip
        if parts[0] == "applications" and parts[-1] == "commands":
            if len(parts) == 5 and int(parts[3]) != self.guild_id:  # a server it is not in
                return _json({"message": "Missing Access", "code": 50001}, status=403)
            if method == "PUT":
                for command in body:
                    command.setdefault("id", str(snowflake()))
                    command["application_id"] = str(self.app_id)
                    command["version"] = "1"
                    self.commands[command["name"]] = command
                self.synced.set()
            return _json(list(self.commands.values()))
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._callback(int(parts[1]), parts[2], body)
        if parts[0] == "webhooks":
            return self._webhook(method, parts[2], parts[3:], body)
        if parts[0] == "channels" and int(parts[1]) in self.elsewhere:  # the bot is not there
            return _json({"message": "Missing Access", "code": 50001}, status=403)
        if parts[0] == "channels" and parts[2] == "messages":
            channel_id = int(parts[1])
            if method == "POST":
                return _json(self._new_message(channel_id, body))
            message = self.messages.get(int(parts[3]))
            if message is None:
                return _json({"message": "Unknown Message", "code": 10008}, status=404)
            if method == "PATCH":
                return _json(self._edit(message, body))
            if method == "DELETE":
                del self.messages[int(message["id"])]
                return web.Response(status=204)
            return _json(message)
        return _json({"message": f"fake Discord has no {method} {path}"}, status=404)

    @staticmethod
    async def _body(request: web.Request) -> Any:
        if not request.can_read_body:
            return None
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    return json.loads(await part.text())
            return None
        return await request.json()

    def _callback(self, interaction_id: int, token: str, body: dict[str, Any]) -> web.Response:
        interaction = self.interactions.get(interaction_id)
        if interaction is None or interaction.token != token:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        kind = {4: "message", 5: "deferred", 6: "deferred_update", 7: "update", 8: "choices"}[
            body["type"]
        ]
        if interaction.kind is not None:
            return _json({"message": "already acknowledged", "code": 40060}, status=400)
        if time.monotonic() - interaction.created > RESPONSE_DEADLINE:
            interaction.late.append(kind)
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        interaction.kind, interaction.responded_at = kind, time.monotonic()
        data = body.get("data") or {}
        interaction.ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        resource = None
        if kind in ("message", "deferred"):
            interaction.message = self._new_message(interaction.channel_id, data)
            resource = {"type": body["type"], "message": interaction.message}
        elif kind == "update":
            source = self.messages[interaction.source_message_id]
            interaction.message = self._edit(source, data)
            resource = {"type": 7, "message": interaction.message}
        elif kind == "choices":
            interaction.choices = data.get("choices", [])
        if kind not in ("deferred", "deferred_update"):
            interaction.done.set()
        message_id = interaction.message["id"] if interaction.message else None
        return _json({
            "interaction": {"id": str(interaction.id), "type": 2,
                            "response_message_id": message_id,
                            "response_message_loading": kind == "deferred",
                            "response_message_ephemeral": interaction.ephemeral},
            "resource": resource,
        })  # fmt: skip

    def _webhook(self, method: str, token: str, rest: list[str], body: Any) -> web.Response:
        interaction = next((i for i in self.interactions.values() if i.token == token), None)
        if interaction is None or interaction.kind is None:
            return _json({"message": "Unknown Webhook", "code": 10015}, status=404)
        if rest == ["messages", "@original"]:
            if interaction.message is None:  # a deferred update: the original is the source
                interaction.message = self.messages[interaction.source_message_id]
            if method == "PATCH":
                interaction.message = self._edit(interaction.message, body)
                interaction.done.set()
            elif method == "DELETE":
                self.messages.pop(int(interaction.message["id"]), None)
                return web.Response(status=204)
            return _json(interaction.message)
        if not rest and method == "POST":
            followup = self._new_message(interaction.channel_id, body)
            interaction.followups.append(followup)
            interaction.done.set()
            return _json(followup)
        return _json({"message": "fake Discord: no such webhook route"}, status=404)

    def _new_message(self, channel_id: int, data: dict[str, Any]) -> dict[str, Any]:
        message = {
            "id": str(snowflake()), "channel_id": str(channel_id), "guild_id": str(self.guild_id),
            "author": {**self.bot.payload(), "bot": True}, "content": data.get("content") or "",
            "timestamp": _now(), "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
            "embeds": data.get("embeds") or [], "components": data.get("components") or [],
            "pinned": False, "type": 0, "flags": int(data.get("flags") or 0),
        }  # fmt: skip
        if (place := self.elsewhere.get(channel_id)) is not None:
            message["guild_id"] = str(place.guild_id) if place.guild_id else None
            if place.guild_id is None:
                del message["guild_id"]
        self.messages[int(message["id"])] = message
        return message

    def _edit(self, message: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        for key in ("content", "embeds", "components"):
            if key in data:
                message[key] = (
                    data[key] if data[key] is not None else ([] if key != "content" else "")
                )
        message["edited_timestamp"] = _now()
        return message


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py parses a body as JSON only for exactly "application/json", no charset
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


async def launch_bot(
    fake: FakeDiscord,
    home: Path,
    *args: str,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    launcher: str | None = None,
    output: int = asyncio.subprocess.PIPE,
    root: Path = ROOT,
) -> asyncio.subprocess.Process:
    """Start ``bot.py`` as a real process against ``fake``, its home folder ``home``.

    ``bot.py`` is copied into ``home`` so that its ``.env`` and relative database path
    resolve there, exactly as they would beside a deployed bot. ``launcher``: Python code
    to start it with instead of the plain one (it gets the same arguments); ``output``:
    where its stdout and stderr go; ``root``: the checkout whose bot runs.
    """
    home.mkdir(parents=True, exist_ok=True)
    (home / "bot.py").write_bytes((root / "bot.py").read_bytes())
    child_env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(root),
        "HOME": str(home),
        "DISCORD_TOKEN": "fake.token.value",
        **(env or {}),
    }
    return await asyncio.create_subprocess_exec(
        sys.executable, "-c", launcher or _LAUNCHER, fake.url, str(home / "bot.py"), *args,
        cwd=cwd or home, env=child_env, stdout=output, stderr=output,
    )  # fmt: skip


# Points discord.py at the fake, then runs bot.py exactly as `python bot.py` would.
_LAUNCHER = """
import os, runpy, sys
import discord.gateway, discord.http, yarl
discord.http.Route.BASE = sys.argv[1] + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[1] + "/gateway")
sys.argv = sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


_MARKS = {"❌": "X", "⭕": "O", "❎": "X", "🅾️": "O"}  # a winning line's marks are in squares


def board_of(message: dict[str, Any]) -> str | None:
    """The 9-character position shown in a board message (a live board's buttons, a finished
    one's emoji grid), or ``None`` if it is no board."""
    if not message or not message.get("embeds"):
        return None
    cells = [
        button
        for row in message.get("components") or []
        for button in row.get("components") or []
        if (button.get("custom_id") or "").startswith("ttt:")
    ]
    if len(cells) == 9:
        return "".join(_MARKS.get((b.get("emoji") or {}).get("name"), ".") for b in cells)
    rows = (message["embeds"][0].get("description") or "").splitlines()[:3]
    symbols = [s for row in rows for s in row.split()]
    if len(symbols) != 9:
        return None
    return "".join(_MARKS.get(s, ".") for s in symbols)


def game_id_of(message: dict[str, Any]) -> int | None:
    """The game a board message belongs to, from its buttons' custom ids."""
    for row in message.get("components") or []:
        for button in row.get("components") or []:
            parts = (button.get("custom_id") or "").split(":")
            if parts[0] in ("ttt", "ttt-rematch"):  # a finished board may have Rematch only
                return int(parts[1])
    return None


def lessons_known(message: dict[str, Any]) -> int | None:
    """The "I know N lessons" figure in a board's footer."""
    footer = ((message.get("embeds") or [{}])[0].get("footer") or {}).get("text", "")
    words = footer.split()
    return int(words[2]) if len(words) > 2 and words[2].isdigit() else None
