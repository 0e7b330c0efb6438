// Every method gibench knows, one line each. Adding a method: write its file under methods/<family>/
// and add one line here; the conformance battery, `gibench list` and the benchmarks pick it up. A method defined by
// coefficients is a file under methods/tableaus/ instead (docs/method_files.md): registered after these, or in the
// place a shipped_here(id) line keeps for it.
#include <algorithm>
#include <stdexcept>

#include "core/method.hpp"
#include "methods/buss/buss.hpp"
#include "methods/classical/odeint_embedded.hpp"
#include "methods/classical/odeint_vector_field.hpp"
#include "methods/classical/two_step_midpoint.hpp"
#include "methods/classical/implicit_euler.hpp"
#include "methods/composition/projection.hpp"
#include "methods/composition/thue_morse.hpp"
#include "methods/composition/symmetric_composition.hpp"
#include "methods/discrete_gradient/discrete_gradient.hpp"
#include "methods/krysl/krysl.hpp"
#include "methods/lie_variational/hp_cayley_euler.hpp"
#include "methods/rkmk/rkmk.hpp"
#include "methods/splitting/dlm.hpp"
#include "methods/splitting/hamiltonian_splitting.hpp"
#include "methods/splitting/mclachlan_reich.hpp"
#include "methods/relaxed_rotation/relaxed_rotation_stepper.hpp"
#include "methods/relaxed_rotation/so3_variational_zs.hpp"
#include "methods/zhang_skeel/zhang_skeel.hpp"
#include "methods/volume/vp_correction.hpp"
#include "methods/volume/vp_splitting.hpp"
#include "methods/classical/odeint_dopri5_adaptive.hpp"
#include "methods/gla/gla.hpp"
#include "methods/from_file/method_file.hpp"
#include "core/errors.hpp"

