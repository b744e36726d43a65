//! The judge's options as the JS API and the CLI give them (`threshold`,
//! `contextLines`, `autojunk`, `timeoutMs`, `reportName`, the jurors'
//! names and own timeouts), parsed once here into a [`JudgeConfig`] and the
//! jury's list; the surfaces only take out what JSON cannot hold (the
//! jurors' functions, the log callback).

use super::{check_juror_names, JudgeConfig, MAX_CONTEXT_LINES, MAX_TIMEOUT_MS};
use crate::error::Result;
use crate::options::{self, Fields};
use serde_json::Value;

/// Which call the options are for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JudgeCall {
    /// Steps 1 and 2 only (`checkClaim`, `judgePrompt`): `threshold`,
    /// `contextLines`, `autojunk`.
    Steps,
    /// With a jury (`verifyClaim`, `verifyReport`, the CLI): also
    /// `judges`, `timeoutMs`, `log`, `reportName`.
    Jury,
}

/// One juror of the options: its name and its own timeout.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JurorOptions {
    /// The juror's name (unique, not blank).
    pub name: String,
    /// Overrides the jury's `timeoutMs` for this juror.
    pub timeout_ms: Option<u64>,
}

/// The judge's options, read.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JudgeOptions {
    /// Steps 1 and 2, and the jurors' timeout.
    pub config: JudgeConfig,
    /// The name log entries carry (the surface's default when `None`).
    pub report_name: Option<String>,
    /// The jurors, in order.
    pub jurors: Vec<JurorOptions>,
}

impl JudgeOptions {
    /// `{threshold?, contextLines?, autojunk?}`, and for [`JudgeCall::Jury`]
    /// also `{timeoutMs?, reportName?, log?, judges?: [{name, timeoutMs?}]}`
    /// (`log` is the host's callback: only its presence is read here).
    /// `null` (and a key whose value is `null`) means the defaults. Unknown
    /// keys, wrong types, out-of-range values and blank or repeated juror
    /// names are `CONFIGURATION_ERROR`s naming the JSON path.
    ///
    /// ```
    /// use evidence_validator::judge::{JudgeCall, JudgeOptions};
    /// let o = JudgeOptions::from_json(&serde_json::json!({"threshold": 0.9, "judges": [{"name": "a"}]}), JudgeCall::Jury).unwrap();
    /// assert_eq!((o.config.threshold, o.config.context_lines, o.jurors[0].name.as_str()), (0.9, 5, "a"));
    /// assert!(JudgeOptions::from_json(&serde_json::json!({"timeoutMs": 5}), JudgeCall::Steps).is_err());
    /// ```
    pub fn from_json(value: &Value, call: JudgeCall) -> Result<JudgeOptions> {
        let mut o = JudgeOptions::default();
        let Some(mut f) = options::root_null_absent(value, "options")? else {
            return Ok(o);
        };
        f.fraction("threshold", &mut o.config.threshold)?;
        f.count("contextLines", 0, MAX_CONTEXT_LINES as u64, &mut o.config.context_lines)?;
        f.bool("autojunk", &mut o.config.autojunk)?;
        f.bool("compareWords", &mut o.config.compare_words)?;
        if call == JudgeCall::Jury {
            if let Some(ms) = timeout(&mut f, "timeoutMs")? {
                o.config.timeout_ms = ms;
            }
            o.report_name = f.string("reportName")?.map(|(s, _)| s.to_string());
            let _host_callback = f.take("log");
            if let Some((judges, path)) = f.take("judges") {
                let Value::Array(list) = judges else {
                    return Err(crate::Error::invalid_config(&path, "type", "judges must be a list of jurors"));
                };
                for (i, juror) in list.iter().enumerate() {
                    let p = path.index(i);
                    let Value::Object(obj) = juror else {
                        return Err(crate::Error::invalid_config(&p, "type", format!("judges[{i}] must be an object")));
                    };
                    let mut j = Fields::new(obj, &p);
                    let name = match j.string("name")? {
                        Some((s, _)) => s.to_string(),
                        None => {
                            return Err(crate::Error::invalid_config(
                                &p.key("name"),
                                "required",
                                format!("judges[{i}].name must be a string"),
                            ))
                        }
                    };
                    let timeout_ms = timeout(&mut j, "timeoutMs")?;
                    j.finish()?;
                    o.jurors.push(JurorOptions { name, timeout_ms });
                }
            }
        }
        f.finish()?;
        o.config.check()?;
        let names: Vec<String> = o.jurors.iter().map(|j| j.name.clone()).collect();
        check_juror_names(&names)?;
        Ok(o)
    }
}

impl JudgeOptions {
    /// The settings under their JS names (`{threshold, contextLines,
    /// autojunk, timeoutMs}`): what `defaultJudgeOptions()` gives hosts, so
    /// that none copies a default.
    pub fn settings_json(&self) -> Value {
        serde_json::json!({
            "threshold": self.config.threshold,
            "contextLines": self.config.context_lines,
            "autojunk": self.config.autojunk,
            "compareWords": self.config.compare_words,
            "timeoutMs": self.config.timeout_ms,
        })
    }

