//! Statistics for tournaments: Wilson score intervals and Elo ratings.

/// The 95% Wilson score interval of a rate of `score` out of `n` trials
/// (ties counted half). Unlike the normal approximation it stays inside
/// [0, 1] and is sensible at 0% or 100%.
pub fn wilson95(score: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let p = score / n;
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Elo ratings (mean 1500) fitted to the results by maximum likelihood
/// (the Bradley-Terry model, which Elo's expected score is). `games[i][j]`
/// is how many games i and j played, `score[i][j]` the points i took from
/// them (a win 1, a tie 1/2). Each pair that met gets one extra drawn game,
/// a prior that keeps a 100% record finite. Bots that never met anyone rate 1500.
pub fn elo(games: &[Vec<f64>], score: &[Vec<f64>]) -> Vec<f64> {
    let n = games.len();
    let prior = |i: usize, j: usize| if games[i][j] > 0.0 { 1.0 } else { 0.0 };
    let mut strength = vec![1.0f64; n];
    // Minorise-maximise iterations (Hunter 2004); they converge monotonically.
    for _ in 0..2000 {
        let mut next = strength.clone();
        for i in 0..n {
            let wins: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| score[i][j] + 0.5 * prior(i, j))
                .sum();
            let denom: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| (games[i][j] + prior(i, j)) / (strength[i] + strength[j]))
                .sum();
            if denom > 0.0 {
                next[i] = wins / denom;
            }
        }
        let mean_log = next.iter().map(|s| s.ln()).sum::<f64>() / n as f64;
        for s in &mut next {
            *s = (s.ln() - mean_log).exp();
        }
        let change = next
            .iter()
            .zip(&strength)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        strength = next;
        if change < 1e-12 {
            break;
        }
    }
    strength
        .iter()
        .map(|s| 1500.0 + 400.0 * s.log10())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_a_textbook_value() {
        // 60 of 100: [0.502, 0.691].
        let (lo, hi) = wilson95(60.0, 100.0);
        assert!(
            (lo - 0.502).abs() < 0.001 && (hi - 0.691).abs() < 0.001,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson95(10.0, 10.0);
        assert!(lo > 0.69 && lo < 0.73 && hi > 1.0 - 1e-9, "{lo} {hi}");
    }

    #[test]
    fn elo_gap_follows_the_expected_score() {
        // 76% against each other is a gap of about 200 points.
        let games = vec![vec![0.0, 1000.0], vec![1000.0, 0.0]];
        let score = vec![vec![0.0, 760.0], vec![240.0, 0.0]];
        let r = elo(&games, &score);
        assert!(((r[0] - r[1]) - 200.0).abs() < 5.0, "{r:?}");
        assert!(((r[0] + r[1]) / 2.0 - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn a_perfect_record_stays_finite_and_ordered() {
        let games = vec![
            vec![0.0, 10.0, 10.0],
            vec![10.0, 0.0, 10.0],
            vec![10.0, 10.0, 0.0],
        ];
        let score = vec![
            vec![0.0, 10.0, 10.0],
            vec![0.0, 0.0, 7.0],
            vec![0.0, 3.0, 0.0],
        ];
        let r = elo(&games, &score);
        assert!(r.iter().all(|x| x.is_finite()));
        assert!(r[0] > r[1] && r[1] > r[2], "{r:?}");
    }
}
