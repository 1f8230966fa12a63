//! Output files that are either complete or absent. The writer lives in
//! [`crate::io`] so that every stage (the mesh writers included) can use it;
//! it is re-exported here for the harness.

pub use crate::io::{
    FolderError, StageError, StagedFolder, check_output, check_replaceable, replace_folder,
    write_atomic, write_atomic_with,
};
