#!/usr/bin/env python3
"""Writes scenarios/cards/tournament.toml: the full printing of the Card Wars tournament of the
rules text (docs/rules/slots.md): 9 designers x 21 designs (3 rares, 9 uncommons 1-9, 9 commons
1-9), each text within its rarity's length and saying exactly what its abilities do.

Every design is built from a template that writes its text and its abilities from the same
numbers, so the two cannot drift apart. Run from the repository root:
    python3 scripts/tournament_cards.py > scenarios/cards/tournament.toml
"""

LIMIT = {"common": 30, "uncommon": 60, "rare": 180}


def ab(effect, **kw):
    return dict(effect=effect, **kw)


# --- Templates: (text, abilities) from a number n (1-3) ----------------------------------------

COMMONS = [
    lambda n: (f"OC gets a -{n} counter.", [ab("counter", target="oc", amount=-n)]),
    lambda n: (f"This gets a +{n} counter.", [ab("counter", target="self", amount=n)]),
    lambda n: (f"OC gets -{n} this round.", [ab("modify", target="oc", amount=-n)]),
    lambda n: (f"Your adj. cards get +{n}.", [ab("modify", on="static", target={"side": "you", "slots": "adjacent"}, amount=n)]),
    lambda n: (f"Draw {n} card(s).", [ab("draw", amount=n)]),
    lambda n: (f"Opp. discards {n} card(s).", [ab("discard", player="opp", amount=n)]),
    lambda n: ("Hide OC.", [ab("hide", target="oc")]),
    lambda n: (f"[ESCORE]: +{n} point(s).", [ab("points", on="score_end", amount=n)]),
    lambda n: (f"When destroyed: draw {n}.", [ab("draw", on="destroyed", amount=n)]),
    lambda n: (f"Set OC to {n}.", [ab("set", target="oc", to=n)]),
    lambda n: (f"+{n} per your face-up card.", [ab("modify", on="static", target="self", amount=n, per={"side": "you", "face": "up"})]),
    lambda n: ("Swap this with OC.", [ab("swap", a="self", b="oc")]),
    lambda n: (f"+{n + 1} while in S7-S9.", [ab("modify", on="static", target="self", amount=n + 1, **{"if": [{"slot": "7-9"}]})]),
    lambda n: (f"+{n} while you lead.", [ab("modify", on="static", target="self", amount=n, **{"if": [{"lead": ">0"}]})]),
    lambda n: (f"[BT{n + 4}]: Draw a card.", [ab("draw", on="turn_start", turns=n + 4)]),
    lambda n: (f"[R]: This gets a +{n} counter.", [ab("counter", on="after_reveal", target="self", amount=n)]),
    lambda n: (f"+{n + 1} while OC is face down.", [ab("modify", on="static", target="self", amount=n + 1, **{"if": [{"oc": "down"}]})]),
    lambda n: (f"Destroy opp. printed {n}s.", [ab("destroy", target={"side": "opp", "printed": n})]),
    lambda n: ("Return OC to its hand.", [ab("return", target="oc")]),
    lambda n: (f"[SSCORE]: OC gets -{n}.", [ab("modify", on="score_start", target="oc", amount=-n)]),
    lambda n: ("Clear OC's counters.", [ab("clear_counters", target="oc")]),
    lambda n: ("[D]: This loses - counters.", [ab("clear_counters", on="after_draw", target="self", sign="minus")]),
    lambda n: (f"Both players draw {n}.", [ab("draw", player="both", amount=n)]),
    lambda n: (f"+{n + 1} if OC is higher.", [ab("modify", target="self", amount=n + 1, **{"if": [{"vs_oc": "<"}]})]),
    lambda n: (f"A card dies: +{n} counter.", [ab("counter", on="destroyed", watch={"other": True}, target="self", amount=n)]),
    lambda n: (f"Opp. cards in S{n + 3} get -1.", [ab("modify", on="static", target={"side": "opp", "slots": n + 3}, amount=-1)]),
    lambda n: (f"Your next-slot card: +{n}.", [ab("modify", on="static", target={"side": "you", "slots": "next1"}, amount=n)]),
    lambda n: (f"[ESCORE]: Opp. loses {n} pt.", [ab("points", on="score_end", player="opp", amount=-n)]),
    lambda n: (f"Your prev. card gets +{n}.", [ab("modify", target={"side": "you", "slots": "prev1"}, amount=n)]),
    lambda n: (f"OC: -{n} while this stays.", [ab("modify", target="oc", amount=-n, duration="source")]),
    lambda n: (f"[P]: OC gets -{n}.", [ab("modify", on="after_place", target="oc", amount=-n)]),
    lambda n: (f"Opp. draws {n} card(s).", [ab("draw", player="opp", amount=n)]),
    lambda n: (f"[R]: Your adj. cards get +{n}.", [ab("modify", on="after_reveal", target={"side": "you", "slots": "adjacent"}, amount=n)]),
]

