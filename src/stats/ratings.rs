//! Ratings of entrants from the games they played one another: the Bradley-Terry model
//! (P(i beats j) = p_i / (p_i + p_j)), fitted by maximum likelihood with the MM algorithm of
//! Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of Statistics 32 (2004)
//! 384-406, eq. (3): p_i <- W_i / sum_j n_ij / (p_i + p_j). A draw counts half a win to each side
//! (the usual convention, e.g. in chess rating lists). Ratings are given on the Elo scale,
//! 400 log10 p_i, centred so that they sum to 0.
//!
//! **One observation is one event**: one dealt tournament, all the games of its round robin
//! together, never one game. The games of an event share what it dealt (in Card Wars a player keeps
//! its pool for the whole event, so a strong pool wins several of its games at once) and are not
//! independent; events are (each has its own seed). Where every game is dealt on its own (a policy
//! round robin) counting by event costs nothing: the interval is then the by-game one, up to the
//! small-sample factor below.
//!
//! The model's covariance (`bradley_terry`): the inverse of the observed information of the
//! log-strengths theta_i = ln p_i (H_ii = sum_j n_ij q_ij, H_ij = -n_ij q_ij, q_ij = p_i p_j /
//! (p_i + p_j)^2), under the constraint sum theta = 0. H has the all-ones vector in its null space
//! (a comparison graph that is connected has no other), so its Moore-Penrose inverse is
//! (H + J/n)^-1 - J/n with J the all-ones matrix. It treats games as independent given the
//! strengths: the "naive" interval, kept for the tests' comparisons and for results recorded before
//! events kept their points.
//!
//! By event (`bradley_terry_by_event`, what `standings.csv` shows): the cluster-robust (sandwich)
//! covariance H+ M H+ (Huber 1967; White 1980), M the sum over events of the outer product of each
//! event's score vector U_e,i = S_e,i - E_i, S_e,i the wins of i in event e (a draw half), E_i =
//! sum_j n_ij p_i / (p_i + p_j) / T its expected wins per event (every event plays the same
//! schedule), with the small-sample factor T / (T - 1). U_e is event e's contribution to the
//! likelihood's score (the fit makes the contributions sum to 0), so M is their spread over the
//! independent units. M needs only the event count T and the sums over events of S_e,i S_e,k:
//! integer totals, mergeable like the rest.
//!
//! An entrant's win rate (`win_rate_by_event`) is the ratio estimator over events of its games won
//! to its games played (`stats::group`): the same unit, so the same events that widen a rating
//! widen its win rate.
//!
//! A pure function of integer totals: the same totals give the same ratings, bit for bit.

/// Elo points per unit of ln p: 400 / ln 10.
pub const ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// One entrant's fitted rating.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// Elo scale, centred on the entrants' mean.
    pub elo: f64,
    /// Half-width of the normal 95% interval, in Elo points (`None`: not estimable, e.g. an
    /// entrant that won every game or lost every game).
    pub half_width: Option<f64>,
}

/// Fits Bradley-Terry ratings to `n` entrants' results: `wins[i * n + j]` games `i` won against
/// `j`, `draws[i * n + j]` (symmetric) games they drew. An entrant with no games gets rating 0 and
/// no interval; one that won (or lost) all its games has no finite maximum-likelihood rating: it
/// gets the fit of the games with half a win added to every pair that met (a minimal smoothing, said
/// in its missing interval).
pub fn bradley_terry(n: usize, wins: &[u64], draws: &[u64]) -> Vec<Rating> {
    fit(n, wins, draws, None)
}

/// What the events of a run add for intervals by event: their number, and for every two entrants
/// `i`, `k` the sum over events of the product of their points in the event (a win 2, a draw 1),
/// `products[i * n + k]` (symmetric; the diagonal holds the sums of squares).
pub struct ByEvent<'a> {
    pub events: u64,
    pub products: &'a [u128],
}

/// `bradley_terry` with the intervals of events whose games share a deal: one event is one
/// observation (the sandwich covariance, see the module's notes). `None` intervals with fewer
/// than two events.
pub fn bradley_terry_by_event(n: usize, wins: &[u64], draws: &[u64], by_event: &ByEvent) -> Vec<Rating> {
    assert_eq!(by_event.products.len(), n * n);
    fit(n, wins, draws, Some(by_event))
}

