//! Whether the Python interpreter starts inside the sandbox, asked once per run. One that
//! cannot is the grader's problem (every scenario an `error` naming it), not a crash of each
//! student's program; the answer is the same for every submission of a run, so a run makes
//! one [`StartCheck`] and every target it grades shares it (one interpreter start per run,
//! not one per submission). A loaded runner that loaded answers it too: the interpreter
//! started there, in the same sandbox, before any student code ran ([`StartCheck::started`]),
//! so a run whose runners load never starts the interpreter only to ask.

use std::sync::{Arc, Mutex};

use super::child::{self, Ending};
use super::python::{self, Interpreter};
use super::sandbox::bwrap::View;
use super::sandbox::jail::Jail;
use super::sandbox::Sandbox;
use super::spawn::{Launch, Limits};
use crate::error::{Error, SetupError};

/// The answers so far, by sandbox and interpreter; clones share them.
#[derive(Debug, Clone, Default)]
pub struct StartCheck {
    answers: Arc<Mutex<Vec<Answer>>>,
}

#[derive(Debug)]
struct Answer {
    sandbox: Sandbox,
    interpreter: Interpreter,
    starts: Result<(), String>,
}

impl StartCheck {
    /// A check not yet asked.
    pub fn new() -> StartCheck {
        StartCheck::default()
    }

    /// Records that `interpreter` started under `sandbox` (a loaded runner of it loaded).
    pub(crate) fn started(&self, sandbox: Sandbox, interpreter: &Interpreter) {
        let _ = self.answer(sandbox, interpreter, || Ok(()));
    }

    /// Whether `interpreter` starts in `jail` under `sandbox` as `view` shows it, asked the
    /// first time only (callers asking at once wait for that one answer).
    pub(crate) fn check(
        &self,
        sandbox: Sandbox,
        jail: &Jail,
        interpreter: &Interpreter,
        view: &View,
    ) -> Result<(), Error> {
        if sandbox == Sandbox::None {
            return Ok(());
        }
        let starts = self.answer(sandbox, interpreter, || {
            ask(sandbox, jail, interpreter, view)
        });
        starts.map_err(|why| {
            SetupError::PythonInSandbox {
                python: interpreter.executable.clone(),
                sandbox: sandbox.as_str(),
                why,
            }
            .into()
        })
    }

    /// The answer known for `interpreter` under `sandbox`, else `find`'s, kept for the run.
    fn answer(
        &self,
        sandbox: Sandbox,
        interpreter: &Interpreter,
        find: impl FnOnce() -> Result<(), String>,
    ) -> Result<(), String> {
        let mut answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
        let known = answers
            .iter()
            .find(|a| a.sandbox == sandbox && a.interpreter == *interpreter);
        if let Some(answer) = known {
            return answer.starts.clone();
        }
        let starts = find();
        answers.push(Answer {
            sandbox,
            interpreter: interpreter.clone(),
            starts: starts.clone(),
        });
        starts
    }
}

/// Starts the interpreter once in `jail`: why it does not start, if it does not.
fn ask(
    sandbox: Sandbox,
    jail: &Jail,
    interpreter: &Interpreter,
    view: &View,
) -> Result<(), String> {
    let mut launch = Launch::new(
        &interpreter.executable,
        vec!["-c".into(), "import encodings, sys".into()],
        jail.dir().to_path_buf(),
    );
    launch.env = jail.environment(&[]);
    let limits = sandbox.limits(&Limits {
        wall: python::START_WAIT,
        ..Limits::default()
    });
    let run = jail.prepare(&launch, view).map_err(|e| e.to_string())?;
    let execution = child::run(&run.launch, b"", &limits);
    if let Some(why) = run.sandbox_failure(&execution.stderr_tail) {
        return Err(why);
    }
    match &execution.ending {
        Ending::Exited(0) => Ok(()),
        ending => {
            let stderr = String::from_utf8_lossy(&execution.stderr_tail);
            let last = stderr.trim().lines().last().unwrap_or_default().to_string();
            Err(match ending {
                Ending::Exited(code) => format!("exit status {code}: {last}"),
                other => format!("{other:?}: {last}"),
            })
        }
    }
}
