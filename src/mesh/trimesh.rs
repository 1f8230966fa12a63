//! The triangle mesh of a frame sequence and its fixed topology: unique edges in
//! libigl's `edges(F)` order, the owner triangle of every vertex and edge, and
//! connected components.
//!
//! **Edge order.** libigl's `igl::edges(F, E)` builds the symmetric adjacency
//! matrix of `F` as a column-major `Eigen::SparseMatrix` and walks it column by
//! column, rows ascending, keeping the entries with `row < col`. Edge `j` is
//! therefore `[min, max]`, and edges are sorted by `max`, then by `min`. The
//! data sets' global IDs (vertex `i` → `i`, edge `j` → `#V + j`, face `k` →
//! `#V + #E + k`; Belgrod et al. 2023) depend on this order; the cloth-funnel
//! test in `tests/` checks it against the published query coordinates.
//!
//! **Owners.** Every vertex and every edge is owned by the lowest-indexed face
//! that contains it, so that a BVH whose leaves are the features of their owner
//! triangles produces each vertex–face and edge–edge pair exactly once (Wan,
//! Fu & Yao 2022, §1.1: "one extra BV level below the triangle leaves").

use super::MeshError;

/// Marker for "no owner": a vertex that no face references.
pub const NO_OWNER: u32 = u32::MAX;

/// A mesh feature, as the data sets number them globally.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Feature {
    /// Vertex index.
    Vertex(u32),
    /// Edge index (libigl order).
    Edge(u32),
    /// Face index.
    Face(u32),
}

/// Triangle mesh topology, fixed across a frame sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TriMesh {
    num_vertices: usize,
    faces: Vec<[u32; 3]>,
    edges: Vec<[u32; 2]>,
    face_edges: Vec<[u32; 3]>,
    vertex_owner: Vec<u32>,
    edge_owner: Vec<u32>,
    face_owned: Vec<u8>,
    component: Vec<u32>,
    num_components: usize,
}

/// Checks `faces` over `num_vertices` vertices as [`TriMesh::new`] does,
/// without building anything: at least one face, 32-bit counts, indices in
/// range, three distinct corners per face.
pub fn check_faces(num_vertices: usize, faces: &[[u32; 3]]) -> Result<(), MeshError> {
    if faces.is_empty() {
        return Err(MeshError::NoFaces);
    }
    if num_vertices >= NO_OWNER as usize {
        return Err(MeshError::TooLarge {
            what: "vertices",
            count: num_vertices,
        });
    }
    if faces.len() >= NO_OWNER as usize {
        return Err(MeshError::TooLarge {
            what: "faces",
            count: faces.len(),
        });
    }
    for (f, tri) in faces.iter().enumerate() {
        for &i in tri {
            if i as usize >= num_vertices {
                return Err(MeshError::FaceIndexOutOfRange {
                    face: f,
                    index: u64::from(i),
                    num_vertices,
                });
            }
        }
        if tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2] {
            return Err(MeshError::DegenerateFace {
                face: f,
                indices: *tri,
            });
        }
    }
    Ok(())
}

impl TriMesh {
    /// Builds the topology of `faces` over `num_vertices` vertices.
    ///
    /// Refuses an empty face list, out-of-range indices and faces that repeat a
    /// vertex. Geometrically degenerate (zero-area) triangles are accepted.
    pub fn new(num_vertices: usize, faces: Vec<[u32; 3]>) -> Result<TriMesh, MeshError> {
        check_faces(num_vertices, &faces)?;
        let (edges, face_edges) = number_edges(num_vertices, &faces)?;
        let mut vertex_owner = filled(num_vertices, NO_OWNER, "vertices")?;
        let mut edge_owner = vec![NO_OWNER; edges.len()];
        let mut face_owned = vec![0u8; faces.len()];
        for (f, (tri, fe)) in faces.iter().zip(&face_edges).enumerate() {
            for k in 0..3 {
                let v = &mut vertex_owner[tri[k] as usize];
                if *v == NO_OWNER {
                    *v = f as u32;
                    face_owned[f] |= 1 << k;
                }
                let e = &mut edge_owner[fe[k] as usize];
                if *e == NO_OWNER {
                    *e = f as u32;
                    face_owned[f] |= 8 << k;
                }
            }
        }
        let (component, num_components) = components(num_vertices, &edges)?;
        Ok(TriMesh {
            num_vertices,
            faces,
            edges,
            face_edges,
            vertex_owner,
            edge_owner,
            face_owned,
            component,
            num_components,
        })
    }

