//! How every options object of the crate is read from JSON (issue 14: one
//! options model). Each options struct owns its defaults and bounds (one
//! `const` each, documented there) and has one `from_json` built on
//! [`Fields`]: validate's [`Config`](crate::validate::Config) and
//! [`FindOptions`](crate::validate::FindOptions),
//! [`DocumentOptions`](crate::validate::DocumentOptions), the transcript's
//! [`TranscriptConfig`](crate::transcript::TranscriptConfig),
//! [`ImportOptions`](crate::transcript::ImportOptions),
//! [`RunOptions`](crate::transcript::RunOptions) and
//! [`RedactionOptions`](crate::transcript::RedactionOptions), and the
//! judge's [`JudgeOptions`](crate::judge::JudgeOptions) and
//! [`JudgeConfig`](crate::judge::JudgeConfig), the citation pipeline's
//! [`CiteConfig`](crate::cite::config::CiteConfig), and
//! [`SliceOptions`](crate::validate::SliceOptions). The CLI, the wasm
//! bindings and (through the package) the edge function all go through
//! them: a surface turns its flags or JS values into JSON and parses that.
//!
//! The reader is strict, like serde's `deny_unknown_fields` but with the
//! JSON path in every error: an unknown key, a wrong type or an
//! out-of-range value is a `CONFIGURATION_ERROR` whose `details.json_path`
//! names the key (`$.fuzzy_matching.treshold`). `null` for a nested object
//! means its defaults; `null` for a scalar is a wrong type (it would
//! otherwise silently be the default).

use crate::error::{Error, JsonPath, Result};
use serde_json::{Map, Value};

/// The object of an options value at the root: `None` for `null` (the
/// defaults), an error naming `what` when it is not an object.
pub(crate) fn root<'a>(value: &'a Value, what: &str) -> Result<Option<Fields<'a>>> {
    match value {
        Value::Null => Ok(None),
        Value::Object(obj) => Ok(Some(Fields::new(obj, &JsonPath::root()))),
        _ => Err(Error::invalid_config(&JsonPath::root(), "type", format!("{what} must be a JSON object"))),
    }
}

/// [`root`] for the options objects of the JS API (`{format: null}`,
/// `{timeoutMs: undefined}`), where a key whose value is `null` is absent,
/// as it always was there.
pub(crate) fn root_null_absent<'a>(value: &'a Value, what: &str) -> Result<Option<Fields<'a>>> {
    Ok(root(value, what)?.map(|f| Fields { null_absent: true, ..f }))
}

/// `x`, the value of `key` at `path`, as a whole number from `min` to `max`
/// (both included): the check of [`Fields::count`], also for a number
/// given outside an options object (`DocumentBuilder::step_budget`); not
/// finite, not whole or out of the range, a `CONFIGURATION_ERROR` naming
/// `path`.
pub(crate) fn whole_number<T: TryFrom<u64>>(key: &str, path: &JsonPath, x: f64, min: u64, max: u64) -> Result<T> {
    if !x.is_finite() {
        return Err(Error::invalid_config(path, "type", format!("{key} must be a finite number")));
    }
    let whole = if x.fract() == 0.0 && x >= min as f64 && x <= max as f64 { T::try_from(x as u64).ok() } else { None };
    whole.ok_or_else(|| {
        Error::invalid_config(path, "range", format!("{key} must be a whole number from {min} to {max}, got {x}"))
    })
}

/// Reads the known keys of one options object and refuses the rest.
pub(crate) struct Fields<'a> {
    obj: &'a Map<String, Value>,
    path: JsonPath,
    used: Vec<&'static str>,
    /// A key whose value is `null` reads as absent.
    null_absent: bool,
}

impl<'a> Fields<'a> {
    /// The reader of `obj`, found at `path`.
    pub(crate) fn new(obj: &'a Map<String, Value>, path: &JsonPath) -> Self {
        Fields { obj, path: path.clone(), used: Vec::new(), null_absent: false }
    }

    /// The value of `key` and its path, marking the key as known.
    pub(crate) fn take(&mut self, key: &'static str) -> Option<(&'a Value, JsonPath)> {
        self.used.push(key);
        self.obj.get(key).filter(|v| !(self.null_absent && v.is_null())).map(|v| (v, self.path.key(key)))
    }

