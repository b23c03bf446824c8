#!/usr/bin/env python3
"""Keeps the README true: regenerates its tables, worked examples and quoted figures from runs of
the shipped scenarios, or checks that they still match.

    python3 scripts/readme.py run [--bin PATH] [--only SCENARIO ...]   # play the shipped scenarios
    python3 scripts/readme.py write [--blocks NAME ...]                 # rewrite README.md from them
    python3 scripts/readme.py check                                     # exit 1 if README.md is stale
    python3 scripts/readme.py setup                                     # time the README's two set-up commands

`setup` clones the repository's committed state into a temporary folder and times, there, the two
commands the README opens with (a cold `cargo run --release -- run scenarios/war-pickup.toml`, then
`cargo test --profile quick` cold and warm), with their CPU time, the machine's core count and its
load average, into `results/readme/setup.json` (about 15 minutes on two cores).
`run` plays every scenario in `scenarios/` at its full size into `results/readme/<scenario>/` (about
half an hour on two cores, release build) and the worked example's commands in
`results/readme/commands/`. `write` and `check` only read those folders.

What the README marks as generated:
- a block between `<!-- generated: NAME -->` and `<!-- end generated -->` is rebuilt by the
  renderer NAME below (`command` blocks re-run the `$ warsim ...` line they start with and show its
  output);
- a figure quoted in prose is a `FACTS` entry: a pattern around the figure and the function that
  computes it.
Lines that measure the machine (games per second, seconds) are written as they come but ignored by
`check`. Only the standard library is used, so any Python 3.8+ runs it.
"""

import argparse
import csv
import json
import math
import os
import re
import shutil
import subprocess
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
# README_RESULTS points elsewhere, e.g. at a smaller trial run of the same scenarios.
RESULTS = Path(os.environ.get("README_RESULTS", ROOT / "results" / "readme"))
COMMANDS = RESULTS / "commands"
BLOCK = re.compile(r"(<!-- generated: (?P<name>[\w-]+) -->\n)(?P<body>.*?)(<!-- end generated -->)", re.S)
MACHINE_LINE = re.compile(r"games in [\d.,]+ s \([\d,]+ games/s")


# ---------------------------------------------------------------- reading a run's files


class Run:
    """The CSV files of one run folder, indexed by point label."""

    def __init__(self, name):
        self.dir = RESULTS / name
        if not (self.dir / "summary.csv").exists():
            sys.exit(f"readme: no results for {name} in {self.dir}: run `python3 scripts/readme.py run --only {name}` first")
        self.summary = self._rows("summary.csv")
        self.points = [r["scenario"] for r in self.summary]

    def _rows(self, file):
        path = self.dir / file
        return list(csv.DictReader(path.open())) if path.exists() else []

    def point(self, **settings):
        """The summary row whose settings are these (each key a summary.csv column)."""
        found = [r for r in self.summary if all(r[k] == str(v) for k, v in settings.items())]
        if len(found) != 1:
            raise KeyError(f"{self.dir.name}: {len(found)} points with {settings}")
        return found[0]

    def outcome(self, point, outcome, seat="", team="", policy=""):
        for r in self._cached("outcomes.csv"):
            if (r["scenario"], r["outcome"], r["seat"], r["team"], r["policy"]) == (point, outcome, seat, team, policy):
                return r
        raise KeyError(f"{self.dir.name}: no outcome {outcome} seat={seat} for {point}")

    def event(self, point, event):
        for r in self._cached("events.csv"):
            if r["scenario"] == point and r["event"] == event:
                return r
        raise KeyError(f"{self.dir.name}: no event {event} for {point}")

    def distribution(self, point, metric):
        return {int(r["value"]): int(r["count"]) for r in self._cached("distributions.csv")
                if r["scenario"] == point and r["metric"] == metric}

    def length_quantile(self, point, q):
        """Nearest-rank quantile of a point's exact length histogram (lengths.csv)."""
        counts = sorted((int(r["length"]), int(r["count"])) for r in self._cached("lengths.csv") if r["scenario"] == point)
        rank, seen = max(1, math.ceil(q * sum(c for _, c in counts))), 0
        for length, count in counts:
            seen += count
            if seen >= rank:
                return length
        raise KeyError(f"{self.dir.name}: no lengths for {point}")

    def agents(self):
        return self._cached("agents.csv")

    def _cached(self, file):
        cache = self.__dict__.setdefault("_cache", {})
        if file not in cache:
            cache[file] = self._rows(file)
        return cache[file]


_RUNS = {}


def run(name):
    if name not in _RUNS:
        _RUNS[name] = Run(name)
    return _RUNS[name]


# ---------------------------------------------------------------- numbers as the README writes them


def plain(x, places):
    """x with `places` decimals (none if negative places round to tens), never in exponent form."""
    q = Decimal(1).scaleb(-places) if places > 0 else Decimal(1)
    value = Decimal(f"{float(x):.12g}")  # drops binary noise (53.9499999… is 53.95) before rounding half up
    if places < 0:
        value = value.scaleb(places).quantize(Decimal(1), ROUND_HALF_UP).scaleb(-places)
        return f"{value:f}".split(".")[0]
    return f"{value.quantize(q, ROUND_HALF_UP):f}"


