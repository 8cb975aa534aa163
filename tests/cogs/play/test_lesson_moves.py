"""One count of moves (issue 35): the classic board's lesson names the game's own move,
the one the replay's step of that number shows; its Replay opens there, a replay's menu
jumps to each move that taught, and the shared picture rings that same move."""

import copy
import re

from simcord import actors as simcord_actors

from tests.cogs.conftest import message_by_id
from tests.cogs.play.test_reviews import lose_a_classic_game, review_field
from tests.cogs.replays.test_replays import button, learned
from tests.cogs.test_languages import server

LESSON = re.compile(
    r"At move (?P<move>\d+) I dropped in column (?P<column>\d) and lost: column \d would have"
)


async def a_lost_classic_game(w, bot):
    """A 7×6 game the bot (first) loses to perfect play, its post-mortem done: the final
    board and the lesson's move and column."""
    final = await lose_a_classic_game(w.alice, w.channel, bot.service, w.env)
    found = LESSON.match(review_field(final))
    assert found, review_field(final)
    return final, int(found["move"]), int(found["column"])


def menu_of(replay):
    """The replay's menu of the moves that taught, as Discord received it."""
    return next(c for row in replay.components for c in row.children if c.type.value == 3)


async def test_the_lesson_names_the_replays_step_and_its_replay_opens_there(world, simcord_bot):
    w = world
    final, move, column = await a_lost_classic_game(w, simcord_bot)
    # the bot moved first: its moves are the game's odd ones, and its fourth is move 7, not 4
    assert move % 2 == 1
    replay_button = button(final, "🎞️")
    assert replay_button.label == f"Replay move {move}"
    # for whoever comes by: which game, who played whom, the result, the lesson in a line
    assert final.embeds[0].title == "Connect Four (7×6)"
    assert f"🟡 <@{w.alice.id}> vs me 🔴\n🎉 <@{w.alice.id}> wins!" in final.embeds[0].description
    # how far the win was is the replay's to tell
    assert "From there" not in review_field(final) and "What I learned" not in {
        f.name for f in final.embeds[0].fields
    }
    shown = await w.bob.click(final, custom_id=replay_button.custom_id)
    assert shown.ephemeral
    replay = shown.response.message
    description = replay.embeds[0].description
    assert (
        f"**Move {move} of " in description and f"🔴 I dropped in column {column}." in description
    )
    told = learned(replay)
    # what that move does, from its own distance, never the step's line again
    assert told.startswith("🚫 This move loses. From here you could force a win in ")
    assert "column" not in told.split("\n")[0]
    # the picture Share posts rings that same move (0-based)
    step = await simcord_bot.service.replays.step(
        int(replay_button.custom_id.split(":")[1]), 0, w.guild.id, w.channel.id
    )
    assert step.marked == move - 1


async def test_the_menu_jumps_to_each_move_that_taught_and_survives_a_restart(
    world, simcord_bot, new_bot
):
    w = world
    final, move, _column = await a_lost_classic_game(w, simcord_bot)
    replay = (await w.alice.click(final, custom_id=button(final, "🎞️").custom_id)).response.message
    replay = (await w.alice.click(replay, custom_id=button(replay, "⏮️").custom_id)).response.message
    assert "**The start**" in replay.embeds[0].description
    menu = menu_of(replay)
    options = {int(o.value): o for o in menu.options}
    assert move in options and options[move].emoji.name == "🚫"
    assert all(o.label.startswith(f"Move {n}: column ") for n, o in options.items())
    await w.env.restart_bot(new_bot())  # the menu names its game: a restart changes nothing
    jumped = await w.alice.select(replay, [str(move)], custom_id=menu.custom_id)
    assert jumped.response is not None  # the private replay, edited in place
    shown = jumped.response.message
    assert f"**Move {move} of " in shown.embeds[0].description
    assert learned(shown).startswith("🚫 This move loses.")
    chosen = {o.value for o in menu_of(shown).options if o.default}
    assert chosen == {str(move)}  # the menu shows where the replay is


async def forged_pick(w, member, message, custom_id: str, value: str):
    """A modified client's pick in a menu no message offered."""
    forged = copy.deepcopy(w.env.backend.get_message(message.channel.id, message.id))
    forged.components[0]["components"] = [  # a menu fills its row
        {"type": 3, "custom_id": custom_id, "options": [{"label": "x", "value": value}]}
    ]
    data = {"custom_id": custom_id, "component_type": 3, "values": [value]}
    return await simcord_actors._component_interaction(member, forged, data)


async def test_a_forged_pick_is_answered_and_changes_nothing(world, simcord_bot):
    w = world
    final, _move, _column = await a_lost_classic_game(w, simcord_bot)
    game_id = int(button(final, "🎞️").custom_id.split(":")[1])
    not_a_move = await forged_pick(w, w.alice, final, f"ttt-lessons:{game_id}", "x")
    assert not_a_move.ephemeral and "That menu names no move" in not_a_move.response.content
    beyond = await forged_pick(w, w.alice, final, f"ttt-lessons:{game_id}", "99999999999999999999")
    assert "**Move " in beyond.response.embeds[0].description  # held to the last, as a button
    # past what int() reads (Python reads at most 4,300 digits), and a digit int() refuses
    absurd = await forged_pick(w, w.alice, final, f"ttt-lessons:{game_id}", "9" * 5000)
    assert "**Move " in absurd.response.embeds[0].description
    for value in ("²", "٣", "1²"):
        odd = await forged_pick(w, w.alice, final, f"ttt-lessons:{game_id}", value)
        assert odd.ephemeral and "That menu names no move" in odd.response.content, value
    gone = await forged_pick(w, w.alice, final, f"ttt-lessons:{2**63}", "1")
    assert gone.ephemeral and "That game is gone" in gone.response.content
    assert message_by_id(w.channel, final.id).embeds[0].to_dict() == final.embeds[0].to_dict()


async def test_japanese_says_replay_and_looking_back_with_two_words(
    simcord_env, locales, simcord_bot
):
    """振り返り is the post-mortem's alone; the Replay button and the history say リプレイ."""
    s = server(simcord_env, "ja", locales, member_locale="ja")
    final = await lose_a_classic_game(s.alice, s.channel, simcord_bot.service, simcord_env)
    names = [f.name for f in final.embeds[0].fields]
    replay = button(final, "🎞️").label
    assert "振り返り" in names and replay.endswith("手目からリプレイ") and "振り返" not in replay
    history = await s.alice.slash(s.channel, "connect4 history")
    menu = history.response.message.components[0].children[0]
    assert "振り返" not in menu.placeholder and "リプレイ" not in history.response.embeds[0].title
    shown = await s.alice.select(history.response.message, [menu.options[0].value])
    assert shown.response.embeds[0].title.endswith("：リプレイ")
