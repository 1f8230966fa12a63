//! Shared setup for the figures the reports draw with plotters: the font.
//!
//! plotters' `ab_glyph` text backend has no built-in font. The first usable
//! TrueType file among `$CCDLAB_FONT` (alone, when set) and the system paths
//! in [`FONT_PATHS`] is registered as plotters' `sans-serif`, once per
//! process. Without one, report code draws its figures without any text
//! rather than failing, and says so in the report.

use std::sync::OnceLock;

/// Environment variable naming a font file to use instead of the defaults.
pub const FONT_ENV: &str = "CCDLAB_FONT";

/// Where a TrueType font is looked for, in order, when `$CCDLAB_FONT` is not
/// set.
pub const FONT_PATHS: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
];

/// Registers the first usable font as plotters' `sans-serif` (once per
/// process) and returns its path, or `None` when there is none: then no text
/// can be drawn.
pub fn load_font() -> Option<&'static str> {
    static LOADED: OnceLock<Option<&'static str>> = OnceLock::new();
    *LOADED.get_or_init(|| {
        let candidates: Vec<String> = match std::env::var(FONT_ENV) {
            Ok(p) => vec![p],
            Err(_) => FONT_PATHS.iter().map(|s| s.to_string()).collect(),
        };
        for path in candidates {
            if let Ok(bytes) = std::fs::read(&path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font(
                    "sans-serif",
                    plotters::style::FontStyle::Normal,
                    bytes,
                )
                .is_ok()
                {
                    return Some(&*Box::leak(path.into_boxed_str()));
                }
            }
        }
        None
    })
}

/// Why [`load_font`] found no font, for a note: the file `$CCDLAB_FONT`
/// names (the only one tried when it is set) cannot be read or is no
/// TrueType font, or, unset, none of [`FONT_PATHS`] is usable.
pub fn no_font_reason() -> String {
    match std::env::var(FONT_ENV) {
        // Opened, not read: the reason without reading the file again.
        Ok(p) => match std::fs::File::open(&p).and_then(|f| f.metadata()) {
            Err(e) => format!("the font file {FONT_ENV} names, {p}, cannot be read: {e}"),
            Ok(m) if m.is_dir() => format!("{FONT_ENV} names a folder, {p}, not a font file"),
            Ok(_) => format!("the font file {FONT_ENV} names, {p}, is not a usable TrueType font"),
        },
        Err(_) => format!("no font found (set {FONT_ENV})"),
    }
}
