#include "problems/common/numerical_reference.hpp"

#include "core/safe_file.hpp"
#include "problems/common/rkf78_controlled.hpp"

#include <Eigen/SVD>
#include <algorithm>
#include <array>
#include <boost/numeric/odeint/integrate/integrate_adaptive.hpp>
#include <boost/numeric/odeint/stepper/bulirsch_stoer.hpp>
#include <boost/numeric/odeint/stepper/runge_kutta_fehlberg78.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "core/hash.hpp"

namespace gib {
namespace {

namespace odeint = boost::numeric::odeint;
using LD = long double;
using Vec3L = so3::Vec3T<LD>;
using Mat3L = so3::Mat3T<LD>;
using QuatState = std::array<LD, 7>;  // q = (w, x, y, z), then p = Pi / scale
using MatState = std::array<LD, 12>;  // R row-major, then p = Pi / scale

// Both integrators are asked for 1e-17 (absolute and relative) on a state whose entries are O(1): the
// quaternion and Pi / |Pi0|. Measured at t = 20 against a 50-digit fixed-step RKF78 (relative to |Pi|):
// the primary is within 4e-16 (fast top) and 6e-16 (slow top); Bulirsch-Stoer levels off at 3e-14 .. 2e-13
// whatever its tolerance, so the estimate (1.9e-13 and 1.3e-13) is dominated by the secondary's own error
// and errs on the safe side.
constexpr LD kTolerance = 1e-17L;
constexpr double kErrorFloor = 1e-15;
constexpr LD kMaxCheckpoints = 1e7L;  // memory guard: 1e7 checkpoints hold ~2 GB
constexpr std::size_t kMaxCachedSamples = 20000;
constexpr const char* kCacheFormat = "gibench numerical reference cache 3";
// The second line of a cache file; its checksum covers every other byte of the file.
constexpr std::string_view kChecksumLine = " \"checksum\": \"fnv1a64:";

struct Dynamics {
  Vec3L inv_inertia;
  LD scale = 1;  // |Pi0| (1 if zero), so that the momentum part of the state is O(1)
  BodyTorqueLD torque;

  Vec3L omega(const LD* p) const {
    return scale * Vec3L(p[0] * inv_inertia(0), p[1] * inv_inertia(1), p[2] * inv_inertia(2));
  }
  // p' = p x omega + T(R) / scale; R is only formed when there is a torque.
  template <class MakeR> void momentum_rhs(const LD* p, const Vec3L& w, const MakeR& make_r, LD* dp) const {
    Vec3L d = Vec3L(p[0], p[1], p[2]).cross(w);
    if (torque) d += torque(make_r()) / scale;
    for (int i = 0; i < 3; ++i) dp[i] = d(i);
  }

  void quaternion_rhs(const QuatState& x, QuatState& dx) const {
    const Vec3L w = omega(&x[4]);
    // q' = q (x) (0, omega) / 2 = (-v.omega, q0 omega + v x omega) / 2
    dx[0] = -(x[1] * w(0) + x[2] * w(1) + x[3] * w(2)) / 2;
    dx[1] = (x[0] * w(0) + x[2] * w(2) - x[3] * w(1)) / 2;
    dx[2] = (x[0] * w(1) + x[3] * w(0) - x[1] * w(2)) / 2;
    dx[3] = (x[0] * w(2) + x[1] * w(1) - x[2] * w(0)) / 2;
    momentum_rhs(&x[4], w, [&] { return rotation_of(x); }, &dx[4]);
  }

  void matrix_rhs(const MatState& x, MatState& dx) const {
    const Vec3L w = omega(&x[9]);
    for (int r = 0; r < 3; ++r) {  // row r of R hat(omega) = (row r) x omega
      const LD a = x[3 * r], b = x[3 * r + 1], c = x[3 * r + 2];
      dx[3 * r] = b * w(2) - c * w(1);
      dx[3 * r + 1] = c * w(0) - a * w(2);
      dx[3 * r + 2] = a * w(1) - b * w(0);
    }
    momentum_rhs(&x[9], w, [&] { return matrix_of(x); }, &dx[9]);
  }

