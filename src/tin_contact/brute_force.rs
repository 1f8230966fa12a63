//! The slow oracle of this module: every face pair, every elementary pair
//! solved by the exact oracle alone, merged into forms by the plainest rule.
//!
//! Independent of the fast path ([`super::triangle_pair()`],
//! [`super::mesh_contacts`]) in everything that decides a result:
//!
//! - `t*` is the exact minimum of the fifteen elementary times of impact
//!   from [`crate::narrow_phase::oracle`] (no certified brackets), or `0`
//!   when an edge pierces the other triangle at `t = 0`, tested here with
//!   polynomials in `t` evaluated at the exact time `0` (the fast path uses
//!   orientation determinants of the doubles);
//! - an elementary pair touches at `t*` iff its exact time of impact equals
//!   `t*` (the fast path instead tests incidence at `t*` directly);
//! - a touching corner's carrier in the other triangle is found with the
//!   oracle too: the corner against each other corner (a triangle collapsed
//!   to a point) and against each edge (a triangle collapsed to a segment),
//!   each touching iff its time of impact is `t*`; an edge pair with no end
//!   point on the other edge is a crossing interior to both;
//! - carriers are the unions over these generators; the forms and the
//!   reported set are the maximal carrier pairs under feature inclusion at
//!   equal exact time, found by comparing every pair of contacts.
//!
//! Cost: dozens of big-integer root isolations per face pair, and a
//! quadratic scan over contacts; for tests on small meshes.
//!
//! docs/design.md §3, "Moving TINs in the crate".

use std::cmp::Ordering;
use std::collections::BTreeSet;

use super::feature::{Corners, Elementary, ElementarySet};
use super::first_time::elementary_exact;
use super::mesh_pair::{ElementaryContact, mesh_feature, sub_features};
use super::trajectories::PairTrajectories;
use crate::exact::{Algebraic, Dyadic, cross, dot, vsub};
use crate::math::Vec3;
use crate::mesh::{Feature, Step, TriMesh};
use crate::narrow_phase::oracle;

/// A triangle pair's contact, as the oracle sees it.
#[derive(Debug, Clone)]
pub struct BruteTriangleContact {
    /// `t*`, exact.
    pub time: Algebraic,
    /// Carrier in A.
    pub a: Corners,
    /// Carrier in B.
    pub b: Corners,
    /// Elementary pairs whose time of impact is `t*`.
    pub touching: ElementarySet,
    /// The triangles interpenetrate at `t* = 0` (see
    /// [`super::TriangleContact::penetrating`]).
    pub penetrating: bool,
}

fn equal(a: &Algebraic, b: &Algebraic) -> bool {
    a.clone().compare(&mut b.clone()) == Ordering::Equal
}

/// Whether point `p` (moving `p_t0 → p_t1`) touches the triangle `x` at
/// exactly `t` — never earlier, since the caller's `t` is a first contact of
/// triangles containing both — via the oracle's time of impact.
fn touches_at(p: (&Vec3, &Vec3), x_t0: [&Vec3; 3], x_t1: [&Vec3; 3], t: &Algebraic) -> bool {
    oracle::vertex_face(
        p.0, x_t0[0], x_t0[1], x_t0[2], p.1, x_t1[0], x_t1[1], x_t1[2],
    )
    .is_some_and(|s| equal(&s, t))
}

/// The carrier of a corner touching triangle `x` at `t`: the first other
/// corner it coincides with, else the first edge it lies on, else the face.
fn carrier_of_point(
    p: (&Vec3, &Vec3),
    x_t0: &[Vec3; 3],
    x_t1: &[Vec3; 3],
    t: &Algebraic,
) -> Corners {
    for i in 0..3 {
        if touches_at(p, [&x_t0[i]; 3], [&x_t1[i]; 3], t) {
            return Corners::vertex(i);
        }
    }
    for k in 0..3 {
        let k1 = (k + 1) % 3;
        if touches_at(
            p,
            [&x_t0[k], &x_t0[k1], &x_t0[k1]],
            [&x_t1[k], &x_t1[k1], &x_t1[k1]],
            t,
        ) {
            return Corners::edge(k);
        }
    }
    Corners::FACE
}

