//! Which feature pairs a step tests, by body: the `can_collide` of the IPC
//! Toolkit (Ferguson et al., `ipc::BroadPhase::can_vertices_collide`), given
//! as data. Not from the paper (Wan, Fu & Yao 2022 test every pair of
//! features of the mesh); docs/design.md §6.
//!
//! Every vertex is in a body. Two vertices may collide when they are in
//! different bodies, or in one body that collides with itself; a pair of
//! features is tested when some vertex of one may collide with some vertex
//! of the other (the IPC Toolkit's rule), that is, unless all the pair's
//! vertices are in one body that does not collide with itself. A static
//! obstacle is a body that does not collide with itself; objects that only
//! collide with each other are bodies none of which does. A body need not
//! be made of whole connected components: a face whose corners are in
//! several bodies (the seam between two patches of one cloth, say) is in
//! none of them alone, and is tested against every feature.
//!
//! **How the step uses it** (`super::step`). Each component whose vertices
//! are all in one body that does not collide with itself is put in that
//! body's group, the others in none; the BVH's traversal drops a leaf's
//! partners in its own group before testing their features
//! ([`crate::broad_phase::Bvh::self_candidates_par_skipping`]). A leaf's
//! features are its component's, so exactly the pairs within such a body
//! go, and every other candidate, verdict and bracket is that of a step
//! without bodies. A cluster of leaves all in one such body also skips, in
//! its descent, the subtrees wholly in that body, so a static obstacle's
//! descents among its own nodes end at once. (A second BVH for those
//! bodies, traversed against the first, was measured:
//! docs/notes/pipeline.md.) When some component has vertices in several
//! bodies, the pairs the traversal still finds are also checked one by one
//! against every vertex's group ([`BodyParts::vertex_group`]), before the
//! filters: the pairs wholly within one group are dropped and not counted
//! as candidates.

use std::borrow::Cow;

use super::BodyCounts;
use crate::broad_phase::NOT_SKIPPED;
use crate::mesh::{Step, TriMesh};

/// Which feature pairs a step tests ([`super::PipelineConfig::bodies`]), by
/// body: the IPC Toolkit's `can_collide`, as data. Every vertex is in a
/// body; a pair of features is tested unless all its vertices are in one
/// body that does not collide with itself (a static obstacle, or one of
/// several objects that only collide with each other). The pairs skipped
/// are not counted as candidates; every other verdict and bracket is that
/// of a step without bodies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bodies {
    /// Every connected component of the mesh is a body that does not
    /// collide with itself: only pairs of features in different
    /// components are tested (`ccdlab step --self-collision off`).
    Components,
    /// The connected components that do not move in the step (every
    /// vertex at the same position at `t = 0` and `t = 1`) are one body
    /// that does not collide with itself, a static obstacle; the others
    /// are one body that does (`ccdlab step --self-collision moving`).
    /// Decided at every step, from its frames.
    StillObstacle,
    /// Bodies given per vertex.
    Labels(BodyLabels),
}

/// A body for every vertex, and whether each body collides with itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BodyLabels {
    of_vertex: Vec<u32>,
    self_colliding: SelfColliding,
}

/// Which bodies collide with themselves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SelfColliding {
    /// Every body, or none.
    All(bool),
    /// Body `b` when entry `b` is `true`.
    Each(Vec<bool>),
}

impl SelfColliding {
    /// Whether body `b` collides with itself.
    ///
    /// # Panics
    /// When `b` has no entry in [`SelfColliding::Each`].
    pub fn of(&self, b: u32) -> bool {
        match self {
            SelfColliding::All(s) => *s,
            SelfColliding::Each(each) => each[b as usize],
        }
    }
}

/// Why bodies do not fit a mesh or are not bodies.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BodiesError {
    /// A vertex's body has no entry in the list of which bodies collide
    /// with themselves.
    #[error("vertex {vertex}: body {body}, but {}", known_bodies(*.bodies))]
    UnknownBody {
        /// The vertex.
        vertex: usize,
        /// Its body.
        body: u32,
        /// How many bodies say whether they collide with themselves.
        bodies: usize,
    },
    /// Another number of labels than the mesh has vertices.
    #[error("{found} body labels for a mesh of {expected} vertices")]
    Length {
        /// The mesh's vertex count.
        expected: usize,
        /// The labels'.
        found: usize,
    },
    /// [`Bodies::StillObstacle`] at one instant ([`super::proximity()`]),
    /// where nothing moves: every component would be the obstacle, and no
    /// pair would be tested.
    #[error(
        "the still obstacle is what does not move in a step, and at one instant nothing moves; \
         give the bodies per vertex"
    )]
    NoMotion,
}

