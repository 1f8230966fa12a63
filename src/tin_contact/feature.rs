//! Features of a triangle (as sets of its corners), the fifteen elementary
//! pairs of a triangle pair, and the six contact forms of Yu, Shen & Chang
//! (2000), §1 and Fig. 1; docs/design.md §3.
//!
//! A face of a triangle `x₀x₁x₂` — a vertex, an edge or the whole closed
//! triangle — is the convex hull of a non-empty subset of its corners, so it
//! is stored as that subset ([`Corners`], a 3-bit mask). Feature inclusion is
//! subset inclusion, and the smallest face containing two faces is their
//! union; both are what the paper's marking step (§1, "标记") needs.

use crate::enum_with_all::enum_with_all;

/// A face of a triangle: the non-empty set of its corners (bit `i` = corner
/// `i`). One bit is a vertex, two an edge, three the triangle itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Corners(u8);

/// What a face of a triangle is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FeatureKind {
    /// A corner (point, 点).
    Vertex,
    /// A side (边).
    Edge,
    /// The closed triangle (面).
    Face,
}

impl Corners {
    /// The whole triangle.
    pub const FACE: Corners = Corners(0b111);

    /// Corner `i` (`i < 3`).
    pub fn vertex(i: usize) -> Corners {
        debug_assert!(i < 3);
        Corners(1 << i)
    }

    /// Edge `k`: corners `k` and `k + 1 (mod 3)`, the data sets' and
    /// [`crate::mesh::TriMesh::face_edges`]' order.
    pub fn edge(k: usize) -> Corners {
        debug_assert!(k < 3);
        Corners((1 << k) | (1 << ((k + 1) % 3)))
    }

    /// From a mask in `1..=7`; `None` otherwise.
    pub fn from_bits(bits: u8) -> Option<Corners> {
        (1..=7).contains(&bits).then_some(Corners(bits))
    }

    /// The mask.
    pub fn bits(self) -> u8 {
        self.0
    }

    /// The smallest face containing both.
    pub fn union(self, other: Corners) -> Corners {
        Corners(self.0 | other.0)
    }

    /// Whether `other` is a face of `self` (`other ⊆ self`).
    pub fn contains(self, other: Corners) -> bool {
        other.0 & !self.0 == 0
    }

    /// Vertex, edge or face.
    pub fn kind(self) -> FeatureKind {
        match self.0.count_ones() {
            1 => FeatureKind::Vertex,
            2 => FeatureKind::Edge,
            _ => FeatureKind::Face,
        }
    }

    /// The corner of a vertex.
    pub fn as_vertex(self) -> Option<usize> {
        (self.0.count_ones() == 1).then(|| self.0.trailing_zeros() as usize)
    }

    /// The edge index `k` (corners `k`, `k + 1 mod 3`) of an edge.
    pub fn as_edge(self) -> Option<usize> {
        match self.0 {
            0b011 => Some(0),
            0b110 => Some(1),
            0b101 => Some(2),
            _ => None,
        }
    }

    /// The corners, in increasing order.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..3).filter(move |i| self.0 & (1 << i) != 0)
    }

    /// Every face of `self` (non-empty subsets), `self` included.
    pub fn faces(self) -> impl Iterator<Item = Corners> {
        (1..=7u8).filter(move |s| s & !self.0 == 0).map(Corners)
    }
}

enum_with_all! {
    /// The six forms of contact between two triangles (Yu et al. 2000, §1,
    /// Fig. 1 (a)–(f)), named by the kinds of the two features that carry the
    /// contact. The order of the variants is the paper's labelling.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Form {
        /// (a) 点-点: a vertex on a vertex.
        VertexVertex,
        /// (b) 点-边: a vertex on the relative interior of an edge.
        VertexEdge,
        /// (c) 点-面: a vertex on the interior of a triangle.
        VertexFace,
        /// (d) 边-边: two edges, at a point or along a segment (collinear).
        EdgeEdge,
        /// (e) 边-面: an edge lying in a triangle's plane, along a segment.
        EdgeFace,
        /// (f) 面-面: two coplanar triangles overlapping in a planar region.
        FaceFace,
    }
    /// All six, in the paper's labelling (a)–(f).
    const ALL;
}

impl Form {
    /// The form whose features are `a` (of one triangle) and `b` (of the
    /// other); symmetric.
    pub fn of(a: FeatureKind, b: FeatureKind) -> Form {
        use FeatureKind::{Edge, Face, Vertex};
        match (a, b) {
            (Vertex, Vertex) => Form::VertexVertex,
            (Vertex, Edge) | (Edge, Vertex) => Form::VertexEdge,
            (Vertex, Face) | (Face, Vertex) => Form::VertexFace,
            (Edge, Edge) => Form::EdgeEdge,
            (Edge, Face) | (Face, Edge) => Form::EdgeFace,
            (Face, Face) => Form::FaceFace,
        }
    }

    /// The paper's letter, (a)–(f).
    pub fn letter(self) -> char {
        match self {
            Form::VertexVertex => 'a',
            Form::VertexEdge => 'b',
            Form::VertexFace => 'c',
            Form::EdgeEdge => 'd',
            Form::EdgeFace => 'e',
            Form::FaceFace => 'f',
        }
    }

