// Method files: parse, check the coefficients, build the MethodInfo (see the header and docs/method_files.md).
#include "methods/from_file/method_file.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>

#include "core/errors.hpp"
#include "core/hash.hpp"
#include "core/method_tags.hpp"
#include "core/user_input.hpp"
#include "methods/classical/odeint_embedded.hpp"
#include "methods/classical/tableau_rk.hpp"
#include "methods/composition/symmetric_composition.hpp"
#include "methods/crouch_grossman/commutator_free.hpp"
#include "methods/crouch_grossman/crouch_grossman.hpp"
#include "methods/rkmk/rkmk.hpp"
#include "methods/splitting/hamiltonian_splitting.hpp"

namespace gib::from_file {
namespace {

constexpr int kFormat = 1;
constexpr int kMaxOrder = 10;   // the free-algebra and tree checks grow fast beyond; no family here needs more
constexpr std::size_t kMaxStages = 16;  // the RKMK kernel's limit
constexpr std::size_t kMaxSubsteps = 40;
constexpr std::size_t kMaxFactors = 16;  // exponentials per stage or update of a commutator-free method
constexpr int kMaxLieOrder = 6;          // the ordered forests are enumerated through weight 7

const std::vector<std::string>& families() {
  static const std::vector<std::string> f = {"rkmk", "crouch_grossman", "commutator_free", "classical_rk", "composition",
                                             "splitting"};
  return f;
}

std::string quoted(const std::string& s) { return "\"" + s.substr(0, 80) + "\""; }

class Reader {
 public:
  Reader(const Json& j, std::string where) : j_(j), where_(std::move(where)) {}

  [[noreturn]] void fail(const std::string& what) const { throw InputError(where_ + ": " + what); }

