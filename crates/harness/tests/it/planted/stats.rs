//! The figures of the planted-bug table: medians, restricted means of
//! censored times, and the Mann-Whitney U test that compares two drivers on
//! the same bug (Klees et al., CCS 2018, ask for it before believing that one
//! fuzzer finds a bug faster than another).

/// The median of `values` (the upper one of an even count), `None` when
/// empty; infinite values (censored runs) sort last.
pub fn median(values: &[f64]) -> Option<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted.get(sorted.len() / 2).copied()
}

/// The mean of `min(t, budget)`: a censored run (infinite `t`) counts as the
/// budget, so that the figure stays finite and comparable between drivers.
pub fn restricted_mean(times: &[f64], budget: f64) -> f64 {
    times.iter().map(|t| t.min(budget)).sum::<f64>() / times.len().max(1) as f64
}

/// A Mann-Whitney U test of two samples: U of the first sample (the number
/// of pairs in which its value is the larger, ties counting a half) and the
/// two-sided p-value by the normal approximation, with the tie correction of
/// the variance and a continuity correction of 0.5 (as scipy's
/// `mannwhitneyu(..., method="asymptotic")`). Both samples must be non-empty.
pub fn mann_whitney(a: &[f64], b: &[f64]) -> (f64, f64) {
    let (n1, n2) = (a.len() as f64, b.len() as f64);
    let mut all: Vec<(f64, bool)> = a
        .iter()
        .map(|&x| (x, true))
        .chain(b.iter().map(|&x| (x, false)))
        .collect();
    all.sort_by(|x, y| x.0.total_cmp(&y.0));
    // Average ranks over ties, and the sum of t^3 - t over tie groups.
    let (mut rank_sum_a, mut ties) = (0.0, 0.0);
    let mut i = 0;
    while i < all.len() {
        let mut j = i;
        while j + 1 < all.len() && all[j + 1].0 == all[i].0 {
            j += 1;
        }
        let rank = (i + j) as f64 / 2.0 + 1.0;
        let t = (j - i + 1) as f64;
        ties += t * t * t - t;
        rank_sum_a += rank * all[i..=j].iter().filter(|x| x.1).count() as f64;
        i = j + 1;
    }
    let u = rank_sum_a - n1 * (n1 + 1.0) / 2.0;
    let n = n1 + n2;
    let mean = n1 * n2 / 2.0;
    let variance = n1 * n2 / 12.0 * ((n + 1.0) - ties / (n * (n - 1.0)));
    if variance <= 0.0 {
        // Every value the same: no evidence either way.
        return (u, 1.0);
    }
    let z = ((u - mean).abs() - 0.5).max(0.0) / variance.sqrt();
    (u, erfc(z / std::f64::consts::SQRT_2))
}

/// The complementary error function (Numerical Recipes' Chebyshev fit,
/// fractional error under 1.2e-7): enough for a p-value.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[test]
fn mann_whitney_matches_the_textbook_example() {
    // scipy's documentation example (ages of male and female workers):
    // U = 17 for the first sample, asymptotic two-sided p = 0.11134688653314041.
    let (u, p) = mann_whitney(&[19.0, 22.0, 16.0, 29.0, 24.0], &[20.0, 11.0, 17.0, 12.0]);
    assert_eq!(u, 17.0);
    assert!((p - 0.111_346_886_533_140_41).abs() < 1e-6, "p = {p}");
    // The other way round: U = 20 - 17, the same p.
    let (u, q) = mann_whitney(&[20.0, 11.0, 17.0, 12.0], &[19.0, 22.0, 16.0, 29.0, 24.0]);
    assert_eq!(u, 3.0);
    assert!((p - q).abs() < 1e-12);
    // Ties: two samples all at one value (censored runs) give p = 1; two
    // samples far apart give a small p.
    assert_eq!(mann_whitney(&[5.0; 20], &[5.0; 20]).1, 1.0);
    let low: Vec<f64> = (0..20).map(f64::from).collect();
    let high: Vec<f64> = (100..120).map(f64::from).collect();
    let (u, p) = mann_whitney(&low, &high);
    assert_eq!(u, 0.0);
    assert!(p < 1e-6, "p = {p}");
    assert!((erfc(0.0) - 1.0).abs() < 1e-7 && (erfc(1.0) - 0.157_299_207).abs() < 1e-6);
}

#[test]
fn medians_and_restricted_means_count_censored_runs() {
    let times = [0.1, 0.3, f64::INFINITY, 0.2];
    assert_eq!(median(&times), Some(0.3));
    assert!((restricted_mean(&times, 2.0) - 2.6 / 4.0).abs() < 1e-12);
    assert_eq!(median(&[]), None);
}
