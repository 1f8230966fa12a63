//! Contacts between two moving triangle meshes (TINs), each reported once:
//! Yu, Shen & Chang (2000), §3, steps 1–5; docs/design.md §3, "Moving TINs
//! in the crate".
//!
//! 1. Broad phase: every face pair whose swept axis-aligned boxes
//!    ([`crate::bounding_volume::Kdop`] with the three coordinate slabs,
//!    closed, exact) overlap.
//! 2. Each such pair's contact at its own first time of impact
//!    ([`super::triangle_pair()`]), its carriers mapped to mesh features
//!    ([`crate::mesh::Feature`]: a vertex, an edge in the mesh's edge
//!    order, a face).
//! 3. Contacts with the same carrier pair are one contact (the same carrier
//!    pair implies the same time and the same contact set; see [`super`]):
//!    merged, keeping the list of face pairs that found it.
//! 4. Marking, in the paper's order (f) → (e) → (d) → (abc): the contacts
//!    are visited by form, higher forms first (ties by the carriers' total
//!    dimension, then by feature order); an accepted contact marks every
//!    pair of sub-features of its carriers at its time (the paper's
//!    `Ω_{f−e}`, `Ω_{f−d}`, `Ω_{f−abc}`, `Ω_{e−d}`, …); a later contact whose
//!    carrier pair is marked *at the same exact time* is left out and listed
//!    in [`MeshContact::contains`] of the contact that marked it. This is the
//!    paper's final set `Ψ = (Ω_abc − Ω_{d−abc} − Ω_{e−abc} − Ω_{f−abc}) ∪
//!    (Ω_d − Ω_{e−d} − Ω_{f−d}) ∪ (Ω_e − Ω_{f−e}) ∪ Ω_f`.
//! 5. Every elementary pair (mesh vertex vs mesh face, mesh edge vs mesh
//!    edge) that touches at the first contact of one of its face pairs is
//!    listed in [`MeshContact::covers`] of exactly one reported contact: the
//!    first, in output order, among those that contain it.
//!
//! Output order: by exact time, then form (paper's order), then carriers;
//! deterministic for any thread count (rayon maps the face pairs in order).

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;

use super::feature::{Corners, Elementary, Form};
use super::region::Region;
use super::triangle_pair::{TriangleContact, triangle_pair};
use crate::bounding_volume::{Kdop6, swept_face_kdops, swept_vertex_kdops};
use crate::exact::Algebraic;
use crate::math::{Real, Vec3};
use crate::mesh::{Feature, Step, TriMesh};

/// An elementary pair of two meshes A and B (docs/design.md §1), by mesh indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElementaryContact {
    /// Vertex of A against face of B.
    VertexFace {
        /// Vertex index in A.
        vertex: u32,
        /// Face index in B.
        face: u32,
    },
    /// Face of A against vertex of B.
    FaceVertex {
        /// Face index in A.
        face: u32,
        /// Vertex index in B.
        vertex: u32,
    },
    /// Edge of A against edge of B (edge indices in each mesh's edge order).
    EdgeEdge {
        /// Edge index in A.
        a: u32,
        /// Edge index in B.
        b: u32,
    },
}

impl ElementaryContact {
    /// The elementary pair `e` of face `fa` of A and face `fb` of B.
    pub fn of(e: Elementary, a: &TriMesh, fa: u32, b: &TriMesh, fb: u32) -> ElementaryContact {
        match e {
            Elementary::VertexFace(i) => ElementaryContact::VertexFace {
                vertex: a.faces()[fa as usize][i],
                face: fb,
            },
            Elementary::FaceVertex(j) => ElementaryContact::FaceVertex {
                face: fa,
                vertex: b.faces()[fb as usize][j],
            },
            Elementary::EdgeEdge(k, l) => ElementaryContact::EdgeEdge {
                a: a.face_edges()[fa as usize][k],
                b: b.face_edges()[fb as usize][l],
            },
        }
    }
}

/// One contact between two meshes, at the first time of impact of the face
/// pairs that found it.
#[derive(Debug, Clone)]
pub struct MeshContact {
    /// The form (a)–(f).
    pub form: Form,
    /// The smallest feature of A containing the contact set.
    pub a: Feature,
    /// The smallest feature of B containing the contact set.
    pub b: Feature,
    /// The time of impact, exact.
    pub time: Algebraic,
    /// Doubles around [`MeshContact::time`], at most `f64::EPSILON` apart.
    pub time_bounds: [Real; 2],
    /// The contact set.
    pub region: Region,
    /// The meshes already interpenetrate at `t = 0` here.
    pub penetrating: bool,
    /// A triangle of zero area is involved (see [`TriangleContact`]).
    pub degenerate: bool,
    /// The face pairs `[face of A, face of B]` whose first contact this is.
    pub face_pairs: Vec<[u32; 2]>,
    /// Lower-form contacts at the same time that this one contains (their
    /// carrier pairs), marked and left out.
    pub contains: Vec<(Feature, Feature)>,
    /// The elementary pairs this contact accounts for (each elementary pair
    /// appears under exactly one reported contact).
    pub covers: Vec<ElementaryContact>,
}

