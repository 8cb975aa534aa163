"""Ratings through the real bot: the finished board's line, stats, leaderboard by:rating,
provisional marks, forget-me, a reset, a restart after a game's end, a forged option and
another language's numbers."""

from types import SimpleNamespace

from engine.ratings import BOT
from tests.cogs.admin.test_admin import yes_label
from tests.cogs.conftest import board_of
from tests.cogs.play.test_games import play_line


def field(message, name: str) -> str | None:
    return next((f.value for f in message.embeds[0].fields if f.name == name), None)


async def stats_ratings(w, member, **options) -> str:
    result = await member.slash(w.channel, "ttt stats", **options)
    return field(result.response.message, "Ratings")


async def rating_board(w, member) -> str:
    result = await member.slash(w.channel, "ttt leaderboard", by="rating")
    assert not result.ephemeral, result.response.content
    return result.response.embeds[0].description


async def resign_after_a_move(w, member):
    """The bot moves first, the member once, the bot again: a resignation then counts."""
    await member.slash(w.channel, "ttt play", first="bot")
    free = board_of(w.channel.last_message).index(".") + 1
    await member.slash(w.channel, "ttt move", cell=free)
    result = await member.slash(w.channel, "ttt resign")
    assert not result.ephemeral, result.response.content
    return result


async def stored(w, player) -> tuple[int, int] | None:
    rated = await w.env.bot.store.ratings(w.guild.id, "tictactoe", [player])
    return rated.get(player)


async def test_beating_the_bot_says_the_change_and_losing_it_falls(world):
    w = world
    won = await play_line(w, w.alice, [1, 4, 7])
    line = field(won.response.message, "Rating")
    mu, _ = await stored(w, w.alice.id)
    assert line == f"<@{w.alice.id}>: +{round(mu / 100) - 1500} → {round(mu / 100):,}?"
    bot_after_win = await stored(w, BOT)
    lost = await resign_after_a_move(w, w.bob)
    assert field(lost.response.message, "Rating").startswith(f"<@{w.bob.id}>: −")
    assert (await stored(w, w.bob.id))[0] < 150000 < mu
    assert (await stored(w, BOT))[0] > bot_after_win[0]  # the winner rose


async def test_the_easy_level_never_moves_and_stats_show_both_ratings(world):
    w = world
    await w.alice.slash(w.channel, "ttt play", first="me", level="easy")
    while w.env.bot.service.running.running_game(w.channel.id) is not None:
        free = board_of(w.channel.last_message).index(".") + 1
        await w.alice.slash(w.channel, "ttt move", cell=free)
    assert await stored(w, w.alice.id) is not None  # the game counted for alice
    assert await stored(w, BOT) is None  # easy is an anchor: no rating of the bot moved
    text = await stats_ratings(w, w.alice)
    assert text.splitlines()[0] == "Mine: 1,500? (+0 in 30 days)"
    assert text.splitlines()[1].startswith("Tic-tac-toe: ")
    assert "? provisional" in text.splitlines()[-1]


async def test_leaderboard_by_rating_ranks_the_established_only(world):
    w = world
    assert "Nobody has an established rating yet" in await rating_board(w, w.alice)
    await play_line(w, w.alice, [1, 4, 7])  # alice: provisional
    store = w.env.bot.store
    for member, mu in ((11, 160000), (12, 170000)):  # two established members
        await store.set_bot_rating(
            w.guild.id, "tictactoe", member, (mu, 9000), event="game", now=1.0
        )
    lines = (await rating_board(w, w.alice)).splitlines()
    assert lines[:2] == ["**1.** <@12>: **1,700**", "**2.** <@11>: **1,600**"]
    # her own line: 1,6xx, below the first two, marked provisional
    assert lines[2] == "…" and lines[3].startswith(f"**2.** <@{w.alice.id}>: **1,6")
    assert lines[3].endswith("?**")


async def test_a_forged_ranking_is_refused_privately(world, monkeypatch):
    """A client that sends a value the choices do not offer (SimCord, as Discord's own
    client, would refuse to: its check is lifted here)."""
    import simcord.interactions

    checked = simcord.interactions.validate_option_value
    monkeypatch.setattr(
        simcord.interactions,
        "validate_option_value",
        lambda command, option, value: (
            value if option["name"] == "by" else checked(command, option, value)
        ),
    )
    w = world
    result = await w.alice.slash(w.channel, "ttt leaderboard", by="elo")
    assert result.ephemeral and "rating" in result.response.content


async def test_forget_me_deletes_the_members_ratings(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    assert await stored(w, w.alice.id) is not None
    question = await w.alice.slash(w.channel, "ttt forget-me")
    await w.alice.click(question.response.message, label="Delete my games")
    assert await stored(w, w.alice.id) is None
    assert "Tic-tac-toe" not in await stats_ratings(w, w.alice)


async def test_a_reset_starts_the_bots_rating_afresh(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    assert "Mine: 1,500?" not in await stats_ratings(w, w.alice)
    question = await w.admin.slash(w.channel, "ttt-admin reset")
    await w.admin.click(question.response.message, label=yes_label(question))
    assert (await stats_ratings(w, w.alice)).startswith("Mine: 1,500?")
    events = [p.event for p in await w.env.bot.store.bot_history(w.guild.id, "tictactoe")]
    assert events == ["game", "reset"]


async def test_a_restart_after_a_games_end_counts_it_once(world, new_bot):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    before = await stored(w, w.alice.id)
    await w.env.restart_bot(new_bot())
    assert await stored(w, w.alice.id) == before
    shown = await w.alice.slash(w.channel, "ttt board")  # no game: nothing ends twice
    assert shown.ephemeral
    assert await stored(w, w.alice.id) == before


async def test_ratings_are_written_the_way_each_language_writes_numbers(simcord_env, locales):
    guild = simcord_env.create_guild("Maison", preferred_locale="fr")
    alice = guild.add_member(simcord_env.create_user("alice"))
    locales[alice.id] = "fr"
    w = SimpleNamespace(env=simcord_env, guild=guild, channel=guild.create_text_channel("jeux"))
    won = await play_line(w, alice, [1, 4, 7])
    line = field(won.response.message, "Cote")
    assert line.startswith(f"<@{alice.id}> : +") and "\u202f" in line  # 1 6xx
