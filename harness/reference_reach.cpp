#include "harness/reference_reach.hpp"

#include <cmath>

#include "core/errors.hpp"
#include "core/user_input.hpp"
#include "harness/model_kinds.hpp"

namespace gib {

void check_reference_reach(const Problem& p, double t, const std::string& what) {
  const double scale = p.time_scale();
  const double limit = kMaxReferenceTimeScales * scale;
  if (t <= limit) return;
  const Json summary = reference_summary(p, 0.0);
  if (summary.is_null() || summary.value("kind", "") != "numerical") return;
  throw InputError(what + ": t = " + number_text(t) + " is " + number_text(std::round(t / scale)) + " time scales of " +
                   p.id() + "/" + p.preset() + " (one is " + number_text(scale) + "), and its numerical reference " +
                   "integrates at most " + number_text(kMaxReferenceTimeScales) + " (about 1e7 steps): t <= " +
                   number_text(limit) + " (runs without the reference: run --no-reference, observe.reference false)");
}

}  // namespace gib
