#!/usr/bin/env python3
"""Do the reported 95% intervals hold what they promise on real games?

Runs a warsim binary R times per case with master seeds 1..R (small game counts) and, for each
quantity, sets the spread of the R estimates (their sample standard deviation) against the mean
standard error the runs reported (half-width / 1.959964). An honest interval gives a ratio near
1.00; the ratio's own standard error is about 1/sqrt(2(R-1)) (0.05 at R = 200, 0.035 at R = 400).

    scripts/replicates.py --warsim target/quick/warsim --replicates 400 [--cases cardwars,war]

Reads the files of the output contract (docs/design.md), so it runs on any warsim since the
files have had these columns; where a column was renamed it tries the new name first.
"""

import argparse
import concurrent.futures
import csv
import math
import os
import subprocess
import sys
import tempfile

Z = 1.959963984540054
HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLE = os.path.join(HERE, "..", "scenarios", "cards", "sample.toml")


def rows(out, name):
    with open(os.path.join(out, name), newline="") as f:
        return list(csv.DictReader(f))


def first(out, name, keep):
    return next(r for r in rows(out, name) if keep(r))


def triple(row, est, low, high):
    return float(row[est]), float(row[low]), float(row[high])


def first_player(out):
    s = rows(out, "summary.csv")[0]
    if "first_player_win_share_of_decided" in s:
        n = "first_player_win_share_of_decided"
        return triple(s, n, n + "_ci95_low", n + "_ci95_high")
    e = first(out, "events.csv", lambda r: r["event"] == "first_player_wins")
    return triple(e, "share_of_games", "ci95_low", "ci95_high")


def length(out):
    return triple(rows(out, "summary.csv")[0], "length_mean", "length_ci95_low", "length_ci95_high")


def agent(name):
    def read(out):
        a = first(out, "agents.csv", lambda r: r["agent"] == name)
        return triple(a, "win_rate", "ci95_low", "ci95_high")

    return read


def impact(card):
    def read(out):
        c = first(out, "cards.csv", lambda r: r["card"] == card)
        return triple(c, "impact", "impact_ci95_low", "impact_ci95_high")

    return read


# name: (games per run, arguments, {quantity: reader})
CASES = {
    "cardwars": (4000, ["cardwars"], {"first player's share": first_player, "mean length": length}),
    "territories": (
        4000,
        ["territories", "--set", "policies=greedy,random"],
        {"greedy's win rate": agent("greedy")},
    ),
    "slots": (4000, ["slots", "--set", "policies=highest,random"], {"highest's win rate": agent("highest")}),
    "slots-impact": (
        1000,
        ["slots", "--set", f"cards={SAMPLE}", "--set", "impact=cards"],
        {f"impact of {c}": impact(c) for c in ["eclipse", "drill-sergeant", "rearguard"]},
    ),
    "war": (4000, ["war"], {"mean length": length}),
}


def run(warsim, args, games, seed, quantities):
    with tempfile.TemporaryDirectory() as out:
        cmd = [warsim, "run", *args, "--games", str(games), "--seed", str(seed), "--threads", "1", "-q", "--out", out]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        return {q: read(out) for q, read in quantities.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warsim", required=True)
    ap.add_argument("--replicates", type=int, default=200)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--first-seed", type=int, default=1, help="seeds first-seed .. first-seed + R - 1")
    a = ap.parse_args()
    print(f"{'case':14} {'quantity':28} {'R':>4} {'mean':>10} {'spread':>10} {'mean SE':>10} {'ratio':>6}")
    for name in a.cases.split(","):
        games, args, quantities = CASES[name]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            results = list(pool.map(lambda s: run(a.warsim, args, games, s, quantities), range(a.first_seed, a.first_seed + a.replicates)))
        for q in quantities:
            est = [r[q][0] for r in results]
            se = [(r[q][2] - r[q][1]) / (2 * Z) for r in results]
            m = sum(est) / len(est)
            sd = math.sqrt(sum((x - m) ** 2 for x in est) / (len(est) - 1))
            mse = sum(se) / len(se)
            print(f"{name:14} {q:28} {len(est):4} {m:10.5f} {sd:10.5f} {mse:10.5f} {sd / mse:6.3f}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