fn fit(n: usize, wins: &[u64], draws: &[u64], by_event: Option<&ByEvent>) -> Vec<Rating> {
    assert_eq!(wins.len(), n * n);
    assert_eq!(draws.len(), n * n);
    let w = |i: usize, j: usize| wins[i * n + j] as f64 + draws[i * n + j] as f64 / 2.0;
    let games = |i: usize, j: usize| w(i, j) + w(j, i);
    let total = |i: usize| (0..n).filter(|&j| j != i).map(|j| games(i, j)).sum::<f64>();
    let won = |i: usize| (0..n).filter(|&j| j != i).map(|j| w(i, j)).sum::<f64>();
    // Unbounded when someone won or lost everything it played: smooth by half a win a meeting.
    let extreme = (0..n).any(|i| total(i) > 0.0 && (won(i) == 0.0 || won(i) == total(i)));
    let smooth = if extreme { 0.5 } else { 0.0 };
    let wij = |i: usize, j: usize| if games(i, j) > 0.0 { w(i, j) + smooth } else { 0.0 };
    let nij = |i: usize, j: usize| wij(i, j) + wij(j, i);
    let mut p = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = p.clone();
        for i in 0..n {
            let wi: f64 = (0..n).filter(|&j| j != i).map(|j| wij(i, j)).sum();
            let denom: f64 =
                (0..n).filter(|&j| j != i && nij(i, j) > 0.0).map(|j| nij(i, j) / (p[i] + p[j])).sum();
            if denom > 0.0 {
                next[i] = wi / denom;
            }
        }
        // Rescale to geometric mean 1 (the model fixes p only up to a factor).
        let played: Vec<usize> = (0..n).filter(|&i| total(i) > 0.0).collect();
        let mean_log = played.iter().map(|&i| next[i].ln()).sum::<f64>() / played.len().max(1) as f64;
        for &i in &played {
            next[i] /= mean_log.exp();
        }
        let change = (0..n).map(|i| (next[i].ln() - p[i].ln()).abs()).fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    let theta: Vec<f64> = p.iter().map(|x| x.ln()).collect();
    let mut cov = covariance(n, &p, nij);
    if let Some(e) = by_event {
        cov = cov.and_then(|c| sandwich(n, &p, &c, e, games, won));
    }
    (0..n)
        .map(|i| Rating {
            elo: ELO * theta[i],
            half_width: cov
                .as_ref()
                .filter(|_| !extreme && total(i) > 0.0)
                .map(|c| super::interval::Z95 * ELO * c[i * n + i].max(0.0).sqrt()),
        })
        .collect()
}

/// The covariance of the centred log-strengths: the pseudo-inverse of the observed information,
/// or `None` when the comparison graph is not connected (the matrix is then singular).
fn covariance(n: usize, p: &[f64], nij: impl Fn(usize, usize) -> f64) -> Option<Vec<f64>> {
    let mut h = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let q = nij(i, j) * p[i] * p[j] / (p[i] + p[j]).powi(2);
                h[i * n + j] -= q;
                h[i * n + i] += q;
            }
        }
    }
    let j = 1.0 / n as f64;
    h.iter_mut().for_each(|x| *x += j);
    let mut inv = invert(n, h)?;
    inv.iter_mut().for_each(|x| *x -= j);
    Some(inv)
}

/// The cluster-robust covariance `bread * M * bread` (module notes), `bread` the pseudo-inverse
/// of the information; `None` with fewer than two events.
fn sandwich(
    n: usize,
    p: &[f64],
    bread: &[f64],
    e: &ByEvent,
    games: impl Fn(usize, usize) -> f64,
    won: impl Fn(usize) -> f64,
) -> Option<Vec<f64>> {
    if e.events < 2 {
        return None;
    }
    let t = e.events as f64;
    let expected: Vec<f64> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i).map(|j| games(i, j) * p[i] / (p[i] + p[j])).sum::<f64>() / t)
        .collect();
    let mut meat = vec![0.0; n * n];
    for i in 0..n {
        for k in 0..n {
            // Sum over events of (S_i - E_i)(S_k - E_k), S in wins (points / 2).
            let ss = e.products[i * n + k] as f64 / 4.0;
            meat[i * n + k] =
                (ss - expected[i] * won(k) - won(i) * expected[k] + t * expected[i] * expected[k]) * t
                    / (t - 1.0);
        }
    }
    let product = |a: &[f64], b: &[f64]| {
        let mut out = vec![0.0; n * n];
        for i in 0..n {
            for k in 0..n {
                out[i * n + k] = (0..n).map(|j| a[i * n + j] * b[j * n + k]).sum();
            }
        }
        out
    };
    Some(product(&product(bread, &meat), bread))
}