/// Which bodies say whether they collide with themselves, for
/// [`BodiesError::UnknownBody`].
fn known_bodies(bodies: usize) -> String {
    match bodies {
        0 => "no body says whether it collides with itself (the list is empty)".to_string(),
        n => format!(
            "only bodies 0 to {} say whether they collide with themselves",
            n - 1
        ),
    }
}

impl BodyLabels {
    /// `of_vertex[v]` is vertex `v`'s body; body `b` collides with itself
    /// when `self_colliding[b]`. Every body must have its entry.
    pub fn new(of_vertex: Vec<u32>, self_colliding: Vec<bool>) -> Result<BodyLabels, BodiesError> {
        if let Some(vertex) = of_vertex
            .iter()
            .position(|&b| b as usize >= self_colliding.len())
        {
            return Err(BodiesError::UnknownBody {
                vertex,
                body: of_vertex[vertex],
                bodies: self_colliding.len(),
            });
        }
        Ok(BodyLabels {
            of_vertex,
            self_colliding: SelfColliding::Each(self_colliding),
        })
    }

    /// `of_vertex[v]` is vertex `v`'s body, any `u32`; every body collides
    /// with itself when `self_colliding`, none does otherwise.
    pub fn uniform(of_vertex: Vec<u32>, self_colliding: bool) -> BodyLabels {
        BodyLabels {
            of_vertex,
            self_colliding: SelfColliding::All(self_colliding),
        }
    }

    /// Every vertex's body.
    pub fn of_vertex(&self) -> &[u32] {
        &self.of_vertex
    }

    /// Which bodies collide with themselves.
    pub fn self_colliding(&self) -> &SelfColliding {
        &self.self_colliding
    }

    /// Whether vertices `a` and `b` may collide (the IPC Toolkit's
    /// `can_vertices_collide`): in different bodies, or in one that
    /// collides with itself. A pair of features is tested when some
    /// vertex of one may collide with some vertex of the other (module
    /// doc).
    ///
    /// # Panics
    /// When `a` or `b` is not a vertex of the labels.
    pub fn can_collide(&self, a: u32, b: u32) -> bool {
        let (ba, bb) = (self.of_vertex[a as usize], self.of_vertex[b as usize]);
        ba != bb || self.self_colliding.of(ba)
    }
}

/// The bodies of one mesh, by connected component and, where a component
/// has vertices in several bodies, by vertex (`super::step`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct BodyParts {
    /// Each component's group for the traversal: when all its vertices are
    /// in one body that does not collide with itself, that body's index
    /// among such bodies; otherwise [`NOT_SKIPPED`].
    pub(crate) skip_within: Vec<u32>,
    /// Each vertex's group (its body's index among the bodies that do not
    /// collide with themselves, or [`NOT_SKIPPED`]) when some component
    /// has vertices in several bodies, and some of those bodies do not
    /// collide with themselves: the pairs the traversal finds are then
    /// checked against it ([`within_one_group`]). `None` otherwise.
    pub(crate) vertex_group: Option<Vec<u32>>,
    /// The bodies with a vertex in the mesh, and those of them that
    /// collide with themselves.
    pub(crate) counts: BodyCounts,
}

/// Whether all the `vertices` of a pair are in one group of `vertex_group`
/// ([`BodyParts::vertex_group`]): in one body that does not collide with
/// itself, so that the pair is not tested.
#[inline(always)]
pub(crate) fn within_one_group(vertex_group: &[u32], vertices: &[u32]) -> bool {
    let g = vertex_group[vertices[0] as usize];
    g != NOT_SKIPPED && vertices[1..].iter().all(|&v| vertex_group[v as usize] == g)
}

impl Bodies {
    /// Whether the bodies fit `mesh`: a label for every vertex (the other
    /// kinds always fit).
    pub fn check(&self, mesh: &TriMesh) -> Result<(), BodiesError> {
        match self {
            Bodies::Labels(labels) if labels.of_vertex().len() != mesh.num_vertices() => {
                Err(BodiesError::Length {
                    expected: mesh.num_vertices(),
                    found: labels.of_vertex().len(),
                })
            }
            _ => Ok(()),
        }
    }

