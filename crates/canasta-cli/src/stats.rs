//! Statistics for tournaments: Wilson score intervals, Elo ratings, and the
//! interval of a mean margin a hand.

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
    // The interval holds the rate itself: at a rate of 1 (or 0) the sum
    // rounds a hair short of it.
    ((centre - half).clamp(0.0, p), (centre + half).clamp(p, 1.0))
}

/// Sums over the units of a match (games, or deals of one hand) that give
/// the mean score margin a hand and its 95% interval: the units differ in
/// how many hands they had, so the mean is a ratio of sums, and its
/// interval comes from the ratio's standard error (the delta method).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MarginSums {
    pub units: f64,
    /// Σ margin, Σ hands, Σ margin², Σ hands², Σ margin × hands.
    pub margin: f64,
    pub hands: f64,
    pub margin_sq: f64,
    pub hands_sq: f64,
    pub margin_hands: f64,
}

impl MarginSums {
    /// One unit: its summed score margin over `hands` hands.
    pub fn add(&mut self, margin: f64, hands: f64) {
        self.units += 1.0;
        self.margin += margin;
        self.hands += hands;
        self.margin_sq += margin * margin;
        self.hands_sq += hands * hands;
        self.margin_hands += margin * hands;
    }

    pub fn merge(&mut self, o: &MarginSums) {
        self.units += o.units;
        self.margin += o.margin;
        self.hands += o.hands;
        self.margin_sq += o.margin_sq;
        self.hands_sq += o.hands_sq;
        self.margin_hands += o.margin_hands;
    }

    /// The same match from the other side: the margins change sign.
    pub fn negated(&self) -> MarginSums {
        MarginSums {
            margin: -self.margin,
            margin_hands: -self.margin_hands,
            ..*self
        }
    }

    /// The mean margin a hand (0 without hands).
    pub fn per_hand(&self) -> f64 {
        if self.hands > 0.0 {
            self.margin / self.hands
        } else {
            0.0
        }
    }

    /// The 95% interval of [`MarginSums::per_hand`]; none from fewer than
    /// two units, which say nothing of the spread.
    pub fn ci95(&self) -> Option<(f64, f64)> {
        let n = self.units;
        let r = self.per_hand();
        if n < 2.0 || self.hands <= 0.0 {
            return None;
        }
        // Σ (margin_i − r hands_i)², spread about the ratio.
        let spread =
            (self.margin_sq - 2.0 * r * self.margin_hands + r * r * self.hands_sq).max(0.0);
        let mean_hands = self.hands / n;
        let se = (spread / (n - 1.0) / n).sqrt() / mean_hands;
        let z = 1.959_963_984_540_054_f64;
        Some((r - z * se, r + z * se))
    }
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

    /// The interval holds the rate, exactly, at every count: a report read
    /// back to the last bit (as `--json` is) never has a rate above its
    /// interval.
    #[test]
    fn the_interval_holds_the_rate() {
        for n in 1..=200 {
            for k in 0..=n {
                let (n, k) = (f64::from(n), f64::from(k));
                let (lo, hi) = wilson95(k, n);
                assert!(lo <= k / n && k / n <= hi, "{k} of {n}: {lo} {hi}");
            }
        }
        assert_eq!(wilson95(30.0, 30.0).1, 1.0);
        assert_eq!(wilson95(0.0, 30.0).0, 0.0);
    }

    /// Units of one hand each: the interval is the textbook one of a mean,
    /// mean ± 1.96 s/√n.
    #[test]
    fn margin_interval_of_single_hands_is_the_mean_s() {
        let xs = [100.0, -50.0, 300.0, 20.0, -120.0, 60.0];
        let mut m = MarginSums::default();
        for x in xs {
            m.add(x, 1.0);
        }
        let n = xs.len() as f64;
        let mean = xs.iter().sum::<f64>() / n;
        let s = (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
        let (lo, hi) = m.ci95().unwrap();
        assert!((m.per_hand() - mean).abs() < 1e-9);
        assert!(
            (hi - lo - 2.0 * 1.959_964 * s / n.sqrt()).abs() < 1e-3,
            "{lo} {hi}"
        );
        let (nlo, nhi) = m.negated().ci95().unwrap();
        assert!((nlo + hi).abs() < 1e-9 && (nhi + lo).abs() < 1e-9);
        // Units of two hands with twice the margin: the same mean and interval.
        let mut two = MarginSums::default();
        for x in xs {
            two.add(2.0 * x, 2.0);
        }
        assert!((two.per_hand() - mean).abs() < 1e-9);
        let (tlo, thi) = two.ci95().unwrap();
        assert!((tlo - lo).abs() < 1e-9 && (thi - hi).abs() < 1e-9);
        assert_eq!(MarginSums::default().ci95(), None);
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
