"""sheetkit: print play sheets for paper tabletop games, check filled sheets, keep score."""

__version__ = "0.1.0"
