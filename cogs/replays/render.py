"""A finished game watched again (only its asker sees it): each position drawn as its board
is, whose move it was, the lesson the bot learned there, and ⏮ ◀ ▶ ⏭; and a member's
history, with a menu that opens a replay.

Every button names its game and the step it shows, so a replay keeps working after a
restart: ``ttt-replay:<game>:<step>:<how>``, ``how`` being ``open`` (the board's Replay:
a new private message), ``share`` (the game's picture, posted for the channel) or the
button that edits the replay in place.
"""

from __future__ import annotations

import re

import discord

from cogs.utils.boards import LEVEL_NAMES, BoardView, look_of
from cogs.utils.render import COLOURS, NEUTRAL, step_buttons
from data import PastGame
from engine import LOSS, WIN, Mark
from gameflow import Game
from gameflow.replays import ReplayStep
from gameflow.words import (
    describe_learned,
    listed,
    member_name,
    mention,
    others_text,
    outcome_for,
    player_name,
    result_text,
)
from i18n import ENGLISH, N_, Language

REPLAY_CLICK = re.compile(
    r"ttt-replay:(?P<game>[0-9]+):(?P<step>[0-9]+):(?P<how>open|first|back|next|last|share)"
)
HISTORY_MENU = "ttt-history"
# the replay's menu of the moves that taught the bot: ttt-lessons:<game>, the step chosen
LESSONS_MENU = "ttt-lessons"
LESSONS_PICK = re.compile(rf"{LESSONS_MENU}:(?P<game>[0-9]+)")


def step_text(shown: ReplayStep, lang: Language) -> str:
    """Whose move it was: at the start, who moves first; then who played what."""
    game, look = shown.game, look_of(shown.game.kind)
    mark = look.mark(shown.mover)
    bot = game.member_playing(shown.mover) is None
    if shown.played is None:
        if bot:
            return lang.t("{mark} I move first.", mark=mark)
        return lang.t(
            "{mark} {player} moves first.", mark=mark, player=player_name(game, shown.mover, lang)
        )
    if bot:
        return f"{mark} {lang.say(look.played(shown.played))}"
    said = (
        N_("{mark} {player} dropped in {where}.")  # as the bot says its own: "I dropped…"
        if look.move_word == "column"
        else N_("{mark} {player} played {where}.")
    )
    return lang.say(
        said.with_args(
            mark=mark, player=player_name(game, shown.mover, lang), where=look.where(shown.played)
        )
    )


def replay_embed(shown: ReplayStep, lang: Language = ENGLISH) -> discord.Embed:
    """One step of a replay: the board first (drawn as the game's board is), then who
    played, where the step is, and what the bot learned there."""
    game, look = shown.game, look_of(shown.game.kind)
    board = shown.board
    drawn = look.rows(board.code, shown.played)
    if game.vs_bot:
        sides = lang.t(
            "{you} {player} vs me {me}",
            you=look.mark(game.player_mark),
            player=member_name(game.player_id, lang),
            me=look.mark(game.bot_mark),
        )
        if game.level != "learning":
            sides += " · " + lang.t("{level} level", level=LEVEL_NAMES[game.level])
    else:
        sides = (
            f"{look.mark(Mark.X)} {player_name(game, Mark.X, lang)} vs "
            f"{look.mark(Mark.O)} {player_name(game, Mark.O, lang)}"
        )
    what = step_text(shown, lang)
    where = (
        lang.t("**Move {move} of {total}**: {what}", move=shown.step, total=shown.total, what=what)
        if shown.step
        else lang.tn(
            "**The start**, before {count} move: {what}",
            "**The start**, before {count} moves: {what}",
            shown.total,
            what=what,
        )
    )
    lines = [
        drawn,
        "",
        f"{sides} · <t:{int(shown.ended_at)}:d>",
        where,
    ]
    if shown.step == shown.total:
        lines.append(result_text(game, lang))
    embed = discord.Embed(
        title=lang.t("{game}: replay", game=look.title),
        description="\n".join(lines),
        colour=COLOURS.get(game.result, NEUTRAL) if shown.step == shown.total else NEUTRAL,
    )
    learned = []
    if shown.lesson is not None:
        learned.append(describe_learned(shown.lesson, game, lang))
    learned += others_text(shown.others, game, lang)
    if learned:
        embed.add_field(
            name=lang.t("📘 What I learned here"), value="\n".join(learned), inline=False
        )
    if shown.taught:
        embed.set_footer(
            text=lang.tn(
                "It taught me something at move {moves}.",
                "It taught me something at moves {moves}.",
                len(shown.taught),
                moves=listed([str(step) for step in shown.taught], lang),
            )
        )
    return embed


