//! Vertex positions of one frame, and a step between two frames.

use super::{MeshError, TriMesh};
use crate::math::Vec3;

/// Checks that every coordinate is finite.
pub fn check_finite(positions: &[Vec3]) -> Result<(), MeshError> {
    for (vertex, p) in positions.iter().enumerate() {
        for value in [p.x, p.y, p.z] {
            if !value.is_finite() {
                return Err(MeshError::NonFinite { vertex, value });
            }
        }
    }
    Ok(())
}

/// Checks that positions `x` fit `mesh`: one per vertex
/// ([`MeshError::VertexCountMismatch`]), every coordinate finite
/// ([`MeshError::NonFinite`]); the error is wrapped in
/// [`MeshError::InFrame`] with the argument's name `frame`.
pub fn check_frame(mesh: &TriMesh, x: &[Vec3], frame: &'static str) -> Result<(), MeshError> {
    let in_frame = |e: MeshError| MeshError::InFrame {
        frame,
        source: Box::new(e),
    };
    if x.len() != mesh.num_vertices() {
        return Err(in_frame(MeshError::VertexCountMismatch {
            expected: mesh.num_vertices(),
            found: x.len(),
        }));
    }
    check_finite(x).map_err(in_frame)
}

/// One step of a deforming mesh: every vertex moves linearly from `x_t0` to
/// `x_t1` over `t ∈ [0, 1]`.
///
/// Made outside the crate only by [`Step::new`] (and inside it only from
/// checked frames), so every `Step` holds two frames of its mesh's vertex
/// count with finite coordinates: what the BVH, the filters and the solvers
/// take without checking again.
#[derive(Debug, Clone, Copy)]
pub struct Step<'a> {
    /// Topology, shared by both frames.
    pub(crate) mesh: &'a TriMesh,
    /// Positions at `t = 0`.
    pub(crate) x_t0: &'a [Vec3],
    /// Positions at `t = 1`.
    pub(crate) x_t1: &'a [Vec3],
}

impl<'a> Step<'a> {
    /// Pairs two frames of `mesh`, checking vertex counts and finiteness
    /// ([`check_frame`]; the error names `x_t0` or `x_t1`).
    ///
    /// Positions kept as rows `[f64; 3]` are taken in place through
    /// [`crate::math::vec3_slice`]:
    ///
    /// ```
    /// use ccdlab::math::vec3_slice;
    /// use ccdlab::mesh::{Step, TriMesh};
    ///
    /// let mesh = TriMesh::new(3, vec![[0, 1, 2]])?;
    /// let x_t0 = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    /// let x_t1 = x_t0.map(|[x, y, z]| [x, y, z + 1.0]);
    /// let step = Step::new(&mesh, vec3_slice(&x_t0), vec3_slice(&x_t1))?;
    /// assert_eq!(step.x_t1()[2].z, 1.0);
    /// # Ok::<(), ccdlab::mesh::MeshError>(())
    /// ```
    pub fn new(mesh: &'a TriMesh, x_t0: &'a [Vec3], x_t1: &'a [Vec3]) -> Result<Self, MeshError> {
        check_frame(mesh, x_t0, "x_t0")?;
        check_frame(mesh, x_t1, "x_t1")?;
        Ok(Step { mesh, x_t0, x_t1 })
    }

