//! Shared by the tests whose oracle is a Python library
//! (`cite_metrics_scipy.rs`, `cite_metrics_sklearn.rs`): their seeded
//! generator, and the one way they run the oracle. A missing oracle FAILS
//! the test (with what to install); it never skips.
// each test binary that includes this module uses only some of it
#![allow(dead_code)]

use serde_json::Value;
use std::process::Command;

/// xorshift64*: deterministic inputs.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The first of `python3`, `/usr/bin/python3` that can `import {module}`;
/// panics naming the Debian package to install when none can.
pub fn python(module: &str, package: &str) -> String {
    for p in ["python3", "/usr/bin/python3"] {
        let ok = Command::new(p).args(["-c", &format!("import {module}")]).output().is_ok_and(|o| o.status.success());
        if ok {
            return p.to_string();
        }
    }
    panic!(
        "no python3 that imports {module}, the oracle of this test: run scripts/setup.sh (apt-get install {package})"
    );
}

/// Runs `script` (which reads the cases from `sys.argv[1]` and writes its
/// answers, one per case, to `sys.argv[2]`) with a python3 that imports
/// `module`, in a directory of its own (the tests run in parallel).
pub fn answers(module: &str, package: &str, script: &str, cases: &[Value]) -> Vec<Value> {
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("ev-oracle-{module}-{}-{call}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (inp, outp) = (dir.join("in.json"), dir.join("out.json"));
    std::fs::write(&inp, serde_json::to_string(cases).unwrap()).unwrap();
    let py = python(module, package);
    let run = Command::new(&py).arg("-c").arg(script).arg(&inp).arg(&outp).output().unwrap();
    assert!(run.status.success(), "{py} failed: {}", String::from_utf8_lossy(&run.stderr));
    let expected: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&outp).unwrap()).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(expected.len(), cases.len(), "the oracle answered {} cases of {}", expected.len(), cases.len());
    expected
}
