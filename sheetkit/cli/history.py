"""The play history: `sheetkit log`, `plays`, `show`, `stats`, `delete`, `export`, `import`,
`player rename|list`. Parse, call sheetkit.history, print."""

from __future__ import annotations

import sys

import click

from sheetkit.messages import msg
from sheetkit.cli.options import LANG
from sheetkit.errors import UserError

PLAY_ID = click.IntRange(min=1, max=2**63 - 1)  # what SQLite can hold
DB = click.option("--db", "db_path", type=click.Path(dir_okay=False),
                  help="The history file (default: $SHEETKIT_DB, else the user's data folder).")
JSON = click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
LANG_OPTION = click.option("--lang", type=LANG, default=None,
                           help="Language of the lines and errors (default: the system locale's, else en).")


def _say(message_id: str, lang: str, **values) -> str:
    from sheetkit.messages import text

    return text(message_id, lang, **values)


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


def _summary(play, lang: str = "en") -> str:
    won = " " + _say("history.won", lang)
    seats = ", ".join(f"{s.name} {'-' if s.score is None else s.score}" + (won if s.winner else "")
                      for s in play.seats)
    marks = "".join(f"  [{_say(m, lang)}]" for m, on in (("history.mark_in_progress", play.open),
                                                         ("history.mark_abandoned", play.abandoned),
                                                         ("history.mark_illegal", not play.legal)) if on)
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
@LANG_OPTION
def log_cmd(records, date, location, duration, players, illegal_ok, again, db_path, as_json, lang):
    """Check records and save them in the history as plays.

    A record that names its players is one play; the Yuncos sheets of one game (not solo)
    given together are one play, one sheet per player."""
    from sheetkit.messages import resolve_lang
    from sheetkit.history import intake
    from sheetkit.history.store import IllegalPlay

    lang = resolve_lang(lang)
    plays = intake.plays_from_files(list(records), players, date=date, location=location,
                                    duration_min=duration, illegal_ok=illegal_ok)
    with _store(db_path) as store:
        try:
            ids = store.add_plays(plays, again=again)
        except IllegalPlay as e:
            if as_json:  # the same answer as data: what checking said, and that nothing was saved
                _dump({"saved": False, "reason": e.line("en"),
                       "verdicts": [s.verdict for p in plays for s in p.sheets]})
            click.echo(f"sheetkit: {e.line(lang)}", err=True)
            sys.exit(1)
        saved = store.plays(ids=ids)
    saved.sort(key=lambda p: p.id)
    if as_json:
        _dump([p.to_json() for p in saved])
    else:
        for p in saved:
            click.echo(_say("history.saved", lang, play=_summary(p, lang).strip()))


@click.command("plays")
@click.option("--game", help="Only this game's plays.")
@click.option("--player", help="Only the plays this person played.")
@click.option("--since", help="Only plays on or after this date (YYYY-MM-DD).")
@click.option("--abandoned/--no-abandoned", default=None,
              help="Only the plays abandoned on the page, or only the others (default: all, marked).")
@DB
@JSON
@LANG_OPTION
def plays_cmd(game, player, since, abandoned, db_path, as_json, lang):
    """List the plays in the history, newest first."""
    from sheetkit.messages import resolve_lang

    lang = resolve_lang(lang)
    with _store(db_path) as store:
        plays = store.plays(game=_game(game), player=player, since=_since(since), abandoned=abandoned)
    if as_json:
        _dump([p.to_json() for p in plays])
    elif not plays:
        filtered = game or player or since or abandoned is not None
        click.echo(_say("history.no_match" if filtered else "history.no_plays", lang))
    else:
        click.echo("\n".join(_summary(p, lang) for p in plays))


