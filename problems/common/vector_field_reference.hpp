// The numerical reference of a vector-field problem: x' = f(x) integrated by problems/common/ode_reference.hpp
// (two RKF78 runs at 1e-13 and 1e-12); its error estimate is in state_err's metric, |x - x_ref|_2.
#pragma once

#include <memory>
#include <string>

#include "core/vector_field_problem.hpp"
#include "problems/common/ode_reference.hpp"

namespace gib {

std::shared_ptr<const VectorFieldReference> vector_field_reference(std::shared_ptr<const VectorFieldModel> model,
                                                                   const VectorFieldState& x0,
                                                                   OdeReferenceSettings settings = {});

// One reference per distinct key in the process (every cell of a sweep builds its own problem; the integration
// is the expensive part): the key must identify the trajectory, e.g. the problem's parameter hash.
std::shared_ptr<const VectorFieldReference> shared_vector_field_reference(
    const std::string& key, const std::function<std::shared_ptr<const VectorFieldReference>()>& build);

}  // namespace gib
