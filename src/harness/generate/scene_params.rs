//! The parameters of the generated cloth-on-a-sphere scene, their checks,
//! and the sequence spec that names them (`generated`, `generated:RES`,
//! `generated:RES:FRAMES`, `generated:RES:FRAMES:GAP`).

/// Largest cloth resolution (vertices per side) accepted: 1024² ≈ 1M
/// vertices, well above the data sets' cloth (≈ 46K).
pub const MAX_RESOLUTION: usize = 1024;
/// Largest frame count accepted.
pub const MAX_FRAMES: usize = 10_000;
/// Largest sphere subdivision level accepted (10·4⁶ + 2 = 40,962 vertices).
pub const MAX_SPHERE_SUBDIVISIONS: u32 = 6;
/// Largest number of solver substeps per frame.
pub const MAX_SUBSTEPS: usize = 1000;
/// Largest gap between the cloth's collider and the sphere mesh, m (the
/// cloth stays well inside the simulation's 1 km divergence bound).
pub const MAX_GAP: f64 = 100.0;
/// Largest amount of cloth positions held in memory by
/// [`generate`](super::generate): resolution² × frames (≈ 1.5 GiB of `f64`
/// triples).
pub const MAX_CLOTH_VERTEX_FRAMES: usize = 1 << 26;

/// Why a scene cannot be generated: a parameter out of range, or a spec
/// that does not parse. Every message names the parameter and its range.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// Fix: pass a resolution (cloth vertices per side) in `2..=1024`.
    #[error("resolution {0}: the cloth needs 2 to {MAX_RESOLUTION} vertices per side")]
    Resolution(usize),
    /// Fix: pass a frame count in `2..=10000` (a step needs two frames).
    #[error("frames {0}: a sequence needs 2 to {MAX_FRAMES} frames")]
    Frames(usize),
    /// Fix: pass at most 10000 warm-up frames.
    #[error("warm-up frames {0}: at most {MAX_FRAMES}")]
    WarmupFrames(usize),
    /// Fix: pass `1..=1000` substeps per frame.
    #[error("substeps {0}: the solver needs 1 to {MAX_SUBSTEPS} substeps per frame")]
    Substeps(usize),
    /// Fix: pass a sphere subdivision level in `0..=6`.
    #[error("sphere subdivisions {0}: must be 0 to {MAX_SPHERE_SUBDIVISIONS}")]
    SphereSubdivisions(u32),
    /// A real parameter that is not finite or out of its range.
    #[error("{name} = {value:?}: must be finite and {range}")]
    Real {
        /// The parameter.
        name: &'static str,
        /// Its value.
        value: f64,
        /// The accepted range, in words.
        range: &'static str,
    },
    /// Fix: fewer frames or a lower resolution (or stream the frames with
    /// [`ClothSphere`](super::ClothSphere) instead of collecting them).
    #[error(
        "resolution {resolution} × {frames} frames: more than {MAX_CLOTH_VERTEX_FRAMES} cloth positions to hold in memory"
    )]
    TooLarge {
        /// Cloth vertices per side.
        resolution: usize,
        /// Frames.
        frames: usize,
    },
    /// A `generated…` sequence spec that does not parse.
    #[error(
        "{0}: expected generated, generated:RESOLUTION, generated:RESOLUTION:FRAMES or generated:RESOLUTION:FRAMES:GAP"
    )]
    Spec(String),
    /// The simulation produced a non-finite position or one more than 1 km
    /// from the sphere (a bug; please report the parameters).
    #[error("frame {frame}: the cloth simulation diverged (a position non-finite or 1 km away)")]
    Diverged {
        /// The frame.
        frame: usize,
    },
    /// An internal invariant failed (a bug; please report the parameters).
    #[error("internal error of the scene generator: {0}")]
    Internal(String),
}