@click.command("show")
@click.argument("play", type=PLAY_ID)
@click.option("--text", "as_text", is_flag=True, help="Print the record text(s) exactly as logged.")
@DB
@JSON
@LANG_OPTION
def show_cmd(play, as_text, db_path, as_json, lang):
    """Show one play: when, where, who, the scores and what checking said."""
    from sheetkit.messages import resolve_lang

    lang = resolve_lang(lang)
    with _store(db_path) as store:
        p = store.get(play)
    if as_json:
        _dump(p.to_json())
        return
    if as_text:
        click.echo("".join(s.text if s.text.endswith("\n") else s.text + "\n" for s in p.sheets), nl=False)
        return
    out = [_say("history.show_head", lang, play=p.id, game=_title(p.game), at=p.played_at[:16])
           + (f", {p.location}" if p.location else "")
           + (", " + _say("history.minutes", lang, n=p.minutes_played) if p.minutes_played else "")]
    status = _say("history.legal" if p.legal else "history.illegal_kept", lang)
    out.append(f"  {status}" + (", " + _say("history.in_progress", lang) if p.open else "")
               + (", " + _say("history.mark_abandoned", lang) if p.abandoned else ""))
    if p.layout:
        out.append("  " + _say("history.layout", lang, layout=p.layout) + (f" {p.layout_version}" if p.layout_version else "")
                   + (", " + _say("history.sheet", lang, qr=p.qr) if p.qr else ""))
    for s in p.seats:
        extra = [_say(x, lang) for x, on in (("history.won_word", s.winner), ("history.started", s.start),
                                             ("history.eliminated", s.eliminated)) if on]
        out.append(f"  {s.name}: {'-' if s.score is None else s.score}"
                   + (f"  {s.rank}" if s.rank else "") + (f"  ({', '.join(extra)})" if extra else ""))
    for sh in p.sheets:
        findings = sh.verdict.get("findings", [])
        label = "  " + _say("history.record", lang, source=sh.source) + (f" ({sh.player})" if sh.player else "")
        out.append(label + (": " + _say("history.findings", lang, n=len(findings)) if findings else ""))
        for f in findings:  # as checked when logged (the history keeps the English; `recheck` renews it)
            tag = _say("status.warning", lang) + " " if f.get("severity") == "warning" else ""
            out.append(f"    {tag}{f.get('rule')} {f.get('where')}: {f.get('message')}")
    out.append("  " + _say("history.logged", lang, at=p.logged_at[:16]))
    click.echo("\n".join(out))


@click.command("stats")
@click.option("--game", help="Only this game.")
@click.option("--player", help="Only this person's lines.")
@click.option("--since", help="Only plays on or after this date (YYYY-MM-DD).")
@DB
@JSON
@LANG_OPTION
def stats_cmd(game, player, since, db_path, as_json, lang):
    """Standings: plays, wins and win rate, average and best total per player and game,
    Yuncos solo ranks over time, last played."""
    from sheetkit.messages import resolve_lang

    lang = resolve_lang(lang)
    with _store(db_path) as store:
        stats = store.stats(game=_game(game), player=player, since=_since(since))
    if as_json:
        _dump(stats.to_json())
    else:
        click.echo("\n".join(stats.lines(lang)))


@click.command("delete")
@click.argument("play", type=PLAY_ID)
@click.option("--yes", is_flag=True, help="Do not ask.")
@DB
@LANG_OPTION
def delete_cmd(play, yes, db_path, lang):
    """Delete a play from the history (asks first, unless --yes)."""
    from sheetkit.messages import resolve_lang

    lang = resolve_lang(lang)
    with _store(db_path) as store:
        found = store.plays(ids=[play])  # its listing only: a play whose rows are damaged can still go
        if not found:
            raise UserError(msg("error.history.no_play", play=play))
        p = found[0]
        if not yes and not click.confirm(_say("history.delete_ask", lang, play=_summary(p, lang)), default=False, err=True):
            click.echo(_say("history.not_deleted", lang), err=True)
            sys.exit(1)
        store.delete(play)
    click.echo(_say("history.deleted", lang, play=play))


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
@LANG_OPTION
def export_cmd(plays, everything, fmt, out, db_path, lang):
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
        from sheetkit.messages import resolve_lang

        click.echo(_say("history.exported", resolve_lang(lang), n=len(chosen), out=out), err=True)
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
@LANG_OPTION
def import_cmd(file, db_path, lang):
    """Read plays back from sheetkit's JSON (`sheetkit export --format json`); plays already
    in the history are skipped, so an import cut short is finished by running it again."""
    from sheetkit.history import exports
    from sheetkit.tomlfile import read_bytes

    raw = read_bytes(file, limit=exports.MAX_IMPORT)  # the one guarded reader: a pipe is refused, not waited on
    plays = exports.read_json(raw, file)  # every play and every record text checked before anything is written
    with _store(db_path) as store:
        ids, skipped = store.import_plays(plays, source=file)
    from sheetkit.messages import resolve_lang

    lang = resolve_lang(lang)
    click.echo(_say("history.imported", lang, n=len(ids)) + ("; " + _say("history.skipped", lang, n=skipped) if skipped else ""))


