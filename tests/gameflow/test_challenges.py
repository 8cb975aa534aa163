"""Games between members, without Discord: invitations, their answers, the games."""

import random

import pytest

from data import MemberRecord, Store
from gameflow import CHALLENGE_SECONDS, GameError, GameService
from tests.engine.oracle import true_outcome

GUILD, CHANNEL, ALICE, BOB, CAROL = 1, 10, 100, 200, 300


async def accepted(service, *, first="me", opponent=BOB, by=BOB):
    challenge = await service.challenges.issue(GUILD, CHANNEL, ALICE, opponent, first)
    return await service.challenges.accept(challenge.id, by)


async def test_an_accepted_challenge_is_a_game_the_bot_does_not_play_in(service):
    turn = await accepted(service)  # alice moves first: she plays X
    game = turn.game
    assert (game.player_id, game.opponent_id, game.player_mark.name) == (ALICE, BOB, "X")
    with pytest.raises(GameError, match=f"<@{ALICE}>'s turn"):
        await service.move(CHANNEL, BOB, 5)
    turn = await service.move(CHANNEL, ALICE, 5)
    assert turn.bot_cell is None and turn.game.moves == (4,)  # no reply from the bot
    with pytest.raises(GameError, match="between"):
        await service.move(CHANNEL, CAROL, 1)
    turn = await service.move(CHANNEL, BOB, 1)
    assert turn.game.moves == (4, 0)


@pytest.mark.parametrize(
    ("cells", "result", "winner"),
    [
        ([1, 4, 2, 5, 3], "player_won", ALICE),  # alice (X) takes the top row
        ([1, 4, 2, 5, 9, 6], "opponent_won", BOB),  # bob (O) takes the middle row
        ([1, 2, 3, 5, 4, 6, 8, 7, 9], "draw", None),
    ],
)
async def test_a_member_game_played_out_teaches_only_true_facts(service, cells, result, winner):
    await accepted(service)
    for n, cell in enumerate(cells):
        turn = await service.move(CHANNEL, (ALICE, BOB)[n % 2], cell)
    game = turn.game
    assert (game.result, game.winner_id) == (result, winner)
    assert bool(turn.lessons) == (winner is not None)  # a won game always teaches
    memory = await service.memory(GUILD)
    assert all(f.outcome.value == true_outcome(f.position) for f in memory)
    assert await service.store.member_record(GUILD) == MemberRecord(
        1, int(winner is not None), int(winner is not None), int(winner is None), 0
    )
    assert (await service.store.record(GUILD)).games == 0  # not a game against the bot


async def test_a_resignation_or_an_abandoned_member_game_teaches_nothing(service):
    await accepted(service)
    await service.move(CHANNEL, ALICE, 1)
    turn = await service.resign(CHANNEL, BOB)
    assert (turn.game.result, turn.game.winner_id, turn.lessons) == ("resigned", ALICE, ())
    await accepted(service)
    service.test_clock[0] += 601
    (expired,) = await service.expire_idle()
    assert expired.game.result == "abandoned" and not expired.lessons
    assert len(await service.memory(GUILD)) == 0
    assert await service.store.member_record(GUILD, BOB) == MemberRecord(2, 0, 1, 0, 1)


async def test_random_first_lets_either_member_open(service):
    service.challenges.coin = random.Random(0)
    openers = set()
    for _ in range(12):
        turn = await accepted(service, first="random")
        openers.add(turn.game.member_playing(turn.game.board.turn))
        await service.resign(CHANNEL, ALICE)
    assert openers == {ALICE, BOB}


async def test_them_first_gives_x_to_the_member_who_accepts(service):
    turn = await accepted(service, first="them", opponent=None, by=CAROL)
    assert turn.game.member_playing(turn.game.board.turn) == CAROL


@pytest.mark.parametrize(
    ("opponent", "kwargs", "says"),
    [
        (ALICE, {}, "can't challenge yourself"),
        (BOB, {"opponent_is_bot": True}, "is a bot"),
        (BOB, {"opponent_is_me": True}, "/ttt play"),
    ],
)
async def test_refused_invitations_change_nothing(service, opponent, kwargs, says):
    with pytest.raises(GameError, match=says):
        await service.challenges.issue(GUILD, CHANNEL, ALICE, opponent, "me", **kwargs)
    assert await service.store.pending_challenges() == []


async def test_one_game_or_invitation_per_channel(service):
    await service.challenges.issue(GUILD, CHANNEL, ALICE, BOB, "me")
    with pytest.raises(GameError, match="waiting for an answer"):
        await service.challenges.issue(GUILD, CHANNEL, CAROL, None, "me")
    with pytest.raises(GameError, match="waiting for an answer"):
        await service.start(GUILD, CHANNEL, CAROL, bot_first=False)
    await service.start(GUILD, CHANNEL + 1, CAROL, bot_first=False)
    with pytest.raises(GameError, match="already playing"):
        await service.challenges.issue(GUILD, CHANNEL + 1, ALICE, None, "me")


