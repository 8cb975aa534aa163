"""/ttt-admin export and import: a server's memory as a file, checked fact by fact."""

import json
import sqlite3

import discord
import pytest

import engine
from engine import Mark, Memory
from tests.cogs.admin.test_admin import lessons
from tests.cogs.play.test_games import play_line
from tests.engine.oracle import true_outcome


def trained_document(games: int = 20_000, seed: int = 1) -> dict:
    memory = Memory()
    engine.train(memory, games, seed=seed)
    return engine.export_memory(memory)


def file_of(document) -> tuple[str, bytes]:
    return ("memory.json", json.dumps(document).encode())


def stored_memory(db_path, guild_id) -> Memory:
    with sqlite3.connect(db_path) as db:
        rows = db.execute("SELECT position, outcome FROM facts WHERE guild_id = ?", (guild_id,))
        return Memory(rows.fetchall())


async def exported(w, admin=None, guild=None):
    """Export through Discord; return the result and the decoded document."""
    result = await (admin or w.admin).slash(w.channel, "ttt-admin export")
    assert result.ephemeral
    (attachment,) = result.response.attachments
    return result, json.loads(w.env.backend.cdn.get(attachment.url))


async def imported(w, document, *, mode=None, confirm=True):
    options = {"file": file_of(document)} | ({"mode": mode} if mode else {})
    question = await w.admin.slash(w.channel, "ttt-admin import", **options)
    assert question.ephemeral, question.response.content
    if not confirm:
        return question
    return await w.admin.click(question.response.message, label="Import")


async def test_export_is_a_private_file_named_after_the_server_and_the_date(world, db_path):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    result, document = await exported(w)
    (attachment,) = result.response.attachments
    today = discord.utils.utcnow().date()  # SimCord's clock
    assert attachment.filename == f"ttt-memory-home-{today.isoformat()}.json"
    assert document["format"] == "ttt-memory" and document["version"] == 1
    assert engine.import_memory(document) == stored_memory(db_path, w.guild.id)
    assert f"{len(document['facts'])} lessons" in result.response.content


async def test_a_memory_moves_to_another_server_by_export_and_import(world, db_path):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    await imported(w, trained_document(500, seed=2))
    _, document = await exported(w)
    other = w.env.create_guild("Elsewhere")
    admins = other.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    channel = other.create_text_channel("games")
    admin = other.add_member(w.env.create_user("other-admin"), roles=[admins])
    question = await admin.slash(channel, "ttt-admin import", file=file_of(document))
    assert f"add **{len(document['facts'])} new lessons**" in question.response.content
    assert stored_memory(db_path, other.id) == Memory()  # asking changed nothing
    done = await admin.click(question.response.message, label="Import")
    assert "Imported (merge)" in done.response.content
    assert not done.response.components
    assert stored_memory(db_path, other.id) == stored_memory(db_path, w.guild.id)


async def test_import_shows_what_would_change_then_changes_exactly_that(world, db_path):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    before = stored_memory(db_path, w.guild.id)
    document = trained_document()
    question = await imported(w, document, confirm=False)
    text = question.response.content
    x_before = engine.analyse(before, Mark.X).losing_lines
    assert f"When I play ❌ (first): {x_before:,} → **0**, unbeatable ✅" in text
    assert stored_memory(db_path, w.guild.id) == before
    done = await w.admin.click(question.response.message, label="Import")
    after = stored_memory(db_path, w.guild.id)
    positions = {f.position for f in before} | {f.position for f in engine.import_memory(document)}
    assert {f.position for f in after} == positions
    assert all(after.outcome(f.position) is f.outcome for f in before)  # merge keeps them
    assert all(after.outcome(f.position) is f.outcome for f in engine.import_memory(document))
    assert "Nobody can beat me here now." in done.response.content
    assert w.env.bot.service.cached_memory(w.guild.id) == after
    assert await lessons(w, w.alice) == len(after)


async def test_replace_takes_the_files_memory_instead(world, db_path):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    small = engine.export_memory(engine.import_memory(trained_document(30, seed=3)))
    done = await imported(w, small, mode="replace")
    assert "Imported (replace)" in done.response.content
    assert stored_memory(db_path, w.guild.id) == engine.import_memory(small)


async def test_cancel_and_silence_import_nothing(world, db_path):
    w = world
    question = await imported(w, trained_document(), confirm=False)
    cancelled = await w.admin.click(question.response.message, label="Cancel")
    assert cancelled.response.content == "Cancelled: nothing was imported."
    question = await imported(w, trained_document(), confirm=False)
    await w.env.advance_time(61)
    assert question.response.content == "No answer in time: nothing was imported."
    assert stored_memory(db_path, w.guild.id) == Memory()


