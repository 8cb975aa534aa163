"""What both faces say of a game, Discord's and the terminal's: a move in words, a result,
a lesson, a post-mortem's verdict, and how a language joins sentences and lists. Every
text goes through the catalogs (:mod:`i18n`); the terminal says them in English.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import LOSS, WIN, Mark, Verdict, get_game
from i18n import ENGLISH, N_, Language, Msg, Nn_

from .game import Game
from .replays import Learned

# each player's emoji, by what a move is (a cell or a column): the same in both faces
MARKS = {
    "cell": {Mark.X: "❌", Mark.O: "⭕"},
    "column": {Mark.X: "🔴", Mark.O: "🟡"},
}


def mark_of(game: str, mark: Mark) -> str:
    return MARKS[get_game(game).move_word][mark]


def where(game: str, move: int) -> Msg:
    """A move (0-based) in words: "the centre (5)", "column 3"."""
    if get_game(game).move_word == "cell":
        return CELL_NAMES[move]
    return N_("column {column}", column=move + 1)


def short(game: str, move: int) -> Msg | str:
    """A move in the fewest words: "5", "column 3"."""
    return str(move + 1) if get_game(game).move_word == "cell" else where(game, move)


def played(game: str, move: int) -> Msg:
    """What the bot says of its own move: "I played 5.", "I dropped in column 3."."""
    if get_game(game).move_word == "cell":
        return N_("I played {cell}.", cell=move + 1)
    return N_("I dropped in column {column}.", column=move + 1)


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


def member_name(member_id: int | None, lang: Language) -> str:
    """A member's mention; 0 or ``None`` is one who asked to be forgotten."""
    return mention(member_id) if member_id else lang.t("a former member")


def player_name(game: Game, mark: Mark, lang: Language) -> str:
    """The member who plays ``mark`` in a game between members."""
    return member_name(game.member_playing(mark), lang)


def describe_learned(learned: Learned, game: Game, lang: Language) -> str:
    """What the bot learned about the move that led to a step: whether it wins or loses,
    and why (on the classic board, in how many moves)."""
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
        said.append(lang.say(forced(who, moves, mark_of(game.kind, winner))))
    elif learned.plies is None and told in BECAUSE:
        said.append(lang.say(BECAUSE[told].with_args(mark=mark_of(game.kind, winner))))
    return sentences(said, lang)


def others_text(others: tuple[Learned, ...], game: Game, lang: Language) -> list[str]:
    """The other moves of the same position the bot learned about (the classic board's
    post-mortem values each column): those that win, then those that lose."""
    wins = [lang.say(short(game.kind, o.move)) for o in others if o.outcome is WIN]
    losses = [lang.say(short(game.kind, o.move)) for o in others if o.outcome is LOSS]
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
    name = name or (lambda member_id: member_name(member_id, lang))
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


def verdict_text(verdict: Verdict, lang: Language = ENGLISH) -> str:
    """The post-mortem's lesson in a sentence: the bot's move that lost (or let a win go)
    by the game's own count of moves, as the replay and the shared picture number them,
    and the column that would have done better (columns 1 to 7)."""
    move, column, held = verdict.ply + 1, verdict.column + 1, verdict.held + 1
    if verdict.played == "draw":  # a draw in which it let a win go
        return lang.t(
            "At move {move} I dropped in column {column} and let a win go: column {held} "
            "would have won.",
            move=move,
            column=column,
            held=held,
        )
    if verdict.held_outcome == "win":
        return lang.t(
            "At move {move} I dropped in column {column} and lost: column {held} would have won.",
            move=move,
            column=column,
            held=held,
        )
    return lang.t(
        "At move {move} I dropped in column {column} and lost: column {held} would have "
        "held the draw.",
        move=move,
        column=column,
        held=held,
    )


def listed(parts: list[str], lang: Language = ENGLISH) -> str:
    """Items of a list as the language separates them ("3 wins, 2 losses"; Japanese
    writes 、)."""
    text = parts[0]
    for part in parts[1:]:
        text = lang.t("{items}, {item}", items=text, item=part)
    return text


def sentences(parts: list[str], lang: Language = ENGLISH) -> str:
    """Sentences one after the other as the language writes them: a space between them,
    none in Japanese (its 。 ends a sentence)."""
    text = parts[0]
    for part in parts[1:]:
        text = lang.t("{sentence} {next_sentence}", sentence=text, next_sentence=part)
    return text


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>"


CELL_NAMES = (
    N_("the top-left corner ({cell})", cell=1),
    N_("the top edge ({cell})", cell=2),
    N_("the top-right corner ({cell})", cell=3),
    N_("the left edge ({cell})", cell=4),
    N_("the centre ({cell})", cell=5),
    N_("the right edge ({cell})", cell=6),
    N_("the bottom-left corner ({cell})", cell=7),
    N_("the bottom edge ({cell})", cell=8),
    N_("the bottom-right corner ({cell})", cell=9),
)


def suggested_text(game: Game, verdict: Verdict, lang: Language = ENGLISH) -> str | None:
    """Where the post-mortem's move was a column the bot's board model chose, because its
    facts and rules left more than one open (issue 43): said beside the verdict, on the
    board and in the terminal; ``None`` otherwise, or once a restart forgot it."""
    suggestion = game.suggestion_at(verdict.ply)
    if suggestion is None:
        return None
    return lang.t(
        "I had never been here; my lessons suggested column {column}.",
        column=suggestion.column + 1,
    )


def ranking_text(ranking: tuple[tuple[int, float], ...], trained_on: int, lang: Language) -> str:
    """The board model's order of the open columns of a position the bot knows nothing of
    (best first, columns as people number them), and what it learned from."""
    columns = [f"**{column + 1}**" if n == 0 else str(column + 1) for n, (column, _) in
               enumerate(ranking)]  # fmt: skip
    return lang.tn(
        "No column here is known. My lessons from {count} proven position of this server "
        "rank the open columns: {columns}.",
        "No column here is known. My lessons from {count} proven positions of this server "
        "rank the open columns: {columns}.",
        trained_on,
        columns=listed(columns, lang),
    )
