#include "problems/water_cluster/water_cluster.hpp"

#include <Eigen/Cholesky>
#include <Eigen/Eigenvalues>
#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <sstream>

#include "core/errors.hpp"
#include "core/metrics.hpp"
#include "core/penalty.hpp"
#include "core/random.hpp"
#include "core/user_input.hpp"
#include "problems/common/newtonian_reference.hpp"
#include "problems/common/overrides.hpp"
#include "problems/water_cluster/tip3p_model.hpp"

namespace gib::water_cluster {
namespace {

constexpr const char* kId = "water_cluster";
constexpr std::uint64_t kStreamBase = 0x7469703377617465ULL;  // "tip3wate"
constexpr double kRoh = 0.9572;                                // A
constexpr double kAngleHoh = 104.52 * std::numbers::pi / 180;  // rad
constexpr double kConsistencyTolerance = 1e-12;
constexpr double kCheckpointInterval = 1.0;  // time units (48.9 fs); the fastest bond vibration has period ~0.07
constexpr int kMaxMolecules = 1000;

enum class ReferenceChoice { penalized, constrained };

struct Setup {
  Tip3pParameters tip3p;
  double omega = 20;
  double beta = 50;     // mol/kcal: kT = 0.02 kcal/mol, about 10 K
  double spacing = 3.0;  // A between neighbouring oxygens
  ReferenceChoice reference = ReferenceChoice::penalized;
};

Setup preset_setup(const std::string& preset) {
  Setup s;
  if (preset == "n7") return s;
  if (preset == "n3") {
    s.tip3p.molecules = 3;
    return s;
  }
  if (preset == "n100") {
    s.tip3p.molecules = 100;
    return s;
  }
  throw InputError("unknown preset " + quote_excerpt(preset) + " for problem water_cluster (valid: n3 n7 n100)");
}

void apply_overrides(Setup& s, const Json& o) {
  overrides::check_keys(o, {"molecules", "omega", "beta", "spacing", "coulomb", "reference"}, kId);
  if (o.is_null()) return;
  if (o.contains("molecules")) {
    const Json& v = o["molecules"];
    if (!v.is_number_integer() || v.get<long long>() < 2 || v.get<long long>() > kMaxMolecules)
      throw InputError(std::string(kId) + ": molecules must be an integer in 2.." + std::to_string(kMaxMolecules) +
                       ", got " + v.dump());
    s.tip3p.molecules = v.get<int>();
  }
  if (o.contains("omega")) s.omega = overrides::read_positive(o["omega"], "omega");
  if (o.contains("beta")) s.beta = overrides::read_positive(o["beta"], "beta");
  if (o.contains("spacing")) s.spacing = overrides::read_positive(o["spacing"], "spacing");
  if (o.contains("coulomb")) s.tip3p.coulomb = overrides::read_positive(o["coulomb"], "coulomb");
  if (o.contains("reference")) {
    if (o["reference"] == "penalized") s.reference = ReferenceChoice::penalized;
    else if (o["reference"] == "constrained") s.reference = ReferenceChoice::constrained;
    else throw InputError(std::string(kId) + ": reference must be \"penalized\" or \"constrained\", got " + o["reference"].dump());
  }
}

double r_hh() { return 2 * kRoh * std::sin(kAngleHoh / 2); }

// Two O-H bonds and the H-H distance per molecule, atoms H, O, H at 3a, 3a + 1, 3a + 2.
std::shared_ptr<const DistanceConstraints> rigid_water(int molecules) {
  std::vector<DistanceConstraints::Rod> rods;
  for (int a = 0; a < molecules; ++a) {
    rods.push_back({3 * a, 3 * a + 1, kRoh, {}});
    rods.push_back({3 * a + 2, 3 * a + 1, kRoh, {}});
    rods.push_back({3 * a, 3 * a + 2, r_hh(), {}});
  }
  return std::make_shared<const DistanceConstraints>(3, 3 * molecules, std::move(rods), 3);  // 9x9 blocks
}

// The n lattice sites nearest the origin (ties lexicographic), times the spacing.
std::vector<Eigen::Vector3d> compact_lattice(int n, double spacing) {
  int k = 0;
  while ((2 * k + 1) * (2 * k + 1) * (2 * k + 1) < 2 * n) ++k;
  std::vector<std::array<int, 3>> sites;
  for (int x = -k; x <= k; ++x)
    for (int y = -k; y <= k; ++y)
      for (int z = -k; z <= k; ++z) sites.push_back({x, y, z});
  std::stable_sort(sites.begin(), sites.end(), [](const auto& a, const auto& b) {
    return a[0] * a[0] + a[1] * a[1] + a[2] * a[2] < b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
  });
  std::vector<Eigen::Vector3d> out;
  for (int i = 0; i < n; ++i) out.emplace_back(spacing * sites[static_cast<std::size_t>(i)][0],
                                               spacing * sites[static_cast<std::size_t>(i)][1],
                                               spacing * sites[static_cast<std::size_t>(i)][2]);
  return out;
}

NewtonianState initial_state(const Setup& s, const Tip3pModel& model, const DistanceConstraints& rods, std::uint64_t draw) {
  const int n = s.tip3p.molecules;
  random::Stream rng(random::derive_seed(kStreamBase, draw));
  // The molecule in its own frame: O at the origin, the bisector along +y, H in the xy plane.
  const double half = kAngleHoh / 2;
  const std::array<Eigen::Vector3d, 3> body = {Eigen::Vector3d(-kRoh * std::sin(half), kRoh * std::cos(half), 0),
                                               Eigen::Vector3d::Zero(),
                                               Eigen::Vector3d(kRoh * std::sin(half), kRoh * std::cos(half), 0)};
  const auto sites = compact_lattice(n, s.spacing);
  NewtonianState x{Eigen::VectorXd(9 * n), Eigen::VectorXd(9 * n)};
  for (int a = 0; a < n; ++a) {
    const so3::Mat3 R = rng.rotation();
    for (int i = 0; i < 3; ++i) x.q.segment<3>(9 * a + 3 * i) = sites[static_cast<std::size_t>(a)] + R * body[static_cast<std::size_t>(i)];
  }
  const Eigen::VectorXd m = model.mass_matrix().diagonal();
  for (int k = 0; k < 9 * n; ++k) x.v(k) = rng.normal() / std::sqrt(s.beta * m(k));
  Eigen::Vector3d momentum = Eigen::Vector3d::Zero();
  double total_mass = 0;
  for (int i = 0; i < 3 * n; ++i) {
    momentum += m(3 * i) * x.v.segment<3>(3 * i);
    total_mass += m(3 * i);
  }
  for (int i = 0; i < 3 * n; ++i) x.v.segment<3>(3 * i) -= momentum / total_mass;
  project_to_tangent(rods, x.q, m.cwiseInverse(), x.v);
  return x;
}

void check_consistent(const DistanceConstraints& rods, const NewtonianState& x) {
  Eigen::VectorXd g;
  Eigen::MatrixXd G;
  rods.values(x.q, g);
  rods.jacobian(x.q, G);
  const double speed = x.v.cwiseAbs().maxCoeff();
  const Eigen::VectorXd Gv = G * x.v;
  for (int i = 0; i < g.size(); ++i)
    if (std::abs(g(i)) > kConsistencyTolerance * 10 || std::abs(Gv(i)) > kConsistencyTolerance * 10 * (1 + speed)) {
      std::ostringstream msg;
      msg << kId << ": the initial state violates rigid-water constraint " << i + 1 << " (g = " << g(i)
          << ", G v = " << Gv(i) << ")";
      throw std::logic_error(msg.str());
    }
}

// 1 / the fastest vibration: per molecule, the largest eigenvalue of M^-1/2 Hess(penalty) M^-1/2 (the bonds'
// stiffness dominates every intermolecular term); the battery's coarse step is a fraction of it.
double fastest_oscillation_time(const PenalizedModel& model, const Eigen::VectorXd& q0, int molecules) {
  Eigen::MatrixXd H;
  model.stiff_hessian(q0, H);
  const Eigen::VectorXd s = model.mass_matrix().diagonal().cwiseSqrt().cwiseInverse();
  double top = 0;
  for (int a = 0; a < molecules; ++a) {
    const Eigen::Matrix<double, 9, 9> block =
        s.segment<9>(9 * a).asDiagonal() * H.block<9, 9>(9 * a, 9 * a) * s.segment<9>(9 * a).asDiagonal();
    top = std::max(top, Eigen::SelfAdjointEigenSolver<Eigen::Matrix<double, 9, 9>>(block, Eigen::EigenvaluesOnly)
                            .eigenvalues()
                            .maxCoeff());
  }
  return top > 0 ? 1.0 / std::sqrt(top) : 1.0;
}

std::vector<NewtonianInvariant> momenta(const Eigen::VectorXd& mass, double momentum_scale, double extent) {
  const int points = static_cast<int>(mass.size() / 3);
  std::vector<NewtonianInvariant> out;
  out.push_back({Invariant::linear_momentum, metrics::linear_momentum_err.name, InvariantErrorKind::vector_norm,
                 [mass, points](const NewtonianState& x) {
                   Eigen::Vector3d p = Eigen::Vector3d::Zero();
                   for (int i = 0; i < points; ++i) p += mass(3 * i) * x.v.segment<3>(3 * i);
                   return InvariantValue(p);
                 },
                 momentum_scale});
  out.push_back({Invariant::angular_momentum, metrics::angular_momentum_err.name, InvariantErrorKind::vector_norm,
                 [mass, points](const NewtonianState& x) {
                   Eigen::Vector3d L = Eigen::Vector3d::Zero();
                   for (int i = 0; i < points; ++i)
                     L += x.q.segment<3>(3 * i).cross(mass(3 * i) * x.v.segment<3>(3 * i));
                   return InvariantValue(L);
                 },
                 momentum_scale * extent});
  return out;
}

Json parameters_json(const Setup& s) {
  return {{"V", "TIP3P intermolecular Coulomb (9 atom pairs) + O-O Lennard-Jones A/r^12 - C/r^6, no cutoff, plus "
                "1/2 omega^2 sum g^2 over the rigid-water constraints; atoms H, O, H per molecule; AKMA units"},
          {"molecules", s.tip3p.molecules},
          {"coulomb", s.tip3p.coulomb},
          {"charge_h", s.tip3p.charge_h},
          {"lj_a", s.tip3p.lj_a},
          {"lj_c", s.tip3p.lj_c},
          {"mass_h", s.tip3p.mass_h},
          {"mass_o", s.tip3p.mass_o},
          {"r_oh", kRoh},
          {"angle_hoh_deg", 104.52},
          {"omega", s.omega},
          {"beta", s.beta},
          {"spacing", s.spacing},
          {"reference", s.reference == ReferenceChoice::constrained ? "constrained" : "penalized"}};
}

std::unique_ptr<Problem> make(const std::string& preset, const Json& o, const std::string& ic) {
  Setup s = preset_setup(preset);
  apply_overrides(s, o);
  const std::uint64_t draw = random_ic_index(ic).value_or(0);
  const auto tip3p = std::make_shared<const Tip3pModel>(s.tip3p);
  const auto rods = rigid_water(s.tip3p.molecules);
  const auto model = std::make_shared<const PenalizedModel>(tip3p, rods, s.omega);
  NewtonianState x0 = initial_state(s, *tip3p, *rods, draw);
  check_consistent(*rods, x0);

  const Json params = parameters_json(s);
  Json key = params;
  key.erase("reference");
  key["draw"] = draw;
  Json constrained_key = key;
  constrained_key.erase("omega");
  const NewtonianReferenceSettings settings{kCheckpointInterval};
  NewtonianProblem::Extras extras;
  extras.constrained_reference = shared_newtonian_reference("constrained water cluster " + constrained_key.dump(), [&] {
    return std::make_shared<const NewtonianNumericalReference>(constrained_newtonian_ode(tip3p, rods, x0), settings);
  });
  auto penalized = shared_newtonian_reference("penalized water cluster " + key.dump(), [&] {
    return std::make_shared<const NewtonianNumericalReference>(newtonian_ode(model, x0), settings);
  });
  auto reference = s.reference == ReferenceChoice::constrained ? extras.constrained_reference : penalized;

  const Eigen::VectorXd mass = tip3p->mass_matrix().diagonal();
  double extent = 0;
  for (int i = 0; i < 3 * s.tip3p.molecules; ++i) extent = std::max(extent, x0.q.segment<3>(3 * i).norm());
  // sqrt(2 M E) with E the thermal energy per degree of freedom times their number: the momenta's own size.
  const double momentum_scale = std::sqrt(2 * mass.sum() / 3 * (9.0 * s.tip3p.molecules / (2 * s.beta)));
  extras.invariants = momenta(mass, momentum_scale, extent + 1);
  extras.tip = {3, 4, 5};  // the first molecule's oxygen: Fig 5 shows "only the 1st oxygen atom"
  // Fig 5: omega^2 g_i of the first molecule's two O-H bonds (constraints 1 and 2), whose windowed average estimates
  // SHAKE's multipliers lambda_1, lambda_2 through eq. (8), lambda ~ -omega^2 g.
  for (int i = 0; i < 2; ++i)
    extras.observables.push_back({"omega2_g" + std::to_string(i + 1), [rods, w2 = s.omega * s.omega, i](const NewtonianState& x) {
                                    Eigen::VectorXd g;
                                    rods->values(x.q, g);
                                    return w2 * g(i);
                                  }});
  // Figs 4 and 7: the histogram of all N(N-1)/2 O-O distances, bins of 0.05 A over 0 .. 15 A for N = 7 [spec 4.3
  // ASSUMPTION]; a larger cluster's range grows to its initial diameter plus 5 A, in steps of 5 A (100 waters on the
  // 3.0 A lattice span about 17 A), so the histogram holds the whole cluster and any overflow stands out.
  double oxygen_extent = 0;
  for (int a = 0; a < s.tip3p.molecules; ++a) oxygen_extent = std::max(oxygen_extent, x0.q.segment<3>(9 * a + 3).norm());
  const int molecules = s.tip3p.molecules;
  extras.distributions.push_back(
      {"oo_distance",
       "all N(N-1)/2 oxygen-oxygen distances (A); with radial normalisation, the O-O radial distribution",
       0.0, std::max(15.0, 5.0 * std::ceil((2 * oxygen_extent + 5.0) / 5.0)), 0.05, true,
       [molecules](const NewtonianState& x, std::vector<double>& out) {
         for (int a = 0; a < molecules; ++a)
           for (int b = a + 1; b < molecules; ++b) out.push_back((x.q.segment<3>(9 * a + 3) - x.q.segment<3>(9 * b + 3)).norm());
       }});
  const double scale = fastest_oscillation_time(*model, x0.q, s.tip3p.molecules);
  return std::make_unique<NewtonianProblem>(kId, preset, ic, model, std::move(x0), params, scale, std::move(reference),
                                            std::move(extras));
}

}  // namespace

ProblemInfo info() {
  ProblemInfo p;
  p.id = kId;
  p.display_name = "Rigid TIP3P water cluster";
  p.citation = "Tao and Owhadi 2014 section 4.3 (Figs 4-7); TIP3P: Jorgensen et al. 1983";
  p.kind = ModelKind::newtonian;
  p.torque_free = false;
  p.constrained = true;
  const std::string common =
      "TIP3P (r_OH 0.9572 A, HOH 104.52 deg, Q_H 0.417 e, A 582e3, C 595, Kc 332.0636), intermolecular Coulomb "
      "and O-O Lennard-Jones without cutoff, rigid-water penalty omega = 20; oxygens on the compact 3.0 A lattice, "
      "random orientations, Maxwell-Boltzmann velocities at beta = 50 projected to the constraints [spec 4.3, "
      "ASSUMPTION: the paper gives no initial condition]";
  p.presets = {
      {"n3", "N = 3 (27 degrees of freedom), " + common + "; the battery's cluster (the same physics as n7 at a twelfth "
             "of the cost of its dense Newton solves)"},
      {"n7", "N = 7 (63 degrees of freedom), " + common + "; Figs 4-6. Not in the per-commit battery (it runs n3)",
       false, false},
      {"n100", "N = 100 (900 degrees of freedom), " + common + "; Fig 7. Not in the per-commit battery (cost: the "
               "dense Hessians of 900 coordinates)", false, false},
  };
  p.parameters = {
      {"molecules", "number of molecules, 2..1000 (the preset sets 7 or 100)"},
      {"omega", "penalty frequency, positive (20; Fig 5 uses 500)"},
      {"beta", "inverse temperature of the initial velocities, mol/kcal, positive (50: about 10 K)"},
      {"spacing", "lattice spacing of the initial oxygens, A, positive (3.0)"},
      {"coulomb", "Coulomb constant Kc, kcal A / (mol e^2), positive (332.0636; CHARMM uses 332.0716)"},
      {"reference", "penalized (default): reference() solves the penalised ODE; constrained: the rigid-water DAE"},
  };
  p.make = make;
  return p;
}

}  // namespace gib::water_cluster
