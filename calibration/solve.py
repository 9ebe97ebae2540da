"""A small Levenberg–Marquardt least-squares solver with a numerical Jacobian.

The marker problems solved here have a dozen or two parameters and a few dozen residuals, so a
dense solver with finite differences is exact enough and simpler than an analytic Jacobian; it
also returns the Jacobian at the solution, whose normal matrix gives each parameter's
uncertainty (how well the markers determined the focal length, for instance).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Solution:
    x: np.ndarray
    residuals: np.ndarray
    jacobian: np.ndarray
    iterations: int

    @property
    def cost(self) -> float:
        return float(self.residuals @ self.residuals)

    def stddev(self) -> np.ndarray:
        """Standard deviation of each parameter, for residuals already scaled to unit noise
        (infinite where the data do not determine a parameter)."""
        a = self.jacobian.T @ self.jacobian
        try:
            cov = np.linalg.inv(a)
        except np.linalg.LinAlgError:
            return np.full(len(self.x), np.inf)
        return np.sqrt(np.clip(np.diag(cov), 0.0, None))


def _jacobian(fun: Callable[[np.ndarray], np.ndarray], x: np.ndarray, r0: np.ndarray) -> np.ndarray:
    jac = np.empty((len(r0), len(x)))
    for i in range(len(x)):
        h = 1e-6 * max(1.0, abs(x[i]))
        xp = x.copy()
        xp[i] += h
        jac[:, i] = (fun(xp) - r0) / h
    return jac


def least_squares(fun: Callable[[np.ndarray], np.ndarray], x0: np.ndarray, *,
                  max_iter: int = 60, rtol: float = 1e-12) -> Solution:
    """Minimise ``|fun(x)|²`` from ``x0``."""
    x = np.asarray(x0, dtype=np.float64).copy()
    r = fun(x)
    cost = float(r @ r)
    lam = 1e-3
    jac = _jacobian(fun, x, r)
    it = 0
    for it in range(1, max_iter + 1):
        a = jac.T @ jac
        g = jac.T @ r
        improved = False
        while lam < 1e12:
            damp = a + lam * np.diag(np.diag(a) + 1e-12)
            try:
                dx = -np.linalg.solve(damp, g)
            except np.linalg.LinAlgError:
                lam *= 10.0
                continue
            r_new = fun(x + dx)
            c_new = float(r_new @ r_new)
            if np.isfinite(c_new) and c_new < cost:
                improved = True
                break
            lam *= 10.0
        if not improved:
            break
        x = x + dx
        done = cost - c_new <= rtol * max(cost, 1e-30) or float(np.abs(dx).max()) < 1e-12
        r, cost = r_new, c_new
        lam = max(lam * 0.3, 1e-9)
        jac = _jacobian(fun, x, r)
        if done:
            break
    return Solution(x, r, jac, it)