async def test_an_import_question_after_a_restart_asks_to_run_it_again(world, db_path, new_bot):
    w = world
    question = await imported(w, trained_document(), confirm=False)
    await w.env.restart_bot(new_bot())
    late = await w.admin.click(question.response.message, label="Import")
    assert "Run `/ttt-admin import` again" in late.response.content
    assert not late.response.components
    assert stored_memory(db_path, w.guild.id) == Memory()


def forged(document, position, outcome):
    return {**document, "facts": [*document["facts"], {"position": position, "outcome": outcome}]}


REFUSALS = [
    ("not UTF-8", lambda d: "é".encode("latin-1") * 10, "not UTF-8"),
    ("not JSON", lambda d: b"{facts: nope", "not JSON"),
    ("wrong format", lambda d: {**d, "format": "chess"}, '"format" must be'),
    ("wrong version", lambda d: {**d, "version": 3}, "unknown version 3"),
    (
        "too many facts",
        lambda d: {**d, "facts": d["facts"] * 30},
        "at most 10,000",
    ),
    ("too big", lambda d: b" " * (1024 * 1024 + 1), "at most 1 MiB (1,048,576 bytes)"),
    (
        "illegal position",
        lambda d: forged(d, "OO.......", "win"),
        "cannot arise in a legal game",
    ),
    (
        "contradiction",
        lambda d: forged(
            d, d["facts"][0]["position"], "loss" if d["facts"][0]["outcome"] == "win" else "win"
        ),
        "already known as a",
    ),
    ("forged fact", lambda d: forged(d, "O...X....", "loss"), "not proven by the document"),
]


@pytest.mark.parametrize(
    ("bad", "says"), [(r[1], r[2]) for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
async def test_every_bad_file_is_refused_privately_and_changes_nothing(world, db_path, bad, says):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    before = stored_memory(db_path, w.guild.id)
    content = bad(trained_document())
    data = content if isinstance(content, bytes) else json.dumps(content).encode()
    result = await w.admin.slash(w.channel, "ttt-admin import", file=("memory.json", data))
    assert result.ephemeral and says in result.response.content, result.response.content
    assert "Nothing was changed" in result.response.content
    assert not result.response.components  # nothing to confirm
    assert stored_memory(db_path, w.guild.id) == before


async def test_a_merge_that_contradicts_the_servers_memory_is_refused(world, db_path):
    w = world
    document = trained_document()
    fact = document["facts"][0]
    wrong = "loss" if fact["outcome"] == "win" else "win"
    with sqlite3.connect(db_path) as db:  # a memory damaged outside the bot
        db.execute(
            "INSERT INTO facts (guild_id, position, outcome, learned_at) VALUES (?, ?, ?, 0)",
            (w.guild.id, fact["position"], wrong),
        )
    result = await w.admin.slash(w.channel, "ttt-admin import", file=file_of(document))
    assert result.ephemeral and "this server's memory knows it as a" in result.response.content
    assert "importing it to replace my memory" in result.response.content
    assert len(stored_memory(db_path, w.guild.id)) == 1


@pytest.mark.parametrize("command", ["ttt-admin export", "ttt-admin import"])
async def test_brain_tools_are_refused_to_members_even_if_regranted(world, db_path, command):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    before = stored_memory(db_path, w.guild.id)
    assert command not in w.alice.available_commands(w.channel)
    root = next(
        c
        for c in w.env.backend.visible_commands(user_id=w.admin.id, channel_id=w.channel.id)
        if c["name"] == "ttt-admin"
    )
    w.guild.set_command_permissions(int(root["id"]), {w.alice: True})
    options = {"file": file_of(trained_document())} if command.endswith("import") else {}
    result = await w.alice.slash(w.channel, command, **options)
    assert result.ephemeral and "Manage Server" in result.response.content
    assert not result.response.attachments
    assert stored_memory(db_path, w.guild.id) == before


async def test_every_imported_fact_is_true(world, db_path):
    w = world
    await imported(w, trained_document(3000, seed=9))
    memory = stored_memory(db_path, w.guild.id)
    assert len(memory) > 100
    assert all(fact.outcome.value == true_outcome(fact.position) for fact in memory)


@pytest.mark.parametrize(("mode", "style"), [("merge", 1), ("replace", 4)])
async def test_a_merge_is_not_asked_with_a_danger_button(world, mode, style):
    """Issue 17, item 11: the import confirmation was red even for a merge, which destroys
    nothing (1: primary, 4: danger)."""
    w = world
    question = await imported(w, trained_document(2000), mode=mode, confirm=False)
    yes = next(
        b for row in question.response.message.components for b in row.children
        if b.label == "Import"
    )  # fmt: skip
    assert yes.style.value == style
