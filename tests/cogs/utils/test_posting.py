"""The posting limit: on its own (it is pure: it is given the time), and through the bot."""

import math

import discord

from cogs.utils.posting import HELD_SECONDS, PostingLimit
from tests.cogs.play.test_games import rematch_of


def test_requests_sent_at_once_cannot_all_pass_before_any_is_counted():
    limit = PostingLimit(3)
    assert [limit.wait(1, 7, 0.0) for _ in range(4)] == [0.0, 0.0, 0.0, 1.0]
    for _ in range(3):
        limit.settle(1, 7, 0.5, posted=True)
    assert limit.wait(1, 7, 30.0) == 30.5  # the oldest post leaves the minute then
    assert limit.wait(1, 7, 60.5) == 0.0
    assert limit.wait(2, 7, 30.0) == limit.wait(1, 8, 30.0) == 0.0  # per channel, per member


def test_a_request_answered_privately_gives_its_place_back():
    limit = PostingLimit(2)
    for _ in range(5):  # refused: nothing to show, say
        assert limit.wait(1, 7, 0.0) == 0.0
        limit.settle(1, 7, 0.0, posted=False)
    assert limit.wait(1, 7, 0.0) == limit.wait(1, 7, 0.0) == 0.0


def test_a_place_held_by_a_request_never_answered_is_freed_in_time():
    limit = PostingLimit(1)
    assert limit.wait(1, 7, 0.0) == 0.0  # its request never ends (a crash, say)
    assert limit.wait(1, 7, HELD_SECONDS - 1) == 1.0
    assert limit.wait(1, 7, HELD_SECONDS + 1) == 0.0


def test_no_limit_holds_nothing():
    limit = PostingLimit(0)
    assert all(limit.wait(1, 7, 0.0) == 0.0 for _ in range(100))
    limit.settle(1, 7, 0.0, posted=True)


# --- through the bot (6 public posts a minute per member and channel) -------------------
async def test_six_quick_games_and_a_look_at_stats_in_a_minute_are_not_refused(world):
    """Issue 26, item 5: after stats and a leaderboard, `/ttt play` was refused. A new game
    (a play, a Rematch) is never counted: one game per channel already limits them."""
    w = world
    for command in ("ttt stats", "ttt leaderboard", "connect4 stats"):
        assert not (await w.alice.slash(w.channel, command)).ephemeral
    for game in range(6):
        if game % 2:  # every other game by the finished board's Rematch
            final = w.channel.last_message
            played = await w.alice.click(final, custom_id=rematch_of(final))
        else:
            played = await w.alice.slash(w.channel, "ttt play")
        assert not played.ephemeral, played.response.content
        resigned = await w.alice.slash(w.channel, "ttt resign")
        assert not resigned.ephemeral, resigned.response.content
    connect4 = await w.alice.slash(w.channel, "connect4 play", board="4x4")
    assert not connect4.ephemeral, connect4.response.content
    await w.alice.slash(w.channel, "connect4 resign")
    for command in ("ttt stats", "ttt leaderboard", "connect4 leaderboard"):  # posts 4 to 6
        shown = await w.alice.slash(w.channel, command)
        assert not shown.ephemeral, shown.response.content
    limited = await w.alice.slash(w.channel, "ttt stats")  # the seventh post: past the rate
    assert limited.ephemeral and "You're posting a lot" in limited.response.content


async def test_the_wait_is_a_discord_timestamp_each_reader_sees_in_their_own_words(world):
    """Issue 26, item 5: "try again in 47 seconds" as a relative timestamp (<t:UNIX:R>),
    which Discord shows in each reader's language and keeps counting down."""
    w = world
    first = discord.utils.utcnow().timestamp()  # SimCord's clock
    for _ in range(6):
        assert not (await w.alice.slash(w.channel, "ttt stats")).ephemeral
    await w.env.advance_time(13)
    limited = await w.alice.slash(w.channel, "ttt leaderboard")
    assert limited.ephemeral
    # free again when the first post leaves the minute
    when = f"<t:{math.ceil(first + 60)}:R>"
    assert f"try again {when}." in limited.response.content, limited.response.content
    await w.env.advance_time(60 - 13)
    assert not (await w.alice.slash(w.channel, "ttt leaderboard")).ephemeral
