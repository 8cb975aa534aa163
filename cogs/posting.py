"""How often a member may post in a channel: the limit on public posts (new games,
challenges, boards, stats, leaderboards). Pure: it is given the time."""

from __future__ import annotations

import collections


class PostingLimit:
    """At most ``per_minute`` public posts per member and channel in any 60 seconds (0: no
    limit). Only members who posted in the last minute are kept."""

    def __init__(self, per_minute: int) -> None:
        self.per_minute = per_minute
        self._posts: dict[tuple[int, int], collections.deque[float]] = {}

    def wait(self, channel_id: int, member_id: int, at: float) -> float:
        """Seconds to wait before the next post; 0 if it may. Nothing is counted: a request
        refused afterwards (no game to show, say) posts nothing (see :meth:`posted`)."""
        if not self.per_minute:
            return 0.0
        posts = self._posts.get((channel_id, member_id), ())
        recent = [t for t in posts if t > at - 60]
        if len(recent) >= self.per_minute:
            return max(1.0, recent[0] + 60 - at)
        return 0.0

    def posted(self, channel_id: int, member_id: int, at: float) -> None:
        """Count a public post that was made."""
        if not self.per_minute:
            return
        if len(self._posts) > 10_000:  # forget who has not posted for a minute
            self._posts = {k: v for k, v in self._posts.items() if v[-1] > at - 60}
        posts = self._posts.setdefault((channel_id, member_id), collections.deque())
        while posts and posts[0] <= at - 60:
            posts.popleft()
        posts.append(at)