    /// A nested object (`null` or absent: `None`, its defaults).
    pub(crate) fn object(&mut self, key: &'static str) -> Result<Option<Fields<'a>>> {
        match self.take(key) {
            None | Some((Value::Null, _)) => Ok(None),
            Some((Value::Object(o), p)) => Ok(Some(Fields { null_absent: self.null_absent, ..Fields::new(o, &p) })),
            Some((_, p)) => Err(Error::invalid_config(&p, "type", format!("{key} must be an object"))),
        }
    }

    /// The path of this object.
    pub(crate) fn path(&self) -> &JsonPath {
        &self.path
    }

    /// `true` or `false` into `out`.
    pub(crate) fn bool(&mut self, key: &'static str, out: &mut bool) -> Result<()> {
        match self.take(key) {
            None => Ok(()),
            Some((Value::Bool(b), _)) => {
                *out = *b;
                Ok(())
            }
            Some((v, p)) => Err(Error::invalid_config(&p, "type", format!("{key} must be true or false, got {v}"))),
        }
    }

    /// A string, with its path.
    pub(crate) fn string(&mut self, key: &'static str) -> Result<Option<(&'a str, JsonPath)>> {
        match self.take(key) {
            None => Ok(None),
            Some((Value::String(s), p)) => Ok(Some((s.as_str(), p))),
            Some((v, p)) => Err(Error::invalid_config(&p, "type", format!("{key} must be a string, got {v}"))),
        }
    }

    /// A list of strings.
    pub(crate) fn strings(&mut self, key: &'static str) -> Result<Option<Vec<String>>> {
        match self.take(key) {
            None | Some((Value::Null, _)) => Ok(None),
            Some((Value::Array(items), p)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    Value::String(s) => Ok(s.clone()),
                    other => Err(Error::invalid_config(
                        &p.index(i),
                        "type",
                        format!("{key}[{i}] must be a string, got {other}"),
                    )),
                })
                .collect::<Result<Vec<String>>>()
                .map(Some),
            Some((v, p)) => {
                Err(Error::invalid_config(&p, "type", format!("{key} must be an array of strings, got {v}")))
            }
        }
    }

    /// A finite number, with its path.
    pub(crate) fn number(&mut self, key: &'static str) -> Result<Option<(f64, JsonPath)>> {
        match self.take(key) {
            None => Ok(None),
            Some((Value::Number(n), p)) => match n.as_f64() {
                Some(x) if x.is_finite() => Ok(Some((x, p))),
                _ => Err(Error::invalid_config(&p, "type", format!("{key} must be a finite number"))),
            },
            Some((v, p)) => Err(Error::invalid_config(&p, "type", format!("{key} must be a number, got {v}"))),
        }
    }

    /// A number from 0 to 1 into `out`.
    pub(crate) fn fraction(&mut self, key: &'static str, out: &mut f64) -> Result<()> {
        self.within(key, 0.0, 1.0, out)
    }

    /// A number from `min` to `max` (both included) into `out`.
    pub(crate) fn within(&mut self, key: &'static str, min: f64, max: f64, out: &mut f64) -> Result<()> {
        if let Some((x, p)) = self.number(key)? {
            if !(min..=max).contains(&x) {
                return Err(Error::invalid_config(
                    &p,
                    "range",
                    format!("{key} must be between {min} and {max}, got {x}"),
                ));
            }
            *out = x;
        }
        Ok(())
    }

    /// A number above 0 and at most `max` into `out`.
    pub(crate) fn positive(&mut self, key: &'static str, max: f64, out: &mut f64) -> Result<()> {
        if let Some((x, p)) = self.number(key)? {
            if !(x > 0.0 && x <= max) {
                return Err(Error::invalid_config(
                    &p,
                    "range",
                    format!("{key} must be above 0 and at most {max}, got {x}"),
                ));
            }
            *out = x;
        }
        Ok(())
    }

    /// A whole number from `min` to `max` into `out`.
    pub(crate) fn count<T: TryFrom<u64>>(&mut self, key: &'static str, min: u64, max: u64, out: &mut T) -> Result<()> {
        if let Some((x, p)) = self.number(key)? {
            *out = whole_number(key, &p, x, min, max)?;
        }
        Ok(())
    }

    /// Refuses every key not asked for, naming the first (in sorted order).
    pub(crate) fn finish(self) -> Result<()> {
        let mut unknown: Vec<&String> = self.obj.keys().filter(|k| !self.used.contains(&k.as_str())).collect();
        crate::sort::sort(&mut unknown);
        match unknown.first() {
            None => Ok(()),
            Some(k) => Err(Error::invalid_config(
                &self.path.key(k),
                "additionalProperties",
                format!("unknown key {k:?}; known keys here: {}", self.used.join(", ")),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_fault_names_its_path() {
        let v = json!({"a": {"n": 2.5, "x": 1}, "s": 3});
        let Some(mut f) = root(&v, "options").unwrap() else { panic!("an object") };
        let mut a = f.object("a").unwrap().unwrap();
        let mut n = 0usize;
        let e = a.count("n", 0, 10, &mut n).unwrap_err();
        assert_eq!((e.code(), e.details()["json_path"].as_str()), ("CONFIGURATION_ERROR", Some("$.a.n")));
        let e = a.finish().unwrap_err();
        assert_eq!(e.details()["json_path"], "$.a.x", "n was asked for, so only x is unknown: {e}");
        let e = f.string("s").unwrap_err();
        assert_eq!(e.details()["json_path"], "$.s");
        assert!(root(&json!([1]), "options").is_err());
        assert!(root(&Value::Null, "options").unwrap().is_none());
    }

    #[test]
    fn counts_take_whole_numbers_in_range_and_scalars_refuse_null() {
        let v = json!({"n": 3.0, "big": 300, "z": null});
        let mut f = root(&v, "o").unwrap().unwrap();
        let (mut n, mut small) = (0usize, 0u8);
        f.count("n", 0, 5, &mut n).unwrap();
        assert_eq!(n, 3);
        // in the range asked for, but not in the type: refused, not wrapped
        assert!(f.count("big", 0, 1000, &mut small).is_err());
        assert_eq!(small, 0);
        let mut b = false;
        assert_eq!(f.bool("z", &mut b).unwrap_err().details()["json_path"], "$.z");
    }
}
