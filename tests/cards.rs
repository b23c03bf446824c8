//! Card-set files for Card Wars (`slots`, `docs/cards.md`) as the binary reads them: the shipped
//! sets load, and each class of mistake in a file stops the run before any game with exit 2 and
//! one line naming the file, line, column, card and key.

mod binary;

use binary::{refused, run_ok, s, warsim};

/// The head of every file here: a valid set header and the start of one card.
const HEAD: &str = "format = \"warsim-slots-cards\"\nversion = 1\nname = \"t\"\n\n[[card]]\nid = \"probe\"\nname = \"Probe\"\nrarity = \"common\"\n";

/// Writes `body` after the header into a temporary file and expects exit 2 with `needle`.
fn rejects(body: &str, needle: &str) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, format!("{HEAD}{body}")).unwrap();
    let out = dir.path().join("out");
    refused(
        &["run", "slots", "--set", &format!("cards={}", s(&file)), "--games", "1", "-q", "--out", s(&out)],
        needle,
    );
    assert!(!out.exists(), "nothing is written");
    // `warsim cards` checks a set as a run does: the same refusal.
    refused(&["cards", s(&file)], needle);
}

#[test]
fn the_shipped_sets_load_and_play() {
    let dir = tempfile::tempdir().unwrap();
    for set in ["sample", "imbalance", "tournament"] {
        let out = dir.path().join(set);
        let cards = format!("cards=scenarios/cards/{set}.toml");
        run_ok(&["run", "slots", "--set", &cards, "--games", "50", "-q", "--out", s(&out)]);
    }
}

#[test]
fn a_run_with_a_set_writes_a_row_per_design_in_cards_csv() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cards = "cards=scenarios/cards/sample.toml";
    run_ok(&["run", "slots", "--set", cards, "--games", "200", "-q", "--out", s(&out)]);
    let text = std::fs::read_to_string(out.join("cards.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "scenario,card,in_deck,played,played_decisive,played_won,played_tied,games_played,games_won,\
         round_win_rate,round_win_rate_ci95_low,round_win_rate_ci95_high,\
         game_win_rate,game_win_rate_ci95_low,game_win_rate_ci95_high"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 75 + 9, "every design of the sample set and the textless cards");
    let colossus = rows.iter().find(|r| r.contains(",colossus,")).expect("a row for Colossus");
    let fields: Vec<&str> = colossus.split(',').collect();
    let n = |i: usize| fields[i].parse::<u64>().unwrap();
    // Played in no more rounds than in a deck; won at most the decisive ones.
    assert!(n(2) > 0 && n(3) <= n(2) && n(5) <= n(4) && n(4) + n(6) == n(3), "{colossus}");
    // No per-card counter is an event.
    let events = std::fs::read_to_string(out.join("events.csv")).unwrap();
    assert!(!events.contains("colossus"));
}

#[test]
fn an_unknown_key_is_named_where_it_stands() {
    rejects("value = 3\ncolour = \"red\"\n", "bad.toml:10:1: card 'probe', key 'colour': unknown key");
}

#[test]
fn a_value_of_the_wrong_type_is_named() {
    rejects(
        "value = \"3\"\n",
        "bad.toml:9:9: card 'probe', key 'value': expected an integer, found a string",
    );
}

#[test]
fn a_value_out_of_range_is_named() {
    rejects("value = 10\n", "bad.toml:9:9: card 'probe', key 'value': out of range: allowed 1 to 9");
    rejects(
        "value = 3\n[[card.ability]]\neffect = \"counter\"\ntarget = \"oc\"\namount = 0\n",
        "bad.toml:13:10: card 'probe', key 'ability[1].amount': 0 does nothing",
    );
}

#[test]
fn a_text_over_its_raritys_length_is_named() {
    rejects(
        "value = 3\ntext = \"Thirty-one characters of text!!\"\n",
        "bad.toml:10:8: card 'probe', key 'text': 31 characters, over the 30 a common card holds",
    );
}

#[test]
fn a_selector_the_trigger_does_not_allow_is_named() {
    // `event` is the card an event is about: a reveal ability has none.
    rejects(
        "value = 3\n[[card.ability]]\neffect = \"hide\"\ntarget = \"event\"\n",
        "bad.toml:12:10: card 'probe', key 'ability[1].target': 'event' exists only in",
    );
    // A static ability cannot pick.
    rejects(
        "value = 3\n[[card.ability]]\non = \"static\"\neffect = \"modify\"\ntarget = { pick = \"highest\" }\namount = 1\n",
        "bad.toml:13:19: card 'probe', key 'ability[1].target.pick': no pick here",
    );
}

#[test]
fn an_effect_the_trigger_does_not_allow_is_named() {
    rejects(
        "value = 3\n[[card.ability]]\non = \"static\"\neffect = \"destroy\"\ntarget = \"oc\"\n",
        "bad.toml:12:10: card 'probe', key 'ability[1].effect': a static ability can only modify values",
    );
    rejects(
        "value = 3\n[[card.ability]]\non = \"reveal\"\nturns = \"2-4\"\neffect = \"draw\"\n",
        "bad.toml:12:9: card 'probe', key 'ability[1].turns': only turn triggers take turns",
    );
}

#[test]
fn impact_without_a_card_set_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    for impact in ["impact=cards", "impact=pairs"] {
        refused(
            &["run", "slots", "--set", impact, "--games", "10", "-q", "--out", s(&out)],
            "measures the cards of a card set: add cards=FILE",
        );
    }
    assert!(!out.exists());
    // A tournament measures each design alone: pairs are refused, naming what it can do.
    let args =
        ["run", "slots", "--set", "event=tournament", "--set", "cards=scenarios/cards/tournament.toml"];
    refused(
        &[&args[..], &["--set", "impact=pairs", "--games", "10", "-q", "--out", s(&out)]].concat(),
        "impact=pairs measures single games: with event=tournament use impact=cards (or none)",
    );
    assert!(!out.exists());
}

