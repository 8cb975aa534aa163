"""What can go wrong in storage, as errors whose text says what happened and what to do."""


class StoreError(Exception):
    """A storage failure; ``str(error)`` says what happened and what to do."""


class StoreOpenError(StoreError):
    """The database file cannot be opened or created; nothing was written."""


class StoreBusyError(StoreError):
    """Another connection held the database past the wait; the write did not happen."""


class StoreUnavailableError(StoreError):
    """The database cannot be reached (down, restarting, the connection lost). Nothing
    was stored, unless ``maybe_written``: the connection was lost while its transaction
    committed, and whether it did cannot be known until the database answers again."""

    def __init__(self, message: str, *, maybe_written: bool = False) -> None:
        super().__init__(message)
        self.maybe_written = maybe_written


class StaleGameError(StoreError):
    """A game write lost a race: the game changed since it was read. Nothing was written."""


class SchemaTooNewError(StoreError):
    """The database was written by a newer version of the bot."""


class UniqueViolation(StoreError):
    """A write would break a uniqueness rule (such as one running game per channel)."""