def replay_view(shown: ReplayStep, lang: Language = ENGLISH) -> BoardView:
    """⏮ ◀ ▶ ⏭, each naming the step it shows (those going nowhere are disabled), and
    Share, which posts the game's picture for the channel."""
    prefix = f"ttt-replay:{shown.game.id}:"
    buttons = step_buttons(shown.step, shown.total, lambda step, how: f"{prefix}{step}:{how}")
    share = {
        "type": 2,
        "style": discord.ButtonStyle.primary.value,
        "label": lang.t("Share"),
        "emoji": {"id": None, "name": "📤"},
        "custom_id": f"{prefix}{shown.step}:share",
    }
    rows = [{"type": 1, "components": [*buttons, share]}]
    if shown.taught:
        rows.append({"type": 1, "components": [lessons_menu(shown, lang)]})
    return BoardView(rows)


MOST_OPTIONS = 25  # Discord's most in a menu
MARKS = {WIN: "🟩", LOSS: "🚫", None: "📘"}


def lessons_menu(shown: ReplayStep, lang: Language) -> dict:
    """A menu of the moves that taught the bot something, each with what its move does
    (🟩 wins, 🚫 loses, 📘 another move of that position taught it): one pick goes there.
    A long 7×6 game may have more than a menu holds: the picture's move and those whose
    own move taught come first, and the rest as room allows."""
    game, look = shown.game, look_of(shown.game.kind)
    verdicts = dict(zip(shown.taught, shown.verdicts, strict=False))
    lesson = None if shown.marked is None else shown.marked + 1
    ranked = sorted(shown.taught, key=lambda step: (step != lesson, verdicts.get(step) is None))
    options = [
        {
            "label": lang.t(
                "Move {move}: {where}", move=step, where=look.where(game.moves[step - 1])
            )[:100],
            "value": str(step),
            "emoji": {"id": None, "name": MARKS[verdicts.get(step)]},
            "default": step == shown.step,
        }
        for step in sorted(ranked[:MOST_OPTIONS])
    ]
    return {
        "type": 3,
        "custom_id": f"{LESSONS_MENU}:{game.id}",
        "placeholder": lang.t("📘 Go to a move that taught me something")[:150],
        "options": options,
        "min_values": 1,
        "max_values": 1,
    }


RESULTS_FOR = {  # a history line's result, for the member whose history it is
    "won": N_("won"),
    "lost": N_("lost"),
    "draw": N_("drew"),
    "resigned": N_("resigned"),
    "abandoned": N_("abandoned"),
}


def history_line(past: PastGame, member_id: int, lang: Language) -> str:
    """One game: when, which game, against whom, the result, the level, and whether it
    taught the bot."""
    game = Game.from_record(past.game)
    look = look_of(game.kind)
    time, title = str(int(past.ended_at)), look.title
    result = RESULTS_FOR[outcome_for(game, member_id)]
    # the result straight after the game's name, the level after whom: never "level: lost"
    if game.vs_bot:
        line = lang.t(
            "<t:{time}:R> · {game}: **{result}** against me ({level} level)",
            time=time,
            game=title,
            result=result,
            level=LEVEL_NAMES[game.level],
        )
    else:
        other = game.opponent_id if member_id == game.player_id else game.player_id
        line = lang.t(
            "<t:{time}:R> · {game}: **{result}** against {member}",
            time=time,
            game=title,
            result=result,
            member=member_name(other, lang),
        )
    if past.lessons:
        line += " · " + lang.tn(
            "📘 taught me {count} lesson", "📘 taught me {count} lessons", past.lessons
        )
    return line


def history_embed(
    pasts: list[PastGame], member_id: int, games_title: str, lang: Language = ENGLISH
) -> discord.Embed:
    """A member's last finished games here, newest first."""
    if not pasts:
        description = lang.t("No finished games of {member} here yet.", member=mention(member_id))
    else:
        description = "\n".join(
            [
                lang.t("{member}'s last games here, newest first:", member=mention(member_id)),
                "",
                *(f"{n}. {history_line(past, member_id, lang)}" for n, past in enumerate(pasts, 1)),
            ]
        )
    return discord.Embed(
        title=lang.t("📜 History: {games}", games=games_title),
        description=description,
        colour=NEUTRAL,
    )


def history_view(pasts: list[PastGame], member_id: int, lang: Language = ENGLISH) -> BoardView:
    """A menu of the games listed: choosing one opens its replay."""
    if not pasts:
        return BoardView([])
    options = []
    for n, past in enumerate(pasts, 1):
        game = Game.from_record(past.game)
        label = lang.t(
            "{number}. {game}: {result}",
            number=n,
            game=look_of(game.kind).title,
            result=RESULTS_FOR[outcome_for(game, member_id)],
        )
        options.append({"label": label[:100], "value": str(game.id)})
    menu = {
        "type": 3,
        "custom_id": HISTORY_MENU,
        "placeholder": lang.t("Watch a game again")[:150],
        "options": options,
        "min_values": 1,
        "max_values": 1,
    }
    return BoardView([{"type": 1, "components": [menu]}])
