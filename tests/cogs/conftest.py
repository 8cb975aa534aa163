"""Drive the real bot (``create_bot``) through SimCord, on a real SQLite file per test."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import discord
import pytest
from simcord import Env

from bot import create_bot

# How long SimCord lets the bot settle after each step. Its 5 s are overrun on a busy
# machine by steps that wait for a worker process (a 7×6 post-mortem, an import's
# re-proof, a picture): a settle ends as soon as the bot's work is done, so this is a
# safety deadline only. Under 60 s: a real timer due before it is waited for, and a
# question's expiry (60 s) must stay parked, as it is in Discord until the clock moves.
SETTLE_SECONDS = 45.0


def _at_least_the_envs_own(settle):
    """SimCord settles a bot's start and restart within a fixed 5 s (``_attach_bot``,
    simcord 3.2), whatever the env's ``settle_timeout``; a restarted bot resumes its
    pending post-mortems there, which a busy machine takes longer to do. So no settle is
    given less than its env's own window."""

    @functools.wraps(settle)
    async def settling(self, *, timeout=None, **options):
        if timeout is not None:
            timeout = max(timeout, self.settle_timeout)
        return await settle(self, timeout=timeout, **options)

    return settling


Env._settle_internal = _at_least_the_envs_own(Env._settle_internal)


def pytest_collection_modifyitems(items):
    """Every SimCord test here gets :data:`SETTLE_SECONDS` (a test's own ``simcord``
    marker keeps its other options)."""
    for item in items:
        if "simcord_env" not in getattr(item, "fixturenames", ()):
            continue
        marker = item.get_closest_marker("simcord")
        options = dict(marker.kwargs) if marker else {}
        options.setdefault("settle_timeout", SETTLE_SECONDS)
        item.add_marker(pytest.mark.simcord(**options), append=False)


@pytest.fixture
def db_path(tmp_path, monkeypatch, request):
    path = tmp_path / "ttt.sqlite3"
    monkeypatch.setenv("DATABASE_PATH", str(path))
    # a process for pictures only where a test asks for them: each costs a second of CPU
    monkeypatch.setenv("TTT_PICTURES", "on" if "pictures" in request.fixturenames else "off")
    monkeypatch.setenv("GAME_TIMEOUT_MINUTES", "10")
    monkeypatch.setenv("SHARD_COUNT", "1")  # SimCord runs a sharded bot with a given count
    monkeypatch.delenv("DEV_GUILD_ID", raising=False)
    return path


@pytest.fixture
async def bots(db_path):
    """Every bot a test builds; their databases and picture processes are closed at the
    end."""
    made = []
    yield made
    for bot in made:
        bot.pictures.close()
        if bot.store is not None:
            await bot.store.close()


@pytest.fixture
def new_bot(bots):
    def make():
        bot = create_bot()
        bots.append(bot)
        return bot

    return make


@pytest.fixture
def simcord_bot(new_bot):
    return new_bot()


@pytest.fixture
def pictures(simcord_bot):
    """The bot's pictures (asking for them starts their process with the bot)."""
    return simcord_bot.pictures


@pytest.fixture
def world(simcord_env):
    """A server with a channel, two players and an admin."""
    env = simcord_env
    guild = env.create_guild("Home")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return SimpleNamespace(
        env=env,
        guild=guild,
        channel=guild.create_text_channel("games"),
        alice=guild.add_member(env.create_user("alice")),
        bob=guild.add_member(env.create_user("bob")),
        admin=guild.add_member(env.create_user("admin"), roles=[admins]),
        admins=admins,
    )


EMOJI = {"❌": "X", "⭕": "O", "❎": "X", "🅾️": "O"}  # a winning line's marks are in squares
KEYCAPS = {f"{n}\N{VARIATION SELECTOR-16}\N{COMBINING ENCLOSING KEYCAP}": "." for n in range(1, 10)}


def board_of(message) -> str:
    """Read a tic-tac-toe board back into 9 characters of X, O and '.', checking its shape:
    a live board's buttons (they are the board), a finished board's emoji grid."""
    cells = [b for row in message.components for b in row.children if b.custom_id[:4] == "ttt:"]
    if cells:
        assert len(cells) == 9, message.components
        return "".join(EMOJI[str(b.emoji)] if b.emoji else "." for b in cells)
    text = message.embeds[0].description
    rows = [line.split() for line in text.splitlines()[:3]]
    assert all(len(row) == 3 for row in rows), text
    symbols = [s for row in rows for s in row]
    assert all(s in EMOJI or s in KEYCAPS for s in symbols), text
    return "".join(EMOJI.get(s, ".") for s in symbols)


def buttons_of(message) -> dict[int, dict]:
    """Cell number -> {'disabled': bool, 'custom_id': str} for the board's 3x3 buttons."""
    cells = {}
    for row in message.components:
        for button in row.children:
            if not button.custom_id.startswith("ttt:"):
                continue  # a finished board's Rematch
            cell = int(button.custom_id.rsplit(":", 1)[1])
            cells[cell] = {"disabled": button.disabled, "custom_id": button.custom_id}
    assert sorted(cells) == list(range(1, 10))
    return cells


def is_over(message) -> bool:
    """A tic-tac-toe board whose game is over: its cells' buttons are gone (Rematch stays)."""
    return not any(
        b.custom_id.startswith("ttt:") for row in message.components for b in row.children
    )


def message_by_id(channel, message_id: int):
    """A channel message as it is now (after any edits)."""
    return next(m for m in channel.history() if m.id == message_id)


async def simultaneous_slashes(env, *calls):
    """Deliver several slash commands to the bot before it handles any of them.

    ``actor.slash`` waits for the bot to settle after each command, so true races need
    SimCord's own building blocks (the same steps ``slash`` takes, minus the settling).
    Each call is ``(actor, channel, "group sub", {options})``.
    """
    from simcord import actors, interactions
    from simcord.enums import AppCommandType, InteractionType
    from simcord.results import InteractionResult

    records = []
    for actor, channel, name, options in calls:
        parts = name.split()
        root = actors._resolve_visible_command(
            actor, channel.id, parts[0], AppCommandType.CHAT_INPUT
        )
        leaf, nesting = interactions.walk_to_subcommand(root, parts[1:])
        leaf_options, _resolved = interactions.build_options(
            actor, name, leaf, options, channel_id=channel.id
        )
        data = {
            "id": root["id"],
            "name": root["name"],
            "type": AppCommandType.CHAT_INPUT,
            "options": interactions.nest_options(root, nesting, leaf_options),
        }
        record, payload = interactions.base_payload(
            env.backend,
            type=InteractionType.APPLICATION_COMMAND,
            channel_id=channel.id,
            guild_id=actor.guild.id,
            user_id=actor.id,
            data=data,
        )
        env.backend.emit("INTERACTION_CREATE", payload)
        records.append(record)
    await env.settle()
    return [InteractionResult(env, record) for record in records]


@pytest.fixture
def locales(monkeypatch):
    """Who speaks what: ``locales[user_id] = "de"`` makes SimCord's interactions of that
    user carry Discord's ``locale`` "de" (SimCord always sends "en-US"), and every
    interaction in a server carries that server's ``preferred_locale`` as ``guild_locale``,
    as Discord does."""
    import simcord.interactions

    spoken: dict[int, str] = {}
    base_payload = simcord.interactions.base_payload

    def payload_in_their_language(backend, **fields):
        record, payload = base_payload(backend, **fields)
        payload["locale"] = spoken.get(fields["user_id"], "en-US")
        if fields.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(fields["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", payload_in_their_language)
    return spoken
