"""A member's own install of the app (issue 18, part 2), where SimCord cannot go: a group
DM, and a server that has not added the bot. There the bot is no member, so everything
must go through the interaction's own responses: the fake Discord refuses any other call
in those channels, as Discord does, and the tests check none was even tried."""

import sqlite3

from gameflow.places import own_bot
from tests.fakediscord import User, board_of


async def play(fake, user, channel, *moves, by="button"):
    """A game against the bot in ``channel``, the buttons of its board clicked in turn
    (``by="slash"``: ``/ttt move``, each answered with a new board)."""
    turn = await fake.answered(await fake.slash(user, "ttt play", channel))
    for move in moves:
        if by == "slash":
            turn = await fake.answered(await fake.slash(user, "ttt move", channel, cell=move))
            assert turn.kind == "message" and not turn.ephemeral, turn.text
            continue
        board = turn.message
        custom_id = next(
            b["custom_id"]
            for row in board["components"]
            for b in row["components"]
            if b.get("custom_id", "").endswith(f":{move}")
        )
        turn = await fake.answered(await fake.click(user, int(board["id"]), custom_id))
        assert turn.kind == "update" and not turn.ephemeral  # the clicked board, in place
    return turn


def tried_to_reach(fake, channel_id) -> list[tuple[str, str]]:
    """Calls outside the interactions' own responses; and none of those went past
    Discord's 5 follow-ups per interaction for such apps."""
    assert all(len(i.followups) <= 5 for i in fake.interactions.values())
    return [(m, p) for m, p in fake.requests if p.startswith(f"/channels/{channel_id}")]


def lessons(path, place: int) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM facts WHERE guild_id = ?", (place,)).fetchone()[0]


async def test_a_group_dm_game_teaches_the_players_own_bot_through_responses_only(fake, bot):
    group = fake.group_dm()
    ann, ben = User(4001, "ann"), User(4002, "ben")
    won = await play(fake, ann, group, 1, 4, 7)  # the naive bot loses down the left column
    await play(fake, ann, group, 1, 4, 7, by="slash")  # again, each move a new board
    assert board_of(won.message) == "XOOX..X.."
    assert "wins!" in won.text
    assert lessons(bot, own_bot(ann.id)) > 0  # her own bot learned, nobody else's
    assert lessons(bot, fake.guild_id) == 0
    # another player in the same group DM plays with his own bot
    again = await fake.answered(await fake.slash(ben, "ttt play", group))
    assert again.message["embeds"][0]["footer"]["text"] == (
        "Your own bot knows nothing of tic-tac-toe yet: beat it to teach it."
    )
    refused = await fake.answered(await fake.slash(ben, "ttt challenge", group))
    assert refused.ephemeral and "Challenges between members need a server" in refused.text
    assert tried_to_reach(fake, group) == []


async def test_a_server_without_the_bot_teaches_that_servers_memory(fake, bot):
    place = fake.server_without_the_bot()
    cid = User(4003, "cid")
    await play(fake, cid, place.channel_id, 1, 4, 7, by="slash")  # each a new board
    assert lessons(bot, place.guild_id) > 0  # the server's own memory: its community's
    second = await fake.answered(await fake.slash(cid, "ttt play", place.channel_id))
    assert second.kind == "message"  # a new board; the old one stays, as only Discord may
    stats = await fake.answered(await fake.slash(cid, "ttt stats", place.channel_id))
    assert stats.message["embeds"][0]["title"] == "Tic-tac-toe in this server"
    refused = await fake.answered(await fake.slash(cid, "ttt challenge", place.channel_id))
    assert refused.ephemeral and "A server manager can add me" in refused.text
    assert tried_to_reach(fake, place.channel_id) == []
    # kept 30 days after its last game (then deleted as a server the bot left is)
    with sqlite3.connect(bot) as db:
        marked = db.execute(
            "SELECT count(*) FROM departures WHERE guild_id = ?", (place.guild_id,)
        ).fetchone()[0]
    assert marked == 1