    /// The bodies of `step`'s mesh (and, for [`Bodies::StillObstacle`],
    /// of its frames), checked ([`Bodies::check`]).
    pub(crate) fn parts(&self, step: &Step<'_>) -> Result<BodyParts, BodiesError> {
        let mesh = step.mesh;
        self.check(mesh)?;
        let components = mesh.num_components();
        // Each component's body (its first vertex's), whether that body
        // collides with itself, and, for labels with a component whose
        // vertices are in several bodies, the labels.
        let (body_of_component, self_colliding, mixed) = match self {
            Bodies::Components => (
                (0..components as u32).collect(),
                vec![false; components],
                None,
            ),
            Bodies::StillObstacle => {
                let mut moves = vec![false; components];
                for (v, &c) in mesh.component().iter().enumerate() {
                    moves[c as usize] |= step.x_t0[v] != step.x_t1[v];
                }
                let body = moves.iter().map(|&m| u32::from(!m)).collect();
                (body, moves, None)
            }
            Bodies::Labels(labels) => {
                let of_vertex = labels.of_vertex();
                let (mut body, mut seen) = (vec![0; components], vec![false; components]);
                let mut mixed = vec![false; components];
                for (&b, &c) in of_vertex.iter().zip(mesh.component()) {
                    let c = c as usize;
                    if !seen[c] {
                        (seen[c], body[c]) = (true, b);
                    } else {
                        mixed[c] |= body[c] != b;
                    }
                }
                let self_colliding = body.iter().map(|&b| labels.self_colliding.of(b)).collect();
                let mixed = mixed.contains(&true).then_some((labels, mixed));
                (body, self_colliding, mixed)
            }
        };
        let mixed_component = |c: usize| mixed.as_ref().is_some_and(|(_, m)| m[c]);
        let mut present: Vec<(u32, bool)> = (0..components)
            .filter(|&c| !mixed_component(c))
            .map(|c| (body_of_component[c], self_colliding[c]))
            .collect();
        if let Some((labels, _)) = &mixed {
            // Runs of one label (a patch's vertices, usually numbered
            // together) pushed once.
            let component = mesh.component();
            for (&b, &c) in labels.of_vertex().iter().zip(component) {
                let entry = (b, labels.self_colliding.of(b));
                if mixed_component(c as usize) && present.last() != Some(&entry) {
                    present.push(entry);
                }
            }
        }
        present.sort_unstable();
        present.dedup();
        let counts = BodyCounts {
            bodies: present.len() as u64,
            self_colliding: present.iter().filter(|&&(_, s)| s).count() as u64,
        };
        // Groups numbered densely (fewer than the vertices, so never
        // `NOT_SKIPPED`), in the sorted order of the bodies' labels.
        let others: Vec<u32> = present
            .iter()
            .filter(|&&(_, s)| !s)
            .map(|&(b, _)| b)
            .collect();
        let group = |b: u32| others.binary_search(&b).expect("listed above") as u32;
        let skip_within = (0..components)
            .map(|c| match mixed_component(c) || self_colliding[c] {
                true => NOT_SKIPPED,
                false => group(body_of_component[c]),
            })
            .collect();
        let vertex_group = mixed.filter(|_| !others.is_empty()).map(|(labels, _)| {
            (labels.of_vertex().iter())
                .map(|&b| match labels.self_colliding.of(b) {
                    true => NOT_SKIPPED,
                    false => group(b),
                })
                .collect()
        });
        Ok(BodyParts {
            skip_within,
            vertex_group,
            counts,
        })
    }
}

impl BodyParts {
    /// Whether every body collides with itself: every pair is tested.
    pub(crate) fn all_self_colliding(&self) -> bool {
        self.vertex_group.is_none() && self.skip_within.iter().all(|&g| g == NOT_SKIPPED)
    }