  const Json& at(const std::string& key) const {
    if (!j_.contains(key)) fail("missing \"" + key + "\"");
    return j_.at(key);
  }
  std::string string(const std::string& key) const {
    const Json& v = at(key);
    if (!v.is_string() || v.get<std::string>().empty()) fail("\"" + key + "\" must be a non-empty string");
    return v.get<std::string>();
  }
  std::string string_or(const std::string& key, const std::string& fallback) const {
    return j_.contains(key) ? string(key) : fallback;
  }
  int integer(const std::string& key, int lo, int hi) const {
    const Json& v = at(key);
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      fail("\"" + key + "\" must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
    return v.get<int>();
  }
  // Coefficients are strings ("1/6", "0.1234"); a JSON number would already have been rounded to a double.
  Coefficient coefficient(const Json& v, const std::string& where) const {
    if (!v.is_string())
      fail(where + " must be a string such as \"1/6\" or \"0.29619504261126\" (a JSON number is already rounded)");
    return parse_coefficient(v.get<std::string>(), where_ + ": " + where);
  }
  std::vector<Coefficient> coefficients(const Json& v, const std::string& where, std::size_t max) const {
    if (!v.is_array()) fail(where + " must be an array of coefficient strings");
    if (v.size() > max) fail(where + " has " + std::to_string(v.size()) + " entries, more than " + std::to_string(max));
    std::vector<Coefficient> out;
    for (std::size_t i = 0; i < v.size(); ++i) out.push_back(coefficient(v[i], where + "[" + std::to_string(i + 1) + "]"));
    return out;
  }
  void only(const std::set<std::string>& keys) const {
    for (const auto& [k, v] : j_.items())
      if (!keys.count(k)) {
        std::string valid;
        for (const auto& key : keys) valid += (valid.empty() ? "" : ", ") + key;
        fail("unknown key \"" + k + "\" (valid: " + valid + ")");
      }
  }

 private:
  const Json& j_;
  std::string where_;
};

rkmk::Fraction fraction(const Coefficient& c) {
  rkmk::Fraction f{0, 1};
  int num = 0, den = 1;
  if (!c.decimal && small_fraction(c, num, den)) {
    f.num = num;
    f.den = den;
    return f;
  }
  f.wide = true;
  to_double_double(c, f.hi, f.lo);
  return f;
}

// The file's order claim against the report: every condition up to the claim holds, and the claim is not below the
// order the coefficients have (the battery would measure the higher order and refute the lower claim).
void check_claim(const Reader& r, const OrderReport& rep) {
  for (const ConditionResult& c : rep.conditions) {
    if (c.order > rep.claimed || c.holds) continue;
    r.fail("claims order " + std::to_string(rep.claimed) + ", but the order-" + std::to_string(c.order) + " condition " +
           c.name + ": " + c.condition + " fails (residual " + short_number(c.residual) +
           (rep.exact ? ", exact" : ", tolerance " + short_number(kDecimalTolerance * std::max(1.0, c.scale))) +
           "); the coefficients have order " + std::to_string(rep.order_met));
  }
  if (rep.order_met > rep.claimed)
    r.fail("claims order " + std::to_string(rep.claimed) + ", but every condition of order " +
           std::to_string(rep.order_met) + " holds too: claim order " + std::to_string(rep.order_met));
}

rkmk::Tableau read_tableau(const Reader& r, const Json& t, int order, OrderReport& rep, bool crouch_grossman, bool check) {
  if (!t.is_object()) r.fail("\"tableau\" must be an object with \"a\", \"b\" and optionally \"c\"");
  for (const auto& [k, v] : t.items())
    if (k != "a" && k != "b" && k != "c") r.fail("tableau: unknown key \"" + k + "\" (valid: a, b, c)");
  if (!t.contains("a") || !t.contains("b")) r.fail("tableau: needs \"a\" (rows of the strictly lower triangle) and \"b\"");
  const std::vector<Coefficient> b = r.coefficients(t.at("b"), "tableau.b", kMaxStages);
  const Json& ja = t.at("a");
  if (!ja.is_array()) r.fail("tableau.a must be an array of rows");
  std::vector<std::vector<Coefficient>> a;
  for (std::size_t i = 0; i < ja.size() && i < kMaxStages; ++i)
    a.push_back(r.coefficients(ja[i], "tableau.a[" + std::to_string(i + 1) + "]", kMaxStages));
  if (ja.size() > kMaxStages) r.fail("tableau.a has more than " + std::to_string(kMaxStages) + " rows");
  std::vector<Coefficient> c;
  if (t.contains("c")) c = r.coefficients(t.at("c"), "tableau.c", kMaxStages);
  if (check) {
    try {
      rep = check_runge_kutta(a, b, c, order, crouch_grossman);
    } catch (const InputError& e) {
      r.fail(e.what());
    }
  } else {
    // The shape the steppers index by; the conditions were checked when the file was (the tests, `list --json`).
    if (a.size() != b.size()) r.fail("tableau: a and b differ in stages");
    for (std::size_t i = 0; i < a.size(); ++i)
      if (a[i].size() != i) r.fail("tableau: row " + std::to_string(i + 1) + " of a is not strictly lower triangular");
  }
  rkmk::Tableau out;
  out.order = order;
  for (const auto& row : a) {
    out.a.emplace_back();
    for (const Coefficient& x : row) out.a.back().push_back(fraction(x));
  }
  for (const Coefficient& x : b) out.b.push_back(fraction(x));
  return out;
}

double nearest_double(const Coefficient& c) {
  double hi = 0, lo = 0;
  to_double_double(c, hi, lo);
  return hi;
}

// "stages": stage i (1-based) a list of factors in the order applied, each i - 1 coefficients; "output": the update's
// factors, each s coefficients. The shapes are checked here (the check of the conditions repeats it, exactly).
commutator_free::Scheme read_commutator_free(const Reader& r, int order, OrderReport& rep, bool check) {
  if (order > kMaxLieOrder)
    r.fail("commutator_free: the Lie-group order conditions are enumerated to order " + std::to_string(kMaxLieOrder));
  const Json& js = r.at("stages");
  if (!js.is_array() || js.empty() || js.size() > kMaxStages)
    r.fail("\"stages\" must be an array of 1.." + std::to_string(kMaxStages) + " stages, each a list of factors");
  std::vector<std::vector<std::vector<Coefficient>>> stages;
  for (std::size_t i = 0; i < js.size(); ++i) {
    const std::string where = "stages[" + std::to_string(i + 1) + "]";
    if (!js[i].is_array() || js[i].size() > kMaxFactors)
      r.fail(where + " must be an array of at most " + std::to_string(kMaxFactors) + " factors (stage 1: [])");
    stages.emplace_back();
    for (std::size_t f = 0; f < js[i].size(); ++f) {
      stages.back().push_back(r.coefficients(js[i][f], where + "[" + std::to_string(f + 1) + "]", kMaxStages));
      if (stages.back().back().size() != i)
        r.fail(where + "[" + std::to_string(f + 1) + "] has " + std::to_string(stages.back().back().size()) +
               " coefficients; a factor of stage " + std::to_string(i + 1) + " has " + std::to_string(i) +
               " (one per earlier stage)");
    }
  }
  const Json& jo = r.at("output");
  if (!jo.is_array() || jo.empty() || jo.size() > kMaxFactors)
    r.fail("\"output\" must be an array of 1.." + std::to_string(kMaxFactors) + " factors");
  std::vector<std::vector<Coefficient>> output;
  for (std::size_t f = 0; f < jo.size(); ++f) {
    output.push_back(r.coefficients(jo[f], "output[" + std::to_string(f + 1) + "]", kMaxStages));
    if (output.back().size() != stages.size())
      r.fail("output[" + std::to_string(f + 1) + "] has " + std::to_string(output.back().size()) +
             " coefficients; an update factor has one per stage (" + std::to_string(stages.size()) + ")");
  }
  if (check) {
    try {
      rep = check_commutator_free(stages, output, order);
    } catch (const InputError& e) {
      r.fail(e.what());
    }
  }
  commutator_free::Scheme scheme;
  scheme.order = order;
  for (const auto& stage : stages) {
    scheme.stages.emplace_back();
    for (const auto& factor : stage) {
      scheme.stages.back().emplace_back();
      for (const Coefficient& x : factor) scheme.stages.back().back().push_back(nearest_double(x));
    }
  }
  for (const auto& factor : output) {
    scheme.output.emplace_back();
    for (const Coefficient& x : factor) scheme.output.back().push_back(nearest_double(x));
  }
  return scheme;
}

// A splitting's flows: [piece, coefficient] pairs, the first applied first.
std::vector<std::pair<int, Coefficient>> read_flows(const Reader& r, const Json& v, const std::string& where,
                                                    const std::vector<std::string>& pieces) {
  if (!v.is_array() || v.empty() || v.size() > 2 * kMaxSubsteps)
    r.fail("\"" + where + "\" must be an array of 1.." + std::to_string(2 * kMaxSubsteps) +
           " [piece, coefficient] pairs such as [\"drift\", \"1/2\"]");
  std::vector<std::pair<int, Coefficient>> out;
  for (std::size_t k = 0; k < v.size(); ++k) {
    const std::string at = where + "[" + std::to_string(k + 1) + "]";
    if (!v[k].is_array() || v[k].size() != 2 || !v[k][0].is_string())
      r.fail(at + " must be a [piece, coefficient] pair such as [\"kick\", \"1/2\"]");
    const auto piece = std::find(pieces.begin(), pieces.end(), v[k][0].get<std::string>());
    if (piece == pieces.end()) r.fail(at + ": unknown piece " + quoted(v[k][0].get<std::string>()) + " (valid: drift, kick)");
    out.emplace_back(static_cast<int>(piece - pieces.begin()), r.coefficient(v[k][1], at + "[2]"));
  }
  return out;
}

// -c, exactly, as text.
Coefficient negated(Coefficient c) {
  const char sign = c.text.empty() ? ' ' : c.text[0];
  c.text = sign == '-' ? c.text.substr(1) : "-" + (sign == '+' ? c.text.substr(1) : c.text);
  return c;
}

// The inverse flow sequence: backwards, each coefficient negated.
std::vector<std::pair<int, Coefficient>> inverse(const std::vector<std::pair<int, Coefficient>>& flows) {
  std::vector<std::pair<int, Coefficient>> out(flows.rbegin(), flows.rend());
  for (auto& [piece, c] : out) c = negated(c);
  return out;
}

// Family splitting, "split": "kinetic_potential": H = T(p) + V(q), the drift the flow of T, the kick the flow of V.
splitting::FlowSequence read_splitting(const Reader& r, const Json& j, int order, OrderReport& rep, bool check) {
  const std::string split = r.string("split");
  if (split != "kinetic_potential")
    r.fail("split " + quoted(split) + " is not available (valid: kinetic_potential, H = T(p) + V(q))");
  const std::vector<std::string> pieces = {"drift", "kick"};
  const auto kernel = read_flows(r, r.at("sequence"), "sequence", pieces);
  std::vector<std::pair<int, Coefficient>> processor;
  if (j.contains("processor")) processor = read_flows(r, j.at("processor"), "processor", pieces);
  if (check) {
    // A processed method's order is that of P^{-1} K P, the map the caller sees.
    std::vector<std::pair<int, Coefficient>> seen = processor;
    seen.insert(seen.end(), kernel.begin(), kernel.end());
    const auto back = inverse(processor);
    seen.insert(seen.end(), back.begin(), back.end());
    try {
      rep = check_splitting(seen, 2, order, {"T", "V"});
    } catch (const InputError& e) {
      r.fail(e.what());
    }
  }
  const auto flows = [](const std::vector<std::pair<int, Coefficient>>& in) {
    std::vector<splitting::Flow> out;
    for (const auto& [piece, c] : in)
      out.push_back({piece == 0 ? splitting::Piece::drift : splitting::Piece::kick, nearest_double(c)});
    return out;
  };
  return {flows(kernel), flows(processor)};
}

std::mutex& reports_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, OrderReport>& reports() {
  static std::map<std::string, OrderReport> r;
  return r;
}
// Shipped files registered without their order check: id -> (text, path).
std::map<std::string, std::pair<std::string, std::string>>& unchecked() {
  static std::map<std::string, std::pair<std::string, std::string>> u;
  return u;
}

}  // namespace

LoadedMethod load_method(const std::string& text, const std::string& source, const std::vector<MethodInfo>& known,
                         bool check_conditions) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const Json::exception& e) {
    throw InputError(source + ": not valid JSON (" + std::string(e.what()).substr(0, 200) + ")");
  }
  if (!j.is_object()) throw InputError(source + ": a method file is a JSON object");
  Reader r(j, source);
  r.only({"gibench_method", "id", "display_name", "citation", "family", "order", "claims", "tags", "tableau", "embedding",
          "base", "gamma", "stages", "output", "split", "sequence", "processor", "comment"});
  if (r.integer("gibench_method", kFormat, kFormat) != kFormat) r.fail("unknown format");
  const std::string id = r.string("id");
  if (id.size() > 40 || !std::all_of(id.begin(), id.end(), [](char ch) {
        return (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
      }))
    r.fail("\"id\" " + quoted(id) + " must be 1-40 characters of a-z, 0-9 and _");
  for (const MethodInfo& m : known)
    if (m.id == id) r.fail("method id \"" + id + "\" is already registered (" + (m.source.empty() ? "built in" : m.source) + ")");
  const std::string family = r.string("family");
  if (std::find(families().begin(), families().end(), family) == families().end()) {
    std::string valid;
    for (const auto& f : families()) valid += (valid.empty() ? "" : ", ") + f;
    r.fail("unknown family " + quoted(family) + " (valid: " + valid + ")");
  }
  const int order = r.integer("order", 1, kMaxOrder);
  const std::string name = r.string_or("display_name", id);
  const std::string citation = r.string("citation");

  LoadedMethod out;
  if (j.contains("embedding") && family != "classical_rk") r.fail("\"embedding\" belongs to family classical_rk");
  if (family != "commutator_free" && (j.contains("stages") || j.contains("output")))
    r.fail("\"stages\" and \"output\" belong to family commutator_free");
  if (j.contains("processor") && family != "splitting" && family != "composition")
    r.fail("\"processor\" belongs to families splitting and composition");
  if (family != "splitting" && (j.contains("split") || j.contains("sequence")))
    r.fail("\"split\" and \"sequence\" belong to family splitting");
  if (family == "splitting") {
    if (j.contains("tableau") || j.contains("base") || j.contains("gamma"))
      r.fail("a splitting is given by \"split\", \"sequence\" and optionally \"processor\", not \"tableau\", \"base\" or \"gamma\"");
    splitting::FlowSequence seq = read_splitting(r, j, order, out.report, check_conditions);
    // Symmetric when the sequence is a palindrome and nothing processes it (P^{-1} K P is not symmetric in general).
    const bool symmetric = seq.processor.empty() && splitting::is_palindrome(seq.kernel);
    out.info = splitting::hamiltonian_sequence(id, name, citation, std::move(seq), order, symmetric);
  } else if (family == "commutator_free") {
    if (j.contains("tableau") || j.contains("base") || j.contains("gamma"))
      r.fail("a commutator_free method is given by \"stages\" and \"output\", not \"tableau\", \"base\" or \"gamma\"");
    out.info = commutator_free::method(id, name, citation, read_commutator_free(r, order, out.report, check_conditions));
  } else if (family == "rkmk" || family == "crouch_grossman" || family == "classical_rk") {
    if (j.contains("base") || j.contains("gamma")) r.fail("\"base\" and \"gamma\" belong to family composition");
    rkmk::Tableau t = read_tableau(r, r.at("tableau"), order, out.report, family == "crouch_grossman", check_conditions);
    t.name = name;
    if (family == "rkmk") {
      out.info = rkmk::method(id, name, t);
      out.info.citation = citation;
    } else if (family == "crouch_grossman") {
      out.info = crouch_grossman::method(id, name, citation, t);
    } else {
      // The embedding says which ODE the classical method integrates: the general vector field (x' = f(x) in R^n, the
      // McLachlan-Quispel problems), or a rigid body's nine entries of R or quaternion with Pi (the ODEs of
      // odeint_*_matrix and odeint_*_quat, in their loop).
      const std::string embedding = r.string("embedding");
      if (embedding == "vector_field")
        out.info = classical::tableau_rk_method(id, name, citation, t);
      else if (embedding == "rotation_matrix")
        out.info = classical::embedded_tableau_method(id, name, citation, t, classical::Embedding::matrix);
      else if (embedding == "quaternion")
        out.info = classical::embedded_tableau_method(id, name, citation, t, classical::Embedding::quaternion);
      else
        r.fail("embedding " + quoted(embedding) +
               " is not available for classical_rk (valid: vector_field, rotation_matrix, quaternion)");
    }
  } else {
    if (j.contains("tableau")) r.fail("\"tableau\" belongs to the Runge-Kutta families, not to composition");
    const std::string base_id = r.string("base");
    const auto base = std::find_if(known.begin(), known.end(), [&](const MethodInfo& m) { return m.id == base_id; });
    if (base == known.end()) r.fail("base method " + quoted(base_id) + " is not registered (gibench list methods)");
    if (base->claims.stochastic) r.fail("base method " + base_id + " is stochastic: it has no order to compose");
    const std::vector<Coefficient> gamma = r.coefficients(r.at("gamma"), "gamma", kMaxSubsteps);
    std::vector<Coefficient> processor;
    if (j.contains("processor")) {
      processor = r.coefficients(j.at("processor"), "processor", kMaxSubsteps);
      if (!base->claims.symmetric)
        r.fail("a processor needs a symmetric base (its inverse is the substeps negated): " + base_id + " is not symmetric");
    }
    if (check_conditions) {
      // A processed composition's order is that of P^{-1} K P, the map the caller sees.
      std::vector<Coefficient> seen = processor;
      seen.insert(seen.end(), gamma.begin(), gamma.end());
      for (auto p = processor.rbegin(); p != processor.rend(); ++p) seen.push_back(negated(*p));
      try {
        out.report = check_composition(seen, base->claims.order, base->claims.symmetric, order);
      } catch (const InputError& e) {
        r.fail(e.what());
      }
    }
    const auto doubles = [](const std::vector<Coefficient>& in) {
      std::vector<double> values;
      for (const Coefficient& x : in) values.push_back(nearest_double(x));
      return values;
    };
    out.info = composition::compose_substeps(*base, doubles(gamma), order, id, name,
                                             base->citation + "; composed by " + citation, doubles(processor));
  }
  if (check_conditions) check_claim(r, out.report);

  // Property claims beyond the order: what the family delivers, stated so that a file cannot claim more.
  if (j.contains("claims")) {
    const Json& c = j.at("claims");
    if (!c.is_object()) r.fail("\"claims\" must be an object such as {\"symmetric\": true}");
    for (const auto& [k, v] : c.items()) {
      if (!v.is_boolean()) r.fail("claims." + k + " must be true or false");
      bool has = false;
      if (k == "symmetric") has = out.info.claims.symmetric;
      else if (k == "symplectic") has = out.info.claims.symplectic;
      else if (k == "stays_on_group") has = out.info.claims.stays_on_group;
      else if (k == "volume_preserving") has = out.info.claims.volume_preserving;
      else r.fail("unknown claim \"" + k + "\" (valid: symmetric, symplectic, stays_on_group, volume_preserving)");
      if (v.get<bool>() != has) {
        std::string why =
            family == "composition"
                ? (k == "symmetric" ? " (a composition is symmetric when its base is, gamma is a palindrome and it has no processor)"
                                    : " (a composition has its base's " + k + ")")
            : family == "splitting"
                ? (k == "symmetric" ? " (a splitting is symmetric when its sequence is a palindrome and it has no processor)"
                                    : " (a splitting of exact flows claims symplectic, and only that)")
                : " (an explicit " + family + " method " + (has ? "is" : "is not") + " " + k + ")";
        r.fail("claims " + k + " = " + (v.get<bool>() ? "true" : "false") + ", but the method " +
               (has ? "is" : "is not") + why);
      }
    }
  }
  if (j.contains("tags")) {
    const Json& t = j.at("tags");
    if (!t.is_array()) r.fail("\"tags\" must be an array of strings");
    for (const Json& tag : t) {
      if (!tag.is_string()) r.fail("\"tags\" must be an array of strings");
      const auto& ok = declarable_tags();
      if (std::find(ok.begin(), ok.end(), tag.get<std::string>()) == ok.end()) {
        std::string valid;
        for (const auto& x : ok) valid += (valid.empty() ? "" : ", ") + x;
        r.fail("tag " + quoted(tag.get<std::string>()) + " cannot be declared (valid: " + valid +
               "; the order, explicit/implicit, symmetric and symplectic tags follow from the claims)");
      }
      out.info.declared_tags.push_back(tag.get<std::string>());
    }
  }
  out.info.source = source;
  return out;
}

const OrderReport* definition_report(const std::string& id) {
  std::lock_guard<std::mutex> lock(reports_mutex());
  const auto it = reports().find(id);
  if (it != reports().end()) return &it->second;
  const auto pending = unchecked().find(id);
  if (pending == unchecked().end()) return nullptr;
  // A shipped file, registered unchecked: checked now, against the registry without itself (for a composition's base).
  std::vector<MethodInfo> others;
  for (const MethodInfo& m : method_registry())
    if (m.id != id) others.push_back(m);
  OrderReport report = load_method(pending->second.first, pending->second.second, others, true).report;
  unchecked().erase(pending);
  return &(reports()[id] = std::move(report));
}

void remember_unchecked(const std::string& id, const std::string& text, const std::string& source) {
  std::lock_guard<std::mutex> lock(reports_mutex());
  unchecked()[id] = {text, source};
}

std::vector<UserFile>& user_file_storage() {
  static std::vector<UserFile> files;
  return files;
}

void remember_user_file(const std::string& id, const std::string& path, const std::string& text) {
  std::lock_guard<std::mutex> lock(reports_mutex());
  user_file_storage().push_back({id, path, fnv1a_hex(text)});
}

std::vector<UserFile> user_files() {
  std::lock_guard<std::mutex> lock(reports_mutex());
  return user_file_storage();
}

void remember_report(const std::string& id, OrderReport report) {
  std::lock_guard<std::mutex> lock(reports_mutex());
  reports()[id] = std::move(report);
}

}  // namespace gib::from_file
