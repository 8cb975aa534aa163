"""A TCP proxy between the bot and PostgreSQL that a test can cut, pause and restore: the
database's outages without touching the server (issue 16).

* :meth:`Proxy.cut`: every connection through it is dropped, and new ones are refused
  (PostgreSQL killed, or the network gone);
* :meth:`Proxy.pause`: connections stay open but no byte passes (PostgreSQL paused, a
  network stall); :meth:`Proxy.resume` lets them through again;
* :meth:`Proxy.restore`: new connections are accepted again (PostgreSQL back).

It listens on 127.0.0.1 only, and relays only to the test PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit, urlunsplit


class Proxy:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self._target = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self._parts = parts
        self._server: asyncio.base_events.Server | None = None
        self._links: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._pumps: set[asyncio.Task] = set()
        self._flowing = asyncio.Event()
        self._flowing.set()
        self.refusing = False
        self.port = 0

    @property
    def url(self) -> str:
        """The PostgreSQL URL, through the proxy."""
        netloc = self._parts.netloc.rsplit("@", 1)
        host = f"127.0.0.1:{self.port}"
        netloc = f"{netloc[0]}@{host}" if len(netloc) == 2 else host
        return urlunsplit(self._parts._replace(netloc=netloc))

    async def start(self) -> Proxy:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        await self.cut()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()

    async def cut(self) -> None:
        """Drop every connection, and refuse new ones until :meth:`restore`."""
        self.refusing = True
        self._flowing.set()
        for client, upstream in list(self._links):
            for writer in (client, upstream):
                writer.close()
        for pump in list(self._pumps):
            pump.cancel()
        await asyncio.gather(*self._pumps, return_exceptions=True)
        self._links.clear()

    def restore(self) -> None:
        self.refusing = False

    def pause(self) -> None:
        self._flowing.clear()

    def resume(self) -> None:
        self._flowing.set()

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self._target)
        except OSError:
            writer.close()
            return
        link = (writer, up_writer)
        self._links.add(link)
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            pump = asyncio.create_task(self._pump(source, sink, link))
            self._pumps.add(pump)
            pump.add_done_callback(self._pumps.discard)

    async def _pump(
        self,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        link: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
    ) -> None:
        try:
            while data := await source.read(65536):
                await self._flowing.wait()
                sink.write(data)
                await sink.drain()
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            self._links.discard(link)
            for writer in link:
                with contextlib.suppress(Exception):
                    writer.close()
