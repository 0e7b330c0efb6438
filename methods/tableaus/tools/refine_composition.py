#!/usr/bin/env python3
"""Refine a symmetric composition's substeps to 40 digits (provenance of methods/tableaus/yoshida*.json).

Papers print composition coefficients to ~15 digits; a shipped file carries more so that its order conditions hold
to far below double round-off (gibench checks them to 1e-14 relative, methods/from_file/order_conditions.hpp).
This solves the same conditions gibench checks, independently: the product of exp(g A + g^3 E3 + g^5 E5 + ...)
over the palindromic substeps equals exp(A) through the target weight, in the free algebra of words, by Gauss-Newton
in mpmath from the published digits. Usage: refine_composition.py yoshida6|yoshida8
"""
import itertools
import sys

import mpmath as mp

mp.mp.dps = 60

# Yoshida 1990, Table 1: solution A of the 7-stage order-6 and solution D of the 15-stage order-8 compositions of a
# symmetric second-order method, as printed (w1..wm; w0 = 1 - 2 sum w).
PUBLISHED = {
    "yoshida6": (6, ["-1.17767998417887", "0.235573213359357", "0.784513610477560"]),
    "yoshida8": (8, ["0.102799849391985", "-1.96061023297549", "1.93813913762276", "-0.158240635368243",
                     "-1.44485223686048", "0.253693336566229", "0.914844246229740"]),
}


def substeps(w):
    w0 = 1 - 2 * sum(w)
    return list(reversed(w)) + [w0] + list(w)


def generators(order):
    return [(1, "A")] + [(k, "E%d" % k) for k in range(3, order + 1, 2)]


def mul(x, y, weights, top):
    out = {}
    for wx, cx in x.items():
        kx = sum(weights[g] for g in wx)
        for wy, cy in y.items():
            if kx + sum(weights[g] for g in wy) > top:
                continue
            w = wx + wy
            out[w] = out.get(w, 0) + cx * cy
    return out


def expo(x, weights, top):
    out, power = {(): mp.mpf(1)}, {(): mp.mpf(1)}
    for k in range(1, top + 1):
        power = mul(power, x, weights, top)
        for w, c in power.items():
            out[w] = out.get(w, 0) + c / mp.factorial(k)
    return out


def residuals(w, order):
    gens = generators(order)
    weights = [k for k, _ in gens]
    prod = {(): mp.mpf(1)}
    for g in substeps(w):
        field = {(i,): g ** k for i, (k, _) in enumerate(gens)}
        prod = mul(prod, expo(field, weights, order), weights, order)
    target = expo({(0,): mp.mpf(1)}, weights, order)
    words = set(prod) | set(target)
    return [prod.get(x, 0) - target.get(x, 0) for x in sorted(words)]


def refine(name):
    order, digits = PUBLISHED[name]
    w = [mp.mpf(d) for d in digits]
    for _ in range(30):
        r = residuals(w, order)
        J = mp.matrix(len(r), len(w))
        for j in range(len(w)):
            step = mp.mpf(10) ** -30
            wp = list(w)
            wp[j] += step
            rp = residuals(wp, order)
            for i in range(len(r)):
                J[i, j] = (rp[i] - r[i]) / step
        JT = J.T
        dw = mp.lu_solve(JT * J, JT * mp.matrix(r))
        w = [w[j] - dw[j] for j in range(len(w))]
        if max(abs(x) for x in residuals(w, order)) < mp.mpf(10) ** -45:
            break
    print(name, "max residual", mp.nstr(max(abs(x) for x in residuals(w, order)), 3))
    return [mp.nstr(g, 40, strip_zeros=False) for g in substeps(w)]


if __name__ == "__main__":
    for g in refine(sys.argv[1]):
        print(g)
