//! [`enum_with_all!`]: an enum and its `ALL` array of every variant, written
//! from one list. The command line's choices, the Python package's names and
//! the tests' loops over every solver, filter setting or k-DOP read `ALL`; an
//! `ALL` written by hand beside its enum could leave a new variant out, and
//! the variant would then be invisible to all of them with nothing failing.
//! Declared through the macro, a variant is in `ALL` by construction, in
//! declaration order.

/// Declares `enum $name { … }` as written (attributes, docs and derives kept)
/// and `impl $name { pub const ALL: [$name; N] }` with every variant in
/// declaration order; the attributes written before `const ALL;` (its doc)
/// go on the constant. Unit variants only.
macro_rules! enum_with_all {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident,)+
        }
        $(#[$all_meta:meta])*
        const ALL;
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            $(#[$all_meta])*
            pub const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];
        }
    };
}

pub(crate) use enum_with_all;

#[cfg(test)]
mod tests {
    super::enum_with_all! {
        /// Three variants, the middle one with an attribute.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
        enum Three {
            First,
            #[default]
            Second,
            Third,
        }
        /// Every variant.
        const ALL;
    }

    #[test]
    fn all_lists_every_variant_in_declaration_order() {
        assert_eq!(Three::ALL, [Three::First, Three::Second, Three::Third]);
        assert_eq!(Three::default(), Three::Second);
    }
}