/// The generated scene: a square cloth of `resolution × resolution`
/// vertices falls onto a sphere spinning about a tilted axis, drapes and
/// folds through itself (see [`ClothSphere`](super::ClothSphere)).
///
/// Lengths are metres, times seconds: the collision sphere has radius 0.5 m
/// and the cloth is 2 m square, released at rest 20 mm above the sphere
/// (grown by `gap`) `warmup_frames` before frame 0.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneParams {
    /// Cloth vertices per side (`2..=1024`); 216 gives 46,656 cloth vertices,
    /// the scale of the data sets' cloth-ball scene.
    pub resolution: usize,
    /// Frames written (`2..=10000`); steps are one fewer.
    pub frames: usize,
    /// Frames simulated before frame 0, not written (`0..=10000`): the
    /// default starts the sequence as the sheet drapes, so that the first
    /// steps already have contact.
    pub warmup_frames: usize,
    /// Time between frames, s (`(0, 1]`).
    pub frame_dt: f64,
    /// Solver substeps per frame, one constraint iteration each (`1..=1000`).
    pub substeps: usize,
    /// Icosphere subdivision level of the sphere mesh (`0..=6`).
    pub sphere_subdivisions: u32,
    /// Angular speed of the sphere, rad/s (`[0, 100]`).
    pub spin: f64,
    /// Friction between cloth and sphere: the share of the tangential slip
    /// removed per substep (`[0, 1]`).
    pub friction: f64,
    /// Seed of the jitter of the cloth's initial heights.
    pub seed: u64,
    /// Gap, m (`[0, 100]`): the cloth collides with the collision sphere
    /// grown by `gap`, so it comes to rest about `gap` above the sphere
    /// mesh, which is written unchanged. 0 (the default) is the scene
    /// whose sphere facets sweep through the resting cloth; a gap larger
    /// than those facets' reach leaves the sphere and the cloth apart, so
    /// that minimum-separation CCD finds cloth–sphere pairs only for
    /// separations above about the gap.
    pub gap: f64,
}

impl Default for SceneParams {
    /// The embedded default: cloth-ball scale (216² cloth vertices), 40
    /// frames at 30 frames/s after 16 warm-up frames, 8 substeps, a
    /// 642-vertex sphere spinning at 3 rad/s.
    fn default() -> Self {
        SceneParams {
            resolution: 216,
            frames: 40,
            warmup_frames: 16,
            frame_dt: 1.0 / 30.0,
            substeps: 8,
            sphere_subdivisions: 3,
            spin: 3.0,
            friction: 0.5,
            seed: 2022,
            gap: 0.0,
        }
    }
}

impl SceneParams {
    /// The default scene with another resolution and frame count.
    pub fn with_size(resolution: usize, frames: usize) -> SceneParams {
        SceneParams {
            resolution,
            frames,
            ..SceneParams::default()
        }
    }

    /// Checks every parameter; the error names the first one out of range.
    pub fn validate(&self) -> Result<(), GenerateError> {
        if !(2..=MAX_RESOLUTION).contains(&self.resolution) {
            return Err(GenerateError::Resolution(self.resolution));
        }
        if !(2..=MAX_FRAMES).contains(&self.frames) {
            return Err(GenerateError::Frames(self.frames));
        }
        if self.warmup_frames > MAX_FRAMES {
            return Err(GenerateError::WarmupFrames(self.warmup_frames));
        }
        if !(1..=MAX_SUBSTEPS).contains(&self.substeps) {
            return Err(GenerateError::Substeps(self.substeps));
        }
        if self.sphere_subdivisions > MAX_SPHERE_SUBDIVISIONS {
            return Err(GenerateError::SphereSubdivisions(self.sphere_subdivisions));
        }
        let real = |name, value: f64, ok: bool, range| {
            if value.is_finite() && ok {
                Ok(())
            } else {
                Err(GenerateError::Real { name, value, range })
            }
        };
        real(
            "frame_dt",
            self.frame_dt,
            self.frame_dt > 0.0 && self.frame_dt <= 1.0,
            "in (0, 1] s",
        )?;
        real(
            "spin",
            self.spin,
            (0.0..=100.0).contains(&self.spin),
            "in [0, 100] rad/s",
        )?;
        // The sphere's substep rotation is built from a series valid for
        // half-angles up to 1 rad.
        let per_substep = self.spin * self.frame_dt / self.substeps as f64;
        real(
            "spin",
            self.spin,
            per_substep <= 1.0,
            "at most 1 rad per substep (spin × frame_dt / substeps ≤ 1)",
        )?;
        real(
            "friction",
            self.friction,
            (0.0..=1.0).contains(&self.friction),
            "in [0, 1]",
        )?;
        real(
            "gap",
            self.gap,
            (0.0..=MAX_GAP).contains(&self.gap),
            "in [0, 100] m",
        )?;
        Ok(())
    }

