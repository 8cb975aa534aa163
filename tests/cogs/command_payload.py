"""The slash commands exactly as ``bot.py``'s ``sync_commands`` hashes them: every command's
payload with its translations, in the tree's order (commands and options in order too).

``python -m tests.cogs.command_payload`` writes :data:`EXPECTED`, the payload as it stands;
``test_command_payload.py`` checks the bot still syncs it byte for byte. Regenerate it only
for a change to the commands that is meant (it changes the sync digest: Discord re-syncs).
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
from pathlib import Path
from types import SimpleNamespace

from simcord import Env

import bot as bot_module

EXPECTED = Path(__file__).with_name("command_payload.json")


def as_text(payload: list[dict]) -> str:
    return json.dumps(payload, sort_keys=True, indent=1, ensure_ascii=False) + "\n"


async def synced_payload() -> str:
    """Start the configured bot on SimCord and keep what ``sync_commands`` hashes (the
    environment names its database)."""
    hashed: list[list[dict]] = []

    def dumps(payload, **options):
        hashed.append(payload)
        return json.dumps(payload, **options)

    real_json = bot_module.json
    bot_module.json = SimpleNamespace(dumps=dumps)
    bot = bot_module.create_bot()
    env = Env(bot)
    try:
        await env.start()
    finally:
        bot_module.json = real_json
        await env.shutdown()
        bot.pictures.close()
        if bot.store is not None:
            await bot.store.close()
    (payload,) = hashed
    return as_text(payload)


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        os.environ["DATABASE_PATH"] = str(Path(home) / "ttt.sqlite3")
        os.environ["SHARD_COUNT"] = "1"
        os.environ.pop("DEV_GUILD_ID", None)
        EXPECTED.write_text(asyncio.run(synced_payload()), encoding="utf-8")
    print(f"wrote {EXPECTED}")


if __name__ == "__main__":
    main()