UNCOMMONS = [
    lambda n: (f"Draw {n + 1} cards, then discard one.", [ab("draw", amount=n + 1), ab("discard", amount=1)]),
    lambda n: (f"[BT]: Put a +{n} counter on your highest card.", [ab("counter", on="turn_start", target={"side": "you", "pick": "highest"}, amount=n)]),
    lambda n: ("Destroy one opp. card that carries a counter.", [ab("destroy", target={"side": "opp", "counters": True, "pick": "choose"})]),
    lambda n: ("Swap OC with the opp. card in the next slot.", [ab("swap", a="oc", b={"side": "opp", "slots": "next1"})]),
    lambda n: (f"[SSCORE]: Your cards in S{n}-S{n + 3} get +1.", [ab("modify", on="score_start", target={"side": "you", "slots": f"{n}-{n + 3}"}, amount=1)]),
    lambda n: (f"When this is destroyed: opp. discards {n} card(s).", [ab("discard", on="destroyed", player="opp", amount=n)]),
    lambda n: (f"Set OC to {n} while this stays face up.", [ab("set", target="oc", to=n, duration="source")]),
    lambda n: (f"Your face-up cards get +{n} while OC is face down.", [ab("modify", on="static", target={"side": "you", "face": "up"}, amount=n, **{"if": [{"oc": "down"}]})]),
    lambda n: (f"When an opp. card is revealed: it gets a -{n} counter.", [ab("counter", on="revealed", watch={"side": "opp"}, target="event", amount=-n)]),
    lambda n: (f"+{n} for each of your face-down cards.", [ab("modify", on="static", target="self", amount=n, per={"side": "you", "face": "down"})]),
    lambda n: (f"[ESCORE]: +{n} point(s) if you trail.", [ab("points", on="score_end", amount=n, **{"if": [{"lead": "<0"}]})]),
    lambda n: ("Return your lowest other card to hand, then draw a card.", [ab("return", target={"side": "you", "other": True, "pick": "lowest"}), ab("draw", amount=1)]),
    lambda n: (f"Opp. cards with value {n + 2} or less get -1 this round.", [ab("modify", target={"side": "opp", "value": f"<={n + 2}"}, amount=-1)]),
    lambda n: ("Reveal all face-down cards, then draw a card.", [ab("reveal", target={"face": "down"}), ab("draw", amount=1)]),
    lambda n: (f"When this slot is scored and you won it: +{n} point(s).", [ab("points", on="slot_scored", amount=n, **{"if": [{"result": "won"}]})]),
    lambda n: (f"Your cards in prev. slots get a +{n} counter.", [ab("counter", target={"side": "you", "slots": "prev"}, amount=n)]),
    lambda n: ("Clear the - counters of all your cards.", [ab("clear_counters", target={"side": "you"}, sign="minus")]),
    lambda n: (f"Destroy OC if its printed value is {n + 2} or less.", [ab("destroy", target="oc", **{"if": [{"oc_printed": f"<={n + 2}"}]})]),
    lambda n: (f"Opp. draws a card, then discards {n + 1}.", [ab("draw", player="opp", amount=1), ab("discard", player="opp", amount=n + 1)]),
    lambda n: (f"[D{n + 3}-D9]: Your lowest card gets a +1 counter.", [ab("counter", on="after_draw", turns=f"{n + 3}-9", target={"side": "you", "pick": "lowest"}, amount=1)]),
    lambda n: (f"You may hide OC. [ESCORE]: +{n} point(s) if OC is face down.", [ab("hide", target="oc", optional=True), ab("points", on="score_end", amount=n, **{"if": [{"oc": "down"}]})]),
    lambda n: (f"[P]: Opp. cards in this slot get -{n} this round.", [ab("modify", on="after_place", target={"side": "opp", "slots": "this"}, amount=-n)]),
    lambda n: (f"When OC is destroyed: this gets a +{n} counter.", [ab("counter", on="destroyed", watch="oc", target="self", amount=n)]),
    lambda n: (f"Put a -1 counter on {n + 1} random opp. cards.", [ab("counter", target={"side": "opp", "pick": "random", "n": n + 1}, amount=-1)]),
    lambda n: ("Swap your lowest card with OC, if OC is higher than this.", [ab("swap", a={"side": "you", "pick": "lowest"}, b="oc", **{"if": [{"vs_oc": "<"}]})]),
    lambda n: (f"[SSCORE]: Hide every opp. card of value {n + 6} or more.", [ab("hide", on="score_start", target={"side": "opp", "value": f">={n + 6}"})]),
    lambda n: (f"[R]: If OC is higher, this gets a +{n} counter.", [ab("counter", on="after_reveal", target="self", amount=n, **{"if": [{"vs_oc": "<"}]})]),
    lambda n: (f"Your card in S{n + 6} gets +2.", [ab("modify", on="static", target={"side": "you", "slots": n + 6}, amount=2)]),
    lambda n: (f"Opp. cards in adj. slots get -{n} this round.", [ab("modify", target={"side": "opp", "slots": "adjacent"}, amount=-n)]),
    lambda n: (f"[ESCORE]: +{n} point(s) if you hold 2 or more cards.", [ab("points", on="score_end", amount=n, **{"if": [{"hand": ">=2"}]})]),
    lambda n: (f"Destroy the lowest opp. card, then draw {n} card(s).", [ab("destroy", target={"side": "opp", "pick": "lowest"}), ab("draw", amount=n)]),
    lambda n: (f"[BT{n + 5}-BT9]: Opp. discards a card.", [ab("discard", on="turn_start", turns=f"{n + 5}-9", player="opp")]),
    lambda n: (f"If you hold {n + 2}+ cards: your cards get +1 this round.", [ab("modify", target={"side": "you"}, amount=1, **{"if": [{"hand": f">={n + 2}"}]})]),
]