    /// A readable name (`vertex–face`).
    pub fn name(self) -> &'static str {
        match self {
            Form::VertexVertex => "vertex–vertex",
            Form::VertexEdge => "vertex–edge",
            Form::VertexFace => "vertex–face",
            Form::EdgeEdge => "edge–edge",
            Form::EdgeFace => "edge–face",
            Form::FaceFace => "face–face",
        }
    }

    /// Position in the paper's solving order `(f) → (e) → (d) → (abc)` (§1
    /// and §3, steps 1–4): 0 for (f), 1 for (e), 2 for (d), 3 for (a), (b)
    /// and (c), which the paper merges into one form, point vs closed
    /// triangle.
    pub fn solving_rank(self) -> u8 {
        match self {
            Form::FaceFace => 0,
            Form::EdgeFace => 1,
            Form::EdgeEdge => 2,
            Form::VertexVertex | Form::VertexEdge | Form::VertexFace => 3,
        }
    }
}

/// One of the fifteen elementary pairs of a triangle pair `(A, B)`: the 6
/// vertex–face and 9 edge–edge tests of docs/design.md §1, indexed `0..15` as
/// `0..3` vertex `i` of A vs B, `3..6` vertex `j` of B vs A,
/// `6 + 3k + l` edge `k` of A vs edge `l` of B.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Elementary {
    /// Corner `i` of A against the closed triangle B.
    VertexFace(usize),
    /// Corner `j` of B against the closed triangle A.
    FaceVertex(usize),
    /// Edge `k` of A against edge `l` of B.
    EdgeEdge(usize, usize),
}

impl Elementary {
    /// All fifteen, in index order.
    pub fn all() -> impl Iterator<Item = Elementary> {
        (0..15).map(Elementary::from_index)
    }

    /// The pair with index `k < 15`.
    pub fn from_index(k: usize) -> Elementary {
        match k {
            0..3 => Elementary::VertexFace(k),
            3..6 => Elementary::FaceVertex(k - 3),
            _ => Elementary::EdgeEdge((k - 6) / 3, (k - 6) % 3),
        }
    }

    /// The index in `0..15`.
    pub fn index(self) -> usize {
        match self {
            Elementary::VertexFace(i) => i,
            Elementary::FaceVertex(j) => 3 + j,
            Elementary::EdgeEdge(k, l) => 6 + 3 * k + l,
        }
    }

    /// The two features, as faces of A and of B.
    pub fn features(self) -> (Corners, Corners) {
        match self {
            Elementary::VertexFace(i) => (Corners::vertex(i), Corners::FACE),
            Elementary::FaceVertex(j) => (Corners::FACE, Corners::vertex(j)),
            Elementary::EdgeEdge(k, l) => (Corners::edge(k), Corners::edge(l)),
        }
    }
}

/// A set of elementary pairs, bit `k` = [`Elementary::from_index`]`(k)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ElementarySet(pub u16);

impl ElementarySet {
    /// Adds a pair.
    pub fn insert(&mut self, e: Elementary) {
        self.0 |= 1 << e.index();
    }

    /// Whether `e` is in the set.
    pub fn contains(self, e: Elementary) -> bool {
        self.0 & (1 << e.index()) != 0
    }

    /// The members, in index order.
    pub fn iter(self) -> impl Iterator<Item = Elementary> {
        Elementary::all().filter(move |e| self.contains(*e))
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_edges_and_inclusion() {
        assert_eq!(Corners::edge(2), Corners::from_bits(0b101).unwrap());
        assert_eq!(Corners::edge(1).as_edge(), Some(1));
        assert!(Corners::FACE.contains(Corners::edge(0)));
        assert!(Corners::edge(0).contains(Corners::vertex(1)));
        assert!(!Corners::edge(0).contains(Corners::vertex(2)));
        assert_eq!(
            Corners::vertex(0).union(Corners::vertex(2)),
            Corners::edge(2)
        );
        assert_eq!(Corners::edge(1).faces().count(), 3);
        assert_eq!(Corners::FACE.faces().count(), 7);
        assert_eq!(Corners::from_bits(0), None);
    }

    #[test]
    fn forms_are_symmetric_and_ranked_as_in_the_paper() {
        use FeatureKind::*;
        assert_eq!(Form::of(Face, Vertex), Form::VertexFace);
        assert_eq!(Form::of(Edge, Face), Form::of(Face, Edge));
        let order: Vec<u8> = [
            Form::FaceFace,
            Form::EdgeFace,
            Form::EdgeEdge,
            Form::VertexFace,
        ]
        .iter()
        .map(|f| f.solving_rank())
        .collect();
        assert_eq!(order, [0, 1, 2, 3]);
    }

    #[test]
    fn elementary_indices_round_trip() {
        for k in 0..15 {
            assert_eq!(Elementary::from_index(k).index(), k);
        }
        let mut s = ElementarySet::default();
        s.insert(Elementary::EdgeEdge(2, 1));
        assert_eq!(s.iter().collect::<Vec<_>>(), [Elementary::EdgeEdge(2, 1)]);
    }
}