  // The quaternion drifts off the unit sphere by the truncation error only; dividing by |q|^2 evaluates
  // the rotation it stands for without changing the state.
  static Mat3L rotation_of(const QuatState& x) {
    const Eigen::Matrix<LD, 4, 1> q(x[0], x[1], x[2], x[3]);
    return so3::matrix_from_quaternion<LD>(q) / q.squaredNorm();
  }
  static Mat3L matrix_of(const MatState& x) {
    Mat3L r;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) r(i, j) = x[3 * i + j];
    return r;
  }
  Vec3L momentum(const LD* p) const { return scale * Vec3L(p[0], p[1], p[2]); }
};

struct Checkpoint {
  QuatState primary;
  MatState secondary;
  LD difference_max = 0;  // largest difference of the two at this and every earlier checkpoint
};

struct Sample {
  RigidBodyState x;
  double error = std::numeric_limits<double>::quiet_NaN();  // NaN until error_estimate(t) is asked
};

LD difference(const Dynamics& d, const QuatState& q, const MatState& m) {
  const LD rotation = Eigen::JacobiSVD<Mat3L>(Dynamics::rotation_of(q) - Dynamics::matrix_of(m)).singularValues()(0);
  const Vec3L p = d.momentum(&q[4]);
  const LD dp = (p - d.momentum(&m[9])).norm();
  return std::max(rotation, p.norm() > 0 ? dp / p.norm() : dp);
}

// %.17g round-trips every double; ".0" keeps integral values (and -0) floating point when parsed back.
std::string number(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

bool finite_state(const RigidBodyState& x) { return x.R.allFinite() && x.Pi.allFinite(); }

// What a cache file must match to be used: the problem, and the fingerprint, the primary state at the
// first checkpoint to the bit (t, R row-major, Pi). Identical parameters computed by different code (a
// changed potential, integrator, compiler or flags) give a different fingerprint, so a file written by
// another build is ignored instead of feeding it stale numbers.
using Fingerprint = std::array<double, 13>;
struct CacheHeader {
  std::string key;
  Json identity;
  Fingerprint fingerprint{};
};

std::string row_text(double t, const RigidBodyState& x) {
  std::string out = number(t);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out += ',' + number(x.R(i, j));
  for (int i = 0; i < 3; ++i) out += ',' + number(x.Pi(i));
  return out;
}

std::string cache_text(const CacheHeader& h, const std::map<double, Sample>& samples) {
  std::ostringstream out;
  out << "\n \"format\": " << Json(kCacheFormat).dump() << ",\n \"tag\": " << Json(NumericalReference::kTag).dump()
      << ",\n \"key\": " << Json(h.key).dump() << ",\n \"problem\": " << h.identity.dump() << ",\n \"fingerprint\": [";
  for (std::size_t i = 0; i < h.fingerprint.size(); ++i) out << (i ? "," : "") << number(h.fingerprint[i]);
  out << "],\n \"columns\": \"t, R row-major (9), Pi (3), error estimate (null: not computed)\",\n \"samples\": [";
  bool first = true;
  for (const auto& [t, s] : samples) {
    out << (first ? "\n  [" : ",\n  [") << row_text(t, s.x) << ','
        << (std::isfinite(s.error) ? number(s.error) : std::string("null")) << ']';
    first = false;
  }
  out << "\n ]\n}\n";
  // Every sample is covered, not only the fingerprint: an edited or torn sample far into the run would otherwise
  // be served as the reference (a changed sample moved a state error from 5.5e-8 to 0.5, status ok).
  const std::string body = out.str();
  std::string text = "{\n";
  text.append(kChecksumLine).append(fnv1a_hex(body)).append("\",").append(body);
  return text;
}

// The file's content without its checksum line if that checksum matches it; empty otherwise.
std::string verified_cache_body(const std::string& text) {
  std::string head = "{\n";
  head.append(kChecksumLine);
  if (text.compare(0, head.size(), head) != 0) return "";
  const std::size_t end = text.find("\",", head.size());
  if (end == std::string::npos) return "";
  const std::string body = text.substr(end + 2);
  if (text.substr(head.size(), end - head.size()) != fnv1a_hex(body)) return "";
  return "{" + body;
}

bool read_sample(const Json& row, double& t, Sample& s) {
  if (!row.is_array() || row.size() != 14) return false;
  for (std::size_t i = 0; i < 13; ++i)
    if (!row[i].is_number()) return false;
  t = row[0].get<double>();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) s.x.R(i, j) = row[1 + 3 * i + j].get<double>();
  for (int i = 0; i < 3; ++i) s.x.Pi(i) = row[10 + i].get<double>();
  s.error = row[13].is_number() ? row[13].get<double>() : std::numeric_limits<double>::quiet_NaN();
  return true;
}

bool same_fingerprint(const Json& stored, const Fingerprint& f) {
  if (!stored.is_array() || stored.size() != f.size()) return false;
  for (std::size_t i = 0; i < f.size(); ++i) {
    if (!stored[i].is_number()) return false;
    const double v = stored[i].get<double>();
    if (std::memcmp(&v, &f[i], sizeof v) != 0) return false;
  }
  return true;
}

// Samples of a cache file written for this tag, problem and fingerprint, whose checksum matches; none if the
// file is absent or differs.
std::map<double, Sample> read_cache(const std::filesystem::path& path, const CacheHeader& h) {
  std::map<double, Sample> out;
  std::ifstream in(path, std::ios::binary);
  if (!in) return out;
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string body = verified_cache_body(buf.str());
  if (body.empty()) return out;  // absent, torn, edited or from an older format: recomputed and rewritten
  const Json j = Json::parse(body, nullptr, false);
  if (!j.is_object() || j.value("format", "") != kCacheFormat || j.value("tag", "") != NumericalReference::kTag ||
      !j.contains("problem") || j["problem"] != h.identity || !j.contains("fingerprint") ||
      !same_fingerprint(j["fingerprint"], h.fingerprint) || !j.contains("samples") || !j["samples"].is_array())
    return out;
  for (const auto& row : j["samples"]) {
    double t = 0;
    Sample s;
    if (read_sample(row, t, s)) out.emplace(t, s);
  }
  return out;
}

void check_time(double t) {
  if (!(t >= 0) || !std::isfinite(t))
    throw std::domain_error("numerical reference: t must be finite and >= 0, got " + std::to_string(t));
}

}  // namespace