/// Counters of one [`mesh_contacts`] call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ContactStats {
    /// Face pairs whose swept boxes overlap (the narrow phase's input).
    pub face_pairs_tested: usize,
    /// Face pairs that touch in `[0, 1]`.
    pub face_pairs_touching: usize,
    /// Distinct carrier pairs among those.
    pub distinct_contacts: usize,
    /// Contacts left out because a higher one contains them.
    pub marked: usize,
}

/// The contacts of two meshes over one step.
#[derive(Debug, Clone, Default)]
pub struct MeshContacts {
    /// Reported contacts, by time, then form, then carriers.
    pub contacts: Vec<MeshContact>,
    /// Counters.
    pub stats: ContactStats,
}

impl MeshContacts {
    /// The contacts at the earliest time of impact of the two meshes (the
    /// first ones in [`MeshContacts::contacts`]); empty when none.
    pub fn first(&self) -> &[MeshContact] {
        let Some(c0) = self.contacts.first() else {
            return &[];
        };
        let mut t0 = c0.time.clone();
        let n = self
            .contacts
            .iter()
            .take_while(|c| c.time.clone().compare(&mut t0) == Ordering::Equal)
            .count();
        &self.contacts[..n]
    }
}

/// The mesh feature of the face `corners` of triangle `f`.
pub fn mesh_feature(mesh: &TriMesh, f: u32, corners: Corners) -> Feature {
    let tri = mesh.faces()[f as usize];
    if let Some(i) = corners.as_vertex() {
        Feature::Vertex(tri[i])
    } else if let Some(k) = corners.as_edge() {
        Feature::Edge(mesh.face_edges()[f as usize][k])
    } else {
        Feature::Face(f)
    }
}

/// The features of a mesh feature: itself, its edges, its vertices.
pub fn sub_features(mesh: &TriMesh, x: Feature) -> Vec<Feature> {
    match x {
        Feature::Vertex(_) => vec![x],
        Feature::Edge(e) => {
            let [v0, v1] = mesh.edges()[e as usize];
            vec![x, Feature::Vertex(v0), Feature::Vertex(v1)]
        }
        Feature::Face(f) => {
            let mut out = vec![x];
            out.extend(mesh.face_edges()[f as usize].map(Feature::Edge));
            out.extend(mesh.faces()[f as usize].map(Feature::Vertex));
            out
        }
    }
}

/// Dimension of a feature (0, 1, 2).
pub(crate) fn feature_dim(x: Feature) -> u8 {
    match x {
        Feature::Vertex(_) => 0,
        Feature::Edge(_) => 1,
        Feature::Face(_) => 2,
    }
}

/// The paper's visiting order: form, then total dimension (higher first),
/// then the carriers.
pub(crate) fn visiting_key(form: Form, a: Feature, b: Feature) -> (u8, u8, Feature, Feature) {
    (
        form.solving_rank(),
        4 - feature_dim(a) - feature_dim(b),
        a,
        b,
    )
}

fn corners_of(x: &[Vec3], tri: [u32; 3]) -> [Vec3; 3] {
    tri.map(|v| x[v as usize])
}

/// The face pairs of `a` and `b` whose swept coordinate boxes overlap
/// (closed), in `(face of A, face of B)` order.
pub fn candidate_face_pairs(a: &Step<'_>, b: &Step<'_>) -> Vec<[u32; 2]> {
    let boxes = |s: &Step<'_>| -> Vec<Kdop6> {
        let v = swept_vertex_kdops::<3>(s);
        swept_face_kdops(s, &v)
    };
    let (ba, bb) = (boxes(a), boxes(b));
    let all_a = ba.iter().fold(Kdop6::EMPTY, |m, k| m.merge(k));
    let near_b: Vec<u32> = (0..bb.len() as u32)
        .filter(|&j| bb[j as usize].overlaps(&all_a))
        .collect();
    let mut out = Vec::new();
    for (i, bi) in ba.iter().enumerate() {
        for &j in &near_b {
            if bi.overlaps(&bb[j as usize]) {
                out.push([i as u32, j]);
            }
        }
    }
    out
}

/// One distinct contact (carrier pair) while merging and marking.
struct Group {
    first: TriangleContact,
    face_pairs: Vec<[u32; 2]>,
    elementary: BTreeSet<ElementaryContact>,
}

/// An accepted contact, with what it marked.
struct Accepted {
    group: Group,
    contains: Vec<(Feature, Feature)>,
    elementary: BTreeSet<ElementaryContact>,
}

/// The contacts of meshes `a` and `b` over one step, each reported once
/// (module doc).
pub fn mesh_contacts(a: &Step<'_>, b: &Step<'_>) -> MeshContacts {
    mesh_contacts_among(a, b, &candidate_face_pairs(a, b))
}

