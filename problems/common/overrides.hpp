// Reading and validating parameter overrides (--set key=value, config files). Every failure throws
// InputError naming the key and the value, so the CLI can print one clear line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/so3.hpp"

namespace gib::overrides {

using Json = nlohmann::json;

// Throws when overrides holds a key outside `allowed` (or is not an object).
void check_keys(const Json& overrides, const std::vector<std::string>& allowed, const std::string& problem);

double read_finite(const Json& v, const std::string& key);
double read_positive(const Json& v, const std::string& key);
std::uint64_t read_seed(const Json& v, const std::string& key);
so3::Vec3 read_vec3(const Json& v, const std::string& key);
so3::Vec3 read_positive_vec3(const Json& v, const std::string& key);
// Nine values, row-major, that must form a rotation (|R^T R - I| <= 1e-9, det > 0).
so3::Mat3 read_rotation(const Json& v, const std::string& key);

}  // namespace gib::overrides