/// Whether edge `k` of triangle `e` pierces the interior of triangle `f` at
/// `t = 0`, from polynomials in `t`: with `n` the normal of `f` and
/// `d₀, d₁` the end points' plane distances (times `|n|`), `d₀d₁ < 0`, and
/// the crossing point `x = (d₀ p₁ − d₁ p₀)/(d₀ − d₁)` strictly inside every
/// edge of `f`: `sign(d₀ − d₁)·((f_{j+1} − f_j) × ((d₀ p₁ − d₁ p₀) −
/// (d₀ − d₁) f_j))·n > 0`.
fn pierces_at_zero(
    e: &[crate::exact::VecPoly; 3],
    k: usize,
    f: &[crate::exact::VecPoly; 3],
) -> bool {
    let mut zero = Algebraic::exact(Dyadic::zero());
    let (p0, p1) = (&e[k], &e[(k + 1) % 3]);
    let n = cross(&vsub(&f[1], &f[0]), &vsub(&f[2], &f[0]));
    let d0 = dot(&n, &vsub(p0, &f[0]));
    let d1 = dot(&n, &vsub(p1, &f[0]));
    let (s0, s1) = (zero.sign_of(&d0), zero.sign_of(&d1));
    if s0 == Ordering::Equal || s1 == Ordering::Equal || s0 == s1 {
        return false;
    }
    let dd = d0.sub(&d1);
    let sd = zero.sign_of(&dd);
    let num: crate::exact::VecPoly =
        std::array::from_fn(|axis| p1[axis].mul(&d0).sub(&p0[axis].mul(&d1)));
    (0..3).all(|j| {
        let (u, w) = (&f[j], &f[(j + 1) % 3]);
        let scaled_u: crate::exact::VecPoly = std::array::from_fn(|axis| u[axis].mul(&dd));
        let g = dot(&cross(&vsub(w, u), &vsub(&num, &scaled_u)), &n);
        let s = zero.sign_of(&g);
        s != Ordering::Equal && s == sd
    })
}

/// The oracle's contact of triangles A and B at their first time of impact.
pub fn triangle_pair_brute_force(
    a_t0: &[Vec3; 3],
    a_t1: &[Vec3; 3],
    b_t0: &[Vec3; 3],
    b_t1: &[Vec3; 3],
) -> Option<BruteTriangleContact> {
    let traj = PairTrajectories::new(a_t0, a_t1, b_t0, b_t1);
    let mut pierce = Vec::new();
    for k in 0..3 {
        if pierces_at_zero(&traj.a, k, &traj.b) {
            pierce.push((Corners::edge(k), Corners::FACE));
        }
        if pierces_at_zero(&traj.b, k, &traj.a) {
            pierce.push((Corners::FACE, Corners::edge(k)));
        }
    }
    let tois: Vec<Option<Algebraic>> = Elementary::all()
        .map(|e| elementary_exact(e, a_t0, a_t1, b_t0, b_t1))
        .collect();
    let time = if pierce.is_empty() {
        let mut best: Option<Algebraic> = None;
        for t in tois.iter().flatten() {
            if best
                .as_ref()
                .is_none_or(|b| t.clone().compare(&mut b.clone()) == Ordering::Less)
            {
                best = Some(t.clone());
            }
        }
        best?
    } else {
        Algebraic::exact(Dyadic::zero())
    };
    let mut touching = ElementarySet::default();
    let mut gens: Vec<(Corners, Corners)> = pierce.clone();
    for e in Elementary::all() {
        if !tois[e.index()].as_ref().is_some_and(|s| equal(s, &time)) {
            continue;
        }
        touching.insert(e);
        match e {
            Elementary::VertexFace(i) => {
                gens.push((
                    Corners::vertex(i),
                    carrier_of_point((&a_t0[i], &a_t1[i]), b_t0, b_t1, &time),
                ));
            }
            Elementary::FaceVertex(j) => {
                gens.push((
                    carrier_of_point((&b_t0[j], &b_t1[j]), a_t0, a_t1, &time),
                    Corners::vertex(j),
                ));
            }
            Elementary::EdgeEdge(k, l) => {
                let (k1, l1) = ((k + 1) % 3, (l + 1) % 3);
                let on = |p: (&Vec3, &Vec3), s0: (&Vec3, &Vec3), s1: (&Vec3, &Vec3)| {
                    touches_at(p, [s0.0, s1.0, s1.0], [s0.1, s1.1, s1.1], &time)
                };
                let (pa0, pa1) = ((&a_t0[k], &a_t1[k]), (&a_t0[k1], &a_t1[k1]));
                let (pb0, pb1) = ((&b_t0[l], &b_t1[l]), (&b_t0[l1], &b_t1[l1]));
                let end_on_other = on(pa0, pb0, pb1)
                    || on(pa1, pb0, pb1)
                    || on(pb0, pa0, pa1)
                    || on(pb1, pa0, pa1);
                if !end_on_other {
                    gens.push((Corners::edge(k), Corners::edge(l)));
                }
            }
        }
    }
    let (a, b) = gens
        .iter()
        .skip(1)
        .fold(*gens.first()?, |(a, b), g| (a.union(g.0), b.union(g.1)));
    // Relative interiors crossing on distinct planes at t = 0 (face–face
    // carriers, both triangles of positive area, not coplanar), from the
    // polynomials' values at the exact time 0.
    let crossing_interiors = a == Corners::FACE && b == Corners::FACE && {
        let mut zero = Algebraic::exact(Dyadic::zero());
        let area = |x: &[crate::exact::VecPoly; 3]| cross(&vsub(&x[1], &x[0]), &vsub(&x[2], &x[0]));
        let (na, nb) = (area(&traj.a), area(&traj.b));
        let positive = |n: &crate::exact::VecPoly, zero: &mut Algebraic| {
            zero.sign_of(&dot(n, n)) != Ordering::Equal
        };
        equal(&time, &zero)
            && positive(&na, &mut zero)
            && positive(&nb, &mut zero)
            && (0..3)
                .any(|j| zero.sign_of(&dot(&na, &vsub(&traj.b[j], &traj.a[0]))) != Ordering::Equal)
    };
    Some(BruteTriangleContact {
        time,
        a,
        b,
        touching,
        penetrating: !pierce.is_empty() || crossing_interiors,
    })
}

