// Initial points shared by the small vector-field problems (Volterra, the ABC flow): a point in R^n read from one
// override key per coordinate, or drawn uniformly from a box for "random:K" (their presets: preset_table.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "problems/common/overrides.hpp"

namespace gib::point_presets {

// A point in R^N: `given` with each coordinate whose key `o` holds replaced (finite), or for "random:K" each coordinate
// uniform in [lo, hi) from the stream `seed` (the keys may then not be given).
template <std::size_t N>
Eigen::VectorXd initial_point(const nlohmann::json& o, const std::string& ic, const std::array<const char*, N>& keys,
                              const std::array<double, N>& given, double lo, double hi, std::uint64_t seed,
                              const std::string& problem) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(N));
  if (const auto k = random_ic_index(ic)) {
    for (const char* key : keys)
      if (o.contains(key)) throw InputError(problem + ": " + key + " cannot be combined with initial condition " + ic);
    random::Stream rng(random::derive_seed(seed, *k));
    for (std::size_t i = 0; i < N; ++i) x(static_cast<Eigen::Index>(i)) = rng.uniform(lo, hi);
    return x;
  }
  for (std::size_t i = 0; i < N; ++i)
    x(static_cast<Eigen::Index>(i)) = o.contains(keys[i]) ? overrides::read_finite(o[keys[i]], keys[i]) : given[i];
  return x;
}

}  // namespace gib::point_presets
