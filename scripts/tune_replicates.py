#!/usr/bin/env python3
"""Does `warsim tune` say only what is true? Replicates each case over many seeds and counts the
runs with any wrong claim.

Each case has a truth established independently by a long sweep (`warsim run ... --sweep`, the
command and its figures are recorded beside the case below). For every run of `tune` (seeds
1..R) every claim the answer makes is checked against that truth:

- a setting the answer names (left in the race at the stop) must satisfy the statement: the
  closest to the goal (one left), within the tolerance (`--within`), meeting the goal (`>=`/`<=`)
  and every `--require`;
- a setting dropped as "farther from the goal than Y" must truly be farther than Y; "outside goal
  ± within" truly outside; "misses the goal" / "breaks a --require" truly missing or breaking;
  "beyond the crossing" (the bisection's one-way assumption) truly farther than the closest of the
  settings raced;
- "no setting in the range" must be true; "not settled" is never wrong, unless the settings still
  in the race miss the truly closest one.

Claims about settings whose truth lies within `margin` of the boundary in question are not
counted either way (the sweep cannot tell them). A run is wrong if any claim is. The table gives,
per case, the share of wrong runs with its exact (Clopper-Pearson) 95% interval, which must lie at
or below 5%; the interval coverage per played setting (the share of runs whose final interval of
that setting holds the sweep's value); and the games per answer against a sweep of every setting
to the answer's games per setting.

    scripts/tune_replicates.py --warsim target/release/warsim --seeds 200 [--cases steep,rare] [--jobs 2]
"""

import argparse
import concurrent.futures
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

# Each case: the tune arguments, how the goal reads, and the truth per setting (the sweep's value
# of the metric, and of each requirement), with the command that established it.
CASES = {
    "steep": {
        "truth_games": 9 * 400000 + 22 * 50000,
        "about": "a steep crossing: War's mean length falls fast with the face-down cards of a war",
        "args": ["war", "--vary", "war_down=0..30", "--goal", "length_mean=150"],
        "goal": ("=", 150.0),
        "within": None,
        "margin": 1.0,
        "truth_command": "warsim run war --sweep war_down=0,1,2,3,4,5,6,7,8 --games 400000 --seed 99; "
        "warsim run war --sweep war_down=9,10,...,30 --games 50000 --seed 98",
    },
    "shallow": {
        "truth_games": 8 * 1000000 + 13 * 200000,
        "about": "a shallow crossing, two settings within 1.2 battles of the goal: War's mean length "
        "against the battles a player must win",
        "args": ["war", "--vary", "battles_to_win=75..95", "--goal", "length_mean=133", "--games", "400000"],
        "goal": ("=", 133.0),
        "within": 1.2,
        "margin": 0.2,
        "truth_command": "warsim run war --sweep battles_to_win=82,83,...,89 --games 1000000 --seed 99; "
        "warsim run war --sweep battles_to_win=75,76,...,95 --games 200000 --seed 98 (the rest)",
    },
    "rare": {
        "truth_games": 4 * 400000,
        "about": "a rare rate with a <= goal: Territorial Warfare games still going at the round cap",
        "args": ["territories", "--set", "policies=random", "--vary", "max_rounds=18,20,22,25",
                 "--goal", "capped_rate<=0.0005"],
        "goal": ("<=", 0.0005),
        "within": None,
        "margin": 0.0001,
        "truth_command": "warsim run territories --set policies=random --sweep max_rounds=10,12,14,16,18,20,22,25 "
        "--games 400000",
    },
    "require": {
        "truth_games": 6 * 400000,
        "about": "a race over two knobs with a requirement: War's length near 300 battles, with at most "
        "60% of games seeing a player short of cards in a war",
        "args": ["war", "--vary", "war_down=1..3", "--vary", "players=2,3", "--goal", "length_mean=300",
                 "--require", "short_in_war_share<=0.6"],
        "goal": ("=", 300.0),
        "within": None,
        "margin": 1.0,
        "requires": {"short_in_war_share": ("<=", 0.6, 0.005)},
        "truth_command": "warsim run war --sweep war_down=1,2,3 --sweep players=2,3 --games 400000",
    },
    "seat": {
        "truth_games": 8 * 100000,
        "about": "a qualified seat metric: Card Wars' highest-value placement in seat 0 against random "
        "placement, by opening hand",
        "args": ["slots", "--set", "policies=highest,random", "--set", "rotate_seats=false",
                 "--vary", "opening_hand=1..8", "--goal", "win_rate seat=0 policy=highest>=0.9"],
        "goal": (">=", 0.9),
        "within": None,
        "margin": 0.003,
        "truth_command": "warsim run slots --set policies=highest,random --set rotate_seats=false "
        "--sweep opening_hand=1,2,3,4,5,6,7,8 --games 100000 --seed 99",
    },
}
for _case in CASES.values():
    _case["truth"] = {}

