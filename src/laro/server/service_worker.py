"""The browser client's service worker, served at ``/sw.js`` so that its scope is the whole site.

Its text is ``web/static/sw.js`` with laro's version and a hash of every file of the browser client written in:
the worker's cache is named by it, so a new version of laro (or any changed file) is a new worker whose cache
replaces the old one, and servers with the same files (several processes, several machines) serve the same worker.

>>> import tempfile
>>> with tempfile.TemporaryDirectory() as folder:
...     _ = (Path(folder) / "sw.js").write_text('const VERSION = "__LARO_VERSION__";')
...     first = WorkerScript(Path(folder)).text()
...     _ = (Path(folder) / "a.css").write_text("p {}")
...     second = WorkerScript(Path(folder)).text()
>>> first.startswith('const VERSION = "') and first != second
True
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response

import laro

__all__ = ["WorkerScript"]

PLACEHOLDER = "__LARO_VERSION__"


class WorkerScript:
    """The worker of the client in ``web``, its version hashed again only when a file's size or time changes."""

    def __init__(self, web: Path) -> None:
        self.web = web
        self._seen: tuple[tuple[str, int, int], ...] | None = None
        self._version = ""

    def version(self) -> str:
        files = sorted(path for path in self.web.rglob("*") if path.is_file())
        seen = tuple((str(path.relative_to(self.web)), path.stat().st_size, path.stat().st_mtime_ns) for path in files)
        if seen != self._seen:
            digest = hashlib.sha256()
            for path in files:
                digest.update(str(path.relative_to(self.web)).encode() + b"\0" + path.read_bytes() + b"\0")
            self._seen, self._version = seen, f"{laro.__version__}-{digest.hexdigest()[:16]}"
        return self._version

    def text(self) -> str:
        return (self.web / "sw.js").read_text(encoding="utf-8").replace(PLACEHOLDER, self.version())

    async def endpoint(self, request: Request) -> Response:
        """The answer to GET /sw.js."""
        # never kept by a cache on the way: the browser checks it for a new version of laro
        return Response(self.text(), media_type="text/javascript", headers={"Cache-Control": "no-cache"})
