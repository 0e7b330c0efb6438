// Crouch-Grossman methods from a tableau: commutator-free methods with one stage's field per factor (see the header).
#include "methods/crouch_grossman/crouch_grossman.hpp"

#include "methods/crouch_grossman/commutator_free.hpp"

namespace gib::crouch_grossman {

MethodInfo method(std::string id, std::string display_name, std::string citation, const rkmk::Tableau& tableau) {
  const rkmk::DoubleTableau t = rkmk::in_double(tableau);
  const std::size_t s = t.stages();
  commutator_free::Scheme scheme;
  scheme.order = tableau.order;
  for (std::size_t i = 0; i < s; ++i) {
    scheme.stages.emplace_back();
    for (std::size_t j = 0; j < i; ++j) {
      commutator_free::Factor f(i, 0.0);
      f[j] = t.a[i][j];
      scheme.stages.back().push_back(std::move(f));
    }
    commutator_free::Factor f(s, 0.0);
    f[i] = t.b[i];
    scheme.output.push_back(std::move(f));
  }
  return commutator_free::method(std::move(id), std::move(display_name), std::move(citation), std::move(scheme),
                                 "crouch_grossman");
}

}  // namespace gib::crouch_grossman