TRUTH_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tune_truth.csv")


def load_truth():
    """tune_truth.csv: case,setting,metric,value (the sweep's estimates)."""
    with open(TRUTH_FILE, newline="") as f:
        for r in csv.DictReader(f):
            if r["case"] in CASES:
                CASES[r["case"]]["truth"].setdefault(r["setting"], {})[r["metric"]] = float(r["value"])


def clopper_pearson(k, n, z=0.05):
    """Exact two-sided 95% interval of k successes in n trials, by bisection on the binomial tail."""

    def cdf(k, n, p):
        return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k + 1))

    # Lower limit: P(X >= k | p) = z/2; upper limit: P(X <= k | p) = z/2.
    def upper_tail(p):
        return 1 - cdf(k - 1, n, p)

    a, b = 0.0, 1.0
    for _ in range(60):
        m = (a + b) / 2
        if upper_tail(m) < z / 2:
            a = m
        else:
            b = m
    low = 0.0 if k == 0 else (a + b) / 2
    a, b = 0.0, 1.0
    for _ in range(60):
        m = (a + b) / 2
        if cdf(k, n, m) > z / 2:
            a = m
        else:
            b = m
    high = 1.0 if k == n else (a + b) / 2
    return low, high


def setting_of(row, keys):
    return " ".join(f"{k}={row[k]}" for k in keys)


def judge(case, rows, keys, answer):
    """The wrong claims of one run (a list of strings, empty when every claim holds)."""
    kind, goal = case["goal"]
    within = case["within"]
    margin = case["margin"]
    truth = case["truth"]
    metric = case.get("metric", "goal")
    wrong = []

    def value(s):
        return truth[s][metric]

    def dist(s):
        return abs(value(s) - goal)

    def meets(s):
        v = value(s)
        if kind == ">=" and v < goal + margin and v > goal - margin:
            return None
        if kind == "<=" and abs(v - goal) < margin:
            return None
        ok = v >= goal if kind == ">=" else v <= goal if kind == "<=" else True
        for name, (op, x, m) in case.get("requires", {}).items():
            r = truth[s][name]
            if abs(r - x) < m:
                return None
            ok = ok and (r <= x if op == "<=" else r >= x)
        return ok

    named = [setting_of(r, keys) for r in rows if r["status"] in ("best", "live", "assumed")]
    settings = [setting_of(r, keys) for r in rows]
    eligible = [s for s in settings if meets(s) is not False]
    closest = min(dist(s) for s in eligible) if kind == "=" and eligible else None
    not_settled = answer.startswith("not settled")
    none = answer.startswith("no setting")
    for r in rows:
        s = setting_of(r, keys)
        why = r["why"]
        if r["status"] in ("best", "live", "assumed") and not not_settled:
            if kind == "=" and within is None and dist(s) > closest + margin:
                wrong.append(f"{s} named, not the closest")
            if kind == "=" and within is not None and dist(s) > within + margin:
                wrong.append(f"{s} named, outside the tolerance")
            if kind != "=" and meets(s) is False:
                wrong.append(f"{s} named, misses")
        if why.startswith("farther from the goal than"):
            other = why[len("farther from the goal than ") :].replace(" (paired)", "")
            if dist(s) < dist(other) - margin:
                wrong.append(f"{s} dropped as farther than {other}")
        elif why.startswith("outside goal"):
            if dist(s) < within - margin:
                wrong.append(f"{s} dropped as outside the tolerance")
        elif why.startswith("misses") or why.startswith("breaks"):
            if meets(s) is True:
                wrong.append(f"{s} dropped as missing")
        elif why.startswith("bisection"):
            raced = [setting_of(q, keys) for q in rows if not q["why"].startswith("bisection")]
            if raced and dist(s) < min(dist(q) for q in raced) - margin:
                wrong.append(f"{s} excluded by bisection")
    if none:
        if kind == "=" and within is not None and closest < within - margin:
            wrong.append("none claimed, one exists")
        if kind != "=" and any(meets(s) is True for s in settings):
            wrong.append("none claimed, one exists")
    if not_settled and kind == "=" and within is None:
        if all(dist(s) > closest + margin for s in named):
            wrong.append("the closest left the race")
    return wrong