    /// Number of vertices `#V`.
    #[inline]
    pub fn num_vertices(&self) -> usize {
        self.num_vertices
    }

    /// Number of unique edges `#E`.
    #[inline]
    pub fn num_edges(&self) -> usize {
        self.edges.len()
    }

    /// Number of faces `#F`.
    #[inline]
    pub fn num_faces(&self) -> usize {
        self.faces.len()
    }

    /// Triangles, as given.
    #[inline]
    pub fn faces(&self) -> &[[u32; 3]] {
        &self.faces
    }

    /// Unique edges `[min, max]` in libigl `edges(F)` order.
    #[inline]
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// Edge indices of each face: `[e(v0,v1), e(v1,v2), e(v2,v0)]`.
    #[inline]
    pub fn face_edges(&self) -> &[[u32; 3]] {
        &self.face_edges
    }

    /// Owner face of each vertex ([`NO_OWNER`] for a vertex in no face).
    #[inline]
    pub fn vertex_owner(&self) -> &[u32] {
        &self.vertex_owner
    }

    /// Owner face of each edge.
    #[inline]
    pub fn edge_owner(&self) -> &[u32] {
        &self.edge_owner
    }

    /// What each face owns, as a bit set: bit `k` (0..3), its corner `k`
    /// (`vertex_owner` of that corner is this face); bit `3 + k`, its edge `k`
    /// in [`TriMesh::face_edges`] order. The same facts as
    /// [`TriMesh::vertex_owner`] and [`TriMesh::edge_owner`], read per face.
    #[inline]
    pub fn face_owned(&self) -> &[u8] {
        &self.face_owned
    }

    /// Connected component of each vertex, numbered by smallest vertex index.
    #[inline]
    pub fn component(&self) -> &[u32] {
        &self.component
    }

    /// Number of connected components (objects: cloth, ball, funnel …).
    #[inline]
    pub fn num_components(&self) -> usize {
        self.num_components
    }

    /// Index of the edge between `a` and `b`, if the mesh has one.
    pub fn find_edge(&self, a: u32, b: u32) -> Option<u32> {
        let key = [a.min(b), a.max(b)];
        self.edges
            .binary_search_by(|e| (e[1], e[0]).cmp(&(key[1], key[0])))
            .ok()
            .map(|i| i as u32)
    }

    /// The data sets' global ID of a feature: vertex `i` → `i`, edge `j` →
    /// `#V + j`, face `k` → `#V + #E + k`.
    pub fn global_id(&self, feature: Feature) -> u64 {
        let (nv, ne) = (self.num_vertices as u64, self.edges.len() as u64);
        match feature {
            Feature::Vertex(i) => u64::from(i),
            Feature::Edge(j) => nv + u64::from(j),
            Feature::Face(k) => nv + ne + u64::from(k),
        }
    }

    /// The feature behind a global ID, or `None` when the ID is out of range.
    pub fn feature(&self, id: u64) -> Option<Feature> {
        let (nv, ne, nf) = (
            self.num_vertices as u64,
            self.edges.len() as u64,
            self.faces.len() as u64,
        );
        if id < nv {
            Some(Feature::Vertex(id as u32))
        } else if id < nv + ne {
            Some(Feature::Edge((id - nv) as u32))
        } else if id < nv + ne + nf {
            Some(Feature::Face((id - nv - ne) as u32))
        } else {
            None
        }
    }
}

/// `n` copies of `value` for `n` `what` (vertices, faces), or
/// [`MeshError::OutOfMemory`] when they do not fit: the per-vertex arrays
/// follow the vertex count, which may be far above what the faces use.
fn filled<T: Clone>(n: usize, value: T, what: &'static str) -> Result<Vec<T>, MeshError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| MeshError::OutOfMemory { what, count: n })?;
    v.resize(n, value);
    Ok(v)
}

