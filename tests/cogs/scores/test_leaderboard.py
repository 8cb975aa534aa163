"""/ttt leaderboard through the real bot: top 10, each figure, the caller below it."""

from tests.cogs.play.test_games import play_line
from tests.data.test_store import distinct_positions


async def board(w, member, by=None):
    options = {"by": by} if by else {}
    result = await member.slash(w.channel, "ttt leaderboard", **options)
    assert not result.ephemeral
    return result.response.embeds[0].description


async def test_an_empty_leaderboard_says_how_to_get_on_it(world):
    text = await board(world, world.alice)
    assert "Nobody yet" in text and "You are not on it yet" in text


async def test_a_member_who_beats_the_bot_is_credited_with_its_lessons(world):
    w = world
    result = await play_line(w, w.alice, [1, 4, 7])
    learned = len(await w.env.bot.service.memory(w.guild.id))
    assert learned > 0 and "wins!" in result.response.message.embeds[0].description
    text = await board(w, w.bob)
    assert text.startswith(f"**1.** <@{w.alice.id}>: **{learned} lessons** · 1 win · 1 game")
    assert "You are not on it yet" in text  # bob has taught nothing
    assert (await board(w, w.alice, "wins")).startswith(f"**1.** <@{w.alice.id}>: **1 win**")


async def test_the_caller_outside_the_top_10_sees_their_own_line_below_it(world):
    w = world
    await play_line(w, w.alice, [1, 4, 7])
    store, positions = w.env.bot.store, distinct_positions()
    for player in range(1, 12):  # eleven members, each teaching more than alice
        game = await store.start_game(w.guild.id, 1000 + player, player, "O", [], now=1.0)
        facts = [(next(positions), "loss") for _ in range(20 + player)]
        await store.finish_game(game.id, w.guild.id, [], [4], "bot_won", facts, now=2.0)
    lines = (await board(w, w.alice)).splitlines()
    assert len(lines) == 12 and lines[10] == "…"
    assert lines[0].startswith("**1.** <@11>") and lines[9].startswith("**10.** <@2>")
    assert lines[11].startswith(f"**12.** <@{w.alice.id}>")
