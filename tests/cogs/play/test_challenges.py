"""Games between members through Discord: the invitation, its answers, the game the bot
watches and learns from."""

import pytest
from simcord.builders import UserHandle

from tests.cogs.conftest import board_of, buttons_of, message_by_id
from tests.engine.oracle import true_outcome


def button(message, label: str) -> str:
    return next(b.custom_id for row in message.components for b in row.children if b.label == label)


async def challenge(w, challenger, opponent=None, first="me"):
    options = {"first": first}
    if opponent is not None:
        options["opponent"] = opponent
    result = await challenger.slash(w.channel, "ttt challenge", **options)
    assert not result.ephemeral, result.response.content
    return result.response.message


async def accept(w, member, invitation):
    result = await member.click(invitation, custom_id=button(invitation, "Accept"))
    assert not result.ephemeral, result.response.content
    return message_by_id(w.channel, invitation.id)


async def lessons_known(w, member) -> int:
    stats = await member.slash(w.channel, "ttt stats")
    fields = {f.name: f.value for f in stats.response.embeds[0].fields}
    return int(fields["Lessons learned"].replace(",", ""))


async def stored_facts_are_true(w):
    from data import Store

    store = await Store.open(w.env_db_path)
    try:
        facts = await store.load_facts(w.guild.id)
    finally:
        await store.close()
    assert facts and all(true_outcome(position) == outcome for position, outcome in facts)


@pytest.fixture
def w(world, db_path):
    world.env_db_path = db_path
    return world


@pytest.mark.parametrize("click", [False, True], ids=["slash", "buttons"])
async def test_a_won_member_game_is_watched_and_learned_from(w, click):
    invitation = await challenge(w, w.alice, w.bob, first="me")
    assert invitation.content == w.bob.mention  # the challenged member is told
    board = await accept(w, w.bob, invitation)  # the invitation becomes the board
    assert board_of(board) == "........."
    assert f"Your turn, <@{w.alice.id}> (❌)" in board.embeds[0].description
    for n, cell in enumerate([1, 4, 2, 5, 3]):  # alice (X) takes the top row
        member = (w.alice, w.bob)[n % 2]
        if click:
            current = w.channel.last_message
            result = await member.click(current, custom_id=buttons_of(current)[cell]["custom_id"])
        else:
            result = await member.slash(w.channel, "ttt move", cell=cell)
        assert not result.ephemeral, result.response.content
    final = w.channel.last_message
    assert board_of(final) == "XXXOO...."
    assert f"<@{w.alice.id}> (❌) wins" in final.embeds[0].description
    assert not final.content  # the board pings nobody
    learned = next(f for f in final.embeds[0].fields if f.name == "I watched and learned")
    assert "❌ on the top-right corner (3) there wins" in learned.value
    assert await lessons_known(w, w.alice) > 0
    await stored_facts_are_true(w)
    boards = [
        m for m in w.channel.history() if m.embeds and "watching" in (m.embeds[0].description or "")
    ]
    assert [m.id for m in boards] == [final.id]  # one board per game


async def test_a_drawn_member_game_and_the_stats_and_leaderboard_count_it(w):
    board = await accept(w, w.bob, await challenge(w, w.alice, w.bob, first="them"))
    assert f"Your turn, <@{w.bob.id}> (❌)" in board.embeds[0].description
    for n, cell in enumerate([1, 2, 3, 5, 4, 6, 8, 7, 9]):
        result = await (w.bob, w.alice)[n % 2].slash(w.channel, "ttt move", cell=cell)
        assert not result.ephemeral, result.response.content
    assert "It's a draw" in result.response.embeds[0].description
    stats = await w.alice.slash(w.channel, "ttt stats")
    fields = {f.name: f.value for f in stats.response.embeds[0].fields}
    assert "**1 game** between members: 0 with a winner, 1 drawn" in fields["This server"]
    assert "You vs members: 1 draw" in fields["You (alice)"]
    ranked = await w.alice.slash(w.channel, "ttt leaderboard", by="games")
    text = ranked.response.embeds[0].description
    assert f"<@{w.alice.id}>: **1 game**" in text and f"<@{w.bob.id}>: **1 game**" in text


async def test_a_wrong_turn_or_an_onlooker_is_refused_privately(w):
    await accept(w, w.bob, await challenge(w, w.alice, w.bob, first="me"))
    early = await w.bob.slash(w.channel, "ttt move", cell=5)
    assert early.ephemeral and f"<@{w.alice.id}>'s turn" in early.response.content
    onlooker = await w.admin.slash(w.channel, "ttt move", cell=5)
    assert onlooker.ephemeral and "between" in onlooker.response.content
    assert await w.bob.autocomplete(w.channel, "ttt move", "cell", "") == []  # not his turn
    assert len(await w.alice.autocomplete(w.channel, "ttt move", "cell", "")) == 9


async def test_decline_withdraw_and_who_may_answer(w):
    invitation = await challenge(w, w.alice, w.bob)
    for member, label, says in [
        (w.admin, "Accept", "This challenge is for"),
        (w.admin, "Decline", "only they can decline"),
        (w.alice, "Accept", "your own challenge"),
    ]:
        refused = await member.click(invitation, custom_id=button(invitation, label))
        assert refused.ephemeral and says in refused.response.content
    await w.bob.click(invitation, custom_id=button(invitation, "Decline"))
    declined = message_by_id(w.channel, invitation.id)
    assert "declined" in declined.embeds[0].description and not declined.components
    open_one = await challenge(w, w.alice)
    assert not open_one.content  # an open challenge pings nobody
    refused = await w.bob.click(open_one, custom_id=button(open_one, "Withdraw"))
    assert refused.ephemeral and "only" in refused.response.content
    await w.alice.click(open_one, custom_id=button(open_one, "Withdraw"))
    assert "withdrew" in message_by_id(w.channel, open_one.id).embeds[0].description


