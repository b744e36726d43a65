//! Spec 000 §1.2's command line: `evidence-validator --source … --evidence …
//! --output … --config … --verbose`, with no subcommand, is `validate` with
//! the same flags. The subcommand forms are unchanged.

use std::ffi::OsString;

/// The first arguments that make a command line the spec's form: `validate`'s
/// own flags. Anything else (a subcommand, `--help`, `--version`, no
/// argument at all) is left for clap.
const SPEC_FLAGS: &[&str] =
    &["--source", "--evidence", "--output", "--config", "--format", "--verbose", "-v", "--strict"];

/// The arguments with `validate` inserted after the program name when the
/// first argument is one of [`SPEC_FLAGS`] (alone or as `--flag=value`).
pub(crate) fn with_subcommand(args: impl IntoIterator<Item = OsString>) -> Vec<OsString> {
    let mut args: Vec<OsString> = args.into_iter().collect();
    let spec_form = args.get(1).and_then(|a| a.to_str()).is_some_and(|first| {
        let flag = first.split_once('=').map_or(first, |(name, _)| name);
        SPEC_FLAGS.contains(&flag)
    });
    if spec_form {
        args.insert(1, OsString::from("validate"));
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(args: &[&str]) -> Vec<String> {
        let os = with_subcommand(args.iter().map(OsString::from));
        os.iter().map(|a| a.to_string_lossy().into_owned()).collect()
    }

    #[test]
    fn the_spec_form_becomes_validate() {
        assert_eq!(
            strings(&["ev", "--source", "a.md", "--evidence", "c.json"]),
            ["ev", "validate", "--source", "a.md", "--evidence", "c.json"]
        );
        assert_eq!(strings(&["ev", "--verbose", "--source=a.md"]), ["ev", "validate", "--verbose", "--source=a.md"]);
    }

    #[test]
    fn subcommands_help_and_no_arguments_are_left_alone() {
        for args in [
            &["ev"][..],
            &["ev", "validate", "--source", "a"],
            &["ev", "--help"],
            &["ev", "--version"],
            &["ev", "find", "--source", "a", "q"],
        ] {
            assert_eq!(strings(args), args);
        }
    }
}
