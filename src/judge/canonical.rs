//! Reading a cited file from the canonical directory (spec 002 step 1,
//! `data/canonical/<filename>`), natively. The file name comes from
//! untrusted input (a report written by an LLM), so it must not reach
//! anything outside the directory:
//!
//! - a name that is absolute or has a `..` component is refused as written;
//! - the directory and the file are resolved ([`std::fs::canonicalize`], so
//!   every symlink is followed) and a file that resolves outside the
//!   directory is refused: a symlink `data/canonical/x -> /etc/passwd` is
//!   not a source;
//! - only regular files are read (not FIFOs or devices, which could block
//!   or never end), at most [`MAX_CANONICAL_BYTES`], from the resolved path.
//!
//! A refusal is a typed [`Error`] (`VALIDATION_ERROR`, details `path`,
//! `canonical_dir`, `resolved` when known, `constraint`); a file that is not
//! there is [`SourceError::Missing`] (the judge's `FILE_NOT_FOUND`).

use crate::error::{Error, ErrorKind};
use serde_json::Value;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// Largest canonical file read (256 MiB).
pub const MAX_CANONICAL_BYTES: u64 = 256 * 1024 * 1024;

/// Why a cited file cannot be used.
#[derive(Debug, Clone)]
pub enum SourceError {
    /// It is not there (or cannot be read): the judge's `FILE_NOT_FOUND`.
    Missing(String),
    /// It is refused: outside the directory, not a regular file, too large.
    Refused(Error),
}

impl SourceError {
    /// The message (for a `FILE_NOT_FOUND` result's `error`).
    pub fn message(&self) -> String {
        match self {
            SourceError::Missing(m) => m.clone(),
            SourceError::Refused(e) => format!("refused: {}", e.message()),
        }
    }
}

fn refused(name: &str, dir: &Path, constraint: &str, message: String) -> SourceError {
    SourceError::Refused(
        Error::new(ErrorKind::Validation, message)
            .with_detail("path", Value::String(name.to_string()))
            .with_detail("canonical_dir", Value::String(dir.display().to_string()))
            .with_detail("constraint", Value::String(constraint.to_string())),
    )
}

/// The real path of `name` inside `dir`, or why not.
pub fn resolve(dir: &Path, name: &str) -> Result<PathBuf, SourceError> {
    let rel = Path::new(name);
    if name.is_empty() || rel.components().any(|c| !matches!(c, Component::Normal(_) | Component::CurDir)) {
        return Err(refused(
            name,
            dir,
            "file_name_inside_canonical_dir",
            format!("{name:?} is not a file name inside the canonical directory {}", dir.display()),
        ));
    }
    let root = dir
        .canonicalize()
        .map_err(|e| SourceError::Missing(format!("cannot read the canonical directory {}: {e}", dir.display())))?;
    let path = dir.join(rel);
    let real = path.canonicalize().map_err(|e| SourceError::Missing(format!("cannot read {}: {e}", path.display())))?;
    if !real.starts_with(&root) {
        return Err(
            match refused(
                name,
                &root,
                "inside_canonical_dir",
                format!(
                    "{name:?} resolves to {} outside the canonical directory {} (a symlink out of it)",
                    real.display(),
                    root.display()
                ),
            ) {
                SourceError::Refused(e) => {
                    SourceError::Refused(e.with_detail("resolved", Value::String(real.display().to_string())))
                }
                other => other,
            },
        );
    }
    Ok(real)
}

/// The text of `name` in `dir` (invalid UTF-8 replaced; the flag says
/// whether any was), or why not.
pub fn read(dir: &Path, name: &str) -> Result<(String, bool), SourceError> {
    let real = resolve(dir, name)?;
    let meta =
        std::fs::metadata(&real).map_err(|e| SourceError::Missing(format!("cannot read {}: {e}", real.display())))?;
    if !meta.is_file() {
        return Err(refused(name, dir, "regular_file", format!("{name:?} ({}) is not a regular file", real.display())));
    }
    let file =
        std::fs::File::open(&real).map_err(|e| SourceError::Missing(format!("cannot read {}: {e}", real.display())))?;
    let mut bytes = Vec::new();
    file.take(MAX_CANONICAL_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| SourceError::Missing(format!("cannot read {}: {e}", real.display())))?;
    if bytes.len() as u64 > MAX_CANONICAL_BYTES {
        return Err(refused(
            name,
            dir,
            "max_canonical_bytes",
            format!("{name:?} is larger than {MAX_CANONICAL_BYTES} bytes"),
        ));
    }
    Ok(match String::from_utf8(bytes) {
        Ok(s) => (s, false),
        Err(e) => (String::from_utf8_lossy(e.as_bytes()).into_owned(), true),
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    struct Tmp(PathBuf);
    impl Drop for Tmp {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[test]
    fn symlinks_out_of_the_directory_are_refused() {
        let tmp = Tmp(std::env::temp_dir().join(format!("ev-canonical-{}", std::process::id())));
        let dir = tmp.0.join("canonical");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(tmp.0.join("secret.txt"), "outside").unwrap();
        std::fs::write(dir.join("doc.txt"), "inside").unwrap();
        std::os::unix::fs::symlink(tmp.0.join("secret.txt"), dir.join("escape.txt")).unwrap();
        std::os::unix::fs::symlink(&tmp.0, dir.join("up")).unwrap();
        std::os::unix::fs::symlink(dir.join("doc.txt"), dir.join("sub/alias.txt")).unwrap();

        assert_eq!(read(&dir, "doc.txt").unwrap().0, "inside");
        assert_eq!(read(&dir, "sub/alias.txt").unwrap().0, "inside", "a symlink staying inside is fine");
        for name in ["escape.txt", "up/secret.txt"] {
            match read(&dir, name) {
                Err(SourceError::Refused(e)) => {
                    assert_eq!(e.code(), "VALIDATION_ERROR");
                    assert_eq!(e.details()["path"], name);
                    assert_eq!(e.details()["constraint"], "inside_canonical_dir");
                    assert!(e.details()["resolved"].as_str().unwrap().ends_with("secret.txt"));
                    assert!(e.message().contains(name), "{}", e.message());
                }
                other => panic!("{name}: {other:?}"),
            }
        }
        for name in ["../secret.txt", "/etc/passwd", ""] {
            assert!(matches!(read(&dir, name), Err(SourceError::Refused(_))), "{name}");
        }
        assert!(matches!(read(&dir, "sub"), Err(SourceError::Refused(_))), "a directory is not a file");
        assert!(matches!(read(&dir, "nope.txt"), Err(SourceError::Missing(_))));
        assert_eq!(read(&dir, "doc.txt").unwrap().0, "inside", "a later call still works");
    }
}
