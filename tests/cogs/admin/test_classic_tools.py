"""Connect Four 7×6's memory through /ttt-admin (issue 25): trained against the perfect
player with a post-mortem after each game the bot did not win, exported with each fact's
distance, and imported into another server only after the solver re-proved every fact."""

import json
import sqlite3

import discord

from engine import Memory
from tests.cogs.admin.test_brain_tools import file_of
from tests.cogs.admin.test_training import until
from tests.engine.test_classic import assert_proven

CLASSIC = "connect4-7x6"


def stored(db_path, guild_id) -> Memory:
    with sqlite3.connect(db_path) as db:
        rows = db.execute(
            "SELECT facts FROM classic_facts WHERE guild_id = ? AND game = ?",
            (guild_id, CLASSIC),
        ).fetchall()
    return Memory.from_stored([blob for (blob,) in rows], game=CLASSIC)


def other_server(w):
    other = w.env.create_guild("Elsewhere")
    admins = other.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    channel = other.create_text_channel("games")
    return other, channel, other.add_member(w.env.create_user("other-admin"), roles=[admins])


async def test_a_classic_memory_is_trained_exported_and_imported_re_proved(world, db_path):
    w = world
    started = await w.admin.slash(
        w.channel, "ttt-admin train", opponent="teacher", games=6, game=CLASSIC
    )
    assert not started.ephemeral, started.response.content
    await until(w, started.response.message.id, "✅")
    trained = stored(db_path, w.guild.id)
    assert len(trained) > 20
    assert any(plies is not None for _key, _value, plies in trained.distances())
    assert_proven(trained)  # every stored fact, its distance too, by the solver

    result = await w.admin.slash(w.channel, "ttt-admin export", game=CLASSIC)
    assert result.ephemeral
    (attachment,) = result.response.attachments
    document = json.loads(w.env.backend.cdn.get(attachment.url))
    assert (document["game"], document["board"]) == ("connect4", "7x6")
    assert len(document["facts"]) == len(trained)
    assert all(len(fact["position"]) == 42 for fact in document["facts"])

    other, channel, admin = other_server(w)
    question = await admin.slash(channel, "ttt-admin import", file=file_of(document), game=CLASSIC)
    assert question.ephemeral, question.response.content
    assert stored(db_path, other.id) == Memory(game=CLASSIC)  # asking changed nothing
    done = await admin.click(question.response.message, label="Import")
    assert "Imported" in done.response.content, done.response.content
    moved = stored(db_path, other.id)
    assert sorted(moved.items()) == sorted(trained.items())  # the same facts
    plies = {key: plies for key, _value, plies in moved.distances()}
    for key, _value, known in trained.distances():
        # a distance kept, or one the re-proof found for a fact the rules proved alone
        assert plies[key] == known if known is not None else plies[key] is not None
    assert_proven(moved)


async def test_a_forged_classic_fact_is_refused_naming_it(world, db_path):
    w = world
    position = "." * 35 + "...X..."  # after X in the centre: a win for X, not a loss
    document = {
        "format": "ttt-memory",
        "version": 1,
        "game": "connect4",
        "board": "7x6",
        "facts": [{"position": position, "outcome": "loss"}],
    }
    refused = await w.admin.slash(
        w.channel, "ttt-admin import", file=file_of(document), game=CLASSIC
    )
    assert refused.ephemeral
    assert "facts[0]" in refused.response.content, refused.response.content
    assert stored(db_path, w.guild.id) == Memory(game=CLASSIC)