/// The unique edges and each face's three edge indices.
type EdgeNumbering = (Vec<[u32; 2]>, Vec<[u32; 3]>);

/// The unique edges of `faces` in libigl's order (by larger vertex, then
/// smaller) and each face's three edges `(f0,f1) (f1,f2) (f2,f0)` as indices
/// into them.
///
/// A counting sort of the `3·#F` face sides by their larger vertex, then a sort
/// of each vertex's few sides by the smaller one: linear in the mesh, and each
/// side gets its edge's index as the edge is numbered (no search).
fn number_edges(num_vertices: usize, faces: &[[u32; 3]]) -> Result<EdgeNumbering, MeshError> {
    let sides = |t: &[u32; 3]| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
    // start[v]..start[v + 1]: the sides whose larger vertex is v.
    let mut start = filled(num_vertices + 1, 0usize, "vertices")?;
    for t in faces {
        for (a, b) in sides(t) {
            start[a.max(b) as usize + 1] += 1;
        }
    }
    for v in 0..num_vertices {
        start[v + 1] += start[v];
    }
    // A side as (smaller vertex << 32) | face, so that a bucket sorts by the
    // smaller vertex; which of the face's sides it is follows from the face
    // (its corners are distinct, so its three sides are).
    let mut fill = filled(num_vertices + 1, 0usize, "vertices")?;
    fill.copy_from_slice(&start);
    let mut by_larger = filled(3 * faces.len(), 0u64, "faces")?;
    for (f, t) in faces.iter().enumerate() {
        for (a, b) in sides(t) {
            let slot = &mut fill[a.max(b) as usize];
            by_larger[*slot] = (u64::from(a.min(b)) << 32) | f as u64;
            *slot += 1;
        }
    }
    let mut edges = Vec::with_capacity(faces.len() * 3 / 2 + 2);
    let mut face_edges = vec![[0u32; 3]; faces.len()];
    for (v, range) in start.windows(2).enumerate() {
        let bucket = &mut by_larger[range[0]..range[1]];
        bucket.sort_unstable();
        let mut last = None;
        for &entry in bucket.iter() {
            let smaller = (entry >> 32) as u32;
            if last != Some(smaller) {
                last = Some(smaller);
                edges.push([smaller, v as u32]);
            }
            let f = (entry & u64::from(u32::MAX)) as usize;
            let k = sides(&faces[f])
                .iter()
                .position(|&(a, b)| a.min(b) == smaller && a.max(b) == v as u32)
                .expect("the entry is one of its face's sides");
            face_edges[f][k] = u32::try_from(edges.len() - 1).map_err(|_| MeshError::TooLarge {
                what: "edges",
                count: edges.len(),
            })?;
        }
    }
    Ok((edges, face_edges))
}