def places_of(halfwidth):
    """Decimals to show an interval's half-width with one significant digit (two if it starts with 1)."""
    if halfwidth <= 0:
        return 0
    exponent = math.floor(math.log10(halfwidth))
    digits = 2 if f"{halfwidth:e}"[0] == "1" else 1
    return digits - 1 - exponent


def with_interval(value, low, high, scale=1.0, unit=""):
    """`value ±halfwidth`, both rounded to the half-width's first significant digit."""
    half = (high - low) / 2 * scale
    places = max(places_of(half), 0)
    shown = plain(value * scale, places)
    return f"{shown}{unit} ±{plain(half, places)}"


def mean_of(row):
    return with_interval(float(row["length_mean"]), float(row["length_ci95_low"]), float(row["length_ci95_high"]))


def rate_of(r, scale=100.0, unit="%"):
    return with_interval(float(r.get("rate") or r["win_rate"]), float(r["ci95_low"]), float(r["ci95_high"]), scale, unit)


def significant(x, digits):
    """x to `digits` significant digits, in plain decimal form."""
    if x == 0:
        return "0"
    places = digits - 1 - math.floor(math.log10(abs(x)))
    return plain(x, max(places, 0)) if places >= 0 else plain(x, places)


def percent(rate):
    """A small rate as a percentage: 0, 0.0001%, 0.19%, 2.69%, 12.4%."""
    if rate == 0:
        return "0"
    x = rate * 100
    return (f"{x:.1f}" if x >= 10 else f"{x:.2f}" if x >= 1 else significant(x, 2)) + "%"


def per(share, low, high):
    """A rare share as `1.05 in 10,000 [0.99, 1.12]`: the scale that puts the value in 1..10."""
    if share == 0:
        scale = 10 ** math.ceil(-math.log10(high))
        return f"0 [0, {high * scale:.3g} in {scale:,}]"
    scale = 10 ** math.ceil(-math.log10(share))
    places = max(2 - math.floor(math.log10(share * scale)), 0)
    return f"{plain(share * scale, places)} in {scale:,} [{plain(low * scale, places)}, {plain(high * scale, places)}]"


def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines) + "\n\n"


# ---------------------------------------------------------------- the README's tables

WAR_PICKUP_ROWS = [
    ("shuffled", "shuffled: mean battles", "mean"),
    ("seat-order", "seat order: mean battles (cycles included at their length)", "mean"),
    ("seat-order", "seat order: **never ends** (cycle)", "cycle"),
    ("winner-first", "winner's cards first: mean battles", "mean"),
    ("loser-first", "loser's cards first: mean battles", "mean"),
]


def war_pickup():
    r = run("war-pickup")
    downs = sorted({int(p["war_down"]) for p in r.summary})
    header = ["pickup \\ face-down cards per war"] + [f"{d} (standard)" if d == 3 else str(d) for d in downs]
    rows = []
    for pickup, label, what in WAR_PICKUP_ROWS:
        cells = []
        for d in downs:
            point = r.point(pickup=pickup, war_down=d)
            if what == "mean":
                cells.append(mean_of(point))
            else:
                cells.append("**" + rate_of(r.outcome(point["scenario"], "cycle")).replace(" ±", "** ±"))
        rows.append([label] + cells)
    return table(header, rows)


VARIANT_LABELS = {
    "multiple-players": "multiple-players (war_scope all)",
    "limited-engagement": "limited-engagement (war_scope tied)",
    "short-war": "short-war (3 battles)",
}


def war_variants():
    r = run("war-variants")
    variants = list(dict.fromkeys(p["variant"] for p in r.summary))
    players = sorted({int(p["players"]) for p in r.summary})
    header = ["variant"] + [f"{n} players" for n in players] + ["draws (" + " / ".join(map(str, players)) + ")"]
    rows = []
    for variant in variants:
        cells, draws = [], []
        for n in players:
            try:
                point = r.point(variant=variant, players=n)
            except KeyError:
                cells.append("—")
                continue
            cells.append(mean_of(point))
            draws.append(percent(float(point["draw_rate"])))
        rows.append([VARIANT_LABELS.get(variant, variant)] + cells + [" / ".join(draws)])
    return table(header, rows)


def scourge_decks():
    r = run("scourge-decks")
    header = ["decks", "mean rounds", "seat 0 wins", "seat 1 wins", "draw",
              "Final Battle: out of units / war can't be fought / after Scarsands",
              "Final Battle changes the result", "Scorched Earth declared", "scorched (no winner)"]
    rows = []
    for p in r.summary:
        if p["players"] != "2":
            continue
        name = p["scenario"]
        label = f"{p['decks']} standard decks" if p["deck"] == "standard" else p["decks"]
        split = final_battle_split(r, name)
        decisive = float(r.event(name, "final_battle_decisive")["share_of_games"])
        declared = r.event(name, "scorched_earth")
        scorched = r.outcome(name, "scorched")
        rows.append([label, mean_of(p), rate_of(r.outcome(name, "win", seat="0")), rate_of(r.outcome(name, "win", seat="1")),
                     percent(float(p["draw_rate"])), split, f"{100 * decisive:.1f}%",
                     per(float(declared["share_of_games"]), float(declared["ci95_low"]), float(declared["ci95_high"])),
                     per(float(scorched["rate"]), float(scorched["ci95_low"]), float(scorched["ci95_high"]))])
    return table(header, rows)


