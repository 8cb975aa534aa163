"""The bot in its players' languages (issue 18, part 1): a private answer in the member's
language, a public message in the server's, English otherwise; and the slash commands'
localizations as Discord receives them."""

import re
from types import SimpleNamespace

import pytest

from i18n import LANGUAGES
from tests.cogs.conftest import board_of


def server(env, locale: str, locales: dict, *, member_locale: str):
    guild = env.create_guild("Heim", preferred_locale=locale)
    alice = guild.add_member(env.create_user("alice"))
    locales[alice.id] = member_locale
    return SimpleNamespace(guild=guild, channel=guild.create_text_channel("spiele"), alice=alice)


async def test_a_german_server_plays_learns_refuses_and_counts_in_german(simcord_env, locales):
    s = server(simcord_env, "de", locales, member_locale="de")
    started = await s.alice.slash(s.channel, "ttt play")
    embed = started.response.embeds[0]
    assert embed.title == "Tic-Tac-Toe: ❌ du gegen mich ⭕"
    assert f"Du bist dran, {s.alice.mention} (❌): wähle ein freies Feld." in embed.description
    # nothing learned yet: an invitation, not a count of zero (issue 26, item 1)
    assert embed.footer.text == (
        "Hier habe ich noch nichts gelernt: Besiege mich, um mir etwas beizubringen."
    )

    await s.alice.slash(s.channel, "ttt move", cell=1)
    refused = await s.alice.slash(s.channel, "ttt move", cell=1)
    assert refused.ephemeral
    assert refused.response.content.startswith("Feld 1 ist besetzt. Freie Felder: ")

    await s.alice.slash(s.channel, "ttt move", cell=4)
    won = await s.alice.slash(s.channel, "ttt move", cell=7)  # the naive bot loses
    board = won.response.message
    assert board_of(board) == "XOOX..X.."
    embed = board.embeds[0]
    assert f"🎉 {s.alice.mention} gewinnt! Daraus lerne ich." in embed.description
    learned = next(f for f in embed.fields if f.name == "Was ich gelernt habe")
    assert (
        "In dieser Stellung setze ich nie wieder auf die obere rechte Ecke (3): "
        "Das führt zur Niederlage." in learned.value
    )
    assert re.fullmatch(r"Ich kenne hier [0-9]+ Lektionen in Tic-Tac-Toe\.", embed.footer.text)
    rematch = board.components[-1].children[0]
    assert rematch.label == "Revanche"

    stats = (await s.alice.slash(s.channel, "ttt stats")).response.embeds[0]
    assert stats.title == "Tic-Tac-Toe auf dem Server Heim"
    fields = {f.name: f.value for f in stats.fields}
    assert fields["Dieser Server"] == "**1 Partie** gegen mich: 1 Sieg"
    assert fields["Du (alice)"] == "Du gegen mich: 1 Sieg"  # one point of view
    assert "Gelernte Lektionen" in fields


async def test_a_japanese_server_plays_and_refuses_in_japanese(simcord_env, locales):
    s = server(simcord_env, "ja", locales, member_locale="ja")
    started = await s.alice.slash(s.channel, "connect4 play")
    assert started.response.embeds[0].title.startswith("四目並べ 7×6")  # the default board
    refused = await s.alice.slash(s.channel, "ttt move", cell=5)
    assert refused.ephemeral
    assert "`/connect4 move`" in refused.response.content
    assert refused.response.content.startswith("このチャンネルの対局は四目並べ 7×6です")
    stats = (await s.alice.slash(s.channel, "connect4 stats")).response.embeds[0]
    assert stats.title == "Heimでの四目並べ 7×6"
    assert "このサーバー" in {f.name for f in stats.fields}


async def test_a_private_answer_speaks_the_member_and_a_board_speaks_the_server(
    simcord_env, locales
):
    s = server(simcord_env, "en-US", locales, member_locale="fr")
    started = await s.alice.slash(s.channel, "ttt play")
    assert started.response.embeds[0].title == "Tic-tac-toe: ❌ you vs me ⭕"  # the channel's
    await s.alice.slash(s.channel, "ttt move", cell=5)
    refused = await s.alice.slash(s.channel, "ttt move", cell=5)
    assert refused.response.content.startswith("La case 5 est prise.")  # hers
    help_ = (await s.alice.slash(s.channel, "ttt help")).response.embeds[0]
    assert help_.title == "Comment jouer contre moi"


async def test_a_language_without_a_catalog_gets_english(simcord_env, locales):
    s = server(simcord_env, "hu", locales, member_locale="hu")
    started = await s.alice.slash(s.channel, "ttt play")
    assert started.response.embeds[0].title == "Tic-tac-toe: ❌ you vs me ⭕"


def localized(node: dict, where: str, missing: list[str]) -> None:
    """Every description and choice of a command payload, translated in every catalog's
    language; no name translated (see cogs.translator)."""
    assert "name_localizations" not in node or not node["name_localizations"], where
    if "description" in node:
        have = set(node.get("description_localizations") or {})
        if not set(LANGUAGES) <= have:
            missing.append(f"{where}: {sorted(set(LANGUAGES) - have)}")
    for choice in node.get("choices") or ():
        have = set(choice.get("name_localizations") or {})
        if not set(LANGUAGES) <= have:
            missing.append(f"{where} choice {choice['name']}: {sorted(set(LANGUAGES) - have)}")
    for option in node.get("options") or ():
        localized(option, f"{where} {option['name']}", missing)


