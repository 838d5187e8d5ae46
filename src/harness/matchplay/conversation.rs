//! The student's program answering a match's calls, driven one exchange at a time: a
//! [`Conversation`], as the reference session in-process is one, so a match is played the
//! same way against either.

use std::time::{Duration, Instant};

use crate::execution::{Ending, Program, Running};
use crate::games::matches::{Conversation, Stop};
use crate::harness::ending::{decided_by_ending, describe_ending};
use crate::harness::Verdict;

/// The student's program. It is started on the first call and started again after it
/// stops, so one crash costs one game, not the match. Each call must be answered within the
/// match's limit for one call: a late one loses its game alone (the program is stopped, and
/// started again for the next). Its time budget over the whole match bounds a program that
/// is late on every call; it runs only while the program is expected to answer, so the
/// reference players' thinking does not count against it.
pub struct ProcessConversation<'a> {
    program: &'a Program,
    process: Option<Running>,
    /// Answering time the program has left, over the whole match.
    remaining: Duration,
    /// When the current exchange spends the rest of the budget.
    budget_deadline: Instant,
    /// When the current exchange must be answered by: the call's limit or the budget's end,
    /// whichever comes first.
    deadline: Instant,
    budget: Duration,
    /// The time one call may take.
    call_limit: Duration,
    stderr_tail: Vec<u8>,
    /// The program's count of out-of-memory kills when its current process started.
    memory_kills: u64,
}

impl<'a> ProcessConversation<'a> {
    /// A conversation whose program may take `call_limit` to answer one call, and spend
    /// `budget` answering over all its games.
    pub fn new(program: &'a Program, budget: Duration, call_limit: Duration) -> Self {
        let now = Instant::now();
        ProcessConversation {
            program,
            process: None,
            remaining: budget,
            budget_deadline: now + budget,
            deadline: now + budget,
            budget,
            call_limit,
            stderr_tail: Vec::new(),
            memory_kills: 0,
        }
    }

    /// The end of the program's stderr (of its last run).
    pub fn stderr_tail(&self) -> Vec<u8> {
        match &self.process {
            Some(process) => process.stderr_tail().to_vec(),
            None => self.stderr_tail.clone(),
        }
    }

    /// Turns an ending into a stop, and lets the program go (the next call starts another).
    fn stopped(&mut self, ending: Ending) -> Stop {
        let ending = self
            .program
            .ending_under_memory_cap(ending, self.memory_kills);
        if let Some(process) = self.process.take() {
            self.stderr_tail = process.stderr_tail().to_vec();
        }
        // Late for its call, with budget left: that call's game is lost, and the time it
        // took is spent. Otherwise the budget is.
        let late_call = ending == Ending::TimedOut && self.deadline < self.budget_deadline;
        if ending == Ending::TimedOut {
            self.remaining = match late_call {
                true => self
                    .budget_deadline
                    .saturating_duration_since(Instant::now()),
                false => Duration::ZERO,
            };
        }
        let stderr = String::from_utf8_lossy(&self.stderr_tail);
        let (budget, call_limit) = (self.budget, self.call_limit);
        let decided = decided_by_ending(
            &ending,
            &stderr,
            || match late_call {
                true => format!(
                    "no answer within the match's time limit for one call ({}s): that game \
                     is lost, and the program is started again for the next",
                    call_limit.as_secs_f64()
                ),
                false => format!(
                    "no answer within the match's time limit ({}s of answering in all)",
                    budget.as_secs_f64()
                ),
            },
            self.program.limits.output_bytes,
        );
        let (kind, detail) = match decided {
            Some(decided) => decided,
            None if ending == Ending::Exited(0) => {
                (Verdict::Crash, "ended without answering".into())
            }
            None => (Verdict::Crash, describe_ending(&ending)),
        };
        Stop { kind, detail }
    }

    fn process(&mut self) -> Result<&mut Running, Stop> {
        let process = match self.process.take() {
            Some(process) => process,
            None => {
                self.memory_kills = self.program.out_of_memory_kills();
                self.program
                    .start(self.deadline)
                    .map_err(|ending| self.stopped(ending))?
            }
        };
        Ok(self.process.insert(process))
    }
}

