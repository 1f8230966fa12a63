//! Candidate pairs of the Scalable-CCD data (Belgrod et al. 2023):
//! `boxes/<step><vf|ee>.json`, a JSON array of `[id, id]` global feature IDs
//! (vertex `i` → `i`, edge `j` → `#V + j`, face `k` → `#V + #E + k`; edges in
//! libigl order, see [`TriMesh`]), and the elementary queries they stand for.

use std::path::Path;

use super::truth::read_json;
use super::{DataError, QueryKind};
use crate::math::Vec3;
use crate::mesh::{Feature, TriMesh};

/// Reads a JSON array of two-element integer arrays.
pub fn read_boxes(path: &Path) -> Result<Vec<[u64; 2]>, DataError> {
    let pairs: Vec<IdPair> = read_json(path)?;
    Ok(pairs.into_iter().map(|p| p.0).collect())
}

/// One `[id, id]` of a boxes file, whose error for another length says
/// so (a plain `[u64; 2]` reports "trailing characters" for a third).
struct IdPair([u64; 2]);

impl<'de> serde::Deserialize<'de> for IdPair {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<IdPair, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = IdPair;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a pair of two feature IDs `[id, id]`")
            }

            fn visit_seq<A: serde::de::SeqAccess<'de>>(
                self,
                mut seq: A,
            ) -> Result<IdPair, A::Error> {
                use serde::de::Error;
                let mut ids = [0; 2];
                for (k, id) in ids.iter_mut().enumerate() {
                    *id = seq
                        .next_element()?
                        .ok_or_else(|| Error::invalid_length(k, &self))?;
                }
                let mut found = 2;
                while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {
                    found += 1;
                }
                match found {
                    2 => Ok(IdPair(ids)),
                    _ => Err(Error::invalid_length(found, &self)),
                }
            }
        }
        d.deserialize_seq(Visitor)
    }
}

/// The eight points of each pair's query, in the data sets' row order:
/// VF `v, f0, f1, f2` (the face's corners as stored) at `t = 0`, then at
/// `t = 1`; EE `ea0, ea1, eb0, eb1` (the pair's first edge, then its second;
/// endpoints `[min, max]` as [`TriMesh::edges`] stores them).
///
/// A vertex–face pair may list the vertex and the face in either order. IDs
/// out of range, or of the wrong kinds, are errors naming the pair; pairs
/// whose queries cannot be held in memory, [`DataError::TooManyPairs`].
pub fn queries_from_boxes(
    mesh: &TriMesh,
    x_t0: &[Vec3],
    x_t1: &[Vec3],
    pairs: &[[u64; 2]],
    kind: QueryKind,
) -> Result<Vec<[Vec3; 8]>, DataError> {
    let nv = mesh.num_vertices();
    if x_t0.len() != nv || x_t1.len() != nv {
        return Err(DataError::Pair {
            pair: 0,
            ids: pairs.first().copied().unwrap_or_default(),
            message: format!(
                "the frames have {} and {} vertices, the mesh {nv}",
                x_t0.len(),
                x_t1.len()
            ),
        });
    }
    let at = |corners: [u32; 4]| -> [Vec3; 8] {
        let c = corners.map(|i| i as usize);
        [
            x_t0[c[0]], x_t0[c[1]], x_t0[c[2]], x_t0[c[3]], x_t1[c[0]], x_t1[c[1]], x_t1[c[2]],
            x_t1[c[3]],
        ]
    };
    let query = |pair: usize, ids: [u64; 2]| -> Result<[Vec3; 8], DataError> {
        let error = |message: String| DataError::Pair { pair, ids, message };
        let features = ids.map(|id| mesh.feature(id));
        let [Some(a), Some(b)] = features else {
            let id = if features[0].is_none() {
                ids[0]
            } else {
                ids[1]
            };
            let limit = mesh.global_id(Feature::Face(0)) + mesh.num_faces() as u64;
            return Err(error(format!(
                "global ID {id} is out of range (the mesh has {limit} features)"
            )));
        };
        match (kind, a, b) {
            (QueryKind::VertexFace, Feature::Vertex(v), Feature::Face(f))
            | (QueryKind::VertexFace, Feature::Face(f), Feature::Vertex(v)) => {
                let t = mesh.faces()[f as usize];
                Ok(at([v, t[0], t[1], t[2]]))
            }
            (QueryKind::EdgeEdge, Feature::Edge(ea), Feature::Edge(eb)) => {
                let (ea, eb) = (mesh.edges()[ea as usize], mesh.edges()[eb as usize]);
                Ok(at([ea[0], ea[1], eb[0], eb[1]]))
            }
            _ => Err(error(format!(
                "features {a:?} and {b:?} do not form a {kind} pair"
            ))),
        }
    };
    let mut queries = Vec::new();
    queries
        .try_reserve_exact(pairs.len())
        .map_err(|_| DataError::TooManyPairs {
            pairs: pairs.len(),
            bytes: pairs.len().saturating_mul(size_of::<[Vec3; 8]>()),
        })?;
    for (pair, &ids) in pairs.iter().enumerate() {
        queries.push(query(pair, ids)?);
    }
    Ok(queries)
}