    /// [`validate`](Self::validate), and the memory bound of holding every
    /// frame ([`MAX_CLOTH_VERTEX_FRAMES`]).
    pub fn validate_in_memory(&self) -> Result<(), GenerateError> {
        self.validate()?;
        let positions =
            (self.resolution.saturating_mul(self.resolution)).saturating_mul(self.frames);
        if positions > MAX_CLOTH_VERTEX_FRAMES {
            return Err(GenerateError::TooLarge {
                resolution: self.resolution,
                frames: self.frames,
            });
        }
        Ok(())
    }

    /// Parses a sequence spec: `generated` (the default),
    /// `generated:RES`, `generated:RES:FRAMES` or
    /// `generated:RES:FRAMES:GAP` (the [`gap`](Self::gap) in metres).
    /// `None` when `spec` does not start with `generated`; the parameters
    /// are not checked here ([`validate`](Self::validate)).
    pub fn from_spec(spec: &str) -> Option<Result<SceneParams, GenerateError>> {
        let rest = spec.strip_prefix("generated")?;
        if rest.is_empty() {
            return Some(Ok(SceneParams::default()));
        }
        let bad = || GenerateError::Spec(spec.to_string());
        let Some(rest) = rest.strip_prefix(':') else {
            return Some(Err(bad()));
        };
        let parts: Vec<&str> = rest.split(':').collect();
        if parts.len() > 3 {
            return Some(Err(bad()));
        }
        let defaults = SceneParams::default();
        let number = |i: usize, default: usize| -> Result<usize, GenerateError> {
            parts
                .get(i)
                .map_or(Ok(default), |s| s.parse().map_err(|_| bad()))
        };
        let parsed = (|| {
            let resolution = number(0, defaults.resolution)?;
            let frames = number(1, defaults.frames)?;
            // A real number in plain decimal or exponent notation (not
            // `inf` or `nan`, which `validate` would refuse anyway).
            let gap = match parts.get(2) {
                None => defaults.gap,
                Some(s) if s.chars().all(|c| c.is_ascii_digit() || ".eE+-".contains(c)) => {
                    s.parse().map_err(|_| bad())?
                }
                Some(_) => return Err(bad()),
            };
            Ok(SceneParams {
                gap,
                ..SceneParams::with_size(resolution, frames)
            })
        })();
        Some(parsed)
    }