BodyTorqueLD r33_body_torque_ld(std::function<long double(long double)> slope) {
  return [slope = std::move(slope)](const Mat3L& R) -> Vec3L { return slope(R(2, 2)) * Vec3L(R(2, 1), -R(2, 0), 0); };
}

ReferenceCacheSettings ReferenceCacheSettings::from_environment() {
  ReferenceCacheSettings s;
  const char* off = std::getenv("GIBENCH_NO_REFERENCE_CACHE");
  s.enabled = off == nullptr || *off == '\0' || std::string(off) == "0";
  if (const char* dir = std::getenv("GIBENCH_CACHE_DIR"); dir != nullptr && *dir != '\0') {
    s.directory = dir;
  } else {
    const char* root = std::getenv("GIBENCH_ROOT");
    s.directory = std::filesystem::path(root != nullptr && *root != '\0' ? root : GIBENCH_SOURCE_DIR) / "results" / "cache";
  }
  return s;
}

struct NumericalReference::Impl {
  Dynamics dynamics;
  RigidBodyState x0;
  LD interval;
  std::mutex mutex;
  std::vector<Checkpoint> checkpoints;
  std::map<double, Sample> samples;
  // Disk cache (file empty: none).
  std::filesystem::path file;
  CacheHeader header;  // fingerprint filled when the file is first read
  bool cache_loaded = false, dirty = false;

