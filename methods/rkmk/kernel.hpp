// The one explicit Runge-Kutta-Munthe-Kaas step (Munthe-Kaas 1998; Kjer 2017, Algorithm 1 with the corrected kernel
// of spec 3.5), templated on the Lie group it runs on and, through the group, on the scalar. With U_r = h sum_j a_rj K_j:
//   stage point   y_r = lambda(U_r, y_n)            (y_n itself when every a_rj is zero: no exponential)
//   derivative    K_r = dexp^{-1}_{U_r} f(y_r)      (truncated series; f(y_r) itself when U_r = 0)
//   update        y_{n+1} = lambda(h sum_r b_r K_r, y_n)
// The tableau comes from methods/rkmk/tableau.hpp, evaluated in the group's scalar.
//
// A Group provides (see rigid_body_group.hpp and particles_group.hpp):
//   Scalar, Point (a group element the step advances), Increment (a Lie algebra element);
//   bool shaped_for(const Point&, const Increment&) and shape(const Point&, Increment& / Point&): buffers sized
//       for the point (a product group of N factors sizes them for N; a fixed-size group does nothing);
//   set_zero(Increment&), add_scaled(Increment& u, Scalar s, const Increment& k): u += s k;
//   stage_point(y, u, out, counters): out = lambda(u, y), as far as the vector field reads it;
//   derivative(y, u, k, counters): k = f(y), pulled back by dexp^{-1}_u unless u is null;
//   advance(y, sigma, counters): y = lambda(sigma, y).
// The counters are the group's to increment: what counts as one exponential or one force evaluation is its own.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <utility>

#include "core/counters.hpp"
#include "core/errors.hpp"
#include "methods/rkmk/tableau.hpp"

namespace gib::rkmk {

// Largest number of stages a kernel takes: the stage buffers are fixed arrays, so a step allocates nothing.
inline constexpr int kMaxStages = 8;

template <class Group> class Kernel {
 public:
  using S = typename Group::Scalar;
  using Point = typename Group::Point;
  using Increment = typename Group::Increment;

  // Throws InputError when the tableau has more than kMaxStages stages.
  Kernel(Group group, const Tableau& t) : group_(std::move(group)), stages_(t.stages()) {
    if (stages_ > kMaxStages)
      throw InputError("rkmk tableau has " + std::to_string(stages_) + " stages, more than the " +
                       std::to_string(kMaxStages) + " the kernel takes");
    for (std::size_t i = 0; i < t.a.size(); ++i)
      for (std::size_t j = 0; j < t.a[i].size(); ++j) a_[i][j] = t.a[i][j].template in<S>();
    for (std::size_t i = 0; i < t.b.size(); ++i) b_[i] = t.b[i].template in<S>();
  }

  Group& group() { return group_; }

  void step(Point& y, const S& h, OpCounters& c) {
    if (!group_.shaped_for(y, u_)) shape_for(y);
    for (int r = 0; r < stages_; ++r) {
      const bool moved = stage_increment(r, h);
      if (moved) group_.stage_point(y, u_, stage_, c);
      group_.derivative(moved ? stage_ : y, moved ? &u_ : nullptr, k_[at(r)], c);
    }
    group_.set_zero(u_);
    for (int r = 0; r < stages_; ++r)
      if (b_[at(r)] != S(0)) group_.add_scaled(u_, h * b_[at(r)], k_[at(r)]);
    group_.advance(y, u_, c);
  }

 private:
  static std::size_t at(int i) { return static_cast<std::size_t>(i); }

  void shape_for(const Point& y) {
    group_.shape(y, u_);
    for (Increment& k : k_) group_.shape(y, k);
    group_.shape(y, stage_);
  }

  // U_r = h sum_j a_rj K_j over the nonzero coefficients; false when there are none (U_r = 0).
  bool stage_increment(int r, const S& h) {
    group_.set_zero(u_);
    bool moved = false;
    for (int j = 0; j < r; ++j) {
      const S& a = a_[at(r)][at(j)];
      if (a == S(0)) continue;
      group_.add_scaled(u_, h * a, k_[at(j)]);
      moved = true;
    }
    return moved;
  }

  Group group_;
  int stages_;
  std::array<std::array<S, kMaxStages>, kMaxStages> a_{};
  std::array<S, kMaxStages> b_{};
  std::array<Increment, kMaxStages> k_;
  Increment u_;
  Point stage_;
};

}  // namespace gib::rkmk
