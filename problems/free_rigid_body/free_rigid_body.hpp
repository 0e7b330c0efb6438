// Problem: the free (torque-free) rigid body about its centre of mass, with the setups of three papers.
//   kjer2017  I = (1, 1.88, 2.88), Pi0 a normalised Gaussian (seed 12345), R0 = I   (Kjer spec 4)
//   buss2001  J = diag(19/60, 0.03, 47/150), Pi0 = L = (3/sqrt2)(1, 1, 0), R0 = I (Buss spec 3.3: the
//             reconstruction that reproduces every printed energy; the literal 1:4:18 prism does not)
//   krysl2006 I = (0.9144, 1.098, 1.66), Omega0 = (0.45549, 0.82623, 0.03476), R0 = I (Krysl spec 7.1)
//   mq1998    I = (2, 1, 2/3), Pi0 = (cos 1.1, 0, sin 1.1), R0 = I (McLachlan-Quispel spec 5.4-5.5)
// Reference: the exact elliptic-function solution.
#pragma once

#include "core/problem.hpp"

namespace gib::free_rigid_body {

ProblemInfo info();

}  // namespace gib::free_rigid_body
