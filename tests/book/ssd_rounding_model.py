#!/usr/bin/env python3
"""scripts/ssd-rounding-model's fp64 model, checked before appendix A leans on it: with no rounding
switched on, its chunked backward's dA is the derivative of <dy, y> by A through the plain
recurrence h_t = exp(A dt_t) h_{t-1} + dt_t x_t B_t^T, y_t = h_t C_t (central differences), for any
chunk; each rounding switched on alone moves dA, and by no more than 16-bit roundings can; its
bf16 rounds to the nearest, ties to even; and a remainder kept to k bits is within half a unit of
2^-k of the bf16 value's last place. Exits 77 (CTest's skip) where numpy is missing.

    tests/book/ssd_rounding_model.py      (CTest: scripts.ssd_rounding_model)
"""
import importlib.machinery
import importlib.util
import os
import sys

try:
    import numpy as np
except ImportError:
    print("ssd_rounding_model: skipped, it needs numpy (Debian: python3-numpy)")
    sys.exit(77)

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "ssd-rounding-model")
loader = importlib.machinery.SourceFileLoader("ssd_rounding_model", SCRIPT)
model = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
loader.exec_module(model)

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def loss(inputs, A):
    """<dy, y> through the recurrence, one position at a time, in fp64."""
    x, dy, B, C, _, step = inputs
    h, total = np.zeros((x.shape[1], B.shape[1])), 0.0
    for t in range(len(step)):
        h = np.exp(A * step[t]) * h + step[t] * np.outer(x[t], B[t])
        total += dy[t] @ (h @ C[t])
    return total


for seed in range(4):
    inputs = model.draw(150, 8, seed, channels=4)  # chunks of 64: two whole and one of 22
    A = inputs[4]
    epsilon = 1e-5 * abs(A)
    derivative = (loss(inputs, A + epsilon) - loss(inputs, A - epsilon)) / (2 * epsilon)
    exact = model.dA_of(inputs, 64, set())
    check(abs(exact - derivative) <= 1e-7 * abs(derivative),
          f"seed {seed}: dA {exact!r} where the recurrence's derivative is {derivative!r}")
    for chunk in (1, 16, 128, 150):
        other = model.dA_of(inputs, chunk, set())
        check(abs(other - exact) <= 1e-10 * abs(exact), f"seed {seed}: dA {other!r} at chunks of {chunk}, {exact!r} at 64")
    for name in model.ROUNDINGS:
        rounded = model.dA_of(inputs, 64, {name})
        moved = abs(rounded - exact) / abs(exact)
        check(0 < moved < 2 ** -5, f"seed {seed}: rounding {name} alone moves dA by {moved!r} of it")

values = np.array([1 + 2 ** -8, 1 + 3 * 2 ** -8, 1 + 2 ** -8 + 2 ** -20, -(1 + 2 ** -8 + 2 ** -20)])
expected = np.array([1.0, 1 + 2 ** -6, 1 + 2 ** -7, -(1 + 2 ** -7)])  # ties to even twice, then up, then a negative
got = model.bf16(values)
check(np.array_equal(got, expected), f"bf16 of {values.tolist()} gave {got.tolist()}, not {expected.tolist()}")

# A remainder of k bits errs by at most 2^-(k+1) of the bf16 value's last place.
values = np.random.default_rng(7).standard_normal(1000) * 10.0 ** np.random.default_rng(8).uniform(-3, 3, 1000)
check(np.array_equal(model.kept_to(values, 0), model.bf16(values)), "kept_to with no bits is bf16")
for bits in (2, 4, 8):
    last_place = 2.0 ** (np.floor(np.log2(np.abs(model.bf16(values)))) - 7)
    worst = np.max(np.abs(model.kept_to(values, bits) - values) / last_place)
    check(worst <= 2.0 ** (-bits - 1) * (1 + 1e-12), f"kept_to({bits}) errs by {worst!r} of the last place")

for failure in failures:
    print("FAILED:", failure)
if not failures:
    print("ssd-rounding-model: every check passed (dA against the recurrence, chunk sizes, roundings, bf16, remainders)")
sys.exit(1 if failures else 0)
