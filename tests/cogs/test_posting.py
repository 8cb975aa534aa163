"""The posting limit on its own (it is pure: it is given the time)."""

from cogs.posting import HELD_SECONDS, PostingLimit


def test_requests_sent_at_once_cannot_all_pass_before_any_is_counted():
    limit = PostingLimit(3)
    assert [limit.wait(1, 7, 0.0) for _ in range(4)] == [0.0, 0.0, 0.0, 1.0]
    for _ in range(3):
        limit.settle(1, 7, 0.5, posted=True)
    assert limit.wait(1, 7, 30.0) == 30.5  # the oldest post leaves the minute then
    assert limit.wait(1, 7, 60.5) == 0.0
    assert limit.wait(2, 7, 30.0) == limit.wait(1, 8, 30.0) == 0.0  # per channel, per member


def test_a_request_answered_privately_gives_its_place_back():
    limit = PostingLimit(2)
    for _ in range(5):  # refused: nothing to show, say
        assert limit.wait(1, 7, 0.0) == 0.0
        limit.settle(1, 7, 0.0, posted=False)
    assert limit.wait(1, 7, 0.0) == limit.wait(1, 7, 0.0) == 0.0


def test_a_place_held_by_a_request_never_answered_is_freed_in_time():
    limit = PostingLimit(1)
    assert limit.wait(1, 7, 0.0) == 0.0  # its request never ends (a crash, say)
    assert limit.wait(1, 7, HELD_SECONDS - 1) == 1.0
    assert limit.wait(1, 7, HELD_SECONDS + 1) == 0.0


def test_no_limit_holds_nothing():
    limit = PostingLimit(0)
    assert all(limit.wait(1, 7, 0.0) == 0.0 for _ in range(100))
    limit.settle(1, 7, 0.0, posted=True)
