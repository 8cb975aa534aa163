"""Play and manage the bot from a terminal, without a Discord token: ``python -m terminal``."""
