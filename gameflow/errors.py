"""What the game flow refuses, and store failures turned into true answers for people."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from data import StoreBusyError, StoreUnavailableError
from i18n import N_, Msg


class GameError(Exception):
    """A request the flow refuses; its ``message`` tells the person what to do instead, in
    their language (``str(error)``: in English).

    Nothing has changed when it is raised.
    """

    def __init__(self, message: Msg | str) -> None:  # a str: for the terminal, in English
        super().__init__(str(message))
        self.message = message


# a channel named by a server's tools (an option, or an id in a custom id) that is not
# that server's: a DM's, a group DM's or another server's, named by a forged request
ANOTHER_PLACES_CHANNEL = N_(
    "That channel is not one of this server's, so nothing was changed. Name a channel here."
)
DATABASE_BUSY = N_(
    "I couldn't save that: my database is busy right now, so nothing was played or changed. "
    "Try again in a moment."
)
DATABASE_UNREACHABLE = N_(
    "I can't reach my database right now, so nothing was played or changed. "
    "Please try again in a moment."
)
DATABASE_LOST_MIDWAY = N_(
    "I lost my database while saving that, so I can't tell yet whether it was saved. "
    "Once I can reach it again, the board (`/ttt board` or `/connect4 board`) shows the "
    "game as it really is."
)


@contextmanager
def busy_means_unchanged() -> Iterator[None]:
    """A write that timed out behind another program's lock, or that could not reach the
    database, changed nothing: say so."""
    try:
        yield
    except StoreBusyError:
        raise GameError(DATABASE_BUSY) from None
    except StoreUnavailableError as error:
        raise GameError(
            DATABASE_LOST_MIDWAY if error.maybe_written else DATABASE_UNREACHABLE
        ) from None
