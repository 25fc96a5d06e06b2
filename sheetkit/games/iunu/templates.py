"""`sheetkit template iunu-deck` and `sheetkit template iunu`: commented TOML to fill in."""

from sheetkit.games.iunu.record import KNOWN_CASTES


def deck() -> str:
    out = [
        "# IUNU deck description: fill it once from your own cards, save it (e.g. my-iunu-deck.toml)",
        "# and point your game records to it with  deck = \"my-iunu-deck.toml\".",
        "#",
        "# Each citizen card shows three numbers on its left side:",
        "#   1. the victory points (VP) the card scores          -> vp",
        "#   2. the majority bonus, which is also the number of",
        "#      cards of that caste in the deck (I2)             -> cards",
        "#   3. the VP for feeding that citizen with bread       -> bread",
        "# Write whole numbers in place of the empty \"\" values. A value left empty is an",
        "# error when the deck is used: sheetkit never guesses a card's value.",
        "",
        "game = \"iunu\"",
        "kind = \"deck\"",
        "",
    ]
    for key in KNOWN_CASTES:
        out += [
            f"[castes.{key}]",
            "cards = \"\"   # number of cards of this caste in the deck = majority bonus",
            "vp = \"\"      # VP printed on each card",
            "bread = \"\"   # VP for each of these citizens fed with bread",
            "",
        ]
    out += [
        "# The ninth caste: write its name, and rename the key [castes.ninth] if you like",
        "# (records then use that key, e.g. cards = { artisan = 2 }).",
        "[castes.ninth]",
        "name = \"\"",
        "cards = \"\"",
        "vp = \"\"",
        "bread = \"\"",
        "",
    ]
    return "\n".join(out)


def record() -> str:
    return """\
# IUNU game record: what each player has at the end of the game.
# Check it with `sheetkit check THIS.toml`, tally it with `sheetkit score iunu THIS.toml`.

game = "iunu"
deck = "my-iunu-deck.toml"   # your filled deck description, path relative to this file
                             # (or put the deck here: [deck.castes.farmer] cards = ...)
# qr = ""                    # the text of the score pad's QR code, if it has one
# rounds = 0                 # rounds played, if the game ended early (the deck ran out);
                             # left out: a full game, 8 rounds (9 with 3 players)

# One [[player]] table per player (2 to 4), in seating order.
[[player]]
name = ""
deben = 0                      # Deben coins left at the end (1 VP per full 3)
cards = { }                    # citizen cards in the dynasty per caste, e.g. { farmer = 3, priest = 1 }
fed = { }                      # how many of those citizens were fed with bread, e.g. { farmer = 2 }
afterlife = [ ]                # afterlife cards put on majorities, e.g. [ { caste = "farmer", multiplier = 2 } ]

[[player]]
name = ""
deben = 0
cards = { }
fed = { }
afterlife = [ ]
"""


def for_pad(layout) -> str:
    """`sheetkit template <the pad>`: the record that goes with it."""
    return record()
