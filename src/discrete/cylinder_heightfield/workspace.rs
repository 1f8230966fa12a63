//! The reusable scratch of one query: the paper's sets `L(C_P)` (raw contact
//! points), `Ω_I`, `Ω_E` (elements kept for the second pass), `G_F`, `G_I`
//! (vertices), defined in Strashnov & Torgashev 2020, §IV, opening
//! paragraphs (docs/design.md §3), and the ellipse frames of the
//! base-contact elements. Cleared,
//! never shrunk, per query: after warm-up a query allocates nothing.

use super::super::heightfield::Element;
use super::base_contact::BaseFrame;
use super::broad_phase::CellRange;
use super::manifold::{ContactPoint, ReduceScratch};
use crate::math::{Real, Vec3};

const NONE: u32 = u32::MAX;

/// An element of `Ω_I` (entirely inside the projected base, §IV-A).
#[derive(Debug, Clone, Copy)]
pub(crate) struct OmegaI {
    /// Sort key: the smallest `E(x, y)` of formula (7) over its corners
    /// (nearest the ellipse boundary first).
    pub key: Real,
    /// The element.
    pub element: Element,
    /// Index of its ellipse frame in [`Workspace::frames`].
    pub frame: usize,
}

/// An element of `Ω_E` (lateral or one-point contact without clipped points,
/// §IV-B, C, D; or an element whose own paper test rejected it although it
/// meets the cylinder).
#[derive(Debug, Clone, Copy)]
pub(crate) struct OmegaE {
    /// Sort key `d_min`.
    pub d_min: Real,
    /// The element.
    pub element: Element,
    /// Its closest points `Q_i`.
    pub q: [Vec3; 2],
    /// How many of `q` are set.
    pub nq: usize,
    /// A point of the element inside the cylinder (from the exact test),
    /// used when none of `q` is.
    pub witness: Vec3,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct GiEntry {
    pub position: Vec3,
    pub frame: usize,
    pub alive: bool,
}

/// Scratch space for [`super::cylinder_heightfield`]; keep one per thread
/// and reuse it.
#[derive(Debug, Default, Clone)]
pub struct Workspace {
    pub(crate) raw: Vec<ContactPoint>,
    pub(crate) omega_i: Vec<OmegaI>,
    pub(crate) omega_e: Vec<OmegaE>,
    pub(crate) frames: Vec<BaseFrame>,
    g_f: Vec<bool>,
    g_i_slot: Vec<u32>,
    pub(crate) g_i: Vec<GiEntry>,
    range: CellRange,
    cols: usize,
    pub(crate) reduce: ReduceScratch,
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    pub(crate) fn reset(&mut self, range: CellRange, cols: usize) {
        self.raw.clear();
        self.omega_i.clear();
        self.omega_e.clear();
        self.frames.clear();
        self.g_i.clear();
        self.range = range;
        self.cols = cols;
        let nv = range.vertices();
        self.g_f.clear();
        self.g_f.resize(nv, false);
        self.g_i_slot.clear();
        self.g_i_slot.resize(nv, NONE);
    }

    /// Local index of a global vertex id in the range.
    #[inline]
    fn local(&self, id: usize) -> Option<usize> {
        let (i, j) = (id / self.cols, id % self.cols);
        let r = &self.range;
        (i >= r.i0 && i <= r.i1 && j >= r.j0 && j <= r.j1)
            .then(|| (i - r.i0) * (r.j1 - r.j0 + 1) + (j - r.j0))
    }

    #[inline]
    pub(crate) fn in_g_f(&self, id: usize) -> bool {
        self.local(id).is_some_and(|k| self.g_f[k])
    }

    #[inline]
    pub(crate) fn add_g_f(&mut self, id: usize) {
        if let Some(k) = self.local(id) {
            self.g_f[k] = true;
        }
    }

    pub(crate) fn add_all_g_f(&mut self, el: &Element) {
        for &id in &el.vertex_ids[..el.len] {
            self.add_g_f(id);
        }
    }

    /// Adds vertex `id` at `position` to `G_I` (no-op if present).
    pub(crate) fn add_g_i(&mut self, id: usize, position: Vec3, frame: usize) {
        if let Some(k) = self.local(id) {
            let slot = self.g_i_slot[k];
            if slot == NONE {
                self.g_i_slot[k] = self.g_i.len() as u32;
                self.g_i.push(GiEntry {
                    position,
                    frame,
                    alive: true,
                });
            } else {
                self.g_i[slot as usize].alive = true;
            }
        }
    }

    pub(crate) fn remove_g_i(&mut self, id: usize) {
        if let Some(k) = self.local(id) {
            let slot = self.g_i_slot[k];
            if slot != NONE {
                self.g_i[slot as usize].alive = false;
            }
        }
    }
}