def final_battle_split(r, name):
    causes = [int(r.event(name, f"final_battle_{c}")["total"]) for c in ("out_of_units", "war_short", "scarsands")]
    return " / ".join(f"{100 * c / sum(causes):.1f}%" for c in causes)


def scourge_teams():
    r = run("scourge-decks")
    header = ["players", "decks", "mean rounds", "side a wins", "side b wins", "draw", "mean \\|margin\\|",
              "Final Battle: out of units / war can't be fought / Scarsands", "Final Battle changes the result",
              "a side without Legends", "MVP share per seat (lowest–highest)", "MVP shared (side a / b)"]
    rows = []
    for p in r.summary:
        players = int(p["players"])
        if players == 2:
            continue
        name = p["scenario"]
        margin = r.distribution(name, "margin")
        mean_margin = sum(abs(v) * c for v, c in margin.items()) / sum(margin.values())
        mvp = [float(r.event(name, f"mvp_p{s}")["share_of_games"]) for s in range(players)]
        shared = [float(r.event(name, f"mvp_shared_{side}")["share_of_games"]) for side in "ab"]
        decks = "2 standard" if p["deck"] == "standard" else p["decks"]
        rows.append([str(players), decks, mean_of(p), rate_of(r.outcome(name, "win", team="a")),
                     rate_of(r.outcome(name, "win", team="b")), percent(float(p["draw_rate"])), f"{mean_margin:.1f}",
                     final_battle_split(r, name), f"{100 * float(r.event(name, 'final_battle_decisive')['share_of_games']):.1f}%",
                     percent(float(r.event(name, "side_without_legend")["share_of_games"])),
                     f"{100 * min(mvp):.2f}–{100 * max(mvp):.2f}%", " / ".join(f"{100 * s:.1f}%" for s in shared)])
    rows.sort(key=lambda row: (row[0], "standard" in row[1], row[1]))
    return table(header, rows)


def agents_matrix(name):
    """The head-to-head matrix of agents.csv, weakest agent first, as `win rate ±half-width`."""
    r = run(name)
    cells = {(a["agent"], a["opponent"]): a for a in r.agents()}
    agents = sorted({a for a, _ in cells}, key=lambda a: sum(float(c["win_rate"]) for (x, _), c in cells.items() if x == a))
    budget = next(p["search_budget"] for p in r.summary if "search" in p["policies"])
    named = {a: f"search (budget {budget})" if a == "search" else a for a in agents}
    rows = []
    for a in agents:
        row = [f"**{a}**"]
        for b in agents:
            c = cells.get((a, b))
            row.append("—" if c is None else rate_of(c))
        rows.append(row)
    return table(["agent \\ opponent"] + [named[b] for b in agents], rows)


def wilson(successes, n):
    """Wilson's 95% score interval of a proportion (Wilson 1927), as in the CSV files."""
    z = 1.959963984540054
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def first_player(r, point):
    """The first player's share of the decided (not capped or stalled) games, `rate ±half-width`
    in %, with the ratio estimator's interval over deal groups that `summary.csv` gives it."""
    name = "first_player_win_share_of_decided"
    return with_interval(float(point[name]), float(point[f"{name}_ci95_low"]), float(point[f"{name}_ci95_high"]),
                         100.0, "%")


def cardwars_mirrors():
    r = run("cardwars-policies")
    rows = []
    for p in r.summary:
        if "," in p["policies"]:
            continue
        rows.append([p["policies"], mean_of(p), first_player(r, p), percent(float(p["capped_rate"])),
                     percent(float(r.event(p["scenario"], "joker_defenses")["share_of_games"]))])
    return table(["mirror", "mean turns", "first player wins (of decided games)", "capped", "games with a joker defense"], rows)


def cardwars_balance():
    r = run("cardwars-balance")
    lives = sorted({int(p["life"]) for p in r.summary})
    rows = []
    for first_draw in ("true", "false"):
        for hand in sorted({int(p["opening_hand"]) for p in r.summary}):
            cells = []
            for life in lives:
                shown = [first_player(r, r.point(policies=policy, first_draw=first_draw, opening_hand=hand, life=life))
                         for policy in ("aggressive", "defensive")]
                cells.append(" / ".join(shown))
            rows.append([first_draw, str(hand)] + cells)
    return table(["first_draw", "opening_hand"] + [f"life {life}" for life in lives], rows)


