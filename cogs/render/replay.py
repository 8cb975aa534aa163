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
from collections.abc import Callable

import discord

from data import PastGame
from engine import LOSS, WIN, Mark
from gameflow import Game
from gameflow.replays import Learned, ReplayStep
from i18n import ENGLISH, N_, Language, Msg, Nn_

from ..boards import look_of
from .common import COLOURS, NEUTRAL, listed, mention, sentences, step_buttons
from .play import LEVEL_NAMES, BoardView

REPLAY_CLICK = re.compile(
    r"ttt-replay:(?P<game>[0-9]+):(?P<step>[0-9]+):(?P<how>open|first|back|next|last|share)"
)
HISTORY_MENU = "ttt-history"
# the replay's menu of the moves that taught the bot: ttt-lessons:<game>, the step chosen
LESSONS_MENU = "ttt-lessons"
LESSONS_PICK = re.compile(rf"{LESSONS_MENU}:(?P<game>[0-9]+)")

# what the move played at a step does for whoever played it: the step's line above says
# which move it was, so these never name it again
VERDICTS = {WIN: N_("🟩 This move wins."), LOSS: N_("🚫 This move loses.")}


def forced(who: str, moves: int, mark: str) -> Msg:
    """Why, from the fact's own distance when the classic board's post-mortem proved it:
    the winner's moves to the end under perfect play; ``who`` wins: ``you``, ``me`` or
    the player of ``mark`` (a game between members)."""
    if who == "you":
        return Nn_(
            "From here you could force a win in {count} move.",
            "From here you could force a win in {count} moves.",
            moves,
        )
    if who == "me":
        return Nn_(
            "From here I could force a win in {count} move.",
            "From here I could force a win in {count} moves.",
            moves,
        )
    return Nn_(
        "From here {mark} could force a win in {count} move.",
        "From here {mark} could force a win in {count} moves.",
        moves,
        mark=mark,
    )


# why, as the three rules proved it (no distance): a winning reply came, or what it means
BECAUSE = {
    "bot_loses": N_("You then had a winning reply."),
    "you_lose": N_("I then had a winning reply."),
    "mark_loses": N_("{mark} then had a winning reply."),
    "bot_wins": N_("I'll play it again here."),
    "you_win": N_("I'll remember it for when I play your side."),
}


def _member(member_id: int | None, lang: Language) -> str:
    """A member's mention; 0 or ``None`` is one who asked to be forgotten."""
    return mention(member_id) if member_id else lang.t("a former member")


def _who(game: Game, mark: Mark, lang: Language) -> str:
    """The member who plays ``mark`` in a game between members."""
    return _member(game.member_playing(mark), lang)


def describe_learned(learned: Learned, game: Game, lang: Language) -> str:
    """What the bot learned about the move that led to a step: whether it wins or loses,
    and why (on the classic board, in how many moves)."""
    look = look_of(game.kind)
    won = learned.outcome is WIN
    winner = learned.mover if won else learned.mover.other  # whose win it is
    if not game.vs_bot:
        told, who = ("mark_wins" if won else "mark_loses"), "mark"
    elif learned.mover is game.bot_mark:
        told, who = ("bot_wins" if won else "bot_loses"), "me" if won else "you"
    else:
        told, who = ("you_win" if won else "you_lose"), "you" if won else "me"
    said = [lang.say(VERDICTS[learned.outcome])]
    if learned.plies:  # 0: the move made the line itself, which the result says
        moves = (learned.plies + 1) // 2  # the winner's, the last of the plies theirs
        said.append(lang.say(forced(who, moves, look.mark(winner))))
    elif learned.plies is None and told in BECAUSE:
        said.append(lang.say(BECAUSE[told].with_args(mark=look.mark(winner))))
    return sentences(said, lang)


def others_text(others: tuple[Learned, ...], game: Game, lang: Language) -> list[str]:
    """The other moves of the same position the bot learned about (the classic board's
    post-mortem values each column): those that win, then those that lose."""
    look = look_of(game.kind)
    wins = [lang.say(look.short(o.move)) for o in others if o.outcome is WIN]
    losses = [lang.say(look.short(o.move)) for o in others if o.outcome is LOSS]
    told = []
    if wins:
        told.append(
            lang.t("🟩 Other moves here that I now know win: {moves}.", moves=listed(wins, lang))
        )
    if losses:
        told.append(
            lang.t("🚫 Other moves here that I now know lose: {moves}.", moves=listed(losses, lang))
        )
    return told


def result_text(game: Game, lang: Language, name: Callable[[int | None], str] | None = None) -> str:
    """How the game ended, as a watcher says it; ``name``: how a member is named (a
    mention by default; a shared picture writes display names)."""
    name = name or (lambda member_id: _member(member_id, lang))
    if game.result == "bot_won":
        return lang.t("I won.")
    if game.result == "draw":
        return lang.t("A draw.")
    if game.result == "abandoned":
        return lang.t("Abandoned before its end.")
    if game.result == "resigned":
        return lang.t(
            "{player} resigned.", player=name(game.player_id if game.vs_bot else game.ended_by)
        )
    winner = game.player_id if game.result == "player_won" else game.opponent_id
    return lang.t("{player} won.", player=name(winner))


def step_text(shown: ReplayStep, lang: Language) -> str:
    """Whose move it was: at the start, who moves first; then who played what."""
    game, look = shown.game, look_of(shown.game.kind)
    mark = look.mark(shown.mover)
    bot = game.member_playing(shown.mover) is None
    if shown.played is None:
        if bot:
            return lang.t("{mark} I move first.", mark=mark)
        return lang.t(
            "{mark} {player} moves first.", mark=mark, player=_who(game, shown.mover, lang)
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
            mark=mark, player=_who(game, shown.mover, lang), where=look.where(shown.played)
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
            player=_member(game.player_id, lang),
            me=look.mark(game.bot_mark),
        )
        if game.level != "learning":
            sides += " · " + lang.t("{level} level", level=LEVEL_NAMES[game.level])
    else:
        sides = (
            f"{look.mark(Mark.X)} {_who(game, Mark.X, lang)} vs "
            f"{look.mark(Mark.O)} {_who(game, Mark.O, lang)}"
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


def outcome_for(game: Game, member_id: int) -> str:
    """How a game ended for one of its players: won, lost, draw, resigned, abandoned."""
    if game.result in ("draw", "abandoned"):
        return game.result
    if game.result == "resigned":
        resigner = game.player_id if game.vs_bot else game.ended_by
        return "resigned" if resigner == member_id else "won"
    if game.vs_bot:
        return "won" if game.result == "player_won" else "lost"
    return "won" if game.winner_id == member_id else "lost"


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
            member=_member(other, lang),
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
