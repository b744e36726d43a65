//! Shared by the CLI tests (`cli.rs`, `conformance_cli.rs`): the built
//! binary run in a temporary directory, as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A directory under the system's temporary directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// `ev-cli-<name>-<pid>`, fresh.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ev-cli-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// Writes `content` to `name` inside; its path.
    pub fn write(&self, name: &str, content: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, content).unwrap();
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the CLI with `args`.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evidence-validator")).args(args).output().unwrap()
}

/// A path as an argument.
pub fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}
