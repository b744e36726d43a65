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
            "timeoutMs": self.config.timeout_ms,
        })
    }
}

/// Milliseconds from 1 to [`MAX_TIMEOUT_MS`], rounded.
fn timeout(f: &mut Fields, key: &'static str) -> Result<Option<u64>> {
    let mut ms = f64::NAN;
    f.within(key, 1.0, MAX_TIMEOUT_MS as f64, &mut ms)?;
    Ok(Some(ms).filter(|ms| !ms.is_nan()).map(|ms| ms.round() as u64))
}
