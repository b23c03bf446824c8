#!/usr/bin/env python3
"""Writes the held-out card sets of `warsim balance`'s known-answer tests (docs/balance.md).

uniform.toml: nine designers x 21 designs (3 rares, 9 uncommons and 9 commons of values 1-9),
every one reading "+1 while face up": nothing to balance. outlier.toml: the same set with one
common of value 5 reading "+6 while face up": that design alone must be brought back to its peers.
pair.toml: every design reads "+1 while face up. Another +1." (two abilities), but one common 5
reads "+6 while face up. Another +5.": no single number brings it back (at best +1 and +5), so its
two numbers must both be turned to 1, in a first race and a second on top of it.
exchange.toml: every design reads "+1 while face up" but the fifth designer's common 8 reads "+1 per
your face-up card": too strong for an 8 with its number already at 1, in line as that designer's
common 9, which becomes the 8 (`--knobs amounts,values`).
"""
import sys
from pathlib import Path

DESIGNERS = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy"]
RARE_VALUES = [[2, 5, 8], [1, 4, 7], [3, 6, 9]]


ABILITY = """  [[card.ability]]
  on = "static"
  effect = "modify"
  target = "self"
  amount = {}
"""
PER = '  per = { side = "you", face = "up" }\n'



def card(cid, name, rarity, value, designer, amount, more=None, per=False):
    if per:
        return card(cid, name, rarity, value, designer, amount).replace(
            "while face up.", "per your face-up card.") + PER
    text = f"+{amount} while face up." + ("" if more is None else f" Another +{more}.")
    abilities = "".join(ABILITY.format(a) for a in [amount] + ([] if more is None else [more]))
    return f'''[[card]]
id = "{cid}"
name = "{name}"
rarity = "{rarity}"
value = {value}
text = "{text}"
designer = "{designer}"
{abilities}'''


def write(path, name, outlier, pair=False, per=None):
    out = [f'''# Written by scripts/balance_sets.py: {name}.
format = "warsim-slots-cards"
version = 1
name = "{name}"
''']
    for i, who in enumerate(DESIGNERS):
        cards = [("rare", v) for v in RARE_VALUES[i % 3]]
        cards += [("uncommon", v) for v in range(1, 10)] + [("common", v) for v in range(1, 10)]
        for rarity, v in cards:
            odd = outlier and (i, rarity, v) == (4, "common", 5)
            amount = 6 if odd else 1
            more = (5 if odd else 1) if pair else None
            cid = f"{who.lower()}-{rarity[0]}{v}"
            each = per is not None and (i, rarity, v) == (4, "common", per)
            out.append(card(cid, f"{who} {rarity} {v}", rarity, v, who, amount, more, per=each))
    Path(path).write_text("\n".join(out))


if __name__ == "__main__":
    folder = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/balance")
    folder.mkdir(parents=True, exist_ok=True)
    write(folder / "uniform.toml", "uniform", False)
    write(folder / "outlier.toml", "outlier", True)
    write(folder / "pair.toml", "pair", True, pair=True)
    write(folder / "exchange.toml", "exchange", False, per=8)
