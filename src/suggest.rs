//! "Did you mean": the nearest of some names to a word a user typed, by edit distance, and the
//! scenario and card files a suggestion may name.

use std::path::{Path, PathBuf};

/// Where the shipped scenario files live, relative to the working folder.
pub const SCENARIOS: &str = "scenarios";

/// Levenshtein distance between `a` and `b` (insertions, deletions and substitutions of chars),
/// ignoring case.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().collect();
    let b: Vec<char> = b.to_lowercase().chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb)).min(above + 1).min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Whether a name `distance` edits from `word` is near enough to be a misspelling of it: at most
/// a third of the word's letters, and never fewer than two.
pub fn is_near(word: &str, distance: usize) -> bool {
    distance <= (word.chars().count() / 3).max(2)
}

/// The candidate whose key is nearest to `word` (the first of equals), with its distance.
pub fn nearest<'a, T>(word: &str, candidates: &'a [T], key: impl Fn(&T) -> &str) -> Option<(&'a T, usize)> {
    candidates.iter().map(|c| (c, distance(word, key(c)))).min_by_key(|&(_, d)| d)
}

/// The nearest of `names` to `word` if it is near enough to be a misspelling of it.
pub fn near<'a>(word: &str, names: &[&'a str]) -> Option<&'a str> {
    nearest(word, names, |n| n).filter(|&(_, d)| is_near(word, d)).map(|(n, _)| *n)
}

/// "unknown WHAT 'word'": with the nearest of `names` as a question when one is near, and what is
/// allowed: `names` listed after `plural`, or, when the list is long and a guess was made, only
/// where to see them (`see`), so the line stays short.
pub fn unknown(what: &str, word: &str, names: &[&str], plural: &str, see: &str) -> String {
    let listed = format!("{plural}: {}", names.join(", "));
    match near(word, names) {
        Some(n) if listed.chars().count() > LIST_WIDTH && !see.is_empty() => {
            format!("unknown {what} '{word}'; did you mean '{n}'? ({see})")
        }
        Some(n) => format!("unknown {what} '{word}'; did you mean '{n}'? ({listed})"),
        None => format!("unknown {what} '{word}' ({listed})"),
    }
}

/// Longest list of names a message spells out beside a guess.
const LIST_WIDTH: usize = 100;

/// The `.toml` files of `dir`, sorted, as paths that start with `dir` (none if it cannot be read).
pub fn toml_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "toml"))
        .map(|p| if dir == Path::new(".") { PathBuf::from(p.file_name().unwrap_or_default()) } else { p })
        .collect();
    files.sort();
    files
}

/// The shipped scenario files as a user in the repository would name them (`scenarios/x.toml`).
pub fn shipped_scenarios() -> Vec<PathBuf> {
    toml_files(Path::new(SCENARIOS))
}

/// A file's name without folder and `.toml`, the part a misspelling is compared on.
pub fn stem(path: &Path) -> String {
    let name = path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    name.strip_suffix(".toml").map_or(name.clone(), str::to_string)
}

/// Files a missing `path` may have meant: the `.toml` files beside it, then those of `also`.
pub fn files_near(path: &Path, also: &[PathBuf]) -> Vec<PathBuf> {
    let parent = match path.parent() {
        Some(p) if p.as_os_str().is_empty() => Path::new("."),
        Some(p) => p,
        None => Path::new("."),
    };
    let mut files = toml_files(parent);
    for f in also {
        if !files.contains(f) {
            files.push(f.clone());
        }
    }
    files
}

/// The nearest of `files` to the missing `path` (compared on their stems).
pub fn nearest_file(path: &Path, files: &[PathBuf]) -> Option<(PathBuf, usize)> {
    let want = stem(path);
    files
        .iter()
        .map(|f| (f.clone(), distance(&want, &stem(f))))
        .filter(|(_, d)| is_near(&want, *d))
        .min_by_key(|(_, d)| *d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_counts_edits() {
        assert_eq!(distance("war", "war"), 0);
        assert_eq!(distance("warr", "war"), 1);
        assert_eq!(distance("war-variant", "war-variants"), 1);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("Slots", "slots"), 0);
    }

    #[test]
    fn the_nearest_file_is_compared_on_stems() {
        let files = vec![PathBuf::from("s/war-pickup.toml"), PathBuf::from("s/war-variants.toml")];
        let (f, d) = nearest_file(Path::new("s/war-variant"), &files).unwrap();
        assert_eq!((f, d), (PathBuf::from("s/war-variants.toml"), 1));
        assert!(nearest_file(Path::new("x"), &[]).is_none());
        assert!(nearest_file(Path::new("s/nosuch"), &files).is_none(), "nothing near: no guess");
    }

    #[test]
    fn an_unknown_name_gets_the_nearest_and_what_is_allowed() {
        let short = ["random", "greedy"];
        assert_eq!(
            unknown("policy", "rando", &short, "policies", ""),
            "unknown policy 'rando'; did you mean 'random'? (policies: random, greedy)"
        );
        assert_eq!(
            unknown("policy", "zzzzzz", &short, "policies", ""),
            "unknown policy 'zzzzzz' (policies: random, greedy)"
        );
        let long: Vec<String> = (0..30).map(|i| format!("setting_{i}")).collect();
        let long: Vec<&str> = long.iter().map(String::as_str).collect();
        let guessed = unknown("setting", "setting_7x", &long, "settings", "`warsim list war` lists them");
        assert_eq!(
            guessed,
            "unknown setting 'setting_7x'; did you mean 'setting_7'? (`warsim list war` lists them)"
        );
        let unguessed = unknown("setting", "qqqqqqqqqq", &long, "settings", "`warsim list war` lists them");
        assert!(unguessed.contains("setting_29"), "no guess: every name: {unguessed}");
    }
}