/// [`mesh_contacts`] with the broad phase done by the caller: `pairs` must
/// contain every face pair `[face of A, face of B]` that can touch (for
/// example all pairs whose swept boxes overlap).
///
/// # Panics
/// If a face index in `pairs` is out of range for its mesh.
pub fn mesh_contacts_among(a: &Step<'_>, b: &Step<'_>, pairs: &[[u32; 2]]) -> MeshContacts {
    let found: Vec<([u32; 2], TriangleContact)> = pairs
        .par_iter()
        .filter_map(|&[fa, fb]| {
            let (ta, tb) = (a.mesh.faces()[fa as usize], b.mesh.faces()[fb as usize]);
            triangle_pair(
                &corners_of(a.x_t0, ta),
                &corners_of(a.x_t1, ta),
                &corners_of(b.x_t0, tb),
                &corners_of(b.x_t1, tb),
            )
            .map(|c| ([fa, fb], c))
        })
        .collect();
    let mut stats = ContactStats {
        face_pairs_tested: pairs.len(),
        face_pairs_touching: found.len(),
        ..ContactStats::default()
    };
    let contacts = merge_and_mark(a.mesh, b.mesh, found, &mut stats);
    MeshContacts { contacts, stats }
}

/// Steps 3–5 of the module doc, on the face pairs' contacts.
pub(crate) fn merge_and_mark(
    ma: &TriMesh,
    mb: &TriMesh,
    found: Vec<([u32; 2], TriangleContact)>,
    stats: &mut ContactStats,
) -> Vec<MeshContact> {
    // 3. Merge by carrier pair.
    let mut groups: BTreeMap<(u8, u8, Feature, Feature), Group> = BTreeMap::new();
    for ([fa, fb], c) in found {
        let (ka, kb) = (mesh_feature(ma, fa, c.a), mesh_feature(mb, fb, c.b));
        let elementary = c
            .touching
            .iter()
            .map(|e| ElementaryContact::of(e, ma, fa, mb, fb));
        match groups.entry(visiting_key(c.form, ka, kb)) {
            std::collections::btree_map::Entry::Occupied(mut g) => {
                let g = g.get_mut();
                // Same carriers, same time (module doc of `contact`).
                debug_assert_eq!(
                    g.first.time.clone().compare(&mut c.time.clone()),
                    Ordering::Equal
                );
                g.face_pairs.push([fa, fb]);
                g.elementary.extend(elementary);
            }
            std::collections::btree_map::Entry::Vacant(v) => {
                v.insert(Group {
                    elementary: elementary.collect(),
                    first: c,
                    face_pairs: vec![[fa, fb]],
                });
            }
        }
    }
    stats.distinct_contacts = groups.len();

    // 4. Mark in the paper's order (the map iterates by visiting key).
    let mut accepted: Vec<Accepted> = Vec::new();
    let mut marks: HashMap<(Feature, Feature), Vec<usize>> = HashMap::new();
    for ((_, _, ka, kb), mut g) in groups {
        let marked_by = marks.get(&(ka, kb)).and_then(|owners| {
            owners.iter().copied().find(|&i| {
                let mut t = accepted[i].group.first.time.clone();
                g.first.time.compare(&mut t) == Ordering::Equal
            })
        });
        match marked_by {
            Some(i) => {
                stats.marked += 1;
                accepted[i].contains.push((ka, kb));
                accepted[i].elementary.extend(g.elementary);
            }
            None => {
                let idx = accepted.len();
                for sa in sub_features(ma, ka) {
                    for sb in sub_features(mb, kb) {
                        marks.entry((sa, sb)).or_default().push(idx);
                    }
                }
                let elementary = std::mem::take(&mut g.elementary);
                accepted.push(Accepted {
                    group: g,
                    contains: Vec::new(),
                    elementary,
                });
            }
        }
    }

    // Output order: exact time; `accepted` is in visiting order and the sort
    // is stable, so ties keep it.
    let mut order: Vec<usize> = (0..accepted.len()).collect();
    order.sort_by(|&i, &j| {
        let mut ti = accepted[i].group.first.time.clone();
        let mut tj = accepted[j].group.first.time.clone();
        ti.compare(&mut tj)
    });

    // 5. Each elementary pair under the first contact that contains it.
    let mut seen: BTreeSet<ElementaryContact> = BTreeSet::new();
    let mut slots: Vec<Option<Accepted>> = accepted.into_iter().map(Some).collect();
    let mut out = Vec::with_capacity(order.len());
    for i in order {
        let Some(Accepted {
            group: g,
            contains,
            elementary,
        }) = slots[i].take()
        else {
            continue;
        };
        let covers: Vec<ElementaryContact> =
            elementary.into_iter().filter(|e| seen.insert(*e)).collect();
        let c = g.first;
        out.push(MeshContact {
            form: c.form,
            a: mesh_feature(ma, g.face_pairs[0][0], c.a),
            b: mesh_feature(mb, g.face_pairs[0][1], c.b),
            time: c.time,
            time_bounds: c.time_bounds,
            region: c.region,
            penetrating: c.penetrating,
            degenerate: c.degenerate,
            face_pairs: g.face_pairs,
            contains,
            covers,
        });
    }
    out
}
