"""The server's log lines: plain text for people (the default), or one JSON object a line for log collectors
(``laro serve --log-format json``): ``time`` (ISO 8601, UTC), ``level``, ``logger``, ``message``, ``process`` (the
worker's process id) and, for an error with a traceback, ``exception``. What is logged is the same either way, and
never holds a seat's token, a seed or a hidden card.

>>> record = logging.LogRecord("laro.server", logging.INFO, __file__, 1, "table %s created", ("t1",), None)
>>> line = json.loads(JsonFormatter().format(record))
>>> line["level"], line["logger"], line["message"]
('info', 'laro.server', 'table t1 created')
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

__all__ = ["FORMATS", "JsonFormatter", "configure_logging"]

FORMATS = ("text", "json")


class JsonFormatter(logging.Formatter):
    """A log record as one line of JSON."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "process": record.process,
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure_logging(level: int, log_format: str = "text") -> None:
    """Log to standard error at ``level``, as text or as JSON lines."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else logging.Formatter("%(asctime)s %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
