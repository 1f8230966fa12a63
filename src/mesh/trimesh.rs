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
//!
//! **Codimensional features** (beyond the paper, whose meshes are closed
//! surfaces and cloth; as the IPC Toolkit's `CollisionMesh` has them): edges
//! in no face (rods, hair, seams: [`TriMesh::with_edges`]) follow the faces'
//! edges in the edge numbering, in the order given; a vertex in no face is
//! owned by the first such edge that has it; a vertex in no face and no edge
//! is a point ([`TriMesh::codim_vertices`]). The BVH gives each such edge and
//! point a leaf of its own (docs/design.md §6).

use super::MeshError;

/// Marker for "no owner": a vertex or edge that no face references.
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
    num_face_edges: usize,
    face_edges: Vec<[u32; 3]>,
    vertex_owner: Vec<u32>,
    edge_owner: Vec<u32>,
    face_owned: Vec<u8>,
    codim_edge_owned: Vec<u8>,
    codim_vertices: Vec<u32>,
    component: Vec<u32>,
    num_components: usize,
}

/// Checks `faces` over `num_vertices` vertices without building anything:
/// 32-bit counts, indices in range, three distinct corners per face. These
/// are [`TriMesh::new`]'s checks but one: a face with the corners of an
/// earlier face ([`MeshError::RepeatedFace`]) is found only when the edges
/// are numbered, by `TriMesh::new`.
pub fn check_faces(num_vertices: usize, faces: &[[u32; 3]]) -> Result<(), MeshError> {
    check_mesh(num_vertices, faces, &[])
}

