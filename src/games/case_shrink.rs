//! A failing step's case as the reference can shorten it. The reference alone cannot tell
//! whether a shorter case still fails: a bug may need more than the rule the step exercises
//! (an en passant square left over from an earlier double step, say). So a game only offers
//! the case; the harness runs each shorter candidate on the submission and notes only one
//! that failed there the same way (`harness::shortest`).

/// The lines before a divergent step that may be left out, and what a shorter case is.
pub trait CaseShrink {
    /// The lines that may be left out, in order.
    fn items(&self) -> &[String];

    /// Whether, after `kept`, the reference still sees the divergent step as the same case.
    fn same_case(&self, kept: &[String]) -> bool;

    /// Every line a scenario sends to replay the case after `kept` from the scenario's start,
    /// the divergent step last.
    fn lines(&self, kept: &[String]) -> Vec<String>;

    /// Whether `kept` is short enough to be worth a note.
    fn worth_noting(&self, kept: &[String]) -> bool;

    /// The note naming the case after `kept`: every line of [`CaseShrink::lines`], exactly.
    fn note(&self, kept: &[String]) -> String;

    /// How many of the game's own notes ([`super::Game::explain`]) come before this one.
    fn after_notes(&self) -> usize;
}
