#include "problems/common/overrides.hpp"

#include <cmath>
#include <sstream>

#include "core/errors.hpp"
#include "core/user_input.hpp"

namespace gib::overrides {

namespace {
std::string show(const Json& v) {
  std::string s = v.dump();
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}
}  // namespace

void check_keys(const Json& o, const std::vector<std::string>& allowed, const std::string& problem) {
  if (o.is_null()) return;
  if (!o.is_object()) throw InputError("overrides for " + problem + " must be a JSON object, got " + show(o));
  for (auto it = o.begin(); it != o.end(); ++it) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == it.key();
    if (!ok) {
      throw InputError(unknown_id_message("parameter", it.key(), allowed, " for problem " + problem));
    }
  }
}

double read_finite(const Json& v, const std::string& key) {
  if (!v.is_number()) throw InputError(key + " must be a number, got " + show(v));
  const double x = v.get<double>();
  if (!std::isfinite(x)) throw InputError(key + " must be finite, got " + show(v));
  return x;
}

double read_positive(const Json& v, const std::string& key) {
  const double x = read_finite(v, key);
  if (!(x > 0)) throw InputError(key + " must be positive, got " + show(v));
  return x;
}

std::uint64_t read_seed(const Json& v, const std::string& key) {
  if (!v.is_number_integer() || v.get<long long>() < 0)
    throw InputError(key + " must be a non-negative integer, got " + show(v));
  return v.get<std::uint64_t>();
}

namespace {
std::vector<double> read_array(const Json& v, const std::string& key, std::size_t n) {
  if (!v.is_array() || v.size() != n)
    throw InputError(key + " must be an array of " + std::to_string(n) + " numbers, got " + show(v));
  std::vector<double> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(read_finite(v[i], key + "[" + std::to_string(i) + "]"));
  return out;
}
}  // namespace

so3::Vec3 read_vec3(const Json& v, const std::string& key) {
  const auto a = read_array(v, key, 3);
  return {a[0], a[1], a[2]};
}

so3::Vec3 read_positive_vec3(const Json& v, const std::string& key) {
  const so3::Vec3 x = read_vec3(v, key);
  for (int i = 0; i < 3; ++i)
    if (!(x(i) > 0)) throw InputError(key + " must have positive entries, got " + show(v));
  return x;
}

so3::Mat3 read_rotation(const Json& v, const std::string& key) {
  const auto a = read_array(v, key, 9);
  so3::Mat3 r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = a[3 * i + j];
  const double defect = so3::orthogonality_defect(r);
  if (defect > 1e-9 || r.determinant() <= 0) {
    std::ostringstream msg;
    msg << key << " must be a rotation matrix (row-major), got |R^T R - I| = " << number_text(defect)
        << ", det = " << number_text(r.determinant());
    throw InputError(msg.str());
  }
  return r;
}

}  // namespace gib::overrides