/// Checks `faces` and `edges` over `num_vertices` vertices without building
/// anything: 32-bit counts, indices in range, three distinct corners per
/// face and two distinct ends per edge ([`TriMesh::with_edges`]'s checks but
/// the repeated face, as for [`check_faces`]). A mesh with no faces and no edges is points alone (particles),
/// or nothing at all; the file readers refuse it ([`MeshError::NoFaces`]).
pub fn check_mesh(
    num_vertices: usize,
    faces: &[[u32; 3]],
    edges: &[[u32; 2]],
) -> Result<(), MeshError> {
    if edges.len() >= NO_OWNER as usize {
        return Err(MeshError::TooLarge {
            what: "edges",
            count: edges.len(),
        });
    }
    for (e, &[a, b]) in edges.iter().enumerate() {
        for i in [a, b] {
            if i as usize >= num_vertices {
                return Err(MeshError::EdgeIndexOutOfRange {
                    edge: e,
                    index: u64::from(i),
                    num_vertices,
                });
            }
        }
        if a == b {
            return Err(MeshError::DegenerateEdge { edge: e, vertex: a });
        }
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
    /// Refuses out-of-range indices, faces that repeat a vertex and faces
    /// with the corners of an earlier face ([`MeshError::RepeatedFace`]).
    /// Geometrically degenerate (zero-area) triangles are accepted; with no
    /// faces every vertex is a point ([`TriMesh::codim_vertices`]).
    ///
    /// Runs on the current rayon pool (rayon's global one outside any): the
    /// edge numbering beside the vertices' owners and components.
    pub fn new(num_vertices: usize, faces: Vec<[u32; 3]>) -> Result<TriMesh, MeshError> {
        TriMesh::with_edges(num_vertices, faces, &[])
    }

    /// Builds the topology of `faces` and of the edges `edges` over
    /// `num_vertices` vertices: a mesh with codimensional edges (rods, hair,
    /// seams), as the IPC Toolkit's `CollisionMesh` takes them.
    ///
    /// `edges` may list any edges, in either direction: those of faces (an
    /// IPC edge list has them all) and repeats are dropped, and the others
    /// follow the faces' edges in [`TriMesh::edges`], in the order of
    /// their first appearance ([`TriMesh::codim_edges`]). The faces, the
    /// edges or both may be empty. Refuses what [`TriMesh::new`] refuses,
    /// and edges whose ends are out of range or equal
    /// ([`MeshError::EdgeIndexOutOfRange`], [`MeshError::DegenerateEdge`]).
    pub fn with_edges(
        num_vertices: usize,
        faces: Vec<[u32; 3]>,
        edges: &[[u32; 2]],
    ) -> Result<TriMesh, MeshError> {
        check_mesh(num_vertices, &faces, edges)?;
        // The edge numbering and the vertices' facts are independent: on two
        // threads when the pool has them.
        let (numbering, vertices) = rayon::join(
            || number_edges(num_vertices, &faces),
            || -> Result<_, MeshError> {
                Ok((
                    vertex_owners(num_vertices, &faces)?,
                    components(num_vertices, &faces, edges)?,
                ))
            },
        );
        let Topology {
            edges: mut edges_all,
            face_edges,
            mut edge_owner,
            mut face_owned,
        } = numbering?;
        if let Some((face, first)) = first_repeated_face(&face_edges, edges_all.len())? {
            return Err(MeshError::RepeatedFace { face, first });
        }
        let ((vertex_owner, corners_owned), (component, num_components)) = vertices?;
        for (owned, corners) in face_owned.iter_mut().zip(corners_owned) {
            *owned |= corners;
        }
        let num_face_edges = edges_all.len();
        let codim = codim_edges(&edges_all, edges);
        let (codim_edge_owned, codim_vertices) = codim_owners(&vertex_owner, &codim)?;
        edges_all.extend_from_slice(&codim);
        edge_owner.resize(edges_all.len(), NO_OWNER);
        Ok(TriMesh {
            num_vertices,
            faces,
            edges: edges_all,
            num_face_edges,
            face_edges,
            vertex_owner,
            edge_owner,
            face_owned,
            codim_edge_owned,
            codim_vertices,
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

    /// Unique edges `[min, max]`: the faces' in libigl `edges(F)` order, then
    /// the codimensional ones ([`TriMesh::codim_edges`]).
    #[inline]
    pub fn edges(&self) -> &[[u32; 2]] {
        &self.edges
    }

    /// Number of edges of faces: [`TriMesh::edges`] up to this index.
    #[inline]
    pub fn num_face_edges(&self) -> usize {
        self.num_face_edges
    }

    /// The edges in no face, `[min, max]`, in the order of their first
    /// appearance in [`TriMesh::with_edges`]'s list: [`TriMesh::edges`]
    /// from [`TriMesh::num_face_edges`] on.
    #[inline]
    pub fn codim_edges(&self) -> &[[u32; 2]] {
        &self.edges[self.num_face_edges..]
    }

    /// What each codimensional edge owns, as a bit set: bit `k` (0..2), its
    /// end `k` (a vertex in no face, owned by the first codimensional edge
    /// that has it). Each edge owns itself.
    #[inline]
    pub fn codim_edge_owned(&self) -> &[u8] {
        &self.codim_edge_owned
    }

    /// The vertices in no face and no edge (points), ascending.
    #[inline]
    pub fn codim_vertices(&self) -> &[u32] {
        &self.codim_vertices
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

    /// Owner face of each edge ([`NO_OWNER`] for a codimensional edge).
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

    /// Index of the edge between `a` and `b`, if the mesh has one (a
    /// binary search among the faces' edges, then a scan of the
    /// codimensional ones).
    pub fn find_edge(&self, a: u32, b: u32) -> Option<u32> {
        let key = [a.min(b), a.max(b)];
        let face_edges = &self.edges[..self.num_face_edges];
        face_edges
            .binary_search_by(|e| (e[1], e[0]).cmp(&(key[1], key[0])))
            .ok()
            .or_else(|| {
                let codim = self.codim_edges().iter().position(|&e| e == key)?;
                Some(self.num_face_edges + codim)
            })
            .map(|i| i as u32)
    }

    /// The data sets' global ID of a feature: vertex `i` → `i`, edge `j` →
    /// `#V + j`, face `k` → `#V + #E + k` (the data sets' meshes have no
    /// codimensional edges; a mesh with some numbers them after the faces'
    /// edges, so its faces' IDs move up by their number).
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

/// `n` copies of `value`, an array over `count` `what` (vertices, faces;
/// `n` may be `count + 1` or `3 × count`), or [`MeshError::OutOfMemory`]
/// naming `count` when they do not fit: the per-vertex arrays follow the
/// vertex count, which may be far above what the faces use.
fn filled<T: Clone>(
    n: usize,
    value: T,
    (count, what): (usize, &'static str),
) -> Result<Vec<T>, MeshError> {
    let mut v = Vec::new();
    v.try_reserve_exact(n)
        .map_err(|_| MeshError::OutOfMemory { what, count })?;
    v.resize(n, value);
    Ok(v)
}

/// What numbering the edges gives: the unique edges, each face's three edge
/// indices, each edge's owner face, and the face's owned-edge bits (`8 << k`
/// for its edge `k`, as in [`TriMesh::face_owned`]).
struct Topology {
    edges: Vec<[u32; 2]>,
    face_edges: Vec<[u32; 3]>,
    edge_owner: Vec<u32>,
    face_owned: Vec<u8>,
}

/// A face side as [`number_edges`] sorts it: its smaller vertex in the high
/// bits, its side index `3f + k` (side `k` of face `f`) in the low ones, so
/// that a sort orders a larger vertex's sides by smaller vertex, then by
/// face. `u64` when the side indices fit in 32 bits (meshes of fewer than
/// 1,431,655,766 faces), `u128` beyond.
trait SideKey: Copy + Ord + Default {
    fn new(smaller: u32, side: usize) -> Self;
    fn smaller(self) -> u32;
    fn side(self) -> usize;
}

impl SideKey for u64 {
    #[inline]
    fn new(smaller: u32, side: usize) -> u64 {
        (u64::from(smaller) << 32) | side as u64
    }
    #[inline]
    fn smaller(self) -> u32 {
        (self >> 32) as u32
    }
    #[inline]
    fn side(self) -> usize {
        (self & u64::from(u32::MAX)) as usize
    }
}

impl SideKey for u128 {
    #[inline]
    fn new(smaller: u32, side: usize) -> u128 {
        (u128::from(smaller) << 64) | side as u128
    }
    #[inline]
    fn smaller(self) -> u32 {
        (self >> 64) as u32
    }
    #[inline]
    fn side(self) -> usize {
        (self & u128::from(u64::MAX)) as usize
    }
}

/// The unique edges of `faces` in libigl's order (by larger vertex, then
/// smaller), each face's three edges `(f0,f1) (f1,f2) (f2,f0)` as indices into
/// them, and each edge's owner (the lowest face that has it).
fn number_edges(num_vertices: usize, faces: &[[u32; 3]]) -> Result<Topology, MeshError> {
    if side_indices_fit_u32(faces.len()) {
        number_edges_by::<u64>(num_vertices, faces)
    } else {
        number_edges_by::<u128>(num_vertices, faces)
    }
}

/// Whether the side indices `3f + k` of `num_faces` faces are below `2^32`.
fn side_indices_fit_u32(num_faces: usize) -> bool {
    num_faces as u64 * 3 <= 1 << 32
}

/// [`number_edges`] with sides packed as `K`.
///
/// A counting sort of the `3·#F` face sides by their larger vertex, then a sort
/// of each vertex's few sides by the smaller one and the side index: linear in
/// the mesh. Each side gets its edge's index as the edge is numbered (no
/// search), and an edge's first side is its owner face's.
fn number_edges_by<K: SideKey>(
    num_vertices: usize,
    faces: &[[u32; 3]],
) -> Result<Topology, MeshError> {
    let sides = |t: &[u32; 3]| [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])];
    // start[v]..start[v + 1]: the sides whose larger vertex is v.
    let mut start = filled(num_vertices + 1, 0usize, (num_vertices, "vertices"))?;
    for t in faces {
        for (a, b) in sides(t) {
            start[a.max(b) as usize + 1] += 1;
        }
    }
    for v in 0..num_vertices {
        start[v + 1] += start[v];
    }
    let mut fill = filled(num_vertices + 1, 0usize, (num_vertices, "vertices"))?;
    fill.copy_from_slice(&start);
    let mut by_larger = filled(3 * faces.len(), K::default(), (faces.len(), "faces"))?;
    for (f, t) in faces.iter().enumerate() {
        for (k, (a, b)) in sides(t).into_iter().enumerate() {
            let slot = &mut fill[a.max(b) as usize];
            by_larger[*slot] = K::new(a.min(b), 3 * f + k);
            *slot += 1;
        }
    }
    let mut edges = Vec::with_capacity(faces.len() * 3 / 2 + 2);
    let mut edge_owner = Vec::with_capacity(faces.len() * 3 / 2 + 2);
    let mut face_edges = vec![[0u32; 3]; faces.len()];
    let mut face_owned = vec![0u8; faces.len()];
    for (v, range) in start.windows(2).enumerate() {
        let bucket = &mut by_larger[range[0]..range[1]];
        bucket.sort_unstable();
        let mut last = None;
        for &entry in bucket.iter() {
            let (f, k) = (entry.side() / 3, entry.side() % 3);
            if last != Some(entry.smaller()) {
                last = Some(entry.smaller());
                edges.push([entry.smaller(), v as u32]);
                edge_owner.push(f as u32);
                face_owned[f] |= 8 << k;
            }
            face_edges[f][k] = u32::try_from(edges.len() - 1).map_err(|_| MeshError::TooLarge {
                what: "edges",
                count: edges.len(),
            })?;
        }
    }
    Ok(Topology {
        edges,
        face_edges,
        edge_owner,
        face_owned,
    })
}

/// The lowest face whose three edges (`face_edges`, indices below
/// `num_edges`) are those of an earlier face, with the first such face:
/// two faces have the same corners exactly when they have the same edges.
/// The faces are sorted by their smallest edge (a counting sort, so
/// linear); only faces of one bucket are compared, by their sorted edges.
fn first_repeated_face(
    face_edges: &[[u32; 3]],
    num_edges: usize,
) -> Result<Option<(usize, usize)>, MeshError> {
    let smallest = |f: usize| *face_edges[f].iter().min().expect("three edges") as usize;
    let mut start = filled(num_edges + 1, 0usize, (num_edges, "edges"))?;
    for f in 0..face_edges.len() {
        start[smallest(f) + 1] += 1;
    }
    for e in 0..num_edges {
        start[e + 1] += start[e];
    }
    let mut fill = start.clone();
    let mut by_edge = filled(face_edges.len(), 0u32, (face_edges.len(), "faces"))?;
    for f in 0..face_edges.len() {
        let slot = &mut fill[smallest(f)];
        by_edge[*slot] = f as u32;
        *slot += 1;
    }
    let sorted = |f: u32| {
        let mut e = face_edges[f as usize];
        e.sort_unstable();
        e
    };
    let mut found: Option<(usize, usize)> = None;
    let mut bucket = Vec::new();
    for range in start.windows(2).filter(|r| r[1] - r[0] >= 2) {
        // Each bucket's faces ascending, so the first of equal edges is
        // the first face with them.
        bucket.clear();
        bucket.extend(by_edge[range[0]..range[1]].iter().map(|&f| (sorted(f), f)));
        bucket.sort_unstable();
        for run in bucket
            .chunk_by(|a, b| a.0 == b.0)
            .filter(|run| run.len() >= 2)
        {
            let (first, repeat) = (run[0].1 as usize, run[1].1 as usize);
            if found.is_none_or(|(face, _)| repeat < face) {
                found = Some((repeat, first));
            }
        }
    }
    Ok(found)
}

/// Each vertex's owner (the lowest face that has it, [`NO_OWNER`] for none)
/// and each face's owned-corner bits (`1 << k` for its corner `k`, as in
/// [`TriMesh::face_owned`]).
fn vertex_owners(
    num_vertices: usize,
    faces: &[[u32; 3]],
) -> Result<(Vec<u32>, Vec<u8>), MeshError> {
    let mut vertex_owner = filled(num_vertices, NO_OWNER, (num_vertices, "vertices"))?;
    let mut corners_owned = vec![0u8; faces.len()];
    for (f, tri) in faces.iter().enumerate() {
        for k in 0..3 {
            let v = &mut vertex_owner[tri[k] as usize];
            if *v == NO_OWNER {
                *v = f as u32;
                corners_owned[f] |= 1 << k;
            }
        }
    }
    Ok((vertex_owner, corners_owned))
}

/// The edges of `given` that are not in `face_edges` (the faces' edges in
/// libigl order, sorted by larger then smaller vertex), as `[min, max]`,
/// without repeats, in the order of their first appearance.
fn codim_edges(face_edges: &[[u32; 2]], given: &[[u32; 2]]) -> Vec<[u32; 2]> {
    if given.is_empty() {
        return Vec::new();
    }
    let key = |e: &[u32; 2]| (e[0].max(e[1]), e[0].min(e[1]));
    // Each given edge's key with its position, sorted: repeats are adjacent,
    // the first appearance first.
    let mut order: Vec<((u32, u32), usize)> =
        given.iter().enumerate().map(|(i, e)| (key(e), i)).collect();
    order.sort_unstable();
    let mut keep = vec![false; given.len()];
    let mut last = None;
    for &(k, i) in &order {
        if last != Some(k) {
            last = Some(k);
            let in_face = face_edges
                .binary_search_by(|e| (e[1], e[0]).cmp(&k))
                .is_ok();
            keep[i] = !in_face;
        }
    }
    given
        .iter()
        .zip(&keep)
        .filter(|&(_, &k)| k)
        .map(|(e, _)| [e[0].min(e[1]), e[0].max(e[1])])
        .collect()
}

/// What each codimensional edge owns (bit `k`: its end `k`, a vertex in
/// no face that no earlier codimensional edge has), and the vertices in no
/// face and no edge, ascending.
fn codim_owners(
    vertex_owner: &[u32],
    codim: &[[u32; 2]],
) -> Result<(Vec<u8>, Vec<u32>), MeshError> {
    let mut claimed = Vec::new();
    if !codim.is_empty() {
        claimed = filled(vertex_owner.len(), false, (vertex_owner.len(), "vertices"))?;
    }
    let owned = codim
        .iter()
        .map(|e| {
            let mut bits = 0;
            for (k, &v) in e.iter().enumerate() {
                if vertex_owner[v as usize] == NO_OWNER && !claimed[v as usize] {
                    claimed[v as usize] = true;
                    bits |= 1 << k;
                }
            }
            bits
        })
        .collect();
    let points = (0..vertex_owner.len())
        .filter(|&v| vertex_owner[v] == NO_OWNER && !claimed.get(v).copied().unwrap_or(false))
        .map(|v| v as u32)
        .collect();
    Ok((owned, points))
}

/// Union–find over the faces' sides and the edges; components numbered in
/// order of their smallest vertex.
fn components(
    num_vertices: usize,
    faces: &[[u32; 3]],
    edges: &[[u32; 2]],
) -> Result<(Vec<u32>, usize), MeshError> {
    let mut parent = filled(num_vertices, 0u32, (num_vertices, "vertices"))?;
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
    // Two sides of a face join its three corners; an edge joins its ends.
    let sides = faces.iter().flat_map(|&[a, b, c]| [(a, b), (b, c)]);
    for (a, b) in sides.chain(edges.iter().map(|&[a, b]| (a, b))) {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            // Keep the smaller root so that roots are the smallest vertex.
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            parent[hi as usize] = lo;
        }
    }
    let mut label = filled(num_vertices, NO_OWNER, (num_vertices, "vertices"))?;
    let mut component = filled(num_vertices, 0, (num_vertices, "vertices"))?;
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
    use crate::test_util::{any_edge, any_face, without_repeated_faces};
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    /// An array that cannot be had is refused naming the count of the
    /// features it is for, not its own length (`count + 1` for the offsets).
    #[test]
    fn an_array_that_does_not_fit_names_the_feature_count() {
        let e = filled(usize::MAX, 0u8, (usize::MAX - 1, "vertices")).unwrap_err();
        assert!(
            matches!(e, MeshError::OutOfMemory { what: "vertices", count } if count == usize::MAX - 1),
            "{e}"
        );
        assert_eq!(filled(3, 7u8, (2, "vertices")).unwrap(), [7, 7, 7]);
    }

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
        // No faces: points alone, or nothing.
        let points = TriMesh::new(3, vec![]).unwrap();
        assert_eq!(points.codim_vertices(), &[0, 1, 2]);
        assert!(points.edges().is_empty() && points.faces().is_empty());
        assert_eq!(
            TriMesh::new(0, vec![]).unwrap().codim_vertices(),
            &[] as &[u32]
        );
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
        // A repeat in any order, also with the other winding; the lowest
        // repeat is named, with the first face of its corners.
        let faces = vec![[0, 1, 2], [1, 2, 3], [3, 2, 1], [2, 0, 1]];
        assert!(matches!(
            TriMesh::new(4, faces),
            Err(MeshError::RepeatedFace { face: 2, first: 1 })
        ));
    }

    #[test]
    fn codimensional_edges_follow_the_face_edges_once_each() {
        // A triangle, a rod 2–3–4 from its corner (given as 3–2, with the
        // triangle's edge 1–0 and a repeat of 3–4, both dropped), a loose
        // edge 5–6 and a point 7.
        let m = TriMesh::with_edges(
            8,
            vec![[0, 1, 2]],
            &[[3, 2], [1, 0], [3, 4], [5, 6], [4, 3]],
        )
        .unwrap();
        assert_eq!(m.num_face_edges(), 3);
        assert_eq!(m.codim_edges(), &[[2, 3], [3, 4], [5, 6]]);
        assert_eq!(&m.edges()[3..], m.codim_edges());
        assert_eq!(&m.edge_owner()[3..], &[NO_OWNER; 3]);
        // 2 is the face's; 3 goes to the first rod edge, 4 to the second.
        assert_eq!(m.codim_edge_owned(), &[0b10, 0b10, 0b11]);
        assert_eq!(m.codim_vertices(), &[7]);
        assert_eq!(m.component(), &[0, 0, 0, 0, 0, 1, 1, 2]);
        assert_eq!(m.find_edge(4, 3), Some(4));
        assert_eq!(m.find_edge(0, 2), Some(1));
        assert_eq!(m.find_edge(4, 5), None);
        assert_eq!(m.global_id(Feature::Edge(5)), 8 + 5);
        assert_eq!(m.global_id(Feature::Face(0)), 8 + 6);
        // Rods alone: no face.
        let rods = TriMesh::with_edges(4, vec![], &[[0, 1], [1, 2]]).unwrap();
        assert_eq!((rods.num_faces(), rods.num_face_edges()), (0, 0));
        assert_eq!(rods.codim_edge_owned(), &[0b11, 0b10]);
        assert_eq!(rods.codim_vertices(), &[3]);
        // Without edges, as `new`.
        let plain = TriMesh::new(5, vec![[0, 1, 2], [2, 1, 3]]).unwrap();
        assert_eq!(
            TriMesh::with_edges(5, plain.faces().to_vec(), &[]).unwrap(),
            plain
        );
        assert_eq!(plain.codim_vertices(), &[4]);
    }

    #[test]
    fn bad_edges_are_refused_with_their_index() {
        assert!(matches!(
            TriMesh::with_edges(3, vec![[0, 1, 2]], &[[0, 1], [2, 3]]),
            Err(MeshError::EdgeIndexOutOfRange {
                edge: 1,
                index: 3,
                num_vertices: 3
            })
        ));
        let e = TriMesh::with_edges(3, vec![], &[[0, 1], [2, 2]]).unwrap_err();
        assert!(matches!(
            e,
            MeshError::DegenerateEdge { edge: 1, vertex: 2 }
        ));
        assert_eq!(
            e.to_string(),
            "edge 1 joins vertex 2 to itself (numbered from 0)"
        );
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
            let tri = any_face(n);
            (Just(n), proptest::collection::vec(tri, 1..120))
        })
    }

    /// The slow oracle of the vertices' facts: each vertex's lowest face by a
    /// scan of all faces, and components by flood fill over the faces' sides,
    /// labelled in order of their smallest vertex.
    fn vertex_facts_by_scan(n: usize, faces: &[[u32; 3]]) -> (Vec<u32>, Vec<u32>) {
        let owner = (0..n as u32)
            .map(|v| {
                faces
                    .iter()
                    .position(|t| t.contains(&v))
                    .map_or(NO_OWNER, |f| f as u32)
            })
            .collect();
        let groups: Vec<&[u32]> = faces.iter().map(|t| &t[..]).collect();
        (owner, flood_fill(n, &groups))
    }

    /// Components by flood fill: vertices in one group are joined;
    /// labelled in order of their smallest vertex.
    fn flood_fill(n: usize, groups: &[&[u32]]) -> Vec<u32> {
        let mut label = vec![NO_OWNER; n];
        let mut count = 0;
        for v in 0..n {
            if label[v] != NO_OWNER {
                continue;
            }
            let mut stack = vec![v as u32];
            label[v] = count;
            while let Some(x) = stack.pop() {
                for g in groups.iter().filter(|g| g.contains(&x)) {
                    for &y in *g {
                        if label[y as usize] == NO_OWNER {
                            label[y as usize] = count;
                            stack.push(y);
                        }
                    }
                }
            }
            count += 1;
        }
        label
    }

    #[test]
    fn sides_are_packed_in_u64_while_their_indices_fit_32_bits() {
        // 1,431,655,765 faces have sides up to 3 · 1,431,655,764 + 2 =
        // 2^32 - 2; one face more reaches 2^32 + 1.
        assert!(side_indices_fit_u32(1_431_655_765));
        assert!(!side_indices_fit_u32(1_431_655_766));
        let top = 3 * (1_431_655_765 - 1) + 2;
        assert_eq!(top, u32::MAX as usize - 1);
        let key = <u64 as SideKey>::new(u32::MAX - 1, top);
        assert_eq!((key.smaller(), key.side()), (u32::MAX - 1, top));
        let key = <u128 as SideKey>::new(u32::MAX - 1, top + 3);
        assert_eq!((key.smaller(), key.side()), (u32::MAX - 1, top + 3));
    }

    /// The slow oracle of the codimensional facts: the given edges not in
    /// a face, first appearances in order; each vertex in no face owned by
    /// the first of them that has it; the vertices in no face and no edge;
    /// components by flood fill over the faces and edges together.
    #[allow(clippy::type_complexity)]
    fn codim_facts_by_scan(
        n: usize,
        faces: &[[u32; 3]],
        given: &[[u32; 2]],
    ) -> (Vec<[u32; 2]>, Vec<u8>, Vec<u32>, Vec<u32>) {
        let sorted = |e: &[u32; 2]| [e[0].min(e[1]), e[0].max(e[1])];
        let in_face = |e: [u32; 2]| faces.iter().any(|t| t.contains(&e[0]) && t.contains(&e[1]));
        let mut codim: Vec<[u32; 2]> = Vec::new();
        for e in given.iter().map(sorted) {
            if !in_face(e) && !codim.contains(&e) {
                codim.push(e);
            }
        }
        let in_a_face = |v: u32| faces.iter().any(|t| t.contains(&v));
        let owned = codim
            .iter()
            .enumerate()
            .map(|(i, e)| {
                (0..2)
                    .filter(|&k| {
                        let v = e[k];
                        !in_a_face(v) && codim.iter().position(|f| f.contains(&v)) == Some(i)
                    })
                    .fold(0u8, |b, k| b | 1 << k)
            })
            .collect();
        let points = (0..n as u32)
            .filter(|&v| !in_a_face(v) && !codim.iter().any(|e| e.contains(&v)))
            .collect();
        let groups: Vec<&[u32]> = faces
            .iter()
            .map(|t| &t[..])
            .chain(given.iter().map(|e| &e[..]))
            .collect();
        let label = flood_fill(n, &groups);
        (codim, owned, points, label)
    }

    proptest! {
        #[test]
        fn codimensional_facts_equal_a_plain_scan(
            (n, faces, edges) in faces().prop_flat_map(|(n, faces)| {
                let edge = any_edge(n);
                // A third of the cases without faces (rods alone).
                let faces = prop_oneof![2 => Just(without_repeated_faces(faces)), 1 => Just(Vec::new())];
                (Just(n), faces, proptest::collection::vec(edge, 0..30))
            }).prop_filter("something to build", |(_, f, e)| !f.is_empty() || !e.is_empty()),
        ) {
            let mesh = TriMesh::with_edges(n, faces.clone(), &edges).unwrap();
            let (codim, owned, points, component) = codim_facts_by_scan(n, &faces, &edges);
            prop_assert_eq!(mesh.codim_edges(), &codim[..]);
            prop_assert_eq!(mesh.codim_edge_owned(), &owned[..]);
            prop_assert_eq!(mesh.codim_vertices(), &points[..]);
            prop_assert_eq!(mesh.component(), &component[..]);
            let plain = TriMesh::new(n, faces.clone());
            if let Ok(plain) = plain {
                prop_assert_eq!(&mesh.edges()[..mesh.num_face_edges()], plain.edges());
                prop_assert_eq!(mesh.vertex_owner(), plain.vertex_owner());
                prop_assert_eq!(mesh.face_owned(), plain.face_owned());
            }
            for (i, e) in codim.iter().enumerate() {
                prop_assert_eq!(mesh.find_edge(e[1], e[0]), Some((mesh.num_face_edges() + i) as u32));
            }
        }

        #[test]
        fn the_first_repeated_face_is_that_of_a_plain_scan((n, faces) in faces()) {
            let sorted = |t: &[u32; 3]| {
                let mut t = *t;
                t.sort_unstable();
                t
            };
            let want = (0..faces.len()).find_map(|g| {
                let first = (0..g).find(|&f| sorted(&faces[f]) == sorted(&faces[g]))?;
                Some((g, first))
            });
            let numbered = number_edges(n, &faces).unwrap();
            let got = first_repeated_face(&numbered.face_edges, numbered.edges.len()).unwrap();
            prop_assert_eq!(got, want);
        }

        #[test]
        fn vertex_owners_and_components_equal_a_plain_scan((n, faces) in faces()) {
            let faces = without_repeated_faces(faces);
            let mesh = TriMesh::new(n, faces.clone()).unwrap();
            let (owner, component) = vertex_facts_by_scan(n, &faces);
            prop_assert_eq!(mesh.vertex_owner(), &owner[..]);
            prop_assert_eq!(mesh.component(), &component[..]);
            prop_assert_eq!(mesh.num_components(), component.iter().max().map_or(0, |&c| c as usize + 1));
            for (f, t) in faces.iter().enumerate() {
                for (k, &v) in t.iter().enumerate() {
                    let owned = mesh.face_owned()[f] & (1 << k) != 0;
                    prop_assert_eq!(owned, owner[v as usize] == f as u32);
                }
            }
        }

        #[test]
        fn counting_sort_numbering_equals_the_map_numbering((n, faces) in faces()) {
            let oracle = number_edges_by_map(&faces);
            // Both packings of the sides: u64 (taken here) and u128 (taken
            // for meshes too large to build in a test).
            for fast in [number_edges_by::<u64>(n, &faces), number_edges_by::<u128>(n, &faces)] {
                let fast = fast.unwrap();
                prop_assert_eq!((&fast.edges, &fast.face_edges), (&oracle.0, &oracle.1));
                // The owner of an edge is the lowest face that has it, and
                // that face (only) marks the edge as owned.
                for (e, &owner) in fast.edge_owner.iter().enumerate() {
                    let lowest = oracle.1.iter().position(|fe| fe.contains(&(e as u32)));
                    prop_assert_eq!(Some(owner as usize), lowest);
                }
                for (f, fe) in oracle.1.iter().enumerate() {
                    for (k, &e) in fe.iter().enumerate() {
                        let owned = fast.face_owned[f] & (8 << k) != 0;
                        prop_assert_eq!(owned, fast.edge_owner[e as usize] == f as u32);
                    }
                }
            }
        }
    }
}