namespace gib {

namespace {

// Buss's "+EC": the energy reset after each step, a tag no claim implies (core/method_tags.hpp).
MethodInfo tag_energy_corrected(MethodInfo m) {
  m.declared_tags.emplace_back("energy_corrected");
  return m;
}

// A shipped method file's place in the registry: loaded there instead of after the built-in methods, so that moving
// a built-in method to a file keeps every listing's order.
constexpr const char* kShippedMark = "(shipped)";
MethodInfo shipped_here(std::string id) {
  MethodInfo m;
  m.id = std::move(id);
  m.source = kShippedMark;
  return m;
}

std::vector<MethodInfo> built_in_methods() {
  using classical::Embedding;
  using classical::Scheme;
  return {
      // RKMK 1-4 and CG3: method files (methods/tableaus/), kept here in the registry's order.
      shipped_here("rkmk1"),
      shipped_here("rkmk2"),
      shipped_here("rkmk2_midpoint"),
      shipped_here("rkmk3"),
      shipped_here("rkmk4"),
      shipped_here("cg3"),
      // Buss 2001 (methods/buss/): Taylor methods, Simo-Wong, rotation-vector RK, AB-AM, and their +EC variants.
      buss::taylor_method(buss::TaylorKind::first),
      buss::taylor_method(buss::TaylorKind::second),
      buss::taylor_method(buss::TaylorKind::false_third),
      buss::taylor_method(buss::TaylorKind::augmented_second),
      buss::taylor_method(buss::TaylorKind::third),
      buss::taylor_method(buss::TaylorKind::fourth),
      buss::simo_wong(buss::SimoWongVariant::as_run),
      buss::simo_wong(buss::SimoWongVariant::printed),
      buss::rotation_vector_rk(),
      buss::adams_bashforth_moulton(),
      // 1st+EC and 3rd+EC: asymptotic orders 1 and 3 (the battery); Buss's 2 and ~4 are long-time slopes.
      tag_energy_corrected(buss::energy_corrected(buss::taylor_method(buss::TaylorKind::first), 1, buss::kEcLongTimeOrder2, 2)),
      tag_energy_corrected(buss::energy_corrected(buss::taylor_method(buss::TaylorKind::second), 2, "Buss spec 8.2, measured 2.00")),
      tag_energy_corrected(buss::energy_corrected(buss::taylor_method(buss::TaylorKind::false_third), 2, "Buss spec 8.2, measured 2.00")),
      tag_energy_corrected(buss::energy_corrected(buss::taylor_method(buss::TaylorKind::augmented_second), 2, "Buss spec 8.2, measured 2.00")),
      tag_energy_corrected(buss::energy_corrected(buss::taylor_method(buss::TaylorKind::third), 3, buss::kEcLongTimeOrder4, 4)),
      tag_energy_corrected(buss::energy_corrected(buss::taylor_method(buss::TaylorKind::fourth), 4, "Buss spec 8.2, measured 4.00")),
      tag_energy_corrected(buss::energy_corrected(buss::simo_wong(buss::SimoWongVariant::as_run), 1, buss::kEcLongTimeOrder2, 2)),
      tag_energy_corrected(buss::energy_corrected(buss::simo_wong(buss::SimoWongVariant::printed), 2, "Buss spec 8.2, measured 2.00")),
      tag_energy_corrected(buss::energy_corrected(buss::rotation_vector_rk(), 2, "Buss spec 8.2, measured 2.00")),
      tag_energy_corrected(buss::energy_corrected(buss::adams_bashforth_moulton(), 2, "not in the spec; gibench battery")),
      // (end of Buss 2001)
      // Splittings (methods/splitting/) and compositions (methods/composition/).
      // mr4 and mr6 take mr2's parameters (ordering, rotation) and pass them to every MR2 substep.
      splitting::mr2(),
      // mr4 (the triple jump of MR2) and mr6 (Suzuki's five stages of mr4, 15 MR2 steps rather than the triple jump's 9:
      // at equal counted cost 16-38x more accurate on kjer2017/krysl2006, 1.6-1.8x less on buss2001): method files.
      shipped_here("mr4"),
      shipped_here("mr6"),
      // Buss's "+EC" rows of the splittings (Figs 4-6): the same ordering parameter, energy reset after each step.
      tag_energy_corrected(buss::energy_corrected(splitting::mr2(), 2, "Buss spec 8.2, measured 2.00")),
      tag_energy_corrected(buss::energy_corrected(composition::compose(splitting::mr2(), composition::Scheme::triple_jump, "mr4", "McLachlan-Reich 4 (triple jump of MR2)"), 4, "Buss spec 8.2, measured 4.00")),
      // DLM: torque kicks around the MR2 free rotor, for bodies with a potential; dlm4 is its triple jump.
      splitting::dlm2(),
      composition::compose(splitting::dlm2(), composition::Scheme::triple_jump, "dlm4", "DLM 4 (triple jump of DLM 2)"),
      // (end of splittings)
      // Krysl 2006 (methods/krysl/)
      // Implicit, second order, one nonlinear solver (methods/implicit/); claims from the property matrix, spec 5.10.
      krysl::imid(),
      krysl::trap(),
      krysl::imidm(),
      krysl::trapm(),
      krysl::akw(),
      krysl::swc1(),
      krysl::bbtrap(),
      krysl::bbtrapwd(),
      krysl::mkrk_implicit(),
      // (end of Krysl 2006)
      // Tao-Owhadi 2014 (methods/zhang_skeel/): Newtonian integrators on R^n (penalised constraints, DNA chain).
      // Z&S, Z&Ss and Integrator 5 also run on rigid bodies through the relaxed rotation (methods/relaxed_rotation/).
      relaxed_rotation::with_relaxed_rotation(zhang_skeel::zs()),
      relaxed_rotation::with_relaxed_rotation(zhang_skeel::zss()),
      relaxed_rotation::with_relaxed_rotation(zhang_skeel::zs_stiff()),
      zhang_skeel::newmark(),
      zhang_skeel::newmark_1iter(),
      zhang_skeel::newmark_pushforward(),
      zhang_skeel::velocity_verlet(),
      zhang_skeel::implicit_midpoint(),
      zhang_skeel::rattle(),
      zhang_skeel::zs4(),
      zhang_skeel::zs_euler(),
      // (end of Tao-Owhadi 2014)
      classical::odeint_method("odeint_euler_matrix", Scheme::euler, Embedding::matrix),
      classical::odeint_method("odeint_rk4_matrix", Scheme::rk4, Embedding::matrix),
      classical::odeint_method("odeint_dopri5_matrix", Scheme::dopri5, Embedding::matrix),
      classical::odeint_method("odeint_rkf78_matrix", Scheme::rkf78, Embedding::matrix),
      classical::odeint_method("odeint_euler_quat", Scheme::euler, Embedding::quaternion),
      classical::odeint_method("odeint_rk4_quat", Scheme::rk4, Embedding::quaternion),
      classical::odeint_method("odeint_dopri5_quat", Scheme::dopri5, Embedding::quaternion),
      classical::odeint_method("odeint_rkf78_quat", Scheme::rkf78, Embedding::quaternion),
      // Tao-Owhadi 4.5: the Lie-group benchmark (methods/lie_variational/) and the paper's matrix-form variational Z&S
      // on the relaxed rotation (isotropic bodies only; other bodies get "not applicable" from its factory).
      lie_variational::hp_cayley_euler(),
      relaxed_rotation::so3_variational_zs(),
      // McLachlan-Quispel lectures (spec 12): general vector fields. Classical baselines, then the splittings of a
      // separable Hamiltonian and the triple jump of the printed leapfrog.
      classical::odeint_vector_field_method("odeint_euler", classical::VectorFieldScheme::euler),
      classical::odeint_vector_field_method("odeint_rk2", classical::VectorFieldScheme::rk2_midpoint),
      classical::odeint_vector_field_method("odeint_rk4", classical::VectorFieldScheme::rk4),
      classical::two_step_midpoint(),
      splitting::hamiltonian_splitting(splitting::HamiltonianSplitting::leapfrog_dkd),
      splitting::hamiltonian_splitting(splitting::HamiltonianSplitting::leapfrog_kdk),
      splitting::hamiltonian_splitting(splitting::HamiltonianSplitting::symplectic_euler),
      composition::compose(splitting::hamiltonian_splitting(splitting::HamiltonianSplitting::leapfrog_dkd),
                           composition::Scheme::triple_jump, "leapfrog4", "Leapfrog 4 (triple jump of DKD)"),
      // Implicit Euler; symplectic Euler with processing (conjugate to KDK); the projections of spec 2.3 and 2.7 and
      // the Thue-Morse words of spec 10, each on a base method given as a parameter (explicit Euler by default).
      classical::implicit_euler(),
      splitting::hamiltonian_splitting(splitting::HamiltonianSplitting::symplectic_euler_processed),
      composition::projection_adjoint(),
      composition::reversible_projection(),
      composition::thue_morse(),
      // Discrete gradients (methods/discrete_gradient/): a first integral kept exactly (dg_), a Lyapunov function never
      // increasing (ldg_); dg_avf4 is the triple jump of the self-adjoint AVF method, the lectures' "QT4"-like DG4.
      discrete_gradient::method(discrete_gradient::Form::skew, discrete_gradient::Gradient::itoh_abe),
      discrete_gradient::method(discrete_gradient::Form::skew, discrete_gradient::Gradient::avf),
      discrete_gradient::method(discrete_gradient::Form::skew, discrete_gradient::Gradient::gonzalez),
      composition::compose(discrete_gradient::method(discrete_gradient::Form::skew, discrete_gradient::Gradient::avf),
                           composition::Scheme::triple_jump, "dg_avf4", "DG4 (triple jump of AVF, \"QT4\"-like)"),
      discrete_gradient::method(discrete_gradient::Form::lyapunov, discrete_gradient::Gradient::itoh_abe),
      discrete_gradient::method(discrete_gradient::Form::lyapunov, discrete_gradient::Gradient::avf),
      // (end of McLachlan-Quispel)
      // McLachlan-Quispel lecture 5 (spec 7): volume-preserving methods and Fig 5.3's adaptive baseline.
      volume::vp_splitting(/*strang=*/true),
      volume::vp_splitting(/*strang=*/false),
      volume::vp_correction(),
      classical::odeint_dopri5_adaptive(),
      // Tao-Owhadi 4.3: the GLA Langevin thermostat (methods/gla/) around the paper's two deterministic steps, Integrator 5
      // and SHAKE/RATTLE. One id per base, not one "gla" with a base parameter: whether a method enforces the constraints
      // (and is measured against the constrained reference) or needs a penalty is per MethodInfo, not per parameter.
      gla::with_langevin(zhang_skeel::zs_stiff()),
      gla::with_langevin(zhang_skeel::rattle()),
  };
}

// The built-in methods, then the shipped method files in name order (a composition's base must come before it).
std::vector<MethodInfo>& registry_storage() {
  static std::vector<MethodInfo> methods = [] {
    std::vector<MethodInfo> m = built_in_methods();
    std::vector<MethodInfo> loaded_so_far;  // what a shipped composition may name as its base
    for (const MethodInfo& x : m)
      if (x.source != kShippedMark) loaded_so_far.push_back(x);
    for (const from_file::ShippedFile& f : from_file::shipped_method_files()) {
      from_file::LoadedMethod loaded = from_file::load_method(f.text, f.path, loaded_so_far, /*check_conditions=*/false);
      from_file::remember_unchecked(loaded.info.id, f.text, f.path);
      loaded_so_far.push_back(loaded.info);
      const auto place = std::find_if(m.begin(), m.end(), [&](const MethodInfo& x) { return x.id == loaded.info.id; });
      if (place != m.end())
        *place = std::move(loaded.info);
      else
        m.push_back(std::move(loaded.info));
    }
    for (const MethodInfo& x : m)
      if (x.source == kShippedMark) throw std::logic_error("registry: no shipped method file defines " + x.id);
    return m;
  }();
  return methods;
}

}  // namespace

const std::vector<MethodInfo>& method_registry() { return registry_storage(); }

void register_method(MethodInfo m) {
  for (const MethodInfo& known : registry_storage())
    if (known.id == m.id)
      throw InputError("method id \"" + m.id + "\" is already registered (" +
                       (known.source.empty() ? std::string("built in") : known.source) + ")");
  registry_storage().push_back(std::move(m));
}

}  // namespace gib
