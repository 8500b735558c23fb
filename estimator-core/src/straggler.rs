//! The wait for the slowest rank: a synchronous step ends when its slowest GPU does.
//!
//! GPUs of one model differ in speed: Sinha et al., "Not All GPUs Are Created Equal: Characterizing Variability
//! in Large-Scale, Accelerator-Rich Systems" (SC'22, arXiv 2208.11035 v3, abstract) measure "8% (max 22%) average
//! performance variation even though the GPU architecture and vendor SKU are identical within each cluster, with
//! outliers up to 1.5X slower than the median GPU". With per-rank compute times spread with a coefficient of
//! variation `v` (normal, the same GPU slow at every step), a step on N ranks takes the expected maximum of N of
//! them: `mean x (1 + v x e(N))`, `e(N)` the expected maximum of N standard normals. The compute a user gives is
//! taken as one node's step (the slowest of its G GPUs already in it, `mean x (1 + v e(G))`), so the term adds
//! `v (e(N) - e(G)) / (1 + v e(G))` of it.

/// The expected maximum of `n` independent standard normal draws (Blom's approximation,
/// `Φ⁻¹((n - 0.375) / (n + 0.25))`: 4.5% above the exact value at 2, within 1% from 8 to 10,000); 0 for one
/// draw.
pub fn expected_max_normal(n: u32) -> f64 {
    if n <= 1 {
        return 0.0;
    }
    let n = f64::from(n);
    inverse_normal_cdf((n - 0.375) / (n + 0.25))
}

/// The standard normal quantile of `p` in (0, 1) (P. J. Acklam's rational approximation, relative error below
/// 1.2e-9); ±infinity at the ends.
pub fn inverse_normal_cdf(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] =
        [7.784_695_709_041_462e-3, 3.224_671_290_700_398e-1, 2.445_134_137_142_996, 3.754_408_661_907_416];
    const LOW: f64 = 0.02425;
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < LOW {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - LOW {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// The share of the compute a step on `ranks` GPUs adds over one node of `per_node` when per-rank compute varies
/// with coefficient of variation `v`: `v (e(ranks) - e(per_node)) / (1 + v e(per_node))`, never below 0.
pub fn wait_share(v: f64, ranks: u32, per_node: u32) -> f64 {
    if v <= 0.0 || ranks <= per_node {
        return 0.0;
    }
    let node = expected_max_normal(per_node);
    (v * (expected_max_normal(ranks) - node) / (1.0 + v * node)).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expected_maximum_matches_tabulated_values() {
        // Expected maxima of n standard normals, the integral of x n Φ(x)^(n-1) φ(x) (1/√π for two).
        for (n, exact, tol) in
            [(2, 0.5642, 0.05), (4, 1.0294, 0.02), (8, 1.4236, 0.01), (16, 1.7660, 0.01), (64, 2.3437, 0.01)]
        {
            let e = expected_max_normal(n);
            assert!((e - exact).abs() / exact < tol, "n {n}: {e} vs {exact}");
        }
        for (n, exact) in [(128, 2.5946), (1024, 3.2482)] {
            assert!((expected_max_normal(n) - exact).abs() / exact < 0.01, "n {n}");
        }
        assert_eq!(expected_max_normal(1), 0.0);
        assert!(expected_max_normal(100_000) < 5.0);
    }

    #[test]
    fn the_wait_grows_with_the_ranks_and_is_none_on_one_node() {
        assert_eq!(wait_share(0.02, 8, 8), 0.0);
        assert_eq!(wait_share(0.0, 1024, 8), 0.0);
        let (a, b) = (wait_share(0.02, 16, 8), wait_share(0.02, 1024, 8));
        assert!(0.0 < a && a < b && b < 0.05, "{a} {b}");
    }
}
