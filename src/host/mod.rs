//! What the host provides: the clock. The core never reads the time itself
//! (on `wasm32-unknown-unknown` std has no clock): natively it is given the
//! [`SystemClock`], in wasm the bindings' clock (`performance.now`). Also
//! what is made from it: a call's [`Deadline`], and [`rfc3339`] for the
//! report's timestamp.

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

/// The time limit of a call when its options set none, in seconds (spec
/// 000's `max_processing_time_seconds` default; every call with a time
/// limit — validate, find, the transcript calls — starts from it).
pub const DEFAULT_TIME_LIMIT_SECONDS: f64 = 120.0;

/// The largest time limit any call accepts, in seconds (a day).
pub const MAX_TIME_LIMIT_SECONDS: f64 = 86_400.0;

/// How many [`Deadline::expired`] calls pass between two readings of the
/// clock. In wasm the clock is a call into JS (`Date.now()`), so it is not
/// read on every step of a hot loop; a step of any loop that asks is at most
/// a few microseconds, so 256 steps stay far below a millisecond.
pub const DEADLINE_STRIDE: u32 = 256;

/// The one point in time past which a call stops working: made once per
/// call from its time limit, and asked inside every loop whose length
/// depends on the input (indexing, every search, every claim; the document
/// readers are one linear pass each and are not asked inside, see
/// ARCHITECTURE.md).
/// Once past, it stays past (`expired` never turns back to false), so every
/// layer that asks after the first sees the same answer.
pub struct Deadline<'c> {
    clock: &'c dyn Clock,
    /// Clock reading (ms) past which the call is over; infinite for none.
    at_ms: f64,
    /// Calls left until the clock is read again.
    countdown: std::cell::Cell<u32>,
    passed: std::cell::Cell<bool>,
}

impl<'c> Deadline<'c> {
    /// `budget_ms` from now on `clock`. A budget that is not a finite
    /// number at least 0 (NaN, infinite, negative) means no deadline; 0 is
    /// a deadline already past.
    pub fn after(clock: &'c dyn Clock, budget_ms: f64) -> Self {
        let at_ms = if budget_ms.is_finite() && budget_ms >= 0.0 { clock.now_ms() + budget_ms } else { f64::INFINITY };
        Deadline { clock, at_ms, countdown: std::cell::Cell::new(0), passed: std::cell::Cell::new(false) }
    }

    /// A deadline that never passes (for callers without a time limit).
    pub fn never() -> Deadline<'static> {
        Deadline {
            clock: &FixedClock(0.0),
            at_ms: f64::INFINITY,
            countdown: std::cell::Cell::new(u32::MAX),
            passed: std::cell::Cell::new(false),
        }
    }

    /// Whether the deadline has passed; reads the clock every
    /// [`DEADLINE_STRIDE`] calls, so it is cheap enough for inner loops.
    pub fn expired(&self) -> bool {
        if self.passed.get() {
            return true;
        }
        let left = self.countdown.get();
        if left > 0 {
            self.countdown.set(left - 1);
            return false;
        }
        self.countdown.set(DEADLINE_STRIDE);
        self.expired_now()
    }

    /// Whether the deadline has passed, reading the clock now (between
    /// phases, where a stale answer would cost a whole phase).
    pub fn expired_now(&self) -> bool {
        if !self.passed.get() && self.at_ms.is_finite() && self.clock.now_ms() > self.at_ms {
            self.passed.set(true);
        }
        self.passed.get()
    }

    /// Milliseconds left (0 when past; infinite without a deadline).
    pub fn remaining_ms(&self) -> f64 {
        if self.at_ms.is_infinite() {
            return f64::INFINITY;
        }
        (self.at_ms - self.clock.now_ms()).max(0.0)
    }

    /// The clock this deadline reads.
    pub fn clock(&self) -> &'c dyn Clock {
        self.clock
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

    /// A clock that moves 1 ms each time it is read.
    struct Ticking(std::cell::Cell<f64>);

    impl Clock for Ticking {
        fn now_ms(&self) -> f64 {
            let t = self.0.get();
            self.0.set(t + 1.0);
            t
        }
    }

    #[test]
    fn a_deadline_passes_and_stays_past() {
        let clock = Ticking(std::cell::Cell::new(0.0));
        let d = Deadline::after(&clock, 3.0); // read once: due at 3 ms
        let mut calls = 0u32;
        while !d.expired() {
            calls += 1;
            assert!(calls < 10 * DEADLINE_STRIDE, "never expired");
        }
        // readings at 1, 2, 3 are not past 3; the one at 4 is: four strides
        assert_eq!(calls, 3 * (DEADLINE_STRIDE + 1));
        assert!(d.expired() && d.expired_now(), "stays past");
        assert_eq!(d.remaining_ms(), 0.0);
    }

    #[test]
    fn no_deadline_never_passes() {
        let d = Deadline::never();
        assert!((0..100_000).all(|_| !d.expired()) && !d.expired_now());
        let clock = FixedClock(5.0);
        for budget in [f64::NAN, f64::INFINITY, -1.0] {
            assert!(!Deadline::after(&clock, budget).expired_now(), "{budget}");
        }
    }

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(0.0), "1970-01-01T00:00:00.000Z");
        // 2024-02-29T12:34:56.789Z, leap day (date -u -d @1709210096.789)
        assert_eq!(rfc3339(1_709_210_096_789.0), "2024-02-29T12:34:56.789Z");
        assert_eq!(rfc3339(951_782_400_000.0), "2000-02-29T00:00:00.000Z");
    }
}
