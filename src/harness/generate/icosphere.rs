//! The unit icosphere: a regular icosahedron whose faces are split into four
//! `subdivisions` times, with the new edge midpoints pushed onto the unit
//! sphere (the construction of Loop-style midpoint subdivision without
//! smoothing; e.g. Kahler 2009, "Creating an icosphere mesh in code").
//!
//! `10·4ˡ + 2` vertices, `20·4ˡ` faces at level `l`, every face wound
//! counter-clockwise seen from outside. Only `+ − × ÷` and `sqrt` are used,
//! so the positions are the same on every IEEE-754 machine.

use std::collections::BTreeMap;

use crate::math::Vec3;

/// The 20 faces of the icosahedron over the 12 vertices of
/// [`icosahedron_vertices`], outward (counter-clockwise) winding.
const ICOSAHEDRON_FACES: [[u32; 3]; 20] = [
    [0, 11, 5],
    [0, 5, 1],
    [0, 1, 7],
    [0, 7, 10],
    [0, 10, 11],
    [1, 5, 9],
    [5, 11, 4],
    [11, 10, 2],
    [10, 7, 6],
    [7, 1, 8],
    [3, 9, 4],
    [3, 4, 2],
    [3, 2, 6],
    [3, 6, 8],
    [3, 8, 9],
    [4, 9, 5],
    [2, 4, 11],
    [6, 2, 10],
    [8, 6, 7],
    [9, 8, 1],
];

/// The icosahedron's vertices `(±1, ±φ, 0)` and their cyclic permutations,
/// `φ = (1 + √5)/2`, on the unit sphere.
fn icosahedron_vertices() -> Vec<Vec3> {
    let t = (1.0 + 5.0_f64.sqrt()) / 2.0;
    [
        [-1.0, t, 0.0],
        [1.0, t, 0.0],
        [-1.0, -t, 0.0],
        [1.0, -t, 0.0],
        [0.0, -1.0, t],
        [0.0, 1.0, t],
        [0.0, -1.0, -t],
        [0.0, 1.0, -t],
        [t, 0.0, -1.0],
        [t, 0.0, 1.0],
        [-t, 0.0, -1.0],
        [-t, 0.0, 1.0],
    ]
    .iter()
    .map(|&[x, y, z]| unit(Vec3::new(x, y, z)))
    .collect()
}

fn unit(p: Vec3) -> Vec3 {
    let n = (p.x * p.x + p.y * p.y + p.z * p.z).sqrt();
    Vec3::new(p.x / n, p.y / n, p.z / n)
}

/// The unit icosphere at `subdivisions` levels: vertex positions and faces.
pub fn icosphere(subdivisions: u32) -> (Vec<Vec3>, Vec<[u32; 3]>) {
    let mut vertices = icosahedron_vertices();
    let mut faces = ICOSAHEDRON_FACES.to_vec();
    for _ in 0..subdivisions {
        // Edge → midpoint vertex; a BTreeMap so that nothing depends on a
        // hash order.
        let mut midpoints: BTreeMap<(u32, u32), u32> = BTreeMap::new();
        let mut midpoint = |a: u32, b: u32, vertices: &mut Vec<Vec3>| -> u32 {
            *midpoints.entry((a.min(b), a.max(b))).or_insert_with(|| {
                let (pa, pb) = (vertices[a as usize], vertices[b as usize]);
                vertices.push(unit(Vec3::new(
                    (pa.x + pb.x) / 2.0,
                    (pa.y + pb.y) / 2.0,
                    (pa.z + pb.z) / 2.0,
                )));
                (vertices.len() - 1) as u32
            })
        };
        let mut next = Vec::with_capacity(faces.len() * 4);
        for &[a, b, c] in &faces {
            let ab = midpoint(a, b, &mut vertices);
            let bc = midpoint(b, c, &mut vertices);
            let ca = midpoint(c, a, &mut vertices);
            next.extend([[a, ab, ca], [b, bc, ab], [c, ca, bc], [ab, bc, ca]]);
        }
        faces = next;
    }
    (vertices, faces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mesh::TriMesh;

    #[test]
    fn closed_outward_and_counted() {
        for level in 0..=3 {
            let (v, f) = icosphere(level);
            let n = 4usize.pow(level);
            assert_eq!(v.len(), 10 * n + 2);
            assert_eq!(f.len(), 20 * n);
            for p in &v {
                assert!((p.norm() - 1.0).abs() < 1e-15);
            }
            for t in &f {
                let [a, b, c] = t.map(|i| v[i as usize]);
                let normal = (b - a).cross(&(c - a));
                assert!(normal.dot(&(a + b + c)) > 0.0, "face {t:?} points inward");
            }
            let mesh = TriMesh::new(v.len(), f).unwrap();
            // Euler characteristic of a sphere, one component.
            assert_eq!(mesh.num_vertices() + mesh.num_faces(), mesh.num_edges() + 2);
            assert_eq!(mesh.num_components(), 1);
        }
    }
}
