"""A server's settings in the game flow: checked, stored, and applied to its games."""

import pytest

from gameflow import GameError, GuildSettings
from tests.gameflow.test_service import ALICE, CHANNEL, GUILD, reopen


@pytest.mark.parametrize("minutes", [0, 1441, -5, True, 2.5])
async def test_a_timeout_out_of_range_is_refused_saying_the_range(service, minutes):
    with pytest.raises(GameError, match=r"must be 1 to 1,440 minutes.*Nothing was changed"):
        await service.settings.change(GUILD, timeout_minutes=minutes)
    assert service.settings.of(GUILD) == GuildSettings()


async def test_settings_are_stored_and_read_back_by_a_new_process(service, tmp_path):
    await service.settings.change(GUILD, timeout_minutes=3, allow_channel=CHANNEL)
    fresh = await reopen(service, tmp_path)
    assert fresh.settings.of(GUILD) == GuildSettings(3, frozenset({CHANNEL}))
    assert fresh.settings.timeout_seconds(GUILD) == 180
    assert fresh.settings.timeout_seconds(GUILD + 1) == 600  # the default elsewhere
    await fresh.store.close()


async def test_a_refused_change_leaves_every_setting_as_it_was(service):
    await service.settings.change(GUILD, allow_channel=CHANNEL)
    with pytest.raises(GameError, match="only channel"):
        await service.settings.change(GUILD, timeout_minutes=5, disallow_channel=CHANNEL)
    assert service.settings.of(GUILD) == GuildSettings(None, frozenset({CHANNEL}))


async def test_a_game_outside_the_allowed_channels_is_refused(service):
    await service.settings.change(GUILD, allow_channel=CHANNEL + 1)
    with pytest.raises(GameError, match=f"Play in <#{CHANNEL + 1}>"):
        await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    assert service.running.running_game(CHANNEL) is None


async def test_each_server_abandons_idle_games_after_its_own_timeout(service):
    await service.settings.change(GUILD, timeout_minutes=1)
    await service.start(GUILD, CHANNEL, ALICE, bot_first=False)
    await service.start(GUILD + 1, CHANNEL + 1, ALICE, bot_first=False)
    service.test_clock[0] += 61
    expired = await service.expire_idle()
    assert [turn.game.channel_id for turn in expired] == [CHANNEL]
    assert service.running.running_game(CHANNEL + 1) is not None
