#include "methods/composition/thue_morse.hpp"

#include <cmath>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "core/errors.hpp"
#include "methods/composition/base_map.hpp"

namespace gib::composition {
namespace {

constexpr int kMaxDepth = 20;  // a million letters per step

int read_count(const Json& params, const char* key, int lo, int hi) {
  const Json& v = params.at(key);
  if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
    throw InputError("thue_morse parameter " + std::string(key) + "=" + v.dump() + " must be an integer in [" +
                     std::to_string(lo) + ", " + std::to_string(hi) + "]");
  return v.get<int>();
}

class ThueMorse final : public VectorFieldStepper {
 public:
  ThueMorse(const VectorFieldModel& model, const Json& params) : base_(model, params.at("base"), "thue_morse") {
    if (!model.has_symmetry()) throw InputError("thue_morse needs a model with a symmetry; this problem has none");
    const int depth = read_count(params, "depth", 0, kMaxDepth);
    word_ = 1LL << depth;
    const Json& sequence = params.at("sequence");
    if (sequence != "word" && sequence != "letters")
      throw InputError("thue_morse parameter sequence=" + sequence.dump() + " must be \"word\" or \"letters\"");
    letters_ = sequence == "letters";
  }

  StepStatus step(VectorFieldState& s, double h, OpCounters& c) override {
    if (!letters_) {
      const double sub = h / static_cast<double>(word_);
      for (long long k = 0; k < word_; ++k)
        if (const StepStatus st = letter(s.x, k, sub, c); st != StepStatus::ok) return st;
      return StepStatus::ok;
    }
    const bool continuing = have_written_ && h == h_ && written_.size() == s.x.size() &&
                            std::memcmp(written_.data(), s.x.data(), sizeof(double) * static_cast<std::size_t>(s.x.size())) == 0;
    if (!continuing) next_ = 0;
    const StepStatus st = letter(s.x, next_, h, c);
    next_ = (next_ + 1) % word_;
    written_ = s.x;
    h_ = h;
    have_written_ = true;
    return st;
  }

  void reset() override { have_written_ = false; }

 private:
  // Letter k of the sequence: psi_sub, or its conjugate h o psi_sub o h.
  StepStatus letter(Eigen::VectorXd& x, long long k, double sub, OpCounters& c) {
    if (thue_morse_letter(static_cast<unsigned long long>(k)) == 0) return base_.apply(x, sub, c);
    // A point outside h's domain (a singular Toda matrix) cannot be conjugated: the step fails, counted.
    if (!base_.model().symmetry(x, y_)) return failed(c);
    if (const StepStatus st = base_.apply(y_, sub, c); st != StepStatus::ok) return st;
    if (!base_.model().symmetry(y_, x)) return failed(c);
    return StepStatus::ok;
  }
  static StepStatus failed(OpCounters& c) {
    ++c.solver_failures;
    return StepStatus::solver_failed;
  }
  BaseMap base_;
  long long word_ = 1;
  bool letters_ = false;
  // "letters": the next letter of the word, and the state and h last written.
  long long next_ = 0;
  bool have_written_ = false;
  Eigen::VectorXd written_, y_;
  double h_ = 0;
};

}  // namespace

MethodInfo thue_morse() {
  MethodInfo m;
  m.id = "thue_morse";
  m.display_name = "Thue-Morse word psi_n of a base method";
  m.citation = "McLachlan-Quispel lectures Theorem 23 and Example 9 (Fig 4.1), spec 2.7, 10";
  m.family = "splitting";  // the "splitting / composition" family (core/method_tags.cpp): words in psi and psi*
  m.needs_structure = kSymmetric;
  m.claims.order = 1;
  m.default_params = {{"base", "odeint_euler"}, {"depth", 3}, {"sequence", "word"}};
  m.vector_field = [](const VectorFieldModel& model, const Json& params) -> std::unique_ptr<VectorFieldStepper> {
    return std::make_unique<ThueMorse>(model, params);
  };
  return m;
}

}  // namespace gib::composition