def card_set(path):
    """A card set's designs by id: rarity, printed value and printed text (the lines of its
    `[[card]]` tables; no TOML library, so that Python 3.8 reads it)."""
    designs, current = {}, None
    for line in (ROOT / "scenarios" / path).read_text().splitlines():
        line = line.strip()
        if line == "[[card]]":
            current = {}
        elif current is not None and not line.startswith("[["):
            found = re.match(r'(id|rarity|value|text)\s*=\s*"?(.*?)"?\s*$', line)
            if found:
                current[found.group(1)] = found.group(2)
                if "id" in current and current["id"] not in designs:
                    designs[current["id"]] = current
    return designs


def impact_rows(r, point):
    """A point's cards.csv rows with an impact measured, most impactful first."""
    rows = [c for c in r._cached("cards.csv") if c["scenario"] == point and c.get("impact")]
    return sorted(rows, key=lambda c: -float(c["impact"]))


def signed(shown):
    """A difference as shown with its sign: `+22 ±2`, `-4.5 ±1.7`, `0`."""
    return shown if shown.startswith("-") or shown.startswith("0 ") else "+" + shown


def impact_of(c, name="impact"):
    """A measured difference in percentage points with its interval (`+22 ±2`); `0` when no game
    changed at all."""
    low, high = float(c[f"{name}_ci95_low"]), float(c[f"{name}_ci95_high"])
    if low == 0 and high == 0:
        return "0"
    return signed(with_interval(float(c[name]), low, high, 100.0))


def rank_in_rarity(rows, card, designs):
    """`the strongest of 19 commons`, `the 2nd weakest of 9 rares` (by impact)."""
    rarity = designs[card["card"]]["rarity"]
    same = [c for c in rows if designs[c["card"]]["rarity"] == rarity]
    place = same.index(card) + 1
    weak = float(card["impact"]) < 0
    if weak:
        place = len(same) - place + 1
    ordinal = "" if place == 1 else {2: "2nd ", 3: "3rd "}.get(place, f"{place}th ")
    return f"the {ordinal}{'weakest' if weak else 'strongest'} of {len(same)} {rarity}s"


def why_card(rows, card, designs):
    """Why a designer should look at a card, from what was measured."""
    d = designs[card["card"]]
    low, high = float(card["impact_ci95_low"]), float(card["impact_ci95_high"])
    if low == 0 and high == 0:
        if int(card["in_deck"]) == 0:
            return f"its text never acts: a printed {d['value']} that `top21` never keeps"
        return f"its text never changed a result in {int(card['impact_n']):,} paired games"
    if high < 0:
        return f"its text hurts its owner: a textless {d['value']} wins more ({rank_in_rarity(rows, card, designs)})"
    if low > 0:
        return rank_in_rarity(rows, card, designs)
    return "no measurable effect: its interval includes 0"


def slots_impact():
    r = run("slots-impact")
    sample = r.point(cards="cards/sample.toml", policies="random")["scenario"]
    versus = r.point(cards="cards/sample.toml", policies="highest,random")["scenario"]
    designs = card_set("cards/sample.toml")
    rows = impact_rows(r, sample)
    other = {c["card"]: c for c in impact_rows(r, versus)}
    never = [c for c in rows if float(c["impact_ci95_low"]) == 0 and float(c["impact_ci95_high"]) == 0]
    shown = rows[:5] + [c for c in rows if float(c["impact_ci95_high"]) < 0][-3:] + never[:2]
    out = table(
        ["card", "rarity, value", "text", "impact, random (pt)", "highest vs random (pt)", "why look"],
        [[f"`{c['card']}`", f"{designs[c['card']]['rarity']} {designs[c['card']]['value']}",
          designs[c["card"]].get("text", ""), impact_of(c), impact_of(other[c["card"]]), why_card(rows, c, designs)]
         for c in shown])
    out += f"{len(never)} of {len(rows)} designs never changed a result under `random`.\n\n"
    pairs = [p for p in r._cached("card_pairs.csv") if p["scenario"] == sample and p["interaction"]]

    def sure(p):
        low, high = float(p["interaction_ci95_low"]), float(p["interaction_ci95_high"])
        return 0 if low <= 0 <= high else min(abs(low), abs(high))

    pairs.sort(key=lambda p: (-sure(p), -abs(float(p["interaction"]))))
    pair_rows = []
    for p in pairs[:5]:
        joint, inter = float(p["joint"]), float(p["interaction"])
        pair_rows.append([
            f"`{p['card_a']}` + `{p['card_b']}`", impact_of(p, "interaction"), impact_of(p, "joint"),
            f"together worth {100 * joint:+.1f} pt, {'more' if inter > 0 else 'less'} than the "
            f"{100 * (joint - inter):+.1f} pt of each on its own, summed ({int(p['paired_games']):,} deals with both)",
        ])
    out += table(["pair (random)", "interaction (pt)", "joint impact (pt)", "why look"], pair_rows)
    imbalance = impact_rows(r, r.point(cards="cards/imbalance.toml", policies="random")["scenario"])
    listed = ", ".join("`" + c["card"] + "` " + impact_of(c) for c in imbalance)
    return out + f"The imbalance set under `random` (pt): {listed}.\n"


