// Fourth-order Zhang-Skeel (`zs4`) by the Yoshida triple jump of zs (spec 2.8, Remark 2.1; the paper's own 4th-order
// example is in an unavailable supplement, A26). zs recomputes f whenever the substep size changes, so a composed
// step costs 5 linear solves (3 substep ends and 2 recomputations), the last f being reused by the next step.
#include "methods/composition/symmetric_composition.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"

namespace gib::zhang_skeel {

MethodInfo zs4() {
  return composition::compose(zs(), composition::Scheme::triple_jump, "zs4", "Zhang-Skeel 4 (triple jump of Z&S)");
}

}  // namespace gib::zhang_skeel
