"""Yuncos: El lado oscuro de la luz. Rules Y1-Y23 in RULES.md; records in docs/yuncos-records.md.

Entry points are imported only when called: `sheetkit score yuncos` loads neither pydantic
nor a rendering library.
"""

from sheetkit.games import deferred

NAME = "yuncos"
TEMPLATES: dict = {}

compose = deferred("sheetkit.games.yuncos.sheet", "compose")
lint = deferred("sheetkit.games.yuncos.layout_checks", "lint")
load_record = deferred("sheetkit.games.yuncos.record", "load_record")
check = deferred("sheetkit.games.yuncos.rules", "check")
record_template = deferred("sheetkit.games.yuncos.record", "template")
overlay = deferred("sheetkit.games.yuncos.checked_sheet", "overlay")


def __getattr__(name):
    if name == "LAYOUT_KINDS":
        from sheetkit.games.yuncos.layout import YuncosDuplex, YuncosSheet

        return {"sheet": YuncosSheet, "duplex": YuncosDuplex}
    if name == "score_command":
        from sheetkit.games.yuncos.cli import score_command

        return score_command
    raise AttributeError(name)