    /// The sequence name: `generated` for the default, else
    /// `generated-RESxRES-Ff`, with `-gapG` when the gap is not 0 and
    /// `-custom` when other parameters differ.
    pub fn name(&self) -> String {
        let defaults = SceneParams::default();
        if *self == defaults {
            return "generated".to_string();
        }
        let custom = SceneParams {
            resolution: defaults.resolution,
            frames: defaults.frames,
            gap: defaults.gap,
            ..self.clone()
        } != defaults;
        format!(
            "generated-{r}x{r}-{f}f{}{}",
            if self.gap != 0.0 {
                format!("-gap{:?}", self.gap)
            } else {
                String::new()
            },
            if custom { "-custom" } else { "" },
            r = self.resolution,
            f = self.frames
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_is_valid_and_named_generated() {
        let p = SceneParams::default();
        p.validate_in_memory().unwrap();
        assert_eq!(p.name(), "generated");
        assert_eq!(SceneParams::with_size(24, 12).name(), "generated-24x24-12f");
        let p = SceneParams {
            spin: 0.0,
            ..SceneParams::with_size(24, 12)
        };
        assert_eq!(p.name(), "generated-24x24-12f-custom");
        let p = SceneParams {
            gap: 0.008,
            ..SceneParams::with_size(24, 12)
        };
        assert_eq!(p.name(), "generated-24x24-12f-gap0.008");
    }

    #[test]
    fn out_of_range_parameters_are_named() {
        let d = SceneParams::default;
        let cases: Vec<(SceneParams, GenerateError)> = vec![
            (SceneParams { frames: 0, ..d() }, GenerateError::Frames(0)),
            (SceneParams { frames: 1, ..d() }, GenerateError::Frames(1)),
            (
                SceneParams {
                    resolution: 1,
                    ..d()
                },
                GenerateError::Resolution(1),
            ),
            (
                SceneParams {
                    resolution: 5000,
                    ..d()
                },
                GenerateError::Resolution(5000),
            ),
            (
                SceneParams { substeps: 0, ..d() },
                GenerateError::Substeps(0),
            ),
            (
                SceneParams {
                    warmup_frames: 20_000,
                    ..d()
                },
                GenerateError::WarmupFrames(20_000),
            ),
            (
                SceneParams {
                    sphere_subdivisions: 9,
                    ..d()
                },
                GenerateError::SphereSubdivisions(9),
            ),
        ];
        for (p, e) in cases {
            assert_eq!(p.validate(), Err(e));
        }
        for (p, name) in [
            (
                SceneParams {
                    spin: f64::NAN,
                    ..d()
                },
                "spin",
            ),
            (
                SceneParams {
                    friction: 1.5,
                    ..d()
                },
                "friction",
            ),
            (
                SceneParams {
                    frame_dt: f64::INFINITY,
                    ..d()
                },
                "frame_dt",
            ),
            (
                SceneParams {
                    frame_dt: 0.0,
                    ..d()
                },
                "frame_dt",
            ),
            (SceneParams { gap: -1e-3, ..d() }, "gap"),
            (
                SceneParams {
                    gap: f64::INFINITY,
                    ..d()
                },
                "gap",
            ),
            (SceneParams { gap: 1e3, ..d() }, "gap"),
        ] {
            let e = p.validate().unwrap_err();
            assert!(
                matches!(e, GenerateError::Real { name: n, .. } if n == name),
                "{e}"
            );
            assert!(e.to_string().starts_with(name), "{e}");
        }
        let big = SceneParams::with_size(1024, 1000);
        big.validate().unwrap();
        assert!(matches!(
            big.validate_in_memory(),
            Err(GenerateError::TooLarge { .. })
        ));
    }

    #[test]
    fn specs() {
        let d = SceneParams::default();
        assert_eq!(SceneParams::from_spec("generated"), Some(Ok(d.clone())));
        assert_eq!(
            SceneParams::from_spec("generated:24"),
            Some(Ok(SceneParams::with_size(24, d.frames)))
        );
        assert_eq!(
            SceneParams::from_spec("generated:24:12"),
            Some(Ok(SceneParams::with_size(24, 12)))
        );
        assert_eq!(
            SceneParams::from_spec("generated:24:12:0.01"),
            Some(Ok(SceneParams {
                gap: 0.01,
                ..SceneParams::with_size(24, 12)
            }))
        );
        assert_eq!(SceneParams::from_spec("cloth_ball"), None);
        for bad in [
            "generated:",
            "generated:x",
            "generated:24:",
            "generated:24:12:",
            "generated:24:12:inf",
            "generated:24:12:0.01:3",
            "generated24",
            "generated:-3",
        ] {
            assert_eq!(
                SceneParams::from_spec(bad),
                Some(Err(GenerateError::Spec(bad.to_string()))),
                "{bad}"
            );
        }
    }
}
