"""The play history: `sheetkit log`, `plays`, `show`, `stats`, `delete`, `export`, `import`,
`player rename|list`. Parse, call sheetkit.history, print."""

from __future__ import annotations

import sys

import click

from sheetkit.checking.messages import msg
from sheetkit.errors import UserError

PLAY_ID = click.IntRange(min=1, max=2**63 - 1)  # what SQLite can hold
DB = click.option("--db", "db_path", type=click.Path(dir_okay=False),
                  help="The history file (default: $SHEETKIT_DB, else the user's data folder).")
JSON = click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")


def _store(db_path):
    from sheetkit.history import Store

    if db_path == "":
        raise UserError(msg("error.cli.db_name"))
    return Store.open(db_path)


def _dump(data) -> None:
    import json

    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _since(value: str | None) -> str | None:
    if value is None:
        return None
    from datetime import datetime

    for fmt in ("%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            return datetime.strptime(value.strip().replace("T", " "), fmt).strftime("%Y-%m-%d %H:%M:%S")
        except ValueError:
            pass
    raise UserError(msg("error.history.date", option="--since", got=repr(value)))


def _game(value: str | None) -> str | None:
    if value is None:
        return None
    from sheetkit import games

    return games.get(value).name


def _title(game: str) -> str:
    from sheetkit.history.exports import game_title

    return game_title(game)


def _summary(play) -> str:
    seats = ", ".join(f"{s.name} {'-' if s.score is None else s.score}" + (" (won)" if s.winner else "")
                      for s in play.seats)
    marks = "".join(f"  [{m}]" for m, on in (("in progress", play.in_progress), ("ILLEGAL", not play.legal)) if on)
    return f"{play.id:>5}  {play.played_at[:16]}  {_title(play.game)}: {seats}{marks}"


@click.command("log")
@click.argument("records", nargs=-1, required=True, metavar="RECORD...")
@click.option("--date", help="When it was played: YYYY-MM-DD or 'YYYY-MM-DD HH:MM' (default: now).")
@click.option("--location", help="Where it was played.")
@click.option("--duration", type=click.IntRange(min=1), help="How long it took, in minutes.")
@click.option("--player", "players", multiple=True, metavar="NAME[=RECORD]",
              help="Whose sheet a record is, for records that name no player (a Yuncos sheet): "
                   "NAME for one record, NAME=RECORD for several.")
@click.option("--illegal-ok", is_flag=True, help="Save an illegal game too, marked illegal.")
@click.option("--again", is_flag=True, help="Save a sheet already logged (same QR or same text) once more.")
@DB
@JSON
def log_cmd(records, date, location, duration, players, illegal_ok, again, db_path, as_json):
    """Check records and save them in the history as plays.

    A record that names its players is one play; the Yuncos sheets of one game (not solo)
    given together are one play, one sheet per player."""
    from sheetkit.history import intake
    from sheetkit.history.store import IllegalPlay

    plays = intake.plays_from_files(list(records), players, date=date, location=location,
                                    duration_min=duration, illegal_ok=illegal_ok)
    with _store(db_path) as store:
        try:
            ids = store.add_plays(plays, again=again)
        except IllegalPlay as e:
            click.echo(f"sheetkit: {e}", err=True)
            sys.exit(1)
        saved = store.plays(ids=ids)
    saved.sort(key=lambda p: p.id)
    if as_json:
        _dump([p.to_json() for p in saved])
    else:
        for p in saved:
            click.echo(f"saved play {_summary(p).strip()}")


@click.command("plays")
@click.option("--game", help="Only this game's plays.")
@click.option("--player", help="Only the plays this person played.")
@click.option("--since", help="Only plays on or after this date (YYYY-MM-DD).")
@DB
@JSON
def plays_cmd(game, player, since, db_path, as_json):
    """List the plays in the history, newest first."""
    with _store(db_path) as store:
        plays = store.plays(game=_game(game), player=player, since=_since(since))
    if as_json:
        _dump([p.to_json() for p in plays])
    elif not plays:
        click.echo("no plays" + (" match" if game or player or since else " in the history yet (see `sheetkit log`)"))
    else:
        click.echo("\n".join(_summary(p) for p in plays))


@click.command("show")
@click.argument("play", type=PLAY_ID)
@click.option("--text", "as_text", is_flag=True, help="Print the record text(s) exactly as logged.")
@DB
@JSON
def show_cmd(play, as_text, db_path, as_json):
    """Show one play: when, where, who, the scores and what checking said."""
    with _store(db_path) as store:
        p = store.get(play)
    if as_json:
        _dump(p.to_json())
        return
    if as_text:
        click.echo("".join(s.text if s.text.endswith("\n") else s.text + "\n" for s in p.sheets), nl=False)
        return
    out = [f"play {p.id}: {_title(p.game)}, {p.played_at[:16]}" + (f", {p.location}" if p.location else "")
           + (f", {p.duration_min} min" if p.duration_min else "")]
    status = "legal" if p.legal else "ILLEGAL (saved with --illegal-ok)"
    out.append(f"  {status}" + (", in progress" if p.in_progress else ""))
    if p.layout:
        out.append(f"  layout {p.layout}" + (f" {p.layout_version}" if p.layout_version else "")
                   + (f", sheet {p.qr}" if p.qr else ""))
    for s in p.seats:
        extra = [x for x, on in (("won", s.winner), ("started", s.start), ("eliminated", s.eliminated)) if on]
        out.append(f"  {s.name}: {'-' if s.score is None else s.score}"
                   + (f"  {s.rank}" if s.rank else "") + (f"  ({', '.join(extra)})" if extra else ""))
    for sh in p.sheets:
        findings = sh.verdict.get("findings", [])
        label = f"  record {sh.source}" + (f" ({sh.player})" if sh.player else "")
        out.append(label + (f": {len(findings)} finding(s)" if findings else ""))
        for f in findings:
            tag = "warning " if f.get("severity") == "warning" else ""
            out.append(f"    {tag}{f.get('rule')} {f.get('where')}: {f.get('message')}")
    out.append(f"  logged {p.logged_at[:16]}")
    click.echo("\n".join(out))


@click.command("stats")
@click.option("--game", help="Only this game.")
@click.option("--player", help="Only this person's lines.")
@click.option("--since", help="Only plays on or after this date (YYYY-MM-DD).")
@DB
@JSON
def stats_cmd(game, player, since, db_path, as_json):
    """Standings: plays, wins and win rate, average and best total per player and game,
    Yuncos solo ranks over time, last played."""
    with _store(db_path) as store:
        stats = store.stats(game=_game(game), player=player, since=_since(since))
    if as_json:
        _dump(stats.to_json())
    else:
        click.echo("\n".join(stats.lines()))


@click.command("delete")
@click.argument("play", type=PLAY_ID)
@click.option("--yes", is_flag=True, help="Do not ask.")
@DB
def delete_cmd(play, yes, db_path):
    """Delete a play from the history (asks first, unless --yes)."""
    with _store(db_path) as store:
        p = store.get(play)
        if not yes and not click.confirm(f"delete play{_summary(p)}?", default=False, err=True):
            click.echo("not deleted", err=True)
            sys.exit(1)
        store.delete(play)
    click.echo(f"deleted play {play}")


FORMATS = ("bgstats", "bgstats-link", "csv", "json")


@click.command("export")
@click.argument("plays", nargs=-1, type=PLAY_ID, metavar="[PLAY...]")
@click.option("--all", "everything", is_flag=True, help="Every play in the history.")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="json", show_default=True,
              help="bgstats: BG Stats' push-plays JSON; bgstats-link: one link per play that opens "
                   "BG Stats' import dialog; csv: one row per player per play; json: sheetkit's own "
                   "(read back by `sheetkit import`).")
