// distribution_agreement: do two methods sample the same distribution (Tao-Owhadi Figs 4 and 7: the O-O radial
// distributions of SHAKE + GLA and Integrator 5 + GLA "agree")? Each side is a group of runs with independent seeds
// (rows matching `where` and `reference`), each run a histogram of `distribution` (observe.distributions; row
// "distributions"). The seeds, not the samples, are the independent units: the samples of one run are strongly
// autocorrelated, the runs are not.
//
// The test: the statistic D is the Kolmogorov-Smirnov distance between the two groups' pooled histograms (the largest
// difference of their cumulative distributions over the bin edges, out-of-range counts included at the ends); its
// null distribution comes from every split of the pooled runs into groups of the two sizes (an exact permutation
// test: under "same distribution" the runs are exchangeable). ours = the p-value, the share of splits whose D is at
// least the observed one, judged with at_least: alpha (0.01 in the committed specs). The smallest p-value a test
// can give is 1 / C(n_a + n_b, n_a) (twice that with equal groups: a split and its complement give the same D), so
// too few seeds for alpha is "no data", never a pass. Its power is stated in the row: the smallest shift of every
// value of the `where` group by a whole number of bins that the same test rejects at alpha. An optional `values_in`
// [lo, hi] (whole bins) compares the distributions conditional on it: a cluster's local structure, without the
// long-distance tail that molecules boiling off the cluster spread differently from seed to seed.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace gib {

using Json = nlohmann::json;

// One run's histogram: counts per bin, with the values below and above the range at the ends.
struct BinnedSample {
  std::vector<std::int64_t> counts;
  std::int64_t underflow = 0, overflow = 0;
  std::int64_t total() const;
};

struct PermutationTest {
  double statistic = 0;           // D of the groups as given
  double p_value = 1;             // share of the splits with D >= the observed one
  std::int64_t splits = 0;        // splits enumerated (all of them)
  double smallest_p = 1;          // the smallest p-value these group sizes can give
  double critical = 0;            // the null's D at the 1 - alpha quantile (the value D must pass to reject)
};

// The exact two-sample permutation test of KS distance between pooled histograms; groups of at least one run
// each, at most 20 runs in all (C(20, 10) = 184756 splits). Throws std::invalid_argument otherwise.
PermutationTest permutation_ks_test(const std::vector<BinnedSample>& a, const std::vector<BinnedSample>& b, double alpha);

// a with every value moved up by `bins` bins (values moved past the range join the overflow).
std::vector<BinnedSample> shifted(const std::vector<BinnedSample>& a, int bins);

Json check_distribution_agreement(const Json& c, const Json& rows);

}  // namespace gib