/// A contact between meshes, as the oracle reports it.
#[derive(Debug, Clone)]
pub struct BruteContact {
    /// Carrier in A.
    pub a: Feature,
    /// Carrier in B.
    pub b: Feature,
    /// Time of impact, exact.
    pub time: Algebraic,
}

/// What the oracle finds for two meshes.
#[derive(Debug, Clone, Default)]
pub struct BruteMeshContacts {
    /// The maximal contacts (no other contact at the same time has carriers
    /// containing both of theirs), sorted by carriers.
    pub contacts: Vec<BruteContact>,
    /// Every elementary pair touching at the first contact of one of its
    /// face pairs.
    pub elementary: BTreeSet<ElementaryContact>,
}

fn within(mesh: &TriMesh, x: Feature, y: Feature) -> bool {
    sub_features(mesh, y).contains(&x)
}

/// The oracle over all face pairs of `a` and `b` (no broad phase).
pub fn mesh_contacts_brute_force(a: &Step<'_>, b: &Step<'_>) -> BruteMeshContacts {
    let mut all: Vec<BruteContact> = Vec::new();
    let mut elementary = BTreeSet::new();
    for (fa, ta) in a.mesh.faces().iter().enumerate() {
        for (fb, tb) in b.mesh.faces().iter().enumerate() {
            let c = |x: &[Vec3], t: &[u32; 3]| t.map(|v| x[v as usize]);
            let Some(tc) = triangle_pair_brute_force(
                &c(a.x_t0, ta),
                &c(a.x_t1, ta),
                &c(b.x_t0, tb),
                &c(b.x_t1, tb),
            ) else {
                continue;
            };
            let (fa, fb) = (fa as u32, fb as u32);
            elementary.extend(
                tc.touching
                    .iter()
                    .map(|e| ElementaryContact::of(e, a.mesh, fa, b.mesh, fb)),
            );
            let (ka, kb) = (
                mesh_feature(a.mesh, fa, tc.a),
                mesh_feature(b.mesh, fb, tc.b),
            );
            if !all.iter().any(|x| x.a == ka && x.b == kb) {
                all.push(BruteContact {
                    a: ka,
                    b: kb,
                    time: tc.time,
                });
            }
        }
    }
    let maximal: Vec<BruteContact> = all
        .iter()
        .filter(|c| {
            !all.iter().any(|d| {
                (d.a, d.b) != (c.a, c.b)
                    && within(a.mesh, c.a, d.a)
                    && within(b.mesh, c.b, d.b)
                    && equal(&c.time, &d.time)
            })
        })
        .cloned()
        .collect();
    let mut contacts = maximal;
    contacts.sort_by_key(|x| (x.a, x.b));
    BruteMeshContacts {
        contacts,
        elementary,
    }
}
