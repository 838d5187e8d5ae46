//! The student's program answering a match's calls, driven one exchange at a time: a
//! [`Conversation`], as the reference session in-process is one, so a match is played the
//! same way against either.

use std::time::{Duration, Instant};

use crate::execution::{Ending, Program, Running};
use crate::games::matches::{Conversation, Stop};
use crate::harness::ending::{decided_by_ending, describe_ending};
use crate::harness::Verdict;

/// The student's program. It is started on the first call and started again after it
/// stops, so one crash costs one game, not the match. Its time budget runs only while it is
/// expected to answer: the reference players' thinking does not count against it.
pub struct ProcessConversation<'a> {
    program: &'a Program,
    process: Option<Running>,
    /// Answering time the program has left.
    remaining: Duration,
    /// When the current exchange must be answered by.
    deadline: Instant,
    budget: Duration,
    stderr_tail: Vec<u8>,
    /// The program's count of out-of-memory kills when its current process started.
    memory_kills: u64,
}

impl<'a> ProcessConversation<'a> {
    /// A conversation whose program may spend `budget` answering, over all its games.
    pub fn new(program: &'a Program, budget: Duration) -> Self {
        ProcessConversation {
            program,
            process: None,
            remaining: budget,
            deadline: Instant::now() + budget,
            budget,
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
        if ending == Ending::TimedOut {
            self.remaining = Duration::ZERO;
        }
        let stderr = String::from_utf8_lossy(&self.stderr_tail);
        let budget = self.budget;
        let decided = decided_by_ending(
            &ending,
            &stderr,
            || {
                format!(
                    "no answer within the match's time limit ({}s of answering in all)",
                    budget.as_secs_f64()
                )
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
        self.deadline = Instant::now() + self.remaining;
        let deadline = self.deadline;
        let process = self.process()?;
        process.set_deadline(deadline);
        process.begin_exchange();
        let sent = process.send_line(line);
        sent.map_err(|ending| self.stopped(ending))
    }

    fn read_line(&mut self) -> Result<String, Stop> {
        let line = self.process()?.read_line();
        self.remaining = self.deadline.saturating_duration_since(Instant::now());
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
        let mut c = ProcessConversation::new(&launch, Duration::from_secs(10));
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
        let mut c = ProcessConversation::new(&launch, Duration::from_millis(800));
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
}