/// Entrant's win rate over its games, one event as one observation: the ratio estimator over
/// `events` events (`GroupSums::rate`: Cochran's variance, cut to [0, 1], Wilson over events when
/// every event was all wins or none), each event contributing its games won `T_e` and its games
/// played `m_e = games_per_event` (a round robin: every entrant plays every other once, so the
/// same number each event). `won` is the sum of `T_e`, `won_sq` the sum of `T_e^2`. With one game
/// per event it is Wilson's interval over the games.
pub fn win_rate_by_event(
    events: u64,
    games_per_event: u64,
    won: u64,
    won_sq: u128,
) -> super::interval::Interval {
    let g = games_per_event as u128;
    let moments = super::group::Moments {
        t: won as i128,
        m: events as u128 * g,
        t2: won_sq,
        m2: events as u128 * g * g,
        tm: (won as u128 * g) as i128,
    };
    moments.over(events).rate()
}

/// Gauss-Jordan inversion with partial pivoting; `None` when singular.
fn invert(n: usize, mut a: Vec<f64>) -> Option<Vec<f64>> {
    let mut inv = vec![0.0; n * n];
    (0..n).for_each(|i| inv[i * n + i] = 1.0);
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x * n + col].abs().total_cmp(&a[y * n + col].abs()))?;
        if a[pivot * n + col].abs() < 1e-12 {
            return None;
        }
        for k in 0..n {
            a.swap(col * n + k, pivot * n + k);
            inv.swap(col * n + k, pivot * n + k);
        }
        let d = a[col * n + col];
        for k in 0..n {
            a[col * n + k] /= d;
            inv[col * n + k] /= d;
        }
        for r in (0..n).filter(|&r| r != col) {
            let f = a[r * n + col];
            if f != 0.0 {
                for k in 0..n {
                    a[r * n + k] -= f * a[col * n + k];
                    inv[r * n + k] -= f * inv[col * n + k];
                }
            }
        }
    }
    Some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_entrants_three_to_one() {
        // The maximum-likelihood p_a / p_b is the odds 3; the variance of theta_a - theta_b is
        // 1 / (n p (1 - p)) = 1 / (4 * 3/4 * 1/4) = 4/3, and each centred theta has a quarter of it.
        let r = bradley_terry(2, &[0, 3, 1, 0], &[0; 4]);
        assert!((r[0].elo - r[1].elo - ELO * 3f64.ln()).abs() < 1e-9);
        assert!((r[0].elo + r[1].elo).abs() < 1e-9);
        let se = (4.0f64 / 3.0 / 4.0).sqrt();
        assert!((r[0].half_width.unwrap() - crate::stats::interval::Z95 * ELO * se).abs() < 1e-6);
    }

    #[test]
    fn equal_records_give_equal_ratings() {
        // A cycle: each beats the next twice and loses once to it.
        let wins = [0, 2, 1, 1, 0, 2, 2, 1, 0];
        let r = bradley_terry(3, &wins, &[0; 9]);
        for x in &r {
            assert!(x.elo.abs() < 1e-9, "{r:?}");
        }
    }

    #[test]
    fn the_fit_solves_the_likelihood_equations() {
        // Hunter (2004): at the maximum, each entrant's wins equal its expected wins.
        let n = 4;
        let wins = [0, 7, 5, 9, 3, 0, 6, 8, 5, 4, 0, 7, 1, 2, 3, 0];
        let r = bradley_terry(n, &wins, &[0; 16]);
        let p: Vec<f64> = r.iter().map(|x| (x.elo / ELO).exp()).collect();
        for i in 0..n {
            let observed: f64 = (0..n).map(|j| wins[i * n + j] as f64).sum();
            let expected: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| (wins[i * n + j] + wins[j * n + i]) as f64 * p[i] / (p[i] + p[j]))
                .sum();
            assert!((observed - expected).abs() < 1e-6, "entrant {i}: {observed} vs {expected}");
        }
        assert!(r.iter().all(|x| x.half_width.is_some()));
    }

    #[test]
    fn draws_count_half_and_a_clean_sweep_has_no_interval() {
        let r = bradley_terry(2, &[0, 1, 1, 0], &[0, 2, 2, 0]);
        assert!((r[0].elo - r[1].elo).abs() < 1e-9);
        let sweep = bradley_terry(2, &[0, 5, 0, 0], &[0; 4]);
        assert!(sweep[0].elo > sweep[1].elo);
        assert!(sweep[0].half_width.is_none());
        // Smoothed by half a win: odds 5.5 / 0.5 = 11.
        assert!((sweep[0].elo - sweep[1].elo - ELO * 11f64.ln()).abs() < 1e-6);
    }

    /// The points (win 2, draw 1) per entrant of each event, as `ByEvent`'s products.
    fn products(n: usize, events: &[Vec<u32>]) -> Vec<u128> {
        let mut out = vec![0u128; n * n];
        for pts in events {
            for i in 0..n {
                for k in 0..n {
                    out[i * n + k] += (pts[i] * pts[k]) as u128;
                }
            }
        }
        out
    }

    #[test]
    fn events_that_repeat_one_result_widen_the_interval_by_event() {
        // Two entrants meet once per event. 40 events, a won 30 of them: independent events, so
        // the sandwich's variance of theta_a - theta_b is the model's, times T / (T - 1), and the
        // estimate is the same.
        let events: Vec<Vec<u32>> = (0..40).map(|e| if e < 30 { vec![2, 0] } else { vec![0, 2] }).collect();
        let wins = [0, 30, 10, 0];
        let model = bradley_terry(2, &wins, &[0; 4]);
        let p = products(2, &events);
        let by = bradley_terry_by_event(2, &wins, &[0; 4], &ByEvent { events: 40, products: &p });
        assert!((model[0].elo - by[0].elo).abs() < 1e-12);
        let ratio = by[0].half_width.unwrap() / model[0].half_width.unwrap();
        assert!((ratio - (40.0f64 / 39.0).sqrt()).abs() < 1e-9, "{ratio}");
        // Now 10 events of four games each, where the games of one event all go the same way (a
        // shared deal decides them): the same 30-10 totals, but only 10 observations. The model
        // interval is unchanged; the interval by event is twice as wide (variance x4, one event
        // counting four identical games), up to T / (T - 1) = 10/9 instead of 40/39.
        let clustered: Vec<Vec<u32>> = (0..10).map(|e| if e < 7 { vec![8, 0] } else { vec![0, 8] }).collect();
        let wins = [0, 28, 12, 0];
        let model = bradley_terry(2, &wins, &[0; 4]);
        let p = products(2, &clustered);
        let by = bradley_terry_by_event(2, &wins, &[0; 4], &ByEvent { events: 10, products: &p });
        // Model variance of the difference: 1 / (n p q); events: 10/9 * sum (S - 4p)^2 / (n p q)^2.
        let (pa, n): (f64, f64) = (0.7, 40.0);
        let model_var = 1.0 / (n * pa * (1.0 - pa));
        let meat = 10.0 / 9.0 * (7.0 * (4.0 - 4.0 * pa).powi(2) + 3.0 * (4.0 * pa).powi(2));
        let by_var = meat * model_var * model_var;
        let expect = (by_var / model_var).sqrt();
        let ratio = by[0].half_width.unwrap() / model[0].half_width.unwrap();
        assert!((ratio - expect).abs() < 1e-9, "{ratio} vs {expect}");
        assert!(ratio > 1.9, "clustered games widen the interval: {ratio}");
    }

    /// Events of a round robin of three, each given by the winners of its games 0-1, 0-2 and 1-2,
    /// every game played `copies` times inside its event with the same result (a shared deal that
    /// decides them): the wins totals and the per-event points products.
    fn round_robins(events: &[[usize; 3]], copies: u64) -> (Vec<u64>, Vec<u128>) {
        let pairs = [(0, 1), (0, 2), (1, 2)];
        let mut wins = vec![0u64; 9];
        let mut points = Vec::new();
        for winners in events {
            let mut pts = vec![0u32; 3];
            for (&(a, b), &w) in pairs.iter().zip(winners) {
                let l = a + b - w;
                wins[w * 3 + l] += copies;
                pts[w] += 2 * copies as u32;
            }
            points.push(pts);
        }
        (wins, products(3, &points))
    }

    #[test]
    fn copies_of_a_game_inside_an_event_add_nothing_by_event_and_shrink_the_naive_interval() {
        // 30 events of a round robin of three, results varied so nobody sweeps. Known answer: with
        // every game of an event played k times alike, the wins, the information and each event's
        // score all scale by k, so the sandwich is exactly the one of the single games, while the
        // by-game interval shrinks by sqrt(k) as if k times the evidence had been seen.
        let events: Vec<[usize; 3]> = (0..30)
            .map(|e| {
                [
                    if e % 3 != 0 { 0 } else { 1 },
                    if e % 5 < 3 { 0 } else { 2 },
                    if e % 2 == 0 { 1 } else { 2 },
                ]
            })
            .collect();
        let fit = |copies: u64| {
            let (wins, p) = round_robins(&events, copies);
            let naive = bradley_terry(3, &wins, &[0; 9]);
            let by = bradley_terry_by_event(3, &wins, &[0; 9], &ByEvent { events: 30, products: &p });
            (naive, by)
        };
        let (naive1, by1) = fit(1);
        let (naive4, by4) = fit(4);
        for i in 0..3 {
            let h = |r: &[Rating]| r[i].half_width.expect("an interval");
            assert!((by1[i].elo - by4[i].elo).abs() < 1e-9 && (naive1[i].elo - by1[i].elo).abs() < 1e-12);
            assert!((h(&by4) - h(&by1)).abs() < 1e-9 * h(&by1), "entrant {i}: {} vs {}", h(&by4), h(&by1));
            assert!((h(&naive4) * 2.0 - h(&naive1)).abs() < 1e-9 * h(&naive1), "entrant {i}");
            // Inside events of four alike copies the interval by event is about twice the naive one.
            assert!(h(&by4) > 1.6 * h(&naive4), "entrant {i}: {} vs {}", h(&by4), h(&naive4));
        }
    }

    #[test]
    fn one_game_an_event_gives_the_naive_interval_up_to_the_small_sample_factor() {
        // Two entrants, one game an event: each event's score is its game's, so the sandwich is the
        // model's variance times T / (T - 1) exactly (the known answer: 1 / (n p q) for n games).
        for (t, a) in [(25u64, 15u64), (200, 91)] {
            let events: Vec<Vec<u32>> = (0..t).map(|e| if e < a { vec![2, 0] } else { vec![0, 2] }).collect();
            let wins = [0, a, t - a, 0];
            let p = products(2, &events);
            let naive = bradley_terry(2, &wins, &[0; 4]);
            let by = bradley_terry_by_event(2, &wins, &[0; 4], &ByEvent { events: t, products: &p });
            let q = a as f64 / t as f64;
            let se = (1.0 / (t as f64 * q * (1.0 - q)) / 4.0).sqrt();
            let model = crate::stats::interval::Z95 * ELO * se;
            assert!((naive[0].half_width.unwrap() - model).abs() < 1e-6 * model);
            let factor = (t as f64 / (t as f64 - 1.0)).sqrt();
            assert!((by[0].half_width.unwrap() - model * factor).abs() < 1e-6 * model, "{t} events");
        }
    }

    #[test]
    fn a_win_rate_by_event_is_wilson_for_single_games_and_wider_when_an_events_games_agree() {
        use crate::stats::interval::{Z95, wilson};
        // One game an event: Wilson over the games, exactly.
        let single = win_rate_by_event(20, 1, 12, 12);
        let w = wilson(12, 20);
        assert_eq!((single.estimate, single.low, single.high), (w.estimate, w.low, w.high));
        // Ten events of two games: six won both, four lost both (the same 12 of 20). Ratio
        // estimator: r = 0.6, var = 10/9 * (6 * 0.8^2 + 4 * 1.2^2) / 20^2 = 10/9 * 9.6 / 400.
        let agree = win_rate_by_event(10, 2, 12, 6 * 4);
        let half = Z95 * (10.0f64 / 9.0 * 9.6 / 400.0).sqrt();
        assert!((agree.estimate - 0.6).abs() < 1e-12);
        assert!((agree.high - agree.low - 2.0 * half).abs() < 1e-12, "{agree:?}");
        assert!(agree.high - agree.low > 1.5 * (w.high - w.low), "{agree:?} vs {w:?}");
    }
}