async def test_anyone_but_the_challenger_may_accept_an_open_challenge(w):
    board = await accept(w, w.admin, await challenge(w, w.alice, first="them"))
    assert f"Your turn, <@{w.admin.id}> (❌)" in board.embeds[0].description


async def test_an_unanswered_challenge_expires_visibly(w):
    invitation = await challenge(w, w.alice, w.bob)
    await w.env.advance_time(65)
    expired = message_by_id(w.channel, invitation.id)
    assert "Expired" in expired.embeds[0].description and not expired.components
    await challenge(w, w.bob, w.alice)  # the channel is free again


@pytest.mark.parametrize(
    ("opponent", "says"),
    [
        ("self", "can't challenge yourself"),
        ("robot", "is a bot"),
        ("me", "/ttt play"),
        ("stranger", "not a member of this server"),
    ],
)
async def test_refused_challenges_are_private_and_post_nothing(w, opponent, says):
    target = {
        "self": w.alice,
        "robot": w.guild.add_member(w.env.create_user("robot", bot=True)),
        "me": UserHandle(w.env, w.env.backend.get_user(w.env.bot.user.id)),
        "stranger": w.env.create_user("stranger"),
    }[opponent]
    result = await w.alice.slash(w.channel, "ttt challenge", opponent=target)
    assert result.ephemeral and says in result.response.content
    assert w.channel.last_message is None


async def test_one_game_or_invitation_per_channel(w):
    await challenge(w, w.alice, w.bob)
    for member, command in [(w.admin, "ttt challenge"), (w.admin, "ttt play")]:
        refused = await member.slash(w.channel, command)
        assert refused.ephemeral and "waiting for an answer" in refused.response.content
    other = w.guild.create_text_channel("other")
    await w.bob.slash(other, "ttt play")
    busy = await w.alice.slash(other, "ttt challenge", opponent=w.admin)
    assert busy.ephemeral and "already playing" in busy.response.content


async def test_an_invitation_and_a_member_game_survive_restarts(w, new_bot):
    invitation = await challenge(w, w.alice, w.bob, first="me")
    await w.env.restart_bot(new_bot())
    board = await accept(w, w.bob, invitation)
    await w.alice.click(board, custom_id=buttons_of(board)[5]["custom_id"])
    await w.env.restart_bot(new_bot())
    moved = await w.bob.slash(w.channel, "ttt move", cell=1)
    assert board_of(moved.response.message) == "O...X...."
    resigned = await w.alice.slash(w.channel, "ttt resign")
    text = resigned.response.embeds[0].description
    assert f"<@{w.alice.id}> resigned: <@{w.bob.id}> wins" in text
    assert not any(f.name == "I watched and learned" for f in resigned.response.embeds[0].fields)


async def test_an_invitations_buttons_work_only_where_it_was_posted(w):
    """A modified client can send an invitation's button from another channel or another
    server (issue 16, item 10): nothing is answered, and no game starts there."""
    import copy

    from simcord import actors as simcord_actors

    invitation = await challenge(w, w.alice, w.bob)
    other_channel = w.guild.create_text_channel("elsewhere")
    elsewhere = w.env.create_guild("Elsewhere")
    stranger_channel = elsewhere.create_text_channel("games")
    stranger = elsewhere.add_member(w.env.create_user("stranger"))
    posted = w.env.backend.get_message(w.channel.id, invitation.id)
    for member, channel in ((w.bob, other_channel), (stranger, stranger_channel)):
        for label in ("Accept", "Decline"):
            forged = copy.deepcopy(posted)
            forged.channel_id = channel.id
            data = {"custom_id": button(invitation, label), "component_type": 2}
            result = await simcord_actors._component_interaction(member, forged, data)
            assert result.ephemeral, result.response
            assert "not in this channel" in result.response.content
    assert w.env.backend.messages[w.channel.id][invitation.id].embeds  # untouched
    running = [
        m for m in w.channel.history() if m.embeds and "watching" in (m.embeds[0].description or "")
    ]
    assert not running  # no game started anywhere
    board = await accept(w, w.bob, invitation)  # it still works where it was posted
    assert board_of(board) == "........."


async def test_an_invitation_that_could_not_be_posted_is_withdrawn(w):
    """Issue 16, item 7: saved, but its message refused by Discord, it blocked the channel
    until it expired, and nobody could see or answer it."""
    w.env.inject_error("POST", "/interactions/*/callback", status=500)
    result = await w.alice.slash(w.channel, "ttt challenge", opponent=w.bob)
    assert result.ephemeral and "withdrew it" in result.response.content
    played = await w.bob.slash(w.channel, "ttt play")  # the channel is free at once
    assert not played.ephemeral, played.response.content


async def test_every_invitation_is_withdrawn_with_withdraw_and_declined_with_decline(w):
    """Issue 17, item 10: a targeted invitation had Accept and Decline, and its challenger
    withdrew it with Decline; an open one had Withdraw."""
    targeted = await challenge(w, w.alice, w.bob)
    labels = [b.label for row in targeted.components for b in row.children]
    assert labels == ["Accept", "Decline", "Withdraw"]
    refused = await w.bob.click(targeted, custom_id=button(targeted, "Withdraw"))
    assert refused.ephemeral and "you may decline it" in refused.response.content
    await w.alice.click(targeted, custom_id=button(targeted, "Withdraw"))
    assert "withdrew" in message_by_id(w.channel, targeted.id).embeds[0].description
    open_one = await challenge(w, w.alice)
    assert [b.label for row in open_one.components for b in row.children] == [
        "Accept",
        "Withdraw",
    ]
