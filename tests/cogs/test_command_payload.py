"""What Discord is sent as the slash commands, and hashed to decide whether to re-sync, stays
as it is: same commands, options, texts, translations and order (see command_payload.py)."""

from __future__ import annotations

from .command_payload import EXPECTED, synced_payload


async def test_the_synced_commands_are_byte_for_byte_the_expected_payload(db_path):
    synced = await synced_payload()
    assert synced == EXPECTED.read_text(encoding="utf-8")
    assert synced.count('"name": "connect4"') == 1  # the payload names every game's group
