use ccdlab::exact::Dyadic;
use ccdlab::math::Vec3;
use ccdlab::narrow_phase::oracle;
use num_bigint::BigInt;

fn val(n: &str, d: &str) -> f64 {
    let n: BigInt = n.trim().parse().unwrap();
    let d: BigInt = d.trim().parse().unwrap();
    let k = d.trailing_zeros().unwrap();
    assert_eq!(d.clone() >> k << k, d.clone());
    assert_eq!(d >> k, BigInt::from(1));
    let x = Dyadic::new(n, k);
    assert_eq!(x.to_f64_down(), x.to_f64_up());
    x.to_f64_down()
}

fn load(path: &std::path::Path) -> Vec<([Vec3; 8], Option<bool>)> {
    let text = std::fs::read_to_string(path).unwrap();
    let rows: Vec<(Vec3, Option<bool>)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                Vec3::new(val(f[0], f[1]), val(f[2], f[3]), val(f[4], f[5])),
                f.get(6).map(|t| t.trim() == "1"),
            )
        })
        .collect();
    rows.chunks(8)
        .map(|c| (std::array::from_fn(|i| c[i].0), c[0].1))
        .collect()
}

#[test]
fn scratch_all() {
    let root = ccdlab::harness::data::require_root().unwrap();
    let mut files = vec![];
    for scene in std::fs::read_dir(root.join("ccd-queries")).unwrap() {
        let scene = scene.unwrap().path();
        for kind in ["vertex-face", "edge-edge"] {
            if let Ok(rd) = std::fs::read_dir(scene.join(kind)) {
                for f in rd {
                    files.push((f.unwrap().path(), kind == "vertex-face", None));
                }
            }
        }
    }
    for k in ["vf", "ee"] {
        let p = root.join(format!("scalable-ccd/cloth-funnel/queries/227{k}.csv"));
        let t: Vec<bool> = serde_json::from_str(
            &std::fs::read_to_string(root.join(format!(
                "scalable-ccd/cloth-funnel/mma_bool/227{k}_mma_bool.json"
            )))
            .unwrap(),
        )
        .unwrap();
        files.push((p, k == "vf", Some(t)));
    }
    files.sort();
    let mut total_bad = 0;
    for (path, vf, truth) in files {
        let qs = load(&path);
        let start = std::time::Instant::now();
        let (mut fp, mut fneg, mut pos) = (0, 0, 0);
        for (i, (q, t)) in qs.iter().enumerate() {
            let t = t.unwrap_or_else(|| truth.as_ref().unwrap()[i]);
            let r = if vf {
                oracle::vertex_face(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7])
            } else {
                oracle::edge_edge(&q[0], &q[1], &q[2], &q[3], &q[4], &q[5], &q[6], &q[7])
            };
            let got = r.is_some();
            if t {
                pos += 1;
            }
            if got && !t {
                fp += 1;
                if fp < 3 {
                    eprintln!("FP {} #{i}", path.display());
                }
            }
            if !got && t {
                fneg += 1;
                if fneg < 3 {
                    eprintln!("FN {} #{i}", path.display());
                }
            }
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / qs.len() as f64;
        println!(
            "{:70} n={:5} pos={:5} fp={fp} fn={fneg} {us:.1}us",
            path.strip_prefix(&root).unwrap().display(),
            qs.len(),
            pos
        );
        total_bad += fp + fneg;
    }
    assert_eq!(total_bad, 0);
}