def command(body):
    """Re-runs the `$ warsim ...` line the block starts with, from results/readme/commands/."""
    line = next(l for l in body.splitlines() if l.startswith("$ "))
    output = subprocess.run(line[2:], shell=True, cwd=COMMANDS, env=command_env(), capture_output=True, text=True)
    if output.returncode != 0:
        sys.exit(f"readme: `{line[2:]}` failed: {output.stderr.strip()}")
    return "```\n" + line + "\n" + output.stdout + "```\n"


def minutes(seconds):
    """A duration as a person reads it: `4 min 05 s`, `48 s`."""
    seconds = round(seconds)
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def load_word(load, cores):
    """How busy the machine was: its load average against its cores."""
    return "quiet" if load < 0.5 * cores else ("busy" if load <= 1.5 * cores else "heavily loaded")


def setup():
    """The README's two set-up commands with the times `readme.py setup` measured."""
    path = RESULTS / "setup.json"
    if not path.exists():
        sys.exit(f"readme: no set-up timings in {path}: run `python3 scripts/readme.py setup` first")
    m = json.loads(path.read_text())
    cores, load = m["cores"], m["load_before"]
    main = m["build"]["wall"] + m["run"]["wall"]
    main_cpu = m["build"]["cpu"] + m["run"]["cpu"]
    first, warm = m.get("tests_cold"), m.get("tests_warm")
    tests = (f"the tests ({minutes(first['wall'])}* the first time, {minutes(warm['wall'])} after)"
             if first and warm else "the tests (not timed yet: `python3 scripts/readme.py setup`)")
    test_cpu = f"; the first test run {first['cpu'] / 60:.1f} CPU-minutes" if first else ""
    return (
        "```sh\n"
        f"cargo run --release -- run scenarios/war-pickup.toml   # the main job: how often does War never end? ({minutes(main)}*)\n"
        f"cargo test --profile quick                              # {tests}\n"
        "```\n\n"
        f"\\* Measured by `python3 scripts/readme.py setup` on a fresh clone, on {cores} cores with a load average of "
        f"{load:.1f} before it started ({load_word(load, cores)}), {m['date']}: the first command is "
        f"{minutes(m['build']['wall'])} of building and {minutes(m['run']['wall'])} of playing, "
        f"{main_cpu / 60:.1f} CPU-minutes in all{test_cpu}. "
        "Both use every core, so on a quiet machine expect about the CPU-minutes divided by your core count "
        f"(a little more: the build's last step uses one core); a machine busy with other work takes longer in proportion, "
        "and its CPU time itself grows by up to a fifth (a fresh clone at load 8 on 2 cores: 3.3 and 5.0 CPU-minutes).\n"
    )


def scenario_list():
    """Every file of scenarios/ with its game(s) and the question its `description` says it answers."""
    lines = []
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        text = path.read_text()
        # The `description` says the question in words; a `question` key names the metric the
        # summaries answer first.
        said = {key: re.search(rf'^{key}\s*=\s*"((?:[^"\\]|\\.)*)"', text, re.M) for key in ("question", "description")}
        if not said["description"]:
            sys.exit(f"readme: {path.relative_to(ROOT)} has no description: give it one (the README lists it)")
        found = said["description"].group(1)
        games = sorted(set(re.findall(r'^game\s*=\s*"([^"]+)"', text, re.M)))
        end = "" if found[-1] in ".?!" else "."
        answered = f" Answered first: `{said['question'].group(1)}`." if said["question"] else ""
        lines.append(f"- `scenarios/{path.name}` ({', '.join(games)}): {found}{end}{answered}\n")
    return "".join(lines)


def answer_sentences(name):
    """The answer a run of scenario `name` printed first: its sentences, up to the first blank
    line, table or `Every point:` line."""
    path = RESULTS / name / "answer.txt"
    if not path.exists():
        sys.exit(f"readme: no answer for {name} in {path}: run `python3 scripts/readme.py run --only {name}` first")
    said = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("Every point:") or "  " in line.strip():
            break
        said.append(line.strip())
    return " ".join(said)


def answers():
    """Every shipped scenario's answer as its run printed it, quoted whole (a scenario not yet run
    by `readme.py run` is named as such, so that `check` shows it)."""
    lines = []
    for path in sorted((ROOT / "scenarios").glob("*.toml")):
        if "[tune]" in path.read_text():
            continue  # `warsim tune` answers it (its own section)
        if not (RESULTS / path.stem / "answer.txt").exists():
            print(f"readme: no answer yet for {path.stem}: `python3 scripts/readme.py run --only {path.stem}`", file=sys.stderr)
            lines.append(f"- **`{path.stem}`**: (not run yet: `python3 scripts/readme.py run --only {path.stem}`)\n")
            continue
        lines.append(f"- **`{path.stem}`**: {answer_sentences(path.stem)}\n")
    return "".join(lines)


RENDERERS = {
    "answers": answers,
    "setup": setup,
    "scenarios": scenario_list,
    "war-pickup": war_pickup,
    "war-variants": war_variants,
    "scourge-decks": scourge_decks,
    "scourge-teams": scourge_teams,
    "territories-agents": lambda: agents_matrix("territories-versions"),
    "cardwars-agents": lambda: agents_matrix("cardwars-policies"),
    "cardwars-mirrors": cardwars_mirrors,
    "cardwars-balance": cardwars_balance,
    "slots-impact": slots_impact,
    "slots-agents": lambda: agents_matrix("slots-agents"),
}

