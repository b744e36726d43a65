//! Step 3's prompt (spec 002 "LLM semantic analysis", process 1), exactly
//! the spec's template, and the instructions that go with it.
//!
//! The prompt is the template and nothing else. What a juror must answer
//! and in which form (spec 002 process 3 and the verdict table) is
//! [`JURY_INSTRUCTIONS`], sent separately: natively as the system message of
//! the chat request, in JS as `context.system`, the second argument of the
//! judge function. Both are written to the logs.

use super::lines::{tagged, LineRange, Passage};

/// What every juror is asked to do and how to answer (the system message).
pub const JURY_INSTRUCTIONS: &str = "You are one juror of a jury that checks citations. \
The user message shows a source file excerpt: the cited lines, the lines before and after them, \
the claim that cites them, and the quote used.

Answer three questions:
1. Is the quote substantive (at least 5 words, and not generic)?
2. Is the quote in context (not taken from a hypothetical, a question, or a view the source reports only to reject)?
3. Does the source support the claim?

Then give exactly one verdict:
- VALID: the quote is substantive, in context, and supports the claim.
- MISLEADING: the quote exists but its context changes its meaning.
- INSUFFICIENT: the quote is too short (fewer than 5 words) or too generic.
- UNSUPPORTED: the quote does not logically support the claim.

Reply with one JSON object and nothing else:
{\"verdict\": \"VALID\" | \"MISLEADING\" | \"INSUFFICIENT\" | \"UNSUPPORTED\", \
\"substantive_quote\": true | false, \"quote_in_context\": true | false, \
\"supports_claim\": true | false, \"reason\": \"one or two sentences\"}";

/// The spec's prompt for one claim:
///
/// ```text
/// SOURCE FILE: <filename>
/// CITED LINES: L<start>-L<end>
///
/// CONTEXT BEFORE:
/// <5 lines before>
///
/// CITED TEXT:
/// <cited lines>
///
/// CONTEXT AFTER:
/// <5 lines after>
///
/// CLAIM BEING MADE: <claim>
/// QUOTE USED: <quote>
/// ```
///
/// Lines are shown with their tags (`[L13326] text`), as in `text_found`.
pub fn build_prompt(filename: &str, range: LineRange, passage: &Passage, claim: &str, quote: &str) -> String {
    format!(
        "SOURCE FILE: {filename}\nCITED LINES: {range}\n\nCONTEXT BEFORE:\n{}\n\nCITED TEXT:\n{}\n\nCONTEXT AFTER:\n{}\n\nCLAIM BEING MADE: {claim}\nQUOTE USED: {quote}",
        tagged(&passage.before),
        tagged(&passage.cited),
        tagged(&passage.after),
    )
}