@click.option("--out", type=click.Path(dir_okay=False), help="Write to this file (default: print).")
@DB
def export_cmd(plays, everything, fmt, out, db_path):
    """Export plays: the ones named, or --all."""
    from sheetkit.history import exports

    if bool(plays) == everything:
        raise UserError(msg("error.history.which_plays_both" if plays else "error.history.which_plays", command="export"))
    if out == "":
        raise UserError(msg("error.cli.out_name"))
    with _store(db_path) as store:
        if plays:
            for i in plays:
                store.get(i)  # a play that is not there is said by its number
        chosen = list(store.full(None if everything else plays))
    text = {"bgstats": exports.to_bgstats, "bgstats-link": exports.to_links, "csv": exports.to_csv,
            "json": exports.to_json}[fmt](chosen)
    if out:
        _write(out, text)
        click.echo(f"exported {len(chosen)} play(s) to {out}", err=True)
    else:
        click.echo(text, nl=False)


def _write(out: str, text: str) -> None:
    from sheetkit.paper.atomic import replacing

    try:
        with replacing(out) as tmp:
            with open(tmp, "w", encoding="utf-8", newline="") as f:
                f.write(text)
    except OSError as e:
        raise UserError(msg("error.file.cannot_write", why=e.strerror or str(e)), source=out) from None


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@DB
def import_cmd(file, db_path):
    """Read plays back from sheetkit's JSON (`sheetkit export --format json`); plays already
    in the history are skipped, so an import cut short is finished by running it again."""
    from sheetkit.history import exports

    try:
        with open(file, "rb") as f:
            raw = f.read(exports.MAX_IMPORT + 1)
    except FileNotFoundError:
        raise UserError(msg("error.file.missing"), source=file) from None
    except OSError as e:
        raise UserError(msg("error.file.cannot_read", why=e.strerror or "?"), source=file) from None
    if len(raw) > exports.MAX_IMPORT:
        raise UserError(msg("error.history.import_too_large"), source=file)
    plays = exports.read_json(raw, file)
    with _store(db_path) as store:
        ids, skipped = store.import_plays(plays)
    click.echo(f"imported {len(ids)} play(s)" + (f"; {skipped} already in the history, skipped" if skipped else ""))