# ---------------------------------------------------------------- figures quoted in prose


def example():
    """The worked example's run folder (written by its command block)."""
    r = Run.__new__(Run)
    r.dir = COMMANDS / "results" / "war"
    r.summary = list(csv.DictReader((r.dir / "summary.csv").open()))
    r.points = [p["scenario"] for p in r.summary]
    return r


def pickup_cycles_elsewhere():
    r = run("war-pickup")
    counts = [int(r.outcome(p["scenario"], "cycle")["count"]) for p in r.summary if p["pickup"] in ("winner-first", "loser-first")]
    return str(sum(counts))


def pickup_cycle_bound():
    r = run("war-pickup")
    highs = [float(r.outcome(p["scenario"], "cycle")["ci95_high"]) for p in r.summary if p["pickup"] in ("winner-first", "loser-first")]
    return significant(100 * max(highs), 1)


def cycle_periods():
    r = run("war-pickup")
    periods = {}
    for p in r.summary:
        for value, count in r.distribution(p["scenario"], "cycle_period").items():
            periods[value] = periods.get(value, 0) + count
    return periods


def spoils(variant, players):
    return plain(float(run("war-variants").point(variant=variant, players=players)["length_mean"]), 0)


def instant_range():
    """The middle 99% of two-player Instant War lengths (0.5th to 99.5th percentile)."""
    r = run("war-variants")
    name = r.point(variant="instant-war", players=2)["scenario"]
    return f"{r.length_quantile(name, 0.005)}–{r.length_quantile(name, 0.995)}"


def scourge_scorched_share():
    """Of the duels' Scorched Earth declarations, the share the Black Ancient scorched (summed over points)."""
    r = run("scourge-decks")
    duels = [p for p in r.summary if p["players"] == "2"]
    declared = sum(int(r.event(p["scenario"], "scorched_earth")["total"]) for p in duels)
    scorched = sum(int(r.outcome(p["scenario"], "scorched")["count"]) for p in duels)
    return f"{100 * scorched / declared:.0f}"


def territories(version, policies, players=2, column="length_mean", digits=1):
    r = run("territories-versions")
    p = r.point(version=version, policies=policies, players=players)
    value = float(p[column])
    return f"{100 * value:.{digits}f}%" if column.endswith("_rate") else f"{value:.{digits}f}"


def territories_games(policies, version=None):
    r = run("territories-versions")
    versions = ["A", "B"] if version is None else [version]
    return f"{sum(int(r.point(version=v, policies=policies, players=2)['games']) for v in versions):,}"


def games_per_point(name):
    counts = {int(p["games"]) for p in run(name).summary}
    return f"{counts.pop():,}" if len(counts) == 1 else "varying"


def seed_of(name):
    return str(json.loads((RESULTS / name / "manifest.json").read_text())["seed"])


def agents_cell(folder, agent, opponent):
    """The row agent's win rate against the column agent in a command's agents.csv, in %."""
    rows = csv.DictReader((COMMANDS / "results" / folder / "agents.csv").open())
    cell = next(r for r in rows if r["agent"] == agent and r["opponent"] == opponent)
    return f"{100 * float(cell['win_rate']):.1f}"


def team_point(players, decks=2):
    r = run("scourge-decks")
    return r.point(players=players, decks=decks, deck="draconian")


def team_margin(players):
    r = run("scourge-decks")
    margin = r.distribution(team_point(players)["scenario"], "margin")
    return f"{sum(abs(v) * c for v, c in margin.items()) / sum(margin.values()):.1f}"


def team_decisive_range():
    r = run("scourge-decks")
    shares = [100 * float(r.event(p["scenario"], "final_battle_decisive")["share_of_games"]) for p in r.summary if p["players"] != "2"]
    return f"{min(shares):.1f}–{max(shares):.1f}"


