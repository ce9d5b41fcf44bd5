"""The server's endpoints, as plain functions grouped by concern, each module with its ``ROUTES``: the games and
their rules (:mod:`.games`), tables and seats (:mod:`.tables`), records and replays (:mod:`.records`), move
analysis (:mod:`.analysis`), play over WebSocket (:mod:`.play`), the browser's pages (:mod:`.pages`) and what
operators ask (:mod:`.operations`). Every endpoint reads what it shares with the others from the application's
state (:func:`.common.server_of`), and a :class:`~laro.server.errors.Refusal` it raises is answered by one
handler (:func:`.common.refused`)."""