@click.command("recheck")
@click.argument("plays", nargs=-1, type=PLAY_ID, metavar="[PLAY...]")
@click.option("--all", "everything", is_flag=True, help="Every play in the history.")
@DB
def recheck_cmd(plays, everything, db_path):
    """Check the logged record texts again with this sheetkit's rules and layouts, and keep
    the new verdicts (after an upgrade, or a fix to a layout). The texts are not changed."""
    from sheetkit.history import intake

    if bool(plays) == everything:
        raise UserError(msg("error.history.which_plays_both" if plays else "error.history.which_plays", command="recheck"))
    changed = failed = 0
    with _store(db_path) as store:
        ids = list(plays) if plays else sorted(p.id for p in store.plays())
        for i in ids:
            play = store.get(i)
            try:
                verdicts = [intake.sheet_from_text(s.text, s.source)[0].verdict for s in play.sheets]
            except UserError as e:  # e.g. the deck file it names has moved
                click.echo(f"play {i}: not rechecked: {e}", err=True)
                failed += 1
                continue
            if store.update_verdicts(i, verdicts):
                changed += 1
                click.echo(f"play {_summary(store.get(i)).strip()}")
    click.echo(f"rechecked {len(ids) - failed} play(s): {changed} changed" + (f"; {failed} could not be read" if failed else ""))
    sys.exit(1 if failed else 0)


@click.group("player")
def player_group():
    """The people in the history: `sheetkit player list`, `sheetkit player rename OLD NEW`."""


@player_group.command("list")
@DB
@JSON
def player_list_cmd(db_path, as_json):
    """Everyone in the history, with how many plays."""
    with _store(db_path) as store:
        people = store.people()
    if as_json:
        _dump([{"name": p.name, "uid": p.uid, "plays": p.plays} for p in people])
    elif not people:
        click.echo("no players in the history yet")
    else:
        click.echo("\n".join(f"{p.name}: {p.plays} play(s)" for p in people))


@player_group.command("rename")
@click.argument("old")
@click.argument("new")
@DB
def player_rename_cmd(old, new, db_path):
    """Call OLD by NEW in every play; if NEW is in the history already, they are one
    person from now on (merged)."""
    with _store(db_path) as store:
        what = store.rename_player(old, new)
    click.echo(f"{what}: {old} -> {new}")


COMMANDS = (log_cmd, plays_cmd, show_cmd, stats_cmd, delete_cmd, export_cmd, import_cmd, recheck_cmd,
            player_group)
