//! The six vertex trajectories of a triangle pair as integer polynomials in
//! `t`, on one common scale.
//!
//! Yu et al. (2000) write every point as `q_i = Q_i + ∫_{t₀}^t V_i(t) dt`
//! (their Eqs. (2), (6), (10), (14)); with the linear motion of docs/design.md §1,
//! `x(t) = x₀ + t·(x₁ − x₀)`, `t ∈ [0, 1]`. The 36 input doubles are put on a
//! common power-of-two scale ([`crate::exact::to_common_scale`]), which turns
//! them into integers without changing the sign of any homogeneous condition,
//! so every predicate of [`super::incidence`] is the sign of an integer
//! polynomial at the time of impact.

use crate::exact::{IntPoly, VecPoly, to_common_scale};
use crate::math::Vec3;

/// Trajectories of the corners of triangles A (`a`) and B (`b`).
#[derive(Debug, Clone)]
pub struct PairTrajectories {
    /// Corners of A.
    pub a: [VecPoly; 3],
    /// Corners of B.
    pub b: [VecPoly; 3],
}

impl PairTrajectories {
    /// From the corners of A and B at `t = 0` and `t = 1`.
    pub fn new(
        a_t0: &[Vec3; 3],
        a_t1: &[Vec3; 3],
        b_t0: &[Vec3; 3],
        b_t1: &[Vec3; 3],
    ) -> PairTrajectories {
        let mut xs = [0.0; 36];
        let t0 = a_t0.iter().chain(b_t0);
        let t1 = a_t1.iter().chain(b_t1);
        for (k, p) in t0.chain(t1).enumerate() {
            xs[3 * k..3 * k + 3].copy_from_slice(&[p.x, p.y, p.z]);
        }
        let ints = to_common_scale(&xs);
        let traj = |k: usize| -> VecPoly {
            std::array::from_fn(|axis| {
                let x0 = &ints[3 * k + axis];
                let x1 = &ints[18 + 3 * k + axis];
                IntPoly::linear(x0.clone(), x1 - x0)
            })
        };
        PairTrajectories {
            a: std::array::from_fn(traj),
            b: std::array::from_fn(|j| traj(3 + j)),
        }
    }

    /// The corners of A, by reference.
    pub fn a_refs(&self) -> [&VecPoly; 3] {
        [&self.a[0], &self.a[1], &self.a[2]]
    }

    /// The corners of B, by reference.
    pub fn b_refs(&self) -> [&VecPoly; 3] {
        [&self.b[0], &self.b[1], &self.b[2]]
    }
}