    /// Every vertex's group ([`BodyParts::vertex_group`], or its
    /// component's [`BodyParts::skip_within`] where that is `None`), for
    /// checking pairs one by one ([`within_one_group`]) when they come from
    /// no traversal; `None` when every body collides with itself. Borrowed
    /// when the parts already hold one per vertex.
    pub(crate) fn vertex_groups(&self, mesh: &TriMesh) -> Option<Cow<'_, [u32]>> {
        if self.all_self_colliding() {
            return None;
        }
        Some(match &self.vertex_group {
            Some(groups) => Cow::Borrowed(groups.as_slice()),
            None => (mesh.component().iter())
                .map(|&c| self.skip_within[c as usize])
                .collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Vec3;

    /// Two triangles (components 0 and 1) and a loose vertex (component 2).
    fn mesh() -> TriMesh {
        TriMesh::new(7, vec![[0, 1, 2], [3, 4, 5]]).unwrap()
    }

    /// The bodies of a step of [`mesh`] in which only vertex 4 moves.
    fn parts(bodies: &Bodies) -> Result<BodyParts, BodiesError> {
        let mesh = mesh();
        let x_t0 = vec![Vec3::zeros(); 7];
        let mut x_t1 = x_t0.clone();
        x_t1[4].z = 1.0;
        bodies.parts(&Step::new(&mesh, &x_t0, &x_t1).unwrap())
    }

    #[test]
    fn a_label_without_its_self_collision_entry_is_refused() {
        let e = BodyLabels::new(vec![0, 0, 2], vec![true, false]).unwrap_err();
        assert_eq!(
            e,
            BodiesError::UnknownBody {
                vertex: 2,
                body: 2,
                bodies: 2
            }
        );
        assert!(
            e.to_string()
                .contains("vertex 2: body 2, but only bodies 0 to 1 say"),
            "{e}"
        );
        let none = BodyLabels::new(vec![0], vec![]).unwrap_err().to_string();
        assert!(none.ends_with("(the list is empty)"), "{none}");
    }

    #[test]
    fn labels_must_cover_the_mesh() {
        let short = Bodies::Labels(BodyLabels::new(vec![0; 6], vec![true]).unwrap());
        assert_eq!(
            parts(&short),
            Err(BodiesError::Length {
                expected: 7,
                found: 6
            })
        );
        assert!(short.check(&mesh()).is_err());
    }

    #[test]
    fn a_component_across_bodies_is_checked_by_vertex() {
        // The second triangle has corners in bodies 1 and 2; body 1 does
        // not collide with itself, nor does body 2.
        let labels = BodyLabels::new(vec![0, 0, 0, 1, 2, 1, 1], vec![true, false, false]).unwrap();
        let across = parts(&Bodies::Labels(labels)).unwrap();
        assert_eq!(across.skip_within, vec![NOT_SKIPPED, NOT_SKIPPED, 0]);
        assert_eq!(
            across.vertex_group,
            Some(vec![NOT_SKIPPED, NOT_SKIPPED, NOT_SKIPPED, 0, 1, 0, 0])
        );
        assert!(!across.all_self_colliding());
        assert_eq!(
            across.counts,
            BodyCounts {
                bodies: 3,
                self_colliding: 1
            }
        );
        let group = across.vertex_group.unwrap();
        // The loose vertex 6 and corners 3 and 5 are all in body 1.
        assert!(within_one_group(&group, &[6, 3, 5]));
        assert!(!within_one_group(&group, &[6, 3, 4]));
        assert!(!within_one_group(&group, &[0, 1, 2]));
        assert!(!within_one_group(&group, &[4, 6]));
        // Every body colliding with itself: nothing to check.
        let all = BodyLabels::new(vec![0, 0, 0, 1, 2, 1, 1], vec![true; 3]).unwrap();
        let all = parts(&Bodies::Labels(all)).unwrap();
        assert_eq!(all.vertex_group, None);
        assert!(all.all_self_colliding());
        // A component across bodies, and the only body that does not
        // collide with itself elsewhere: its vertices still count.
        let elsewhere =
            BodyLabels::new(vec![0, 0, 1, 2, 2, 2, 2], vec![true, true, false]).unwrap();
        let elsewhere = parts(&Bodies::Labels(elsewhere)).unwrap();
        assert_eq!(elsewhere.skip_within, vec![NOT_SKIPPED, 0, 0]);
        assert_eq!(
            elsewhere.vertex_group,
            Some(vec![NOT_SKIPPED, NOT_SKIPPED, NOT_SKIPPED, 0, 0, 0, 0])
        );
    }

    #[test]
    fn parts_say_which_components_collide_with_themselves() {
        // Body 0 (the first triangle and the loose vertex) collides with
        // itself, body 1 (the second triangle) does not.
        let labels = BodyLabels::new(vec![0, 0, 0, 1, 1, 1, 0], vec![true, false]).unwrap();
        let labelled = parts(&Bodies::Labels(labels.clone())).unwrap();
        assert_eq!(labelled.skip_within, vec![NOT_SKIPPED, 0, NOT_SKIPPED]);
        assert!(!labelled.all_self_colliding());
        assert_eq!(
            labelled.counts,
            BodyCounts {
                bodies: 2,
                self_colliding: 1
            }
        );
        assert!(labels.can_collide(0, 6) && labels.can_collide(0, 3) && !labels.can_collide(3, 4));

        let components = parts(&Bodies::Components).unwrap();
        assert_eq!(components.skip_within, vec![0, 1, 2]);

        // Only the second triangle moves: the first and the loose vertex
        // are the obstacle, body 1 (group 0).
        let still = parts(&Bodies::StillObstacle).unwrap();
        assert_eq!(still.skip_within, vec![0, NOT_SKIPPED, 0]);
        assert_eq!(
            still.counts,
            BodyCounts {
                bodies: 2,
                self_colliding: 1
            }
        );

        let all = Bodies::Labels(BodyLabels::new(vec![0; 7], vec![true]).unwrap());
        assert!(parts(&all).unwrap().all_self_colliding());

        // Any labels with one setting for all: no entry per label.
        let far = BodyLabels::uniform(vec![7, 7, 7, u32::MAX, u32::MAX, u32::MAX, 7], false);
        let far_parts = parts(&Bodies::Labels(far.clone())).unwrap();
        assert_eq!(far_parts.skip_within, vec![0, 1, 0]);
        assert!(far.can_collide(0, 3) && !far.can_collide(0, 6));
    }
}
