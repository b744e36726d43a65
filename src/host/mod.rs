//! What the host provides. For now the clock: the core never reads the time
//! itself (on `wasm32-unknown-unknown` std has no clock), so natively the
//! [`SystemClock`] is used and in wasm the JS `Date`.

/// A source of time.
pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> f64;
}

/// The operating system's clock (not on wasm32).
#[cfg(not(target_arch = "wasm32"))]
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

#[cfg(not(target_arch = "wasm32"))]
impl Clock for SystemClock {
    fn now_ms(&self) -> f64 {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    }
}

/// A clock that always says the same time: for tests and reproducible runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct FixedClock(pub f64);

impl Clock for FixedClock {
    fn now_ms(&self) -> f64 {
        self.0
    }
}

/// RFC 3339 UTC timestamp (`2026-11-22T10:04:05.123Z`) of `ms` since the epoch.
pub fn rfc3339(ms: f64) -> String {
    let total_ms = if ms.is_finite() && ms > 0.0 { ms as i64 } else { 0 };
    let (days, day_ms) = (total_ms.div_euclid(86_400_000), total_ms.rem_euclid(86_400_000));
    // civil-from-days (Howard Hinnant's algorithm)
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + (month <= 2) as i64;
    let (h, m, s, milli) = (day_ms / 3_600_000, day_ms / 60_000 % 60, day_ms / 1000 % 60, day_ms % 1000);
    format!("{year:04}-{month:02}-{day:02}T{h:02}:{m:02}:{s:02}.{milli:03}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(0.0), "1970-01-01T00:00:00.000Z");
        // 2024-02-29T12:34:56.789Z, leap day (date -u -d @1709210096.789)
        assert_eq!(rfc3339(1_709_210_096_789.0), "2024-02-29T12:34:56.789Z");
        assert_eq!(rfc3339(951_782_400_000.0), "2000-02-29T00:00:00.000Z");
    }
}