  explicit Impl(NumericalReferenceSetup s);
  std::size_t checkpoint_index(double t) const;
  const Checkpoint& checkpoint(std::size_t k);
  void advance(QuatState& x, LD from, LD to) const;
  void advance(MatState& x, LD from, LD to) const;
  QuatState primary_at(double t);
  MatState secondary_at(double t);
  RigidBodyState to_state(const QuatState& x) const;
  Sample& sample(double t);
  Fingerprint fingerprint();
  void load_cache();
  void flush();
};

NumericalReference::Impl::Impl(NumericalReferenceSetup s) : x0(s.x0), interval(s.checkpoint_interval) {
  if (!(s.checkpoint_interval > 0) || !std::isfinite(s.checkpoint_interval))
    throw std::invalid_argument("numerical reference: checkpoint interval must be positive");
  if (!(s.inertia.minCoeff() > 0)) throw std::invalid_argument("numerical reference: inertia must be positive");
  dynamics.inv_inertia = s.inertia.cast<LD>().cwiseInverse();
  const LD pi_norm = x0.Pi.cast<LD>().norm();
  dynamics.scale = pi_norm > 0 ? pi_norm : 1;
  dynamics.torque = std::move(s.torque);
  Checkpoint c0;
  // The quaternion is formed in long double: its rounding is a fixed rotation of ~1e-19.
  const Eigen::Matrix<LD, 4, 1> q = so3::quaternion_from_matrix<LD>(x0.R.cast<LD>());
  for (int i = 0; i < 4; ++i) c0.primary[i] = q(i);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) c0.secondary[3 * i + j] = x0.R(i, j);
  for (int i = 0; i < 3; ++i) c0.primary[4 + i] = c0.secondary[9 + i] = LD(x0.Pi(i)) / dynamics.scale;
  c0.difference_max = difference(dynamics, c0.primary, c0.secondary);
  checkpoints.push_back(c0);
}

std::size_t NumericalReference::Impl::checkpoint_index(double t) const {
  LD k = std::floor(LD(t) / interval);
  if (k > kMaxCheckpoints)
    throw std::domain_error("numerical reference: t = " + std::to_string(t) + " needs more than 1e7 checkpoints");
  if (k > 0 && k * interval > LD(t)) k -= 1;
  return static_cast<std::size_t>(k);
}

const Checkpoint& NumericalReference::Impl::checkpoint(std::size_t k) {
  while (checkpoints.size() <= k) {
    Checkpoint next = checkpoints.back();
    const LD from = LD(checkpoints.size() - 1) * interval, to = LD(checkpoints.size()) * interval;
    advance(next.primary, from, to);
    advance(next.secondary, from, to);
    next.difference_max = std::max(next.difference_max, difference(dynamics, next.primary, next.secondary));
    checkpoints.push_back(next);
  }
  return checkpoints[k];
}

// A fresh step-size control per call (problems/common/rkf78_controlled.hpp), first trial step interval / 64.
void NumericalReference::Impl::advance(QuatState& x, LD from, LD to) const {
  const auto system = [this](const QuatState& y, QuatState& dy, LD) { dynamics.quaternion_rhs(y, dy); };
  rkf78_controlled(system, x, from, to, interval / 64, kTolerance, "numerical reference");
}

void NumericalReference::Impl::advance(MatState& x, LD from, LD to) const {
  if (!(to > from)) return;
  odeint::bulirsch_stoer<MatState, LD, MatState, LD> stepper(kTolerance, kTolerance);
  const auto system = [this](const MatState& y, MatState& dy, LD) { dynamics.matrix_rhs(y, dy); };
  odeint::integrate_adaptive(stepper, system, x, from, to, std::min(to - from, interval / 64));
}

QuatState NumericalReference::Impl::primary_at(double t) {
  const std::size_t k = checkpoint_index(t);
  QuatState x = checkpoint(k).primary;
  advance(x, LD(k) * interval, LD(t));
  return x;
}

MatState NumericalReference::Impl::secondary_at(double t) {
  const std::size_t k = checkpoint_index(t);
  MatState x = checkpoint(k).secondary;
  advance(x, LD(k) * interval, LD(t));
  return x;
}