async def test_only_the_right_member_may_answer(service):
    addressed = await service.challenges.issue(GUILD, CHANNEL, ALICE, BOB, "me")
    for member, answer, says in [
        (CAROL, "accept", "for <@200>"),
        (CAROL, "decline", "only they can decline"),
        (ALICE, "accept", "your own challenge"),
    ]:
        with pytest.raises(GameError, match=says):
            await getattr(service.challenges, answer)(addressed.id, member)
    assert (await service.challenges.decline(addressed.id, BOB))[1] == "declined"
    with pytest.raises(GameError, match=r"no longer open.*`/ttt challenge` or `/connect4"):
        await service.challenges.accept(addressed.id, BOB)  # gone: its game is not known
    open_one = await service.challenges.issue(GUILD, CHANNEL, ALICE, None, "me")
    with pytest.raises(GameError, match="only <@100> can withdraw"):
        await service.challenges.decline(open_one.id, CAROL)
    assert (await service.challenges.decline(open_one.id, ALICE))[1] == "withdrawn"


async def test_an_invitation_expires_after_a_minute(service):
    challenge = await service.challenges.issue(GUILD, CHANNEL, ALICE, BOB, "me")
    service.test_clock[0] += CHALLENGE_SECONDS - 1
    assert await service.challenges.expire_due() == []
    service.test_clock[0] += 1
    with pytest.raises(GameError, match="expired"):
        await service.challenges.accept(challenge.id, BOB)
    assert [c.id for c in await service.challenges.expire_due()] == [challenge.id]
    assert await service.store.pending_challenges() == []
    await service.challenges.issue(GUILD, CHANNEL, CAROL, None, "me")  # the channel is free


async def test_an_invitation_and_a_member_game_survive_a_restart(service, tmp_path):
    challenge = await service.challenges.issue(GUILD, CHANNEL, ALICE, BOB, "me")
    await service.challenges.attach_message(challenge, 555)
    await service.start(GUILD, CHANNEL + 1, CAROL, bot_first=False)
    store = await Store.open(service.store_path)
    fresh = GameService(store, timeout_seconds=600, clock=service.clock)
    await fresh.load()
    assert fresh.challenges.waiting(CHANNEL).message_id == 555
    turn = await fresh.challenges.accept(challenge.id, BOB)
    await fresh.move(CHANNEL, ALICE, 5)
    await store.close()
    again = GameService(await Store.open(service.store_path), timeout_seconds=600)
    await again.load()
    game = again.running.running_game(CHANNEL)
    assert (game.id, game.opponent_id, game.moves) == (turn.game.id, BOB, (4,))
    await again.move(CHANNEL, BOB, 1)
    await again.store.close()


async def test_two_members_accepting_an_open_challenge_at_once_start_one_game(service):
    import asyncio

    challenge = await service.challenges.issue(GUILD, CHANNEL, ALICE, None, "me")
    results = await asyncio.gather(
        service.challenges.accept(challenge.id, BOB),
        service.challenges.accept(challenge.id, CAROL),
        return_exceptions=True,
    )
    started = [r for r in results if not isinstance(r, Exception)]
    assert len(started) == 1
    assert all(isinstance(r, GameError) for r in results if r not in started)
    assert service.running.running_game(CHANNEL).opponent_id == started[0].game.opponent_id


async def test_forget_me_takes_a_member_out_of_games_with_others(service):
    await accepted(service)
    for n, cell in enumerate([1, 4, 2, 5, 3]):
        await service.move(CHANNEL, (ALICE, BOB)[n % 2], cell)
    await accepted(service)
    with pytest.raises(GameError, match="running"):
        await service.servers.forget_player(GUILD, BOB)
    await service.resign(CHANNEL, BOB)
    _, members = await service.servers.forget_player(GUILD, BOB)
    assert members.games == 2
    assert await service.store.member_record(GUILD, ALICE) == MemberRecord(2, 2, 0, 0, 0)
    top, _ = await service.scoreboard.leaderboard(GUILD, ALICE)
    assert [row.player_id for row in top] == [ALICE]


async def test_an_invitation_never_posted_is_withdrawn_at_the_next_start(service, tmp_path):
    """Issue 16, item 7: a process stopped between storing an invitation and posting it
    left it holding the channel, unseen, until it expired."""
    from tests.gameflow.test_service import reopen

    await service.challenges.issue(1, 10, 100, 200, "me")  # stored, never posted
    posted = await service.challenges.issue(1, 11, 100, 200, "me")
    await service.challenges.attach_message(posted, 555)
    service.test_clock[0] += 15
    fresh = await reopen(service, tmp_path)
    assert [c.channel_id for c in fresh.challenges.all()] == [11]
    turn = await fresh.start(1, 10, 300, bot_first=False)  # the channel is free
    assert turn.game.running
    await fresh.store.close()