@click.command("recheck")
@click.argument("plays", nargs=-1, type=PLAY_ID, metavar="[PLAY...]")
@click.option("--all", "everything", is_flag=True, help="Every play in the history.")
@DB
@LANG_OPTION
def recheck_cmd(plays, everything, db_path, lang):
    """Check the logged record texts again with this sheetkit's rules and layouts, and keep
    the new verdicts (after an upgrade, or a fix to a layout). The texts are not changed."""
    from sheetkit.messages import resolve_lang
    from sheetkit.history import DamagedPlay, intake

    if bool(plays) == everything:
        raise UserError(msg("error.history.which_plays_both" if plays else "error.history.which_plays", command="recheck"))
    lang = resolve_lang(lang)
    changed = failed = 0
    with _store(db_path) as store:
        ids = list(plays) if plays else sorted(p.id for p in store.plays())
        for i in ids:
            try:
                play = store.get(i)
            except DamagedPlay as e:  # said and left as it is, like a play whose files moved
                click.echo(_say("history.not_rechecked", lang, play=i, why=e.line(lang)), err=True)
                failed += 1
                continue
            try:
                verdicts = [intake.sheet_from_text(s.text, s.source)[0].verdict for s in play.sheets]
            except UserError as e:  # e.g. the deck file it names has moved
                click.echo(_say("history.not_rechecked", lang, play=i, why=e.line(lang)), err=True)
                failed += 1
                continue
            if store.update_verdicts(i, verdicts):
                changed += 1
                click.echo(_say("history.play", lang, play=_summary(store.get(i), lang).strip()))
    click.echo(_say("history.rechecked", lang, n=len(ids) - failed, changed=changed)
               + ("; " + _say("history.unreadable_plays", lang, n=failed) if failed else ""))
    sys.exit(1 if failed else 0)


@click.group("player")
def player_group():
    """The people in the history: `sheetkit player list`, `sheetkit player rename OLD NEW`."""


@player_group.command("list")
@DB
@JSON
@LANG_OPTION
def player_list_cmd(db_path, as_json, lang):
    """Everyone in the history, with how many plays."""
    from sheetkit.messages import resolve_lang

    lang = resolve_lang(lang)
    with _store(db_path) as store:
        people = store.people()
    if as_json:
        _dump([{"name": p.name, "uid": p.uid, "plays": p.plays} for p in people])
    elif not people:
        click.echo(_say("history.no_players", lang))
    else:
        click.echo("\n".join(_say("history.player_plays", lang, name=p.name, n=p.plays) for p in people))


@player_group.command("rename")
@click.argument("old")
@click.argument("new")
@DB
@LANG_OPTION
def player_rename_cmd(old, new, db_path, lang):
    """Call OLD by NEW in every play; if NEW is in the history already, they are one
    person from now on (merged)."""
    from sheetkit.messages import resolve_lang

    with _store(db_path) as store:
        what = store.rename_player(old, new)
    click.echo(_say(f"history.{what}", resolve_lang(lang), old=old, new=new))


COMMANDS = (log_cmd, plays_cmd, show_cmd, stats_cmd, delete_cmd, export_cmd, import_cmd, recheck_cmd,
            player_group)