def run_one(warsim, case, seed):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "t")
        cmd = [warsim, "tune", *case["args"], "--seed", str(seed), "--out", out, "-q", "--threads", "1"]
        if case.get("within") is not None:
            cmd += ["--within", str(case["within"])]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {p.stderr.strip()}")
        answer = p.stdout.splitlines()[0]
        games = int(re.search(r"([\d,]+) games? in", p.stdout).group(1).replace(",", ""))
        with open(os.path.join(out, "tune.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
    return answer, games, rows


def keys_of(rows):
    fixed = {"candidate", "games", "metric", "estimate", "low", "high", "interval_method", "diff_to_best",
             "diff_to_best_low", "diff_to_best_high", "status", "dropped_at_games", "why"}
    return [k for k in rows[0].keys() if k not in fixed]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--warsim", default="target/release/warsim")
    ap.add_argument("--seeds", type=int, default=200)
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--csv", help="also write one row per run here")
    a = ap.parse_args()
    load_truth()
    names = a.cases.split(",")
    log = open(a.csv, "w", newline="") if a.csv else None
    writer = csv.writer(log) if log else None
    if writer:
        writer.writerow(["case", "seed", "games", "wrong", "answer"])
    print("| case | runs | wrong claims (share, exact 95% interval) | interval coverage per setting | games per answer (mean) | sweep of every setting to the answer's games (mean) | the truth's sweep |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        case = CASES[name]
        with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
            runs = list(pool.map(lambda s: run_one(a.warsim, case, s), range(1, a.seeds + 1)))
        wrong_runs, games, sweeps = 0, [], []
        cover = {}
        for seed, (answer, g, rows) in enumerate(runs, 1):
            keys = keys_of(rows)
            w = judge(case, rows, keys, answer)
            wrong_runs += bool(w)
            games.append(g)
            sweeps.append(len(rows) * max(int(r["games"] or 0) for r in rows))
            for r in rows:
                if int(r["games"] or 0) > 0 and r["low"] not in ("", "NaN"):
                    s = setting_of(r, keys)
                    t = case["truth"][s][case.get("metric", "goal")]
                    hit = float(r["low"]) <= t <= float(r["high"])
                    c = cover.setdefault(s, [0, 0])
                    c[0] += hit
                    c[1] += 1
            if writer:
                writer.writerow([name, seed, g, "; ".join(w), answer])
        lo, hi = clopper_pearson(wrong_runs, len(runs))
        worst = min(cover.items(), key=lambda kv: kv[1][0] / kv[1][1])
        cov = f"lowest {worst[0]}: {worst[1][0]}/{worst[1][1]}; all {sum(c[0] for c in cover.values())}/{sum(c[1] for c in cover.values())}"
        print(f"| {name} | {len(runs)} | {wrong_runs} ({100 * wrong_runs / len(runs):.1f}%, [{100 * lo:.1f}, {100 * hi:.1f}]) "
              f"| {cov} | {sum(games) / len(games):,.0f} | {sum(sweeps) / len(sweeps):,.0f} | {case['truth_games']:,} |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