RARES = [
    lambda n: (f"[SSCORE]: Destroy the highest opp. card. When any other card is destroyed: this gets a +{n} counter.",
               [ab("destroy", on="score_start", target={"side": "opp", "pick": "highest"}),
                ab("counter", on="destroyed", watch={"other": True}, target="self", amount=n)]),
    lambda n: (f"Swap this with the highest opp. card, then OC gets a -{n} counter.",
               [ab("swap", a="self", b={"side": "opp", "pick": "highest"}), ab("counter", target="oc", amount=-n)]),
    lambda n: (f"Your other cards get +1. [ESCORE]: +{n} point(s) for each of your face-up cards in S7-S9.",
               [ab("modify", on="static", target={"side": "you", "other": True}, amount=1),
                ab("points", on="score_end", amount=n, per={"side": "you", "face": "up", "slots": "7-9"})]),
    lambda n: (f"[BT]: Draw a card. [D]: Discard a card at random. When this is destroyed: opp. discards {n + 1}.",
               [ab("draw", on="turn_start"), ab("discard", on="after_draw", pick="random"),
                ab("discard", on="destroyed", player="opp", amount=n + 1)]),
    lambda n: (f"Hide every opp. card of value {n + 5} or more, then reveal OC.",
               [ab("hide", target={"side": "opp", "value": f">={n + 5}"}), ab("reveal", target="oc")]),
    lambda n: (f"Opp. cards in adj. slots are set to 1 while this stays. +{n + 1} while OC is face down.",
               [ab("set", target={"side": "opp", "slots": "adjacent"}, to=1, duration="source"),
                ab("modify", on="static", target="self", amount=n + 1, **{"if": [{"oc": "down"}]})]),
    lambda n: (f"When an opp. card is destroyed: +{n} point(s). [SSCORE]: Destroy one opp. card that carries a counter.",
               [ab("points", on="destroyed", watch={"side": "opp"}, amount=n),
                ab("destroy", on="score_start", target={"side": "opp", "counters": True, "pick": "choose"})]),
    lambda n: (f"Each opp. card gets a -{n} counter. Then destroy every opp. card of value 0 or less.",
               [ab("counter", target={"side": "opp"}, amount=-n), ab("destroy", target={"side": "opp", "value": "<=0"})]),
    lambda n: ("[P]: Reveal the opp. card in the slot just placed. [R]: If OC is higher, swap OC with your lowest card.",
               [ab("reveal", on="after_place", target={"side": "opp", "slots": "current"}),
                ab("swap", on="after_reveal", a="oc", b={"side": "you", "pick": "lowest"}, **{"if": [{"vs_oc": "<"}]})]),
    lambda n: (f"Both players draw {n + 1} cards, then discard one. [ESCORE]: +1 point if your hand is bigger.",
               [ab("draw", player="both", amount=n + 1), ab("discard", player="both", amount=1),
                ab("points", on="score_end", amount=1, **{"if": [{"hand_diff": ">0"}]})]),
    lambda n: (f"When a card of yours is revealed: it gets a +1 counter. [ESCORE]: +{n} point(s) if you lead.",
               [ab("counter", on="revealed", watch={"side": "you"}, target="event", amount=1),
                ab("points", on="score_end", amount=n, **{"if": [{"lead": ">0"}]})]),
    lambda n: (f"You may return OC to its owner's hand. Then put a +{n} counter on each of your cards in adj. slots.",
               [ab("return", target="oc", optional=True),
                ab("counter", target={"side": "you", "slots": "adjacent"}, amount=n)]),
    lambda n: (f"[SSCORE]: Set the lowest opp. card to 0 and give your lowest card a +{n + 1} counter.",
               [ab("set", on="score_start", target={"side": "opp", "pick": "lowest"}, to=0),
                ab("counter", on="score_start", target={"side": "you", "pick": "lowest"}, amount=n + 1)]),
    lambda n: (f"When this slot is scored: if you lost it, +{n} point(s); if you won it, opp. loses 1 point.",
               [ab("points", on="slot_scored", amount=n, **{"if": [{"result": "lost"}]}),
                ab("points", on="slot_scored", player="opp", amount=-1, **{"if": [{"result": "won"}]})]),
    lambda n: (f"+{n} for each opp. card with a counter. [R]: Put a -1 counter on a random opp. card.",
               [ab("modify", on="static", target="self", amount=n, per={"side": "opp", "counters": True}),
                ab("counter", on="after_reveal", target={"side": "opp", "pick": "random"}, amount=-1)]),
]