FACTS = [
    # (pattern with one group around the figure, its value)
    (r"lasts (\d+) battles on average", lambda: plain(float(example().point(pickup="shuffled")["length_mean"]), 0)),
    (r"seat order, (\d+)% of deals never end",
     lambda: plain(100 * float(example().outcome(example().point(pickup="seat-order")["scenario"], "cycle")["rate"]), 0)),
    (r"a game has ([\d.]+) wars on average",
     lambda: plain(float(example().event(example().point(pickup="shuffled")["scenario"], "wars")["mean_per_game"]), 1)),
    (r"that (\d+)% of games see a double war",
     lambda: plain(100 * float(example().event(example().point(pickup="shuffled")["scenario"], "double_wars")["share_of_games"]), 0)),
    (r"lists the first games that cycled \(`([\d\x20]+)`\)",
     lambda: example().outcome(example().point(pickup="seat-order")["scenario"], "cycle")["example_games"]),
    (r"(\d+) of 1,000,000 games cycled", pickup_cycles_elsewhere),
    (r"\(95% upper bound ([\d.]+)%\)", pickup_cycle_bound),
    (r"Most cycles repeat every (\d+) battles", lambda: str(max(cycle_periods().items(), key=lambda kv: kv[1])[0])),
    (r"the longest periods run to about ([\d,]+) battles", lambda: f"{int(significant(max(cycle_periods()), 1)):,}"),
    (r"one card down per war and seat-order pickup, (\d+)% of games never end",
     lambda: plain(100 * float(run("war-pickup").outcome(run("war-pickup").point(pickup="seat-order", war_down=1)["scenario"], "cycle")["rate"]), 0)),
    (r"\((\d+) battles instead of \d+ for two players", lambda: spoils("greater-spoils", 2)),
    (r"battles instead of (\d+) for two players", lambda: spoils("standard", 2)),
    (r"two players, (\d+) instead of \d+ for four", lambda: spoils("greater-spoils", 4)),
    (r"two players, \d+ instead of (\d+) for four", lambda: spoils("standard", 4)),
    (r"very regular \(([\d–]+) battles for 99% of", instant_range),
    (r"but ([\d.]+)% of two-player games end with both",
     lambda: plain(100 * float(run("war-variants").point(variant="instant-war", players=2)["draw_rate"]), 1)),
    (r"(\d+)% of declarations are scorched", scourge_scorched_share),
    (r"\(([\d.]+) rounds instead of [\d.]+\)", lambda: territories("B", "random")),
    (r"rounds instead of ([\d.]+)\)", lambda: territories("A", "random")),
    (r"more draws \(([\d.]+%) vs", lambda: territories("B", "random", column="draw_rate")),
    (r"more draws \([\d.]+% vs ([\d.]+%)\)", lambda: territories("A", "random", column="draw_rate")),
    (r"draws more frequent \((\d+%) of games between four greedy players in Version A\)",
     lambda: territories("A", "greedy", players=4, column="draw_rate", digits=0)),
    (r"i\.e\. ([\d,]+) deals each played once per seat rotation",
     lambda: f"{int(territories_games('greedy,random', 'A').replace(',', '')) // 2:,}"),
    (r"\(([\d,]+) games per pairing: ",
     lambda: f"{int(next(a['games'] for a in run('territories-versions').agents() if a['agent'] == 'greedy' and a['opponent'] == 'random')):,}"),
    (r"`highest` wins ([\d.]+)% of its games against `random` without card text",
     lambda: agents_cell("slots", "highest", "random")),
    (r"and `highest` wins only ([\d.]+)% against `random`", lambda: agents_cell("slots-sample", "highest", "random")),
    (r"draws fall from ([\d.]+)% of games \(four players\)", lambda: f"{100 * float(team_point(4)['draw_rate']):.2f}"),
    (r"\(four players\) to ([\d.]+)% \(six players\)", lambda: f"{100 * float(team_point(6)['draw_rate']):.2f}"),
    (r"the sides grows from ([\d.]+) to", lambda: team_margin(4)),
    (r"the sides grows from [\d.]+ to ([\d.]+) cards", lambda: team_margin(6)),
    (r"six-player games are shorter \(([\d.]+) rounds", lambda: f"{float(team_point(6)['length_mean']):.2f}"),
    (r"rounds against ([\d.]+)\)", lambda: f"{float(team_point(4)['length_mean']):.2f}"),
    (r"The Final Battle changes the result in ([\d.–]+)% of team games", team_decisive_range),
    (r"many decks \(([\d.]+)% of games with four decks\)",
     lambda: f"{100 * float(run('scourge-decks').event(team_point(6, 4)['scenario'], 'side_without_legend')['share_of_games']):.2f}"),
    (r"but ([\d.]+)% of the defensive mirror's games trade and reshuffle",
     lambda: f"{100 * float(run('cardwars-policies').point(policies='defensive')['capped_rate']):.1f}"),
    (r"`scenarios/war-pickup.toml`, ([\d,]+) games per point", lambda: games_per_point("war-pickup")),
    (r"`scenarios/war-pickup.toml`, [\d,]+ games per point, seed (\d+)", lambda: seed_of("war-pickup")),
    (r"`scenarios/war-variants.toml`, ([\d,]+) games per point", lambda: games_per_point("war-variants")),
    (r"`scenarios/war-variants.toml`, [\d,]+ games per point, seed (\d+)", lambda: seed_of("war-variants")),
    (r"`scenarios/scourge-decks.toml`, ([\d,]+) games per point", lambda: games_per_point("scourge-decks")),
    (r"`scenarios/scourge-decks.toml`, [\d,]+ games per point, seed (\d+)", lambda: seed_of("scourge-decks")),
    (r"games per pairing: ([\d,]+) games in each version", lambda: territories_games("greedy,random", "A")),
]

# ---------------------------------------------------------------- run, write, check


def command_env():
    env = dict(os.environ, COLUMNS="100")
    env["PATH"] = f"{COMMANDS / 'bin'}{os.pathsep}{env['PATH']}"
    return env


