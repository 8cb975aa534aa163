"""The welcome said to a new server, and ``/ttt help``: how the bot learns, the commands."""

from __future__ import annotations

import discord

from cogs.utils.render import NEUTRAL
from i18n import ENGLISH, N_, Language

WELCOME = N_(
    "👋 Hello! I play **tic-tac-toe** and **Connect Four** (the classic 7×6 board, or the "
    "minis 4×4 and 5×4), and I learn from every game I lose, so this server will teach me. "
    "Start with `/ttt play` or `/connect4 play`; `/ttt help` shows the rest."
)
# said after the welcome: what the server's games become once I have looked back at them
WELCOME_PUZZLES = N_("The 7×6 games I look back at become puzzles for you: `/connect4 puzzle`.")
HOW_I_LEARN = N_(
    "I know only the rules. When I lose, I remember the position that cost me the game, "
    "proven, and never walk into it again: every server teaches its own bot, until nobody "
    "here can beat me."
)
POST_MORTEM = N_(
    "On Connect Four's classic 7×6 board I look one move ahead: I take a four, block yours, "
    "and never drop a stone under yours. After every game I don't win I also look back: an "
    "exact solver checks every column of every position where I was to move, and of every "
    "position each of your other replies would have made, and I keep what it proves. So "
    "one loss teaches me where I went wrong, which column would have held, and my answer "
    "to each of your other replies."
)
# every game's commands, named once (each is under /ttt and /connect4 alike), then /ttt's own
GAME_COMMANDS = N_("Under `/ttt` (tic-tac-toe) and `/connect4` (Connect Four) alike:")
PLAYER_COMMANDS = (
    (
        ("play",),
        N_(
            "a game against me in this channel. `first`: you or me; `level`: easy or medium "
            "once I'm hard to beat; `board`: Connect Four on 7×6, 4×4 or 5×4"
        ),
    ),
    (
        ("move", "resign", "board"),
        N_("play a cell (1-9) or a column (or click the board), give up, show the game again"),
    ),
    (("challenge",), N_("a game against a member; I watch and learn")),
    (("stats", "leaderboard"), N_("the server's record and yours, and who taught me most")),
    (("brain",), N_("privately, what I know about a position")),
    (("history",), N_("privately, your last games; pick one to watch it again, move by move")),
    (
        ("/connect4 puzzle",),
        N_(
            "privately, a puzzle cut from this server's 7×6 games: find the only column "
            "that wins (or holds)"
        ),
    ),
    (
        ("/ttt forget-me",),
        N_("delete your games and records here, of tic-tac-toe and Connect Four"),
    ),
)
# how ratings work, and why the leaderboard by rating leaves provisional ones out
RATINGS_HELP = N_(
    "Every game played out, or resigned after the second move, moves your rating on its "
    "board ({start} to start); mine moves too at the learning level, while easy and medium "
    "stay fixed, so that a rating means the same in every server. A rating marked ? is "
    "provisional, until about 16 rated games: `leaderboard by:rating` leaves those out.",
    start=1500,
)
# puzzle ratings, lichess's way
PUZZLE_RATINGS_HELP = N_(
    "Puzzles have ratings too: your first answer to one is a game against it, won only if "
    "right without a hint. Once your puzzle rating is no longer provisional, I pose you the "
    "puzzles nearest it."
)
ADMIN_COMMANDS = (
    (("/ttt-admin settings",), N_("where games may start, the idle timeout, a daily puzzle")),
    (("/ttt-admin train",), N_("train me against a practice opponent while games go on")),
    (("/ttt-admin export · import",), N_("move my memory between servers, proof-checked")),
    (("/ttt-admin reset · end-game",), N_("forget what I learned, or end a stuck game")),
    (("/ttt-admin delete-server-data",), N_("delete everything I keep about this server, now")),
)


def help_embed(*, admin: bool, lang: Language = ENGLISH) -> discord.Embed:
    """The private guide of ``/ttt help``: how the bot learns, and the commands the person
    may use (server managers also see theirs)."""
    embed = discord.Embed(
        title=lang.t("How to play me"),
        description=f"{lang.say(HOW_I_LEARN)}\n\n{lang.say(POST_MORTEM)}",
        colour=NEUTRAL,
    )

    def line(names: tuple[str, ...], what) -> str:
        # the colon as each language writes it (French puts a space before it)
        named = " · ".join(f"`{name}`" for name in names)
        return lang.t("{commands}: {what}", commands=named, what=what)

    embed.add_field(
        name=lang.t("Commands"),
        value="\n".join(
            [
                lang.say(GAME_COMMANDS),
                *(line(names, what) for names, what in PLAYER_COMMANDS),
            ]
        ),
        inline=False,
    )
    ratings = f"{lang.say(RATINGS_HELP)}\n{lang.say(PUZZLE_RATINGS_HELP)}"
    embed.add_field(name=lang.t("Ratings"), value=ratings, inline=False)
    if admin:
        embed.add_field(
            name=lang.t("For server managers"),
            value="\n".join(line(names, what) for names, what in ADMIN_COMMANDS),
            inline=False,
        )
    return embed
