"""The play history: plays kept in one SQLite file, standings, export and import.

    from sheetkit.history import Store, intake

    with Store.open() as store:          # --db PATH, $SHEETKIT_DB, or the user's data folder
        for play in intake.plays_from_files(["game.toml"]):
            store.add_play(play)
        print(store.stats().lines())

Modules: schema (the file, its versions and migrations), names (who a person is: a name
as kept and its key), store (Store, the play types and `seats_of`), intake (records ->
plays, through sheetkit.checking.records), stats (asks the store for rows, knows no Store),
exports (BG Stats, CSV, sheetkit's JSON and reading it back). None imports click; only intake
imports the record models (pydantic), and only when it runs.
"""

from sheetkit.history.schema import HistoryError, default_path
from sheetkit.history.store import DamagedPlay, NewPlay, Person, Play, Seat, Sheet, StalePlay, Store, seats_of

__all__ = ["DamagedPlay", "HistoryError", "NewPlay", "Person", "Play", "Seat", "Sheet", "StalePlay", "Store",
           "default_path", "seats_of"]