def play_scenarios(bin_path, only):
    scenarios = sorted((ROOT / "scenarios").glob("*.toml"))
    for scenario in scenarios:
        if only and scenario.stem not in only:
            continue
        out = RESULTS / scenario.stem
        print(f"readme: {scenario.stem} -> {out}", flush=True)
        # The terminal's answer, unwrapped (one sentence a line), for the README's quotes.
        done = subprocess.run([bin_path, "run", str(scenario), "--out", str(out), "-q", "--force"], check=True,
                              env=dict(os.environ, COLUMNS="1000"), capture_output=True, text=True)
        (out / "answer.txt").write_text(done.stdout)
    (COMMANDS / "bin").mkdir(parents=True, exist_ok=True)
    link = COMMANDS / "bin" / "warsim"
    if link.exists() or link.is_symlink():
        link.unlink()
    link.symlink_to(Path(bin_path).resolve())
    scenarios = COMMANDS / "scenarios"  # so that commands name files as they would from the repository
    if not scenarios.exists():
        scenarios.symlink_to(ROOT / "scenarios")
    shutil.rmtree(COMMANDS / "results", ignore_errors=True)


def timed(command, cwd, env):
    """Runs `command`, exiting if it fails; returns its wall time and its CPU time (user + system,
    every process it started), in seconds."""
    import resource
    import time
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"readme: `{' '.join(command)}` failed:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print(f"readme: {' '.join(command)}: {wall:.0f} s, {cpu:.0f} CPU-s", flush=True)
    return {"wall": round(wall, 1), "cpu": round(cpu, 1)}


def measure_setup():
    """Times the README's two set-up commands in a fresh clone of the committed state."""
    import datetime
    import tempfile
    measured = {
        "cores": os.cpu_count(),
        "load_before": round(os.getloadavg()[0], 2),
        "date": datetime.date.today().isoformat(),
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        clone = Path(tmp) / "warsim"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO_TARGET")}
        # The main job as one command, split so the README can say what is building and what is
        # playing: `cargo run` after `cargo build` only runs. Each step is saved as it ends, so a
        # failed step keeps the figures of the ones before it.
        steps = [
            ("build", ["cargo", "build", "--release"]),
            ("run", ["cargo", "run", "--release", "--", "run", "scenarios/war-pickup.toml", "-q"]),
            ("tests_cold", ["cargo", "test", "--profile", "quick"]),
            ("tests_warm", ["cargo", "test", "--profile", "quick"]),
        ]
        for name, command in steps:
            measured[name] = timed(command, clone, env)
            measured["load_after"] = round(os.getloadavg()[0], 2)
            (RESULTS / "setup.json").write_text(json.dumps(measured, indent=2) + "\n")
    print(f"readme: wrote {RESULTS / 'setup.json'}")


def regenerate(text, only=()):
    def block(match):
        name, body = match.group("name"), match.group("body")
        if only and name not in only:
            return match.group(0)
        if name == "setup" and not (RESULTS / "setup.json").exists():
            print("readme: no setup.json: the set-up timings are left as they are", file=sys.stderr)
            return match.group(0)
        fresh = command(body) if name == "command" else RENDERERS[name]()
        return match.group(1) + fresh + match.group(4)

    text = BLOCK.sub(block, text)
    if only:
        return text
    for pattern, value in FACTS:
        # A space in a pattern matches any run of white space, so rewrapping the prose keeps it.
        found = re.search(pattern.replace(" ", r"\s+"), text)
        if not found:
            sys.exit(f"readme: the README no longer says /{pattern}/: update FACTS in scripts/readme.py")
        text = text[:found.start(1)] + value() + text[found.end(1):]
    return text


def machine_free(text):
    """The README without what measures the machine: games per second, and the set-up block
    (`check` holds the timings to nothing; `setup` renews them)."""
    text = BLOCK.sub(lambda m: m.group(1) + "…\n" + m.group(4) if m.group("name") == "setup" else m.group(0), text)
    return [MACHINE_LINE.sub("games in … s (… games/s", line) for line in text.splitlines()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="action", required=True)
    play = sub.add_parser("run", help="play the shipped scenarios into results/readme/")
    play.add_argument("--bin", default=str(ROOT / "target" / "release" / "warsim"))
    play.add_argument("--only", nargs="*", default=[])
    write = sub.add_parser("write", help="rewrite README.md's generated parts")
    write.add_argument("--blocks", nargs="*", default=[], help="only these blocks (e.g. setup scenarios)")
    sub.add_parser("check", help="exit 1 if README.md differs from what the results say")
    sub.add_parser("setup", help="time the README's two set-up commands in a fresh clone")
    args = parser.parse_args()

    if args.action == "run":
        play_scenarios(args.bin, args.only)
        return
    if args.action == "setup":
        measure_setup()
        return
    old = README.read_text()
    new = regenerate(old, getattr(args, "blocks", []))
    if args.action == "write":
        README.write_text(new)
        return
    import difflib
    diff = list(difflib.unified_diff(machine_free(old), machine_free(new), "README.md", "from the results", lineterm=""))
    print("\n".join(diff) if diff else "readme: README.md agrees with the results")
    sys.exit(1 if diff else 0)


if __name__ == "__main__":
    main()