RigidBodyState NumericalReference::Impl::to_state(const QuatState& x) const {
  Eigen::Matrix<LD, 4, 1> q(x[0], x[1], x[2], x[3]);
  q.normalize();
  return {so3::matrix_from_quaternion<LD>(q).cast<double>(), dynamics.momentum(&x[4]).cast<double>()};
}

Sample& NumericalReference::Impl::sample(double t) {
  load_cache();
  auto it = samples.find(t);
  if (it != samples.end()) return it->second;
  Sample s;
  s.x = t == 0 ? x0 : to_state(primary_at(t));
  dirty = dirty || finite_state(s.x);
  return samples.emplace(t, s).first->second;
}

Fingerprint NumericalReference::Impl::fingerprint() {
  const RigidBodyState x = to_state(checkpoint(1).primary);
  Fingerprint f{};
  f[0] = static_cast<double>(interval);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) f[1 + 3 * i + j] = x.R(i, j);
  for (int i = 0; i < 3; ++i) f[10 + i] = x.Pi(i);
  return f;
}

void NumericalReference::Impl::load_cache() {
  if (cache_loaded || file.empty()) return;
  cache_loaded = true;
  header.fingerprint = fingerprint();
  for (auto& [t, s] : read_cache(file, header)) samples.emplace(t, s);
}

void NumericalReference::Impl::flush() {
  if (file.empty() || !dirty) return;
  load_cache();
  std::map<double, Sample> merged = read_cache(file, header);  // other processes may have added samples
  for (const auto& [t, s] : samples) {
    if (!finite_state(s.x)) continue;
    Sample& m = merged[t];
    const double known = std::isfinite(s.error) ? s.error : m.error;
    m = s;
    m.error = known;
  }
  dirty = false;
  // A cache that grew this large is no longer cheap to read; stop adding to it.
  if (merged.size() > kMaxCachedSamples) return;
  write_file_atomic(file, cache_text(header, merged));
}

NumericalReference::NumericalReference(NumericalReferenceSetup setup) : impl_(std::make_unique<Impl>(std::move(setup))) {}

NumericalReference::~NumericalReference() {
  try {
    flush_cache();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gibench: warning: reference cache not written: %s\n", e.what());
  }
}

void NumericalReference::attach_cache(const ReferenceCacheSettings& settings, const std::string& key, const Json& identity) {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->file.clear();
  impl_->cache_loaded = false;
  if (!settings.enabled) return;
  impl_->file = settings.directory / "reference" / (key + "-" + kTag + ".json");
  impl_->header = {key, identity, {}};
}

std::filesystem::path NumericalReference::cache_file() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->file;
}

void NumericalReference::flush_cache() const {
  std::lock_guard<std::mutex> lock(impl_->mutex);
  impl_->flush();
}

RigidBodyState NumericalReference::state(double t) const {
  check_time(t);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  return impl_->sample(t).x;
}

double NumericalReference::error_estimate(double t) const {
  check_time(t);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  Sample& s = impl_->sample(t);
  if (std::isfinite(s.error)) return s.error;
  const QuatState p = impl_->primary_at(t);
  const MatState m = impl_->secondary_at(t);
  const LD at_t = difference(impl_->dynamics, p, m);
  const LD before = impl_->checkpoint(impl_->checkpoint_index(t)).difference_max;
  s.error = kErrorFloor + static_cast<double>(std::max(at_t, before));
  impl_->dirty = impl_->dirty || std::isfinite(s.error);
  return s.error;
}

NumericalReference::Solutions NumericalReference::solutions(double t) const {
  check_time(t);
  std::lock_guard<std::mutex> lock(impl_->mutex);
  const QuatState p = impl_->primary_at(t);
  const MatState m = impl_->secondary_at(t);
  Eigen::Matrix<LD, 4, 1> q(p[0], p[1], p[2], p[3]);
  q.normalize();
  return {{so3::matrix_from_quaternion<LD>(q), impl_->dynamics.momentum(&p[4])},
          {Dynamics::matrix_of(m), impl_->dynamics.momentum(&m[9])}};
}

}  // namespace gib
