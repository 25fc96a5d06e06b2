"""Yuncos: El lado oscuro de la luz. Rules Y1-Y23 in RULES.md."""

from sheetkit.games.yuncos.layout import YuncosDuplex, YuncosSheet
from sheetkit.schema import Label

NAME = "yuncos"
TITLE = Label(es="Yuncos: El lado oscuro de la luz", en="Yuncos: The Dark Side of Light")
LAYOUT_KINDS = {"sheet": YuncosSheet, "duplex": YuncosDuplex}
TEMPLATES: dict = {}


def compose(layout, paper, lang, scale="real"):
    from sheetkit.games.yuncos.sheet import compose as _compose

    return _compose(layout, paper, lang)


def lint(layout):
    from sheetkit.games.yuncos.layout_checks import lint as _lint

    return _lint(layout)