    /// The topology, shared by both frames.
    #[inline]
    pub fn mesh(&self) -> &'a TriMesh {
        self.mesh
    }

    /// The positions at `t = 0`, one per vertex.
    #[inline]
    pub fn x_t0(&self) -> &'a [Vec3] {
        self.x_t0
    }

    /// The positions at `t = 1`, one per vertex.
    #[inline]
    pub fn x_t1(&self) -> &'a [Vec3] {
        self.x_t1
    }

    /// The eight points of vertex `v` against face `f`, in the data sets'
    /// row order (`v, f0, f1, f2` at `t = 0`, then at `t = 1`): the
    /// arguments of [`crate::narrow_phase::vertex_face`].
    ///
    /// # Panics
    /// When `v` or `f` is out of range.
    pub fn vertex_face_points(&self, v: u32, f: u32) -> [Vec3; 8] {
        let [a, b, c] = self.mesh.faces()[f as usize];
        let at = |x: &[Vec3]| [v, a, b, c].map(|i| x[i as usize]);
        let ([p0, p1, p2, p3], [p4, p5, p6, p7]) = (at(self.x_t0), at(self.x_t1));
        [p0, p1, p2, p3, p4, p5, p6, p7]
    }

    /// The eight points of edges `e0` and `e1` (indices into
    /// [`TriMesh::edges`]), in the data sets' row order (`e0`'s ends and
    /// `e1`'s at `t = 0`, then at `t = 1`): the arguments of
    /// [`crate::narrow_phase::edge_edge`].
    ///
    /// # Panics
    /// When `e0` or `e1` is out of range.
    pub fn edge_edge_points(&self, e0: u32, e1: u32) -> [Vec3; 8] {
        let edges = self.mesh.edges();
        let ([a, b], [c, d]) = (edges[e0 as usize], edges[e1 as usize]);
        let at = |x: &[Vec3]| [a, b, c, d].map(|i| x[i as usize]);
        let ([p0, p1, p2, p3], [p4, p5, p6, p7]) = (at(self.x_t0), at(self.x_t1));
        [p0, p1, p2, p3, p4, p5, p6, p7]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame that does not fit the mesh is refused by its argument's name.
    #[test]
    fn frames_that_do_not_fit_are_named() {
        let mesh = TriMesh::new(3, vec![[0, 1, 2]]).unwrap();
        let x = vec![Vec3::zeros(); 3];
        let mut nan = x.clone();
        nan[2].z = f64::NAN;
        for (x_t0, x_t1, says) in [
            (&x[..2], &x[..], "x_t0: frame has 2 vertices, expected 3"),
            (&x[..], &x[..1], "x_t1: frame has 1 vertices, expected 3"),
            (
                &nan[..],
                &x[..],
                "x_t0: vertex 2 (numbered from 0) has a non-finite coordinate NaN",
            ),
            (
                &x[..],
                &nan[..],
                "x_t1: vertex 2 (numbered from 0) has a non-finite coordinate NaN",
            ),
        ] {
            let e = Step::new(&mesh, x_t0, x_t1).unwrap_err();
            assert_eq!(e.to_string(), says);
            assert!(!matches!(e.innermost(), MeshError::InFrame { .. }));
        }
        assert!(Step::new(&mesh, &x, &x).is_ok());
    }

    /// The points come in the data sets' row order, `t = 0` then `t = 1`,
    /// with a pair's edges as `mesh.edges()` numbers them.
    #[test]
    fn pair_points_in_row_order() {
        let mesh = TriMesh::new(5, vec![[0, 1, 2], [2, 1, 3]]).unwrap();
        let x0: Vec<Vec3> = (0..5).map(|i| Vec3::new(f64::from(i), 0.0, 0.0)).collect();
        let x1: Vec<Vec3> = (0..5).map(|i| Vec3::new(f64::from(i), 1.0, 0.0)).collect();
        let step = Step::new(&mesh, &x0, &x1).unwrap();
        let ids = |q: [Vec3; 8]| q.map(|p| (p.x as u32, p.y as u32));
        assert_eq!(
            ids(step.vertex_face_points(4, 1)),
            [
                (4, 0),
                (2, 0),
                (1, 0),
                (3, 0),
                (4, 1),
                (2, 1),
                (1, 1),
                (3, 1)
            ]
        );
        let edges = mesh.edges();
        let (e0, e1) = (
            edges.iter().position(|&e| e == [0, 1]).unwrap(),
            edges
                .iter()
                .position(|&e| e == [2, 3] || e == [3, 2])
                .unwrap(),
        );
        let [c, d] = edges[e1];
        assert_eq!(
            ids(step.edge_edge_points(e0 as u32, e1 as u32)),
            [
                (0, 0),
                (1, 0),
                (c, 0),
                (d, 0),
                (0, 1),
                (1, 1),
                (c, 1),
                (d, 1)
            ]
        );
    }
}