DESIGNERS = [
    ("Ryan", "Ember", ["Scout", "Kindler", "Brand", "Cinder", "Torch", "Ashling", "Flare", "Smolder", "Spark",
                       "Hearth", "Coal", "Blaze", "Pyre", "Wick", "Char", "Glow", "Furnace", "Flint", "Soot", "Sear", "Beacon"]),
    ("Mara", "Tide", ["Runner", "Caller", "Drift", "Swell", "Current", "Eddy", "Surge", "Breaker", "Ebb",
                      "Shoal", "Reef", "Wake", "Spray", "Foam", "Undertow", "Crest", "Lagoon", "Mariner", "Gull", "Brine", "Harbor"]),
    ("Dev", "Quill", ["Scribe", "Clerk", "Archivist", "Inkling", "Reader", "Page", "Binder", "Copyist", "Folio",
                      "Margin", "Index", "Lexicon", "Scroll", "Tome", "Glossary", "Ledger", "Codex", "Memo", "Notary", "Primer", "Quarto"]),
    ("Sam", "Iron", ["Guard", "Pike", "Anvil", "Rivet", "Bulwark", "Hammer", "Gauntlet", "Helm", "Mace",
                     "Bolt", "Chain", "Forge", "Ingot", "Plate", "Shield", "Spike", "Tongs", "Vise", "Warden", "Wedge", "Lance"]),
    ("Lee", "Shade", ["Lurker", "Veil", "Whisper", "Mask", "Cloak", "Umbra", "Phantom", "Hush", "Murk",
                      "Gloam", "Dusk", "Shroud", "Specter", "Wisp", "Haunt", "Eclipse", "Fade", "Blot", "Nightjar", "Mote", "Omen"]),
    ("Ana", "Crown", ["Herald", "Steward", "Regent", "Courtier", "Envoy", "Marshal", "Chancellor", "Page", "Squire",
                      "Scepter", "Throne", "Seal", "Edict", "Banner", "Treasury", "Jewel", "Mantle", "Orb", "Decree", "Tribute", "Dynast"]),
    ("Kim", "Root", ["Sprout", "Bramble", "Thorn", "Moss", "Seedling", "Willow", "Fern", "Acorn", "Burl",
                     "Canopy", "Grove", "Ivy", "Lichen", "Mulch", "Nettle", "Oak", "Pollen", "Rind", "Sap", "Tendril", "Elder"]),
    ("Joe", "Gear", ["Tinker", "Cog", "Spring", "Lever", "Pulley", "Ratchet", "Sprocket", "Piston", "Valve",
                     "Axle", "Cam", "Crank", "Dynamo", "Flywheel", "Gasket", "Hinge", "Latch", "Spindle", "Turbine", "Winch", "Engine"]),
    ("Pat", "Star", ["Gazer", "Comet", "Nova", "Orbit", "Pulsar", "Nebula", "Quasar", "Meteor", "Zenith",
                     "Aurora", "Corona", "Equinox", "Halo", "Lumen", "Parsec", "Solstice", "Vega", "Astral", "Twinkle", "Cosmos", "Polaris"]),
]


