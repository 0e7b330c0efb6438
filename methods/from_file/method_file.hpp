// Methods defined by a JSON file instead of C++ (docs/method_files.md): a family gibench already runs, the
// family's coefficients, and the claims. The coefficients are checked against the order conditions before the method
// is registered (order_conditions.hpp); a violated condition is an InputError that names it.
//
// Families:
//   rkmk             a Butcher tableau run as Runge-Kutta-Munthe-Kaas on T*SO(3) and rigid particles (methods/rkmk/)
//   crouch_grossman  a Butcher tableau run as a Crouch-Grossman method on T*SO(3) (methods/crouch_grossman/)
//   commutator_free  stages and update as products of exponentials of combinations of the stages' fields, on T*SO(3)
//                    (methods/crouch_grossman/commutator_free.hpp)
//   classical_rk     a Butcher tableau run as explicit RK on a general vector field (embedding "vector_field") or on a
//                    rigid body's embedded ODE ("rotation_matrix", "quaternion"; methods/classical/odeint_embedded.hpp)
//   composition      substeps gamma_1..gamma_s of a registered base method (methods/composition/), on every model
//                    kind the base runs on
// The methods shipped with gibench are files under methods/tableaus/, compiled into the binary and registered at
// start-up; `--method-file FILE` adds one more for a command.
#pragma once

#include <string>
#include <vector>

#include "core/method.hpp"
#include "methods/from_file/order_conditions.hpp"

namespace gib::from_file {

struct LoadedMethod {
  MethodInfo info;
  OrderReport report;
};

// Parses and checks one definition. `known` is the registry so far (a composition's base is looked up there);
// `source` names the file in messages and in MethodInfo::source. Throws InputError. Without check_conditions the
// order conditions are not evaluated (the report is empty): the shipped files, whose checks in exact arithmetic would
// cost every gibench start a second (Yoshida 8's free algebra), are checked by the tests and on demand instead.
LoadedMethod load_method(const std::string& text, const std::string& source, const std::vector<MethodInfo>& known,
                         bool check_conditions = true);

// The shipped files (methods/tableaus/*.json): their path relative to the source tree and their text, in name order.
struct ShippedFile {
  const char* path;
  const char* text;
};
const std::vector<ShippedFile>& shipped_method_files();

// The order-condition report of a method loaded from a file (null for a built-in one), as JSON for
// `gibench list methods --json` and the conformance report.
// A shipped file registered unchecked is checked on its first call here.
const OrderReport* definition_report(const std::string& id);
void remember_report(const std::string& id, OrderReport report);
void remember_unchecked(const std::string& id, const std::string& text, const std::string& source);

// The user's method files (`--method-file`) loaded by this process, for the manifest: a results file names the file
// and the FNV-1a hash of its text (core/hash.hpp), so a baseline made from other coefficients is told apart.
struct UserFile {
  std::string id, path, fnv1a;
};
void remember_user_file(const std::string& id, const std::string& path, const std::string& text);
std::vector<UserFile> user_files();

}  // namespace gib::from_file