    /// The ranges [`JudgeOptions::from_json`] accepts, under the JS names
    /// (`{threshold, contextLines, timeoutMs}`, each `{min, max}`, both
    /// inclusive): what `judgeOptionBounds()` gives hosts, so that a form
    /// writes no bound of its own.
    pub fn bounds_json() -> Value {
        serde_json::json!({
            "threshold": { "min": 0.0, "max": 1.0 },
            "contextLines": { "min": 0, "max": MAX_CONTEXT_LINES },
            "timeoutMs": { "min": 1, "max": MAX_TIMEOUT_MS },
        })
    }
}

/// Milliseconds from 1 to [`MAX_TIMEOUT_MS`], rounded.
fn timeout(f: &mut Fields, key: &'static str) -> Result<Option<u64>> {
    let mut ms = f64::NAN;
    f.within(key, 1.0, MAX_TIMEOUT_MS as f64, &mut ms)?;
    Ok(Some(ms).filter(|ms| !ms.is_nan()).map(|ms| ms.round() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn path_of(value: Value, call: JudgeCall) -> String {
        let e = JudgeOptions::from_json(&value, call).unwrap_err();
        assert_eq!(e.code(), "CONFIGURATION_ERROR", "{e}");
        e.details().get("json_path").and_then(Value::as_str).unwrap_or("").to_string()
    }

    #[test]
    fn jurors_and_timeouts_are_read_and_bad_values_named_by_path() {
        let o = JudgeOptions::from_json(
            &json!({"timeoutMs": 1500.4, "reportName": "r", "log": true,
                    "judges": [{"name": "a"}, {"name": "b", "timeoutMs": 20}]}),
            JudgeCall::Jury,
        )
        .unwrap();
        assert_eq!(o.config.timeout_ms, 1500);
        assert_eq!(o.report_name.as_deref(), Some("r"));
        assert_eq!(
            o.jurors,
            [
                JurorOptions { name: "a".into(), timeout_ms: None },
                JurorOptions { name: "b".into(), timeout_ms: Some(20) }
            ]
        );
        // null is absent (the JS API's rule), and the defaults are the spec's
        let o = JudgeOptions::from_json(&json!({"threshold": null, "judges": null}), JudgeCall::Jury).unwrap();
        assert_eq!((o.config.threshold, o.config.context_lines, o.config.timeout_ms), (0.8, 5, 120_000));
        assert_eq!(path_of(json!({"contextLines": 1.5}), JudgeCall::Steps), "$.contextLines");
        assert_eq!(path_of(json!({"threshold": 2}), JudgeCall::Steps), "$.threshold");
        assert_eq!(
            path_of(json!({"judges": [{"name": "a", "timeoutMs": 0}]}), JudgeCall::Jury),
            "$.judges[0].timeoutMs"
        );
        assert_eq!(path_of(json!({"judges": [{"name": "a", "colour": 1}]}), JudgeCall::Jury), "$.judges[0].colour");
        assert_eq!(path_of(json!({"judges": [{}]}), JudgeCall::Jury), "$.judges[0].name");
        // options of the jury are unknown to the steps-only calls
        assert_eq!(path_of(json!({"reportName": "r"}), JudgeCall::Steps), "$.reportName");
        assert_eq!(path_of(json!({"colour": "red"}), JudgeCall::Jury), "$.colour");
        // two jurors of one name: refused (no path: it is about the list)
        assert!(JudgeOptions::from_json(&json!({"judges": [{"name": "a"}, {"name": "a"}]}), JudgeCall::Jury).is_err());
    }

    #[test]
    fn the_rust_config_and_the_js_options_agree_on_defaults_and_bounds() {
        assert_eq!(JudgeConfig::from_json(&Value::Null).unwrap(), JudgeOptions::default().config);
        let e = JudgeConfig::from_json(&json!({"context_lines": MAX_CONTEXT_LINES + 1})).unwrap_err();
        assert_eq!(e.details()["json_path"], "$.context_lines");
        assert!(JudgeOptions::from_json(&json!({ "contextLines": MAX_CONTEXT_LINES + 1 }), JudgeCall::Steps).is_err());
        assert!(JudgeOptions::from_json(&json!({ "contextLines": MAX_CONTEXT_LINES }), JudgeCall::Steps).is_ok());
        let s = JudgeOptions::default().settings_json();
        assert_eq!(
            s,
            json!({"threshold": 0.8, "contextLines": 5, "autojunk": false, "compareWords": true, "timeoutMs": 120_000})
        );
    }

    #[test]
    fn the_published_bounds_are_the_ones_the_options_accept() {
        let bounds = JudgeOptions::bounds_json();
        for (key, call) in
            [("threshold", JudgeCall::Steps), ("contextLines", JudgeCall::Steps), ("timeoutMs", JudgeCall::Jury)]
        {
            let (min, max) = (&bounds[key]["min"], &bounds[key]["max"]);
            let (lo, hi) = (min.as_f64().unwrap(), max.as_f64().unwrap());
            assert!(JudgeOptions::from_json(&json!({ key: min }), call).is_ok(), "{key} = {min}");
            assert!(JudgeOptions::from_json(&json!({ key: max }), call).is_ok(), "{key} = {max}");
            // just outside either end: refused, naming the key
            let step = if key == "threshold" { 0.001 } else { 1.0 };
            assert_eq!(path_of(json!({ key: lo - step }), call), format!("$.{key}"));
            assert_eq!(path_of(json!({ key: hi + step }), call), format!("$.{key}"));
        }
        assert_eq!(bounds["contextLines"]["max"], 10_000);
        assert_eq!(bounds["timeoutMs"]["max"], 86_400_000);
    }
}