def toml_value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v + '"'
    if isinstance(v, list):
        return "[ " + ", ".join(toml_value(x) for x in v) + " ]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {toml_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(v)


ORDER = ["on", "turns", "watch", "if", "optional", "effect", "target", "a", "b", "player", "amount", "to", "per", "pick", "sign", "duration"]


def ability_toml(a):
    lines = ["  [[card.ability]]"]
    for k in ORDER:
        if k in a:
            lines.append(f"  {k} = {toml_value(a[k])}")
    return "\n".join(lines)


def designs():
    used = set()
    out = []
    for d, (designer, epithet, nouns) in enumerate(DESIGNERS):
        slots = [("rare", 3 + 3 * r, r + 1) for r in range(3)]
        slots += [("uncommon", v, 3 + v) for v in range(1, 10)]
        slots += [("common", v, 12 + v) for v in range(1, 10)]
        for rarity, value, k in slots:
            pool = {"common": COMMONS, "uncommon": UNCOMMONS, "rare": RARES}[rarity]
            start = (d * 7 + k * 5) % len(pool)
            for tries in range(len(pool) * 3):
                n = 1 + (d + tries // len(pool) + value) % 3
                text, abilities = pool[(start + tries) % len(pool)](n)
                if text not in used and len(text) <= LIMIT[rarity]:
                    break
            else:
                raise SystemExit(f"no unused text for {designer} {rarity} {value}")
            used.add(text)
            name = f"{epithet} {nouns[k - 1]}"
            out.append((designer, name, rarity, value, text, abilities))
    return out


def main():
    ds = designs()
    names = [d[1] for d in ds]
    assert len(set(names)) == len(names), "names are unique"
    print("# The full printing of the Card Wars tournament of the rules text (docs/rules/slots.md, \"The")
    print("# event\"): nine designers, each with 21 designs: 3 rares, 9 uncommons of values 1-9 and 9 commons")
    print("# of values 1-9. Texts keep to 30 (common), 60 (uncommon) and 180 (rare) characters and use the")
    print("# rules text's own words: OC, S#, adj., opp., [BT], [P], [R], [D], [SSCORE], [ESCORE], counters,")
    print("# swaps, draws and discards.")
    print("#")
    print("# Written by scripts/tournament_cards.py, which builds each design's text and abilities from the")
    print("# same numbers, so every text says exactly what its abilities do.")
    print()
    print('format = "warsim-slots-cards"')
    print("version = 1")
    print('name = "tournament"')
    print(f'description = "The rules text\'s tournament: 9 designers x 21 designs; the format expresses all {len(ds)} of {len(ds)} texts exactly."')
    for designer, name, rarity, value, text, abilities in ds:
        slug = name.lower().replace(" ", "-")
        print()
        print("[[card]]")
        print(f'id = "{slug}"')
        print(f'name = "{name}"')
        print(f'rarity = "{rarity}"')
        print(f"value = {value}")
        print(f'text = "{text}"')
        print(f'designer = "{designer}"')
        for a in abilities:
            print(ability_toml(a))


if __name__ == "__main__":
    main()
