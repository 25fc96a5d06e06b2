"""`sheetkit serve`: the score-keeper's web page for the phones at the table.

Flask and qrcode are imported only when the command runs (`sheetkit --help` stays fast).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from sheetkit.messages import msg
from sheetkit.errors import UserError


def is_loopback(host: str) -> bool:
    import ipaddress

    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def free_to_listen(host: str, port: int) -> None:
    """OSError if `host:port` cannot be listened on (unknown host, port in use)."""
    import socket

    family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    with socket.socket(family, kind, proto) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server itself will
        s.bind(addr)


def lan_address() -> str:
    """This machine's address on the local network, as a phone would reach it (the
    address of the interface a packet to the outside would leave by; nothing is sent)."""
    import socket

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed, no packet goes out for UDP connect
        return s.getsockname()[0]
    except OSError:
        return socket.gethostbyname(socket.gethostname())
    finally:
        s.close()


def shown_address(host: str) -> str:
    """The address phones are told to open for a server bound to `host`."""
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"[{shown}]" if ":" in shown else shown


def access_url(host: str, port: int, token: str) -> str:
    return f"http://{shown_address(host)}:{port}/?token={token}"


def qr_text(url: str) -> str:
    """The URL as a QR code drawn with text characters, for a phone camera to read off the
    terminal."""
    import io

    import qrcode

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(url)
    code.make(fit=True)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on; 0.0.0.0 lets phones on the same Wi-Fi in, with an access token.")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="Port to listen on.")
@click.option("--db", "db_path", type=click.Path(dir_okay=False),
              help="The play history file (default: $SHEETKIT_DB, else the user's data folder).")
@click.option("--new-link", is_flag=True,
              help="A new access token (and secret): the old link and every open page stop working.")
def serve_cmd(host, port, db_path, new_link):
    """Serve the score-keeper web page: plays entered move by move and saved in the history,
    quick tallies and record checks, from a phone."""
    from werkzeug.serving import make_server

    from sheetkit.history.schema import default_path
    from sheetkit.history.store import Store
    from sheetkit.web.app import create_app
    from sheetkit.web import security

    if db_path == "":
        raise UserError(msg("error.cli.db_name"))
    db = Path(db_path) if db_path else default_path()

    Store.open(db).close()  # an unusable history is one line now, not an error page later
    try:  # kept beside the history: a restart keeps open pages and the printed link working
        secret = security.kept_secret(db, renew=new_link)
    except OSError as e:
        raise UserError(msg("error.cli.secret", path=str(security.secret_path(db)), why=e.strerror or str(e))) from None
    try:  # a port in use or an unknown host is one line, before any address is printed
        free_to_listen(host, port)  # werkzeug would print two lines and exit 1 itself
        local = is_loopback(host)
        token = None if local else security.token_from(secret)
        printed = () if local else (shown_address(host),)
        hosts = security.allowed_hosts(port, (host,) if local and host != "localhost" else printed)
        server = make_server(host, port, create_app(token=token, db=db, secret_key=secret, hosts=hosts), threaded=True)
    except OSError as e:
        raise UserError(msg("error.cli.listen", where=f"{host}:{port}", why=e.strerror or str(e))) from None
    except ValueError as e:  # e.g. a host name that cannot be encoded
        raise UserError(msg("error.cli.listen", where=repr(host), why=str(e))) from None
    click.echo(f"sheetkit: plays are saved in {db}")
    if token is None:
        click.echo(f"sheetkit: serving on http://{'[' + host + ']' if ':' in host else host}:{port}/ "
                   "(this machine only; --host 0.0.0.0 for phones on the Wi-Fi). Ctrl-C stops.")
    else:
        url = access_url(host, port, token)
        click.echo(f"sheetkit: serving for phones on this network. Open, or scan:\n  {url}\n")
        click.echo(qr_text(url))
        click.echo("Anyone with this link can use the page while the server runs (the same link after a restart;\n"
                   "--new-link makes a new one). Ctrl-C stops.")
    sys.stdout.flush()  # the address first, even when the output goes to a file or a pipe
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("sheetkit: stopped")
    finally:
        server.server_close()
        from sheetkit.web.plays.routes import STORES

        STORES.close_all()  # the last connection closed writes the log into the file
