"""Standings from the history: a few SQL aggregates over the seats, no record is re-read.

Counted are the plays that are finished and legal (an illegal tally is not a result, a game
in progress has none yet) and not abandoned (a game given up on the page, kept in the
history as it stood, never counts); how many were left out is said. A win rate is wins over the
counted plays with two or more players: a solo play has no winner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Protocol

from sheetkit.history.names import name_key


class Rows(Protocol):
    """What the stats ask of the history: the rows of a query (sheetkit.history.store.Store)."""

    def query(self, sql: str, args: Iterable[Any] = ()) -> list[tuple]: ...


@dataclass(frozen=True, slots=True)
class PlayerGame:
    player: str
    game: str
    plays: int
    wins: int
    contested: int  # plays with two or more players
    average: float | None
    best: int | None
    last_played: str

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.contested if self.contested else None


@dataclass(frozen=True, slots=True)
class GameLine:
    game: str
    plays: int
    last_played: str
    best: int | None
    best_by: str | None
    best_on: str | None


@dataclass(frozen=True, slots=True)
class SoloRank:
    player: str
    play: int
    played_at: str
    total: int | None
    rank: str


@dataclass(slots=True)
class Stats:
    players: list[PlayerGame] = field(default_factory=list)
    games: list[GameLine] = field(default_factory=list)
    solo_ranks: list[SoloRank] = field(default_factory=list)
    in_progress: int = 0
    illegal: int = 0
    abandoned: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": [{"game": g.game, "plays": g.plays, "last_played": g.last_played,
                       "best": None if g.best is None else {"total": g.best, "player": g.best_by, "played_at": g.best_on}}
                      for g in self.games],
            "players": [{"player": p.player, "game": p.game, "plays": p.plays, "wins": p.wins,
                         "contested": p.contested,
                         "win_rate": None if p.win_rate is None else round(p.win_rate, 4),
                         "average": None if p.average is None else round(p.average, 2), "best": p.best,
                         "last_played": p.last_played} for p in self.players],
            "solo_ranks": [{"player": r.player, "play": r.play, "played_at": r.played_at, "total": r.total,
                            "rank": r.rank} for r in self.solo_ranks],
            "not_counted": {"in_progress": self.in_progress, "illegal": self.illegal,
                            "abandoned": self.abandoned},
        }

    def lines(self, lang: str = "en") -> list[str]:
        from sheetkit.messages import text

        t = lambda mid, **kw: text(mid, lang, **kw)  # noqa: E731
        out = [] if self.games else [t("stats.none")]
        heads = [t(f"stats.col.{c}") for c in ("player", "plays", "wins", "win_rate", "average", "best", "last")]
        for g in self.games:
            best = ", " + t("stats.best", best=g.best, by=g.best_by, on=g.best_on[:10]) if g.best is not None else ""
            out.append(t("stats.game", game=g.game, n=g.plays, last=g.last_played[:10]) + best)
            rows = [p for p in self.players if p.game == g.game]
            width = max([len(heads[0])] + [len(p.player) for p in rows])
            w = [max(len(h), n) for h, n in zip(heads[1:], (5, 4, 8, 7, 4))]  # each column as wide as its head
            out.append(f"  {heads[0]:<{width}}  " + "  ".join(heads[1:]))
            for p in rows:
                rate = "-" if p.win_rate is None else f"{100 * p.win_rate:.0f}%"
                avg = "-" if p.average is None else f"{p.average:.1f}"
                best = "-" if p.best is None else str(p.best)
                cells = [f"{v:>{n}}" for v, n in zip((p.plays, p.wins, rate, avg, best), w)]
                out.append(f"  {p.player:<{width}}  " + "  ".join(cells) + f"  {p.last_played[:10]}")
        if self.solo_ranks:
            out.append(t("stats.solo_head"))
            for r in self.solo_ranks:
                out.append(f"  {r.played_at[:10]}  {r.player}: {r.total} {r.rank} " + t("stats.play", play=r.play))
        left = [t(what, n=n) for n, what in ((self.in_progress, "stats.in_progress"), (self.illegal, "stats.illegal"),
                                             (self.abandoned, "stats.abandoned")) if n]
        if left:
            out.append(t("stats.not_counted", left=", ".join(left)))
        return out


def compute(store: Rows, game: str | None = None, player: str | None = None, since: str | None = None) -> Stats:
    where, args = ["1 = 1"], []
    if game:
        where.append("pl.game = ?")
        args.append(game)
    if since:
        where.append("pl.played_at >= ?")
        args.append(since)
    person, person_args = "", []
    if player:
        person = " AND pe.key = ?"
        person_args = [name_key(player)]
        where.append("pl.id IN (SELECT s.play_id FROM seats s JOIN people pe ON pe.id = s.person_id"
                     " WHERE pe.key = ?)")
        args.append(name_key(player))
    cond = " AND ".join(where)
    counted = (f"SELECT pl.id, pl.game, pl.played_at FROM plays pl WHERE {cond} AND pl.legal = 1"
               " AND pl.in_progress = 0 AND pl.abandoned = 0")
    stats = Stats()
    stats.in_progress, stats.illegal, stats.abandoned = store.query(
        "SELECT coalesce(sum(pl.in_progress = 1 AND pl.abandoned = 0), 0),"
        " coalesce(sum(pl.legal = 0 AND pl.in_progress = 0 AND pl.abandoned = 0), 0), coalesce(sum(pl.abandoned), 0)"
        f" FROM plays pl WHERE {cond}", args)[0]
    rows = store.query(
        f"WITH counted AS ({counted}),"
        " sizes AS (SELECT play_id, count(*) AS n FROM seats WHERE play_id IN (SELECT id FROM counted) GROUP BY play_id)"
        " SELECT pe.name, c.game, count(*), sum(s.winner), sum(z.n > 1), avg(s.score), max(s.score), max(c.played_at)"
        " FROM seats s JOIN counted c ON c.id = s.play_id JOIN sizes z ON z.play_id = s.play_id"
        f" JOIN people pe ON pe.id = s.person_id WHERE 1 = 1{person}"
        " GROUP BY pe.id, c.game ORDER BY c.game, sum(s.winner) DESC, count(*) DESC, pe.key",
        args + person_args)
    stats.players = [PlayerGame(*r) for r in rows]
    games = store.query(f"WITH counted AS ({counted}) SELECT game, count(*), max(played_at) FROM counted"
                        " GROUP BY game ORDER BY game", args)
    for g, n, last in games:
        best = store.query(
            f"WITH counted AS ({counted}) SELECT s.score, pe.name, c.played_at FROM seats s"
            " JOIN counted c ON c.id = s.play_id JOIN people pe ON pe.id = s.person_id"
            f" WHERE c.game = ? AND s.score IS NOT NULL{person} ORDER BY s.score DESC, c.played_at, c.id LIMIT 1",
            args + [g] + person_args)
        stats.games.append(GameLine(g, n, last, *(best[0] if best else (None, None, None))))
    stats.solo_ranks = [SoloRank(*r) for r in store.query(
        f"WITH counted AS ({counted}) SELECT pe.name, c.id, c.played_at, s.score, s.rank FROM seats s"
        " JOIN counted c ON c.id = s.play_id JOIN people pe ON pe.id = s.person_id"
        f" WHERE s.rank IS NOT NULL{person} ORDER BY pe.key, c.played_at, c.id", args + person_args)]
    return stats