/// Union–find over the edges; components numbered in order of their smallest
/// vertex.
fn components(num_vertices: usize, edges: &[[u32; 2]]) -> Result<(Vec<u32>, usize), MeshError> {
    let mut parent = filled(num_vertices, 0u32, "vertices")?;
    for (v, p) in parent.iter_mut().enumerate() {
        *p = v as u32;
    }
    fn find(parent: &mut [u32], mut x: u32) -> u32 {
        while parent[x as usize] != x {
            let up = parent[parent[x as usize] as usize];
            parent[x as usize] = up;
            x = up;
        }
        x
    }
    for &[a, b] in edges {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            // Keep the smaller root so that roots are the smallest vertex.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            parent[hi as usize] = lo;
        }
    }
    let mut label = filled(num_vertices, NO_OWNER, "vertices")?;
    let mut component = filled(num_vertices, 0, "vertices")?;
    let mut count = 0u32;
    for v in 0..num_vertices as u32 {
        let r = find(&mut parent, v) as usize;
        if label[r] == NO_OWNER {
            label[r] = count;
            count += 1;
        }
        component[v as usize] = label[r];
    }
    Ok((component, count as usize))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    fn two_triangles() -> TriMesh {
        // 0-1-2 and 2-1-3 share edge 1–2; vertex 4 is isolated.
        TriMesh::new(5, vec![[0, 1, 2], [2, 1, 3]]).unwrap()
    }

    #[test]
    fn edges_follow_libigl_column_major_order() {
        let m = two_triangles();
        // Sorted by (max, min): (0,1) (0,2) (1,2) (1,3) (2,3).
        assert_eq!(m.edges(), &[[0, 1], [0, 2], [1, 2], [1, 3], [2, 3]]);
        assert_eq!(m.face_edges(), &[[0, 2, 1], [2, 3, 4]]);
        assert_eq!(m.find_edge(3, 1), Some(3));
        assert_eq!(m.find_edge(0, 3), None);
    }

    #[test]
    fn every_feature_has_the_lowest_face_as_owner() {
        let m = two_triangles();
        assert_eq!(m.vertex_owner(), &[0, 0, 0, 1, NO_OWNER]);
        assert_eq!(m.edge_owner(), &[0, 0, 0, 1, 1]);
        // Face 0 owns all it touches; face 1 ([2, 1, 3]) owns corner 3 and
        // its edges (1, 3) and (3, 2), not (2, 1).
        assert_eq!(m.face_owned(), &[0b111_111, 0b110_100]);
    }

    #[test]
    fn components_are_numbered_by_smallest_vertex() {
        let m = TriMesh::new(7, vec![[4, 5, 6], [0, 1, 2]]).unwrap();
        assert_eq!(m.component(), &[0, 0, 0, 1, 2, 2, 2]);
        assert_eq!(m.num_components(), 3);
    }

    #[test]
    fn global_ids_round_trip() {
        let m = two_triangles();
        for f in [
            Feature::Vertex(4),
            Feature::Edge(0),
            Feature::Edge(4),
            Feature::Face(1),
        ] {
            assert_eq!(m.feature(m.global_id(f)), Some(f));
        }
        assert_eq!(m.global_id(Feature::Face(0)), 5 + 5);
        assert_eq!(m.feature(12), None);
    }

    #[test]
    fn bad_faces_are_refused_with_their_index() {
        assert!(matches!(TriMesh::new(3, vec![]), Err(MeshError::NoFaces)));
        assert!(matches!(
            TriMesh::new(3, vec![[0, 1, 2], [0, 1, 3]]),
            Err(MeshError::FaceIndexOutOfRange {
                face: 1,
                index: 3,
                ..
            })
        ));
        assert!(matches!(
            TriMesh::new(3, vec![[0, 2, 2]]),
            Err(MeshError::DegenerateFace { face: 0, .. })
        ));
    }

    /// The slow oracle: every face side's `(larger, smaller)` key in an ordered
    /// map, numbered in key order, each side looked up in it.
    fn number_edges_by_map(faces: &[[u32; 3]]) -> (Vec<[u32; 2]>, Vec<[u32; 3]>) {
        let key = |a: u32, b: u32| (a.max(b), a.min(b));
        let mut index = BTreeMap::new();
        for t in faces {
            for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
                index.insert(key(a, b), 0u32);
            }
        }
        let mut edges = Vec::new();
        for (n, (&(hi, lo), i)) in index.iter_mut().enumerate() {
            *i = n as u32;
            edges.push([lo, hi]);
        }
        let face_edges = faces
            .iter()
            .map(|t| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])].map(|(a, b)| index[&key(a, b)]))
            .collect();
        (edges, face_edges)
    }

    /// Triangles over a few vertices (so that edges are shared, repeated and
    /// met in both directions), corners distinct.
    fn faces() -> impl Strategy<Value = (usize, Vec<[u32; 3]>)> {
        (3usize..40).prop_flat_map(|n| {
            let tri = (0..n as u32, 0..n as u32, 0..n as u32)
                .prop_filter("distinct corners", |(a, b, c)| a != b && b != c && a != c)
                .prop_map(|(a, b, c)| [a, b, c]);
            (Just(n), proptest::collection::vec(tri, 1..120))
        })
    }

    proptest! {
        #[test]
        fn counting_sort_numbering_equals_the_map_numbering((n, faces) in faces()) {
            let fast = number_edges(n, &faces).unwrap();
            prop_assert_eq!(fast, number_edges_by_map(&faces));
        }
    }
}