#[test]
fn impact_adds_paired_columns_to_cards_csv_and_card_pairs_csv_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let (cards, pairs, plain) =
        (dir.path().join("cards"), dir.path().join("pairs"), dir.path().join("plain"));
    let set = "cards=scenarios/cards/imbalance.toml";
    for (out, impact) in [(&cards, "impact=cards"), (&pairs, "impact=pairs"), (&plain, "impact=none")] {
        run_ok(&["run", "slots", "--set", set, "--set", impact, "--games", "400", "-q", "--out", s(out)]);
    }
    let header = |dir: &std::path::Path| {
        std::fs::read_to_string(dir.join("cards.csv")).unwrap().lines().next().unwrap().to_string()
    };
    assert!(!header(&plain).contains("impact"));
    assert!(!plain.join("card_pairs.csv").exists() && !cards.join("card_pairs.csv").exists());
    assert!(header(&cards).ends_with(
        "impact_n,impact_up,impact_down,impact_sq,round_win_rate,round_win_rate_ci95_low,round_win_rate_ci95_high,\
         game_win_rate,game_win_rate_ci95_low,game_win_rate_ci95_high,impact,impact_ci95_low,impact_ci95_high,\
         impact_games_for_1pt"
    ));
    // The game as written is the recorded game: every other file is the same with or without impact
    // but for the points' labels, which name the setting.
    for f in ["outcomes.csv", "events.csv", "lengths.csv", "distributions.csv"] {
        let read = |d: &std::path::Path| {
            let text = std::fs::read_to_string(d.join(f)).unwrap();
            text.lines().map(|l| l.split_once(',').map_or(l, |x| x.1).to_string()).collect::<Vec<_>>()
        };
        assert!(read(&plain) == read(&cards) && read(&cards) == read(&pairs), "{f}");
    }
    // The imbalance set's too-strong common comes out on top, clearly.
    let text = std::fs::read_to_string(cards.join("cards.csv")).unwrap();
    let warlord: Vec<&str> = text.lines().find(|l| l.contains(",warlord,")).unwrap().split(',').collect();
    let n = warlord.len();
    let (low, high) = (warlord[n - 3].parse::<f64>().unwrap(), warlord[n - 2].parse::<f64>().unwrap());
    assert!(low > 0.2 && high < 0.5, "{warlord:?}");
    let pair_rows = std::fs::read_to_string(pairs.join("card_pairs.csv")).unwrap();
    assert_eq!(pair_rows.lines().count(), 1 + 4 * 3 / 2, "a row per pair of the four designs");
}

