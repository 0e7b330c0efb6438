// Figure checks that compare methods with each other or summarise a recorded time series, for papers
// whose claims are relative ("IMID is the most accurate", "an order of magnitude less accurate in R",
// "the vertical scale of Fig. 5 is 1/5 that of Fig. 4") rather than printed numbers (Krysl 2006).
//
// Every kind takes the usual statement/source/reason fields and is judged by judge_row() (figure_verdict.hpp):
//   at_most / at_least / range, or a numeric paper_value with sig_digits / abs_tol / rel_tol / factor, and an
//   optional weaker "direction". A row whose run did not end ok refutes the statement (failed_run_row).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace gib {

using Json = nlohmann::json;

// metric_ratio: |metric| of the one row matching `numerator` over that of the row matching
// `denominator` (both where-objects; `metric`, or numerator_metric / denominator_metric).
Json check_metric_ratio(const Json& c, const Json& rows);

// best: among the rows matching `where` (one per method), the method with the smallest |metric|.
// Judged on the factor between the best expected method (`expected`: an id or a list) and the best of all: it
// holds when that factor is at most `within` (default 1: an expected method is the best). ours = the best's id.
Json check_best(const Json& c, const Json& rows);

// series_stat: a statistic of one recorded series (default "energy_rel_err") of the row matching `where`:
//   max_abs, spread (max - min), std, mean, final, min, max, crossings (sign changes of series - `level`, default 0),
//   block_mean_span (max - min of the means of `blocks` equal
//   blocks, default 10), block_width_variation ((max - min)/max of the blocks' max - min).
//   When the row carries the runner's per-block summary of every step (metrics[<series>_blocks], from
//   observe.block_stats, with observe.drift_blocks blocks) that is used instead of the sampled series; the
//   runner's blocks are then merged into `blocks` groups (their count must divide), and one more statistic
//   is available: low_freq_share, the variance of the runner's block means over the total variance (the
//   share of the signal at periods longer than one block).
Json check_series_stat(const Json& c, const Json& rows, const Json& series);

// spikes: spike events in one recorded series (default "energy_rel_err") of the row matching `where`: runs
// of consecutive samples whose step change exceeds `jump_fraction` (default 0.02) of the series' largest
// |value| (the jumps visible on the figure's linear scale). stat "count" is their number, "near_fraction" the
// share of them during which `near` (default "min_pair_distance") drops below `distance_below` (default 1.5):
// Kjer's "spikes occur when two particles come close".
Json check_spikes(const Json& c, const Json& rows, const Json& series);

// series_compare: how closely one recorded series follows another (Tao-Owhadi Fig 2b: the windowed average of
// -omega^2 g of a penalised run against SHAKE's multiplier). `subject` and `reference` are each
// {"where": {...}, "series": name, "scale": factor (default 1), "window": width in t (default 0: raw)}; a window
// replaces every sample by the mean of the samples within +/- window/2 (a box filter, truncated at the ends).
// Both runs must be sampled at the same times; a side's "lag_samples": k says its sample j belongs to t[j - k]
// (RATTLE's Lambda of a step's start is recorded at the step's end: k = 1 when every step is sampled); leading
// nulls (a quantity that exists only after the first step) are skipped. ours = RMS(subject - reference)
// / RMS(reference) over the common samples, skipping `skip_t` (default 0) at each end where a window is truncated.
Json check_series_compare(const Json& c, const Json& rows, const Json& series);

// rate_ratio: do spike events of one series (default "energy_rel_err") start preferentially during close
// encounters (Kjer 3.10, "the spikes occur when two particles come close")? A transition k-1 -> k is close when
// `near` (default "min_pair_distance") at either end is at or below its `close_quantile` (default 0.1) quantile over
// the run, or below `distance_below` when given. ours = P(onset | close) / P(onset), the conditional rate ratio
// (1: no relation; 1 / close_quantile: every onset is close). Significance from 999 circular shifts of the close
// indicator against the onsets (each series keeps its own clustering): the row carries p_value and the null's 95 %
// quantile, and a ratio that meets its bound with p_value above `alpha` (default 0.05) is inconclusive.
Json check_rate_ratio(const Json& c, const Json& rows, const Json& series);

}  // namespace gib