impl Conversation for ProcessConversation<'_> {
    fn send(&mut self, line: &str) -> Result<(), Stop> {
        self.budget_deadline = Instant::now() + self.remaining;
        // A program started afresh has until the budget's end to start; the call's own
        // time runs from when it is sent.
        self.deadline = self.budget_deadline;
        self.process()?;
        self.deadline = (Instant::now() + self.call_limit).min(self.budget_deadline);
        let deadline = self.deadline;
        let process = self.process()?;
        process.set_deadline(deadline);
        process.begin_exchange();
        let sent = process.send_line(line);
        sent.map_err(|ending| self.stopped(ending))
    }

    fn read_line(&mut self) -> Result<String, Stop> {
        let line = self.process()?.read_line();
        self.remaining = self
            .budget_deadline
            .saturating_duration_since(Instant::now());
        line.map_err(|ending| self.stopped(ending))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::execution::{Launch, Limits};
    use crate::games::matches::ReferenceConversation;
    use crate::games::{Reply, Session};

    struct Echo;

    impl Session for Echo {
        fn opening(&mut self) -> Reply {
            Reply::default()
        }
        fn respond(&mut self, line: &str) -> Reply {
            Reply::new(format!("{line}\nsecond\n"))
        }
        fn is_finished(&self) -> bool {
            false
        }
    }

    fn shell(script: &str) -> Program {
        Program::new(
            Launch::shell(script, std::env::temp_dir()),
            Limits::default(),
        )
    }

    #[test]
    fn the_reference_answers_line_by_line() {
        let mut c = ReferenceConversation::new(Box::new(Echo));
        c.send("hello").unwrap();
        assert_eq!(c.read_line().unwrap(), "=hello");
        assert_eq!(c.read_line().unwrap(), "=second");
        assert_eq!(c.read_line().unwrap(), ".");
        assert_eq!(c.read_line().unwrap_err().kind, Verdict::Error);
    }

    #[test]
    fn a_crashed_program_is_started_again() {
        // Answers once, then dies: every exchange after a death starts a new program.
        let launch = shell("read line; echo \"ok $line\"; read line; exit 4");
        let mut c =
            ProcessConversation::new(&launch, Duration::from_secs(10), Duration::from_secs(10));
        c.send("a").unwrap();
        assert_eq!(c.read_line().unwrap(), "ok a");
        c.send("b").unwrap();
        let stop = c.read_line().unwrap_err();
        assert_eq!(stop.kind, Verdict::Crash);
        assert!(stop.detail.contains("status 4"), "{}", stop.detail);
        c.send("c").unwrap();
        assert_eq!(c.read_line().unwrap(), "ok c");
    }

    #[test]
    fn the_budget_covers_answering_only() {
        let launch = shell("while read line; do sleep 0.1; echo done; done");
        let mut c =
            ProcessConversation::new(&launch, Duration::from_millis(800), Duration::from_secs(10));
        c.send("1").unwrap();
        assert_eq!(c.read_line().unwrap(), "done");
        // Time between exchanges is not the program's: this pause is longer than its budget.
        std::thread::sleep(Duration::from_millis(900));
        c.send("2").unwrap();
        assert_eq!(c.read_line().unwrap(), "done");
        let mut stop = None;
        for _ in 0..30 {
            if let Err(s) = c.send("3").and_then(|_| c.read_line()) {
                stop = Some(s);
                break;
            }
        }
        assert_eq!(stop.map(|s| s.kind), Some(Verdict::Timeout));
        // Once the budget is spent, nothing is started again.
        assert_eq!(c.send("4").unwrap_err().kind, Verdict::Timeout);
    }

    #[test]
    fn a_late_call_costs_its_own_time_and_the_next_call_starts_afresh() {
        // Answers `slow` after 3 s, anything else at once.
        let launch = shell(
            "while read line; do if [ \"$line\" = slow ]; then sleep 3; fi; echo \"ok $line\"; done",
        );
        let mut c = ProcessConversation::new(
            &launch,
            Duration::from_secs(20),
            Duration::from_millis(1000),
        );
        c.send("a").unwrap();
        assert_eq!(c.read_line().unwrap(), "ok a");
        let started = Instant::now();
        c.send("slow").unwrap();
        let stop = c.read_line().unwrap_err();
        assert!(started.elapsed() < Duration::from_millis(2500));
        assert_eq!(stop.kind, Verdict::Timeout);
        assert!(
            stop.detail.contains("time limit for one call (1s)"),
            "{}",
            stop.detail
        );
        // The budget lost only the late call's second: a new program answers.
        for line in ["b", "c"] {
            c.send(line).unwrap();
            assert_eq!(c.read_line().unwrap(), format!("ok {line}"));
        }
        assert!(c.remaining > Duration::from_secs(15), "{:?}", c.remaining);
    }
}