/// What a successful `warsim ARGS` prints.
fn stdout_of(args: &[&str]) -> String {
    let out = warsim().args(args).output().unwrap();
    assert!(out.status.success(), "warsim {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn warsim_cards_spells_the_tournament_set_back_in_full() {
    let out = stdout_of(&["cards", "scenarios/cards/tournament.toml"]);
    assert!(out.starts_with("card set tournament: 189 designs, 189 expressed\n"), "{out}");
    assert!(!out.contains("NOT EXPRESSED"));
    let csv = stdout_of(&["cards", "scenarios/cards/tournament.toml", "--format", "csv"]);
    assert_eq!(csv.lines().count(), 1 + 189);
    assert!(csv.starts_with("id,name,rarity,value,text,abilities,expressed,flags\n"));
}

#[test]
fn warsim_cards_escapes_control_characters_of_names_and_texts() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("odd.toml");
    std::fs::write(
        &file,
        format!("{HEAD}value = 2\ntext = \"Draw 1.\\u001b[2J\"\n  [[card.ability]]\n  effect = \"draw\"\n"),
    )
    .unwrap();
    let out = stdout_of(&["cards", s(&file)]);
    assert!(out.contains("Draw 1.\\u{1b}[2J"), "{out}");
    assert!(!out.contains('\u{1b}'));
}

#[test]
fn play_tells_a_tournament_whose_standings_follow_from_its_games() {
    // `play` on an event: the header names the tournament, and the table it tells is recomputed
    // here from its game lines alone (won-drawn-lost per player), then checked against the
    // closing counters line.
    let out = stdout_of(&[
        "play",
        "slots",
        "--set",
        "event=tournament",
        "--set",
        "cards=scenarios/cards/tournament.toml",
        "--set",
        "policies=highest",
        "--game-index",
        "3",
    ]);
    assert!(out.lines().next().unwrap().ends_with("seed 1, tournament 3"), "{out}");
    let mut wdl = [[0u32; 3]; 9];
    // Entrants count from 0, as seats do.
    let player = |w: &str| w.parse::<usize>().unwrap();
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 36, "every pair of nine players meets once");
    for line in games {
        // game K (round R): player A beat player B x-y (...) | player A drew player B x-y
        let w: Vec<&str> = line.split_whitespace().collect();
        let (a, b) = (player(w[5]), player(w[8]));
        if w[6] == "beat" {
            wdl[a][0] += 1;
            wdl[b][2] += 1;
        } else {
            wdl[a][1] += 1;
            wdl[b][1] += 1;
        }
    }
    let told: Vec<&str> = out.lines().skip_while(|l| !l.starts_with("Standings")).skip(1).take(9).collect();
    assert_eq!(told.len(), 9);
    for row in told {
        // place, "player", number, won-drawn-lost, difference
        let w: Vec<&str> = row.split_whitespace().collect();
        let p = player(w[2]);
        let r: Vec<u32> = w[3].split('-').map(|x| x.parse().unwrap()).collect();
        assert_eq!(r, wdl[p], "player {p}: {row}");
    }
    // The closing counters line has the event's own counters and the game's: each player's and
    // each pair's results are the standings' above, not a list of counters.
    let counters = out.lines().find(|l| l.starts_with("Counters:")).unwrap();
    assert!(
        !counters.contains(" beat ") && !counters.contains("games won=") && !counters.contains("first alone")
    );
    let first = out.lines().skip_while(|l| !l.starts_with("Standings")).nth(1).unwrap();
    let won = first.split_whitespace().nth(3).unwrap().split('-').next().unwrap();
    assert!(counters.contains(&format!("winner_games_won={won} ")), "{first} / {counters}");
}

