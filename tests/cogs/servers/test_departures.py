"""Where the bot was removed, it calls Discord no more (issue 23, item 9): Discord counts
every refused call (403 Missing Access) toward banning the bot."""

from tests.cogs.play.test_challenges import challenge


async def test_an_invitation_open_when_the_bot_leaves_is_not_edited_at_its_expiry(
    world, simcord_bot
):
    w = world
    await challenge(w, w.alice, w.bob)
    w.env.backend.remove_guild(w.guild.id)  # removed while the invitation waits
    await w.env.advance_time(5)
    assert simcord_bot.get_guild(w.guild.id) is None
    before = len(w.env.http_requests)
    await w.env.advance_time(65)  # past its expiry, and a sweep or two
    calls = [f"{r.method} {r.path}" for r in w.env.http_requests[before:]]
    assert not [c for c in calls if f"/channels/{w.channel.id}/" in c], calls