async def test_the_synced_commands_carry_every_language(world):
    synced = world.env.backend.commands[None]
    assert {name for name, _ in synced} == {"ttt", "connect4", "ttt-admin"}
    assert len(LANGUAGES) >= 10
    missing: list[str] = []
    for command in synced.values():
        localized(command, f"/{command['name']}", missing)
    assert not missing
    ttt = synced[("ttt", 1)]
    assert ttt["description_localizations"]["de"] == (
        "Spiel Tic-Tac-Toe gegen einen Bot, der aus seinen Niederlagen lernt"
    )


def option(synced, group: str, command: str, name: str) -> dict:
    found = synced[(group, 1)]
    (cmd,) = (o for o in found["options"] if o["name"] == command)
    (opt,) = (o for o in cmd["options"] if o["name"] == name)
    return opt


async def test_choices_say_who_and_what_in_every_language(world):
    """Issue 26, items 2 and 16: ``first`` offers "you (default)" and "the bot", each
    translated; descriptions name no English value; "drawn by lot" (who moves first) and
    "random moves" (a practice opponent) are told apart in every language."""
    synced = world.env.backend.commands[None]
    for group in ("ttt", "connect4"):
        first = option(synced, group, "play", "first")
        assert [(c["name"], c["value"]) for c in first["choices"]] == [
            ("you (default)", "me"),
            ("the bot", "bot"),
        ]
        assert first["description"] == "Who moves first"
        for choice in first["choices"]:
            said = choice["name_localizations"]
            assert set(LANGUAGES) <= set(said) and len(set(said.values())) > 1
    lots = option(synced, "ttt", "challenge", "first")["choices"][2]
    opponent = option(synced, "ttt-admin", "train", "opponent")
    assert [c["name"] for c in opponent["choices"]] == [
        "random moves",
        "self-play: I play both sides",
        "a teacher who plays the lines that beat me",
    ]
    random_moves = opponent["choices"][0]["name_localizations"]
    assert all(lots["name_localizations"][lang] != random_moves[lang] for lang in LANGUAGES)
    mode = option(synced, "ttt-admin", "import", "mode")
    for described in (opponent, mode, option(synced, "ttt", "play", "level")):
        for value in (c["value"] for c in described["choices"]):
            assert f"{value}:" not in described["description"]
            assert f"{value} (" not in described["description"]


@pytest.mark.parametrize("locale", ["es-419", "en-GB", "pt-BR"])
def test_a_discord_locale_finds_its_language(locale):
    from i18n import language

    expected = {"es-419": "es-ES", "en-GB": "en-US", "pt-BR": "pt-BR"}[locale]
    assert language(locale).code == expected


@pytest.mark.parametrize("locale", ["fr", "es-ES", "pt-BR", "it", "pl", "ru", "tr", "nl"])
async def test_a_member_gets_the_board_a_refusal_and_stats_in_their_language(
    simcord_env, locales, locale
):
    """The issue's test of done: the board, refusals and stats in the server's and the
    member's language (each as its catalog says it, and not in English)."""
    from i18n import ENGLISH, language

    lang = language(locale)
    s = server(simcord_env, locale, locales, member_locale=locale)
    started = await s.alice.slash(s.channel, "ttt play")
    said = started.response.embeds[0].description
    your_turn = lang.t(
        "Your turn, {player} ({mark}): {prompt}.",
        player=s.alice.mention,
        mark="❌",
        prompt=lang.t("pick a free cell"),
    )
    assert your_turn in said and "Your turn" not in said
    await s.alice.slash(s.channel, "ttt move", cell=5)
    refused = await s.alice.slash(s.channel, "ttt move", cell=5)
    taken = lang.t("Cell {cell} is taken. Free cells: {free}.", cell=5, free="2, 3, 4, 6, 7, 8, 9")
    assert (
        refused.response.content
        == taken
        != ENGLISH.t(
            "Cell {cell} is taken. Free cells: {free}.", cell=5, free="2, 3, 4, 6, 7, 8, 9"
        )
    )
    stats = (await s.alice.slash(s.channel, "ttt stats")).response.embeds[0]
    assert stats.title == lang.t("{game} in {server}", game=lang.t("Tic-tac-toe"), server="Heim")
    assert lang.t("This server") in {f.name for f in stats.fields}


async def test_a_timeout_notice_speaks_the_servers_language(
    simcord_env, locales, new_bot, monkeypatch
):
    monkeypatch.setenv("GAME_TIMEOUT_MINUTES", "1")
    await simcord_env.restart_bot(new_bot())
    s = server(simcord_env, "de", locales, member_locale="de")
    await s.alice.slash(s.channel, "ttt play")
    await simcord_env.advance_time(2 * 60)
    notice = s.channel.last_message.content
    assert notice.startswith(f"⌛ Die Partie von {s.alice.mention} wurde nach 1 Minute ohne Zug")
    assert "`/ttt play` startet eine neue." in notice


def test_durations_and_numbers_read_as_each_language_says_them():
    from cogs.utils.render import duration_text
    from i18n import LANGUAGES

    assert duration_text(150, LANGUAGES["de"]) == "2,5 Minuten"
    assert duration_text(1, LANGUAGES["ru"]) == "1 секунду"
    assert duration_text(5 * 60, LANGUAGES["pl"]) == "5 minut"
    assert duration_text(0.2, LANGUAGES["ja"]) == "1秒未満"