#[test]
fn designers_csv_is_the_same_on_any_threads_and_shards() {
    // A tournament of the nine-designer set: the designers' feedback, written whole on 1 and 2
    // threads and from 2 shards merged, byte for byte.
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let base =
            ["run", "slots", "--set", "event=tournament", "--set", "cards=scenarios/cards/tournament.toml"];
        let more = ["--set", "policies=highest", "--games", "60", "--seed", "5", "-q", "--out", s(&out)];
        run_ok(&[&base[..], &more[..], extra].concat());
        out
    };
    let whole = run("whole", &["--threads", "2"]);
    let text = |dir: &std::path::Path| std::fs::read_to_string(dir.join("designers.csv")).unwrap();
    let csv = text(&whole);
    assert_eq!(csv.lines().count(), 1 + 1 + 9 + 189, "a header, the field, 9 designers, 189 designs");
    assert_eq!(csv, text(&run("one-thread", &["--threads", "1"])));
    let shards = [run("s1", &["--shard", "1/2"]), run("s2", &["--shard", "2/2"])];
    let merged = dir.path().join("merged");
    run_ok(&["merge", s(&shards[1]), s(&shards[0]), "--out", s(&merged), "-q"]);
    assert_eq!(csv, text(&merged));
}

#[test]
fn tournament_impact_is_the_same_on_any_threads_and_shards_and_the_summary_counts_tournaments() {
    // impact=cards in a tournament of the nine-designer set: every CSV file (cards.csv and
    // designers.csv with the game and first-place impacts) written whole on 1 and 2 threads and
    // from 2 shards merged, byte for byte. The terminal counts the run's unit, the tournament.
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let base =
            ["run", "slots", "--set", "event=tournament", "--set", "cards=scenarios/cards/tournament.toml"];
        let more = ["--set", "policies=highest", "--set", "impact=cards", "--games", "10", "--seed", "3"];
        let args = [&base[..], &more[..], &["--out", s(&out)], extra].concat();
        (stdout_of(&args), out)
    };
    let (text, whole) = run("whole", &["--threads", "2"]);
    // Lines are fitted to the terminal's width: read the words.
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(text.contains(" 10 tournaments of 36 games each in "), "{text}");
    assert!(text.contains(" tournaments/s on 2 threads"), "{text}");
    assert!(text.contains(": 10 tournaments,") && text.contains("rates in % of tournaments"), "{text}");
    assert!(!text.contains("games/s") && !text.contains("% of games"), "{text}");
    let designers = std::fs::read_to_string(whole.join("designers.csv")).unwrap();
    let header = designers.lines().next().unwrap();
    for column in ["game_impact,game_impact_ci95_low", "first_impact_ci95_high", "never_changed_result"] {
        assert!(header.contains(column), "{column} in {header}");
    }
    assert!(designers.lines().nth(1).unwrap().contains(",game_impact,"), "the verdicts read the game impact");
    binary::assert_same_csv(&whole, &run("one", &["--threads", "1"]).1);
    let shards = [run("s1", &["--shard", "1/2"]).1, run("s2", &["--shard", "2/2"]).1];
    let merged = dir.path().join("merged");
    run_ok(&["merge", s(&shards[1]), s(&shards[0]), "--out", s(&merged), "-q"]);
    binary::assert_same_csv(&whole, &merged);
}
