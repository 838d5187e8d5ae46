//! The one driver of a student process. It is driven a line at a time (a game played
//! against the program, where the next input depends on the last answer); a batch run
//! ([`run`]) is the same driver given all its input at once and read to the end.
//!
//! Whatever the use, the discipline is the same: the process starts under its limits in its
//! own process group ([`super::spawn`]); every wait polls its pipes and a pidfd, so a program
//! that never reads, floods, or exits while a background child holds its pipes cannot stall
//! the grader; every wait respects the wall-clock deadline and a cancelled run (Ctrl-C); the
//! output is capped; and the whole process group is killed at the end, whatever happened.
//!
//! Once nothing more is to be written to the program, its output waits in the pipes: the
//! driver wakes when the process ends (its pidfd) or after [`BATCH`] (twice that after a wake
//! that found nothing, up to [`TICK`]), not for each line it writes (a call-protocol adapter
//! writes one response per call: a wake, a poll and two reads each time). A program that
//! fills a pipe between two wakes is read as it writes from then on, so none waits long on
//! a full pipe.

use std::io::{self, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, ExitStatus};
use std::time::{Duration, Instant};

use super::forked::Forked;
use super::spawn::{spawn, Launch, Limits};
use super::sys::{kill_group, pidfd, poll, set_nonblocking, Interest};

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    Signaled(i32),
    /// Killed at the wall-clock limit.
    TimedOut,
    /// Killed for writing more than the output cap.
    OutputLimit,
    /// The program could not be started.
    NotStarted(String),
    /// Killed because the run was cancelled (Ctrl-C).
    Cancelled,
    /// Killed by the kernel for going over the run's memory cap (its cgroup's).
    OutOfMemory,
}

/// Everything a run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Execution {
    pub stdout: Vec<u8>,
    /// The last bytes of stderr.
    pub stderr_tail: Vec<u8>,
    pub ending: Ending,
    pub elapsed: Duration,
    /// CPU time (user and system) the process itself used, read from the kernel when it
    /// ended by itself (a limit's kill included), where it could be read.
    pub cpu: Option<Duration>,
}

/// How long to keep draining pipes after the process ended (a child that escaped its
/// process group may hold them open forever).
const DRAIN_GRACE: Duration = Duration::from_millis(200);
/// The longest single wait: a cancelled run, or an ended process without a pidfd, is
/// noticed within this.
const TICK: Duration = Duration::from_millis(100);
/// How often to ask whether the process ended when there is no pidfd to poll.
const TICK_WITHOUT_PIDFD: Duration = Duration::from_millis(10);
/// How long output may wait in the pipes while the driver waits for the program's end.
const BATCH: Duration = Duration::from_millis(20);
/// Output taken at one wake from which the program is read as it writes: about half of what
/// a pipe holds by default (64 KiB), so a program that writes more between two wakes does
/// not wait for the next.
const CHATTY: usize = 32 << 10;
const CHUNK: usize = 64 << 10;

/// Runs the program with `input` on stdin (then closed) under `limits`, to its end.
pub fn run(launch: &Launch, input: &[u8], limits: &Limits) -> Execution {
    let started = Instant::now();
    drive(
        Running::start(launch, limits, started + limits.wall),
        input,
        started,
    )
}

/// Runs a process started at `started` with `input` on stdin (then closed), to its end.
pub fn drive(start: Result<Running, Ending>, input: &[u8], started: Instant) -> Execution {
    match start {
        Ok(mut running) => {
            running.feed(input);
            running.finish()
        }
        Err(ending) => Execution {
            stdout: Vec::new(),
            stderr_tail: Vec::new(),
            ending,
            elapsed: started.elapsed(),
            cpu: None,
        },
    }
}

/// The process a [`Running`] drives: one it spawned, or one a loaded Python runner forked
/// for it ([`super::fork`]).
enum Process {
    Spawned(Child),
    Forked(Forked),
}

impl Process {
    fn id(&self) -> u32 {
        match self {
            Process::Spawned(child) => child.id(),
            Process::Forked(forked) => forked.id(),
        }
    }

    fn try_wait(&mut self) -> io::Result<Option<ExitStatus>> {
        match self {
            Process::Spawned(child) => child.try_wait(),
            Process::Forked(forked) => forked.try_wait(),
        }
    }

    fn wait(&mut self) -> io::Result<ExitStatus> {
        match self {
            Process::Spawned(child) => child.wait(),
            Process::Forked(forked) => forked.wait(),
        }
    }

    /// CPU time the process has used; of an ended process, until it is reaped.
    fn cpu_time(&self) -> Option<Duration> {
        match self {
            Process::Spawned(child) => super::forked::cpu_time_of(child.id() as i32),
            Process::Forked(forked) => forked.cpu_time(),
        }
    }

    /// Kills the process's group (and a forked process itself, whatever its group).
    fn kill(&self) {
        kill_group(self.id());
        if let Process::Forked(forked) = self {
            forked.kill();
        }
    }
}

/// The grader's ends of a process's stdin, stdout and stderr.
struct Pipes {
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
}

/// A running student process. Dropping it kills its process group.
pub struct Running {
    child: Process,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    exit_fd: Option<OwnedFd>,
    /// Output read but not yet returned as a line.
    pending: Vec<u8>,
    /// Bytes of stdout read so far, against the output cap.
    stdout_bytes: usize,
    stderr_tail: Vec<u8>,
    limits: Limits,
    started: Instant,
    deadline: Instant,
    /// Set once the program has stopped; every later call reports it again.
    ended: Option<Ending>,
    /// Whether its output is read as it comes even while only its end is awaited: once it
    /// wrote enough to nearly fill a pipe between two wakes.
    chatty: bool,
    /// How long output may wait in the pipes now, while only the end is awaited.
    batch: Duration,
}

/// What a wait is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Awaiting {
    /// A line of output: output is read as it comes.
    Output,
    /// Room in stdin to write: output is read as it comes meanwhile, so that a program that
    /// writes before it reads cannot block both.
    Stdin,
    /// The program's end, nothing more to write: output may wait in the pipes.
    End,
}

impl Running {
    /// Starts the program under `limits`; it must be done by `deadline`.
    pub fn start(launch: &Launch, limits: &Limits, deadline: Instant) -> Result<Self, Ending> {
        let started = Instant::now();
        if started >= deadline {
            return Err(Ending::TimedOut);
        }
        if crate::cancel::is_requested() {
            return Err(Ending::Cancelled);
        }
        let mut child = spawn(launch, limits)
            .map_err(|e| Ending::NotStarted(format!("{}: {e}", launch.program.display())))?;
        let (stdin, stdout, stderr) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let exit_fd = pidfd(child.id());
        let pipes = Pipes {
            stdin,
            stdout,
            stderr,
        };
        Ok(Running::drive(
            Process::Spawned(child),
            pipes,
            exit_fd,
            limits,
            started,
            deadline,
        ))
    }

    /// Drives a process a loaded runner forked, given the grader's ends of its stdin,
    /// stdout and stderr; it must be done by `deadline`.
    pub(crate) fn forked(
        forked: Forked,
        [stdin, stdout, stderr]: [OwnedFd; 3],
        limits: &Limits,
        started: Instant,
        deadline: Instant,
    ) -> Running {
        let pipes = Pipes {
            stdin: Some(ChildStdin::from(stdin)),
            stdout: Some(ChildStdout::from(stdout)),
            stderr: Some(ChildStderr::from(stderr)),
        };
        let exit_fd = forked.exit_fd();
        Running::drive(
            Process::Forked(forked),
            pipes,
            exit_fd,
            limits,
            started,
            deadline,
        )
    }

    fn drive(
        child: Process,
        pipes: Pipes,
        exit_fd: Option<OwnedFd>,
        limits: &Limits,
        started: Instant,
        deadline: Instant,
    ) -> Running {
        pipes.stdin.iter().for_each(set_nonblocking);
        pipes.stdout.iter().for_each(set_nonblocking);
        pipes.stderr.iter().for_each(set_nonblocking);
        Running {
            child,
            stdin: pipes.stdin,
            stdout: pipes.stdout,
            stderr: pipes.stderr,
            exit_fd,
            pending: Vec::new(),
            stdout_bytes: 0,
            stderr_tail: Vec::new(),
            limits: limits.clone(),
            started,
            deadline,
            ended: None,
            chatty: false,
            batch: BATCH,
        }
    }

    /// Moves the deadline (a driver that pauses the clock while it thinks itself).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// The last bytes the program wrote to stderr.
    pub fn stderr_tail(&self) -> &[u8] {
        &self.stderr_tail
    }

    /// Begins an exchange of a conversation, read line by line as it is answered: the
    /// output cap counts what the program writes from here, with what is still unread. What
    /// it wrote for earlier exchanges was read and let go, so a long match of calls that
    /// each print a little (a debug print) is not cut short as one flood would be.
    pub fn begin_exchange(&mut self) {
        self.stdout_bytes = self.pending.len();
    }

    /// Writes `line` and a newline to the program's stdin. A program that stopped reading
    /// has ended (or is ended): its ending is the error.
    pub fn send_line(&mut self, line: &str) -> Result<(), Ending> {
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        match self.write(&bytes)? {
            true => Ok(()),
            false => Err(self.wind_up()),
        }
    }

    /// The next line of stdout, without its newline (a lone `\r` before it is dropped too).
    pub fn read_line(&mut self) -> Result<String, Ending> {
        loop {
            if let Some(end) = self.pending.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.pending.drain(..=end).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(String::from_utf8_lossy(&line).into_owned());
            }
            if let Some(ending) = &self.ended {
                return Err(ending.clone());
            }
            if self.stdout.is_none() {
                return Err(self.wind_up());
            }
            let exited = self.wait_once(Awaiting::Output)?;
            if exited && !self.pending.contains(&b'\n') {
                return Err(self.wind_up());
            }
        }
    }

    /// Writes all of `input` and closes stdin, taking in output meanwhile. A program that
    /// stops reading early simply gets no more.
    pub(crate) fn feed(&mut self, input: &[u8]) {
        if !input.is_empty() {
            let _ = self.write(input);
        }
        self.stdin = None;
    }

    /// Lets the program run to its end (or a limit) with its stdin closed, and returns all
    /// it printed that was not read as lines.
    pub fn finish(mut self) -> Execution {
        self.stdin = None;
        let mut exited = false;
        while self.ended.is_none() && !exited {
            exited = self.wait_once(Awaiting::End).unwrap_or(false);
        }
        // Read while the ended process waits to be reaped: its own count, which no cgroup
        // or company can blur.
        let cpu = exited.then(|| self.child.cpu_time()).flatten();
        // Whatever happened, nothing of the program outlives this call.
        self.child.kill();
        if exited {
            let grace = Instant::now() + DRAIN_GRACE;
            while self.output_open() && self.ended.is_none() && Instant::now() < grace {
                let wait = grace - Instant::now();
                poll(&self.output_fds(), wait);
                self.take_output();
            }
        }
        let status = self.child.wait();
        let ending = self.ended.take().unwrap_or_else(|| ending_of(status));
        let mut stdout = std::mem::take(&mut self.pending);
        stdout.truncate(self.limits.output_bytes);
        Execution {
            stdout,
            stderr_tail: std::mem::take(&mut self.stderr_tail),
            ending,
            elapsed: self.started.elapsed(),
            cpu,
        }
    }

    /// Writes `bytes` to stdin, draining output while the pipe is full. False when the
    /// program no longer reads its stdin; an error when it hit a limit meanwhile.
    fn write(&mut self, bytes: &[u8]) -> Result<bool, Ending> {
        if let Some(ending) = &self.ended {
            return Err(ending.clone());
        }
        let mut written = 0;
        while written < bytes.len() {
            let Some(pipe) = self.stdin.as_mut() else {
                return Ok(false);
            };
            match pipe.write(&bytes[written..]) {
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    // The pipe is full: keep draining the program's output while it reads.
                    if self.wait_once(Awaiting::Stdin)? {
                        // It exited; whatever still holds the pipe is not reading for it.
                        self.stdin = None;
                        return Ok(false);
                    }
                }
                Err(_) => {
                    // The program closed its stdin (or exited): it reads no more.
                    self.stdin = None;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }

    fn output_open(&self) -> bool {
        self.stdout.is_some() || self.stderr.is_some()
    }

    fn output_fds(&self) -> [Option<(std::os::fd::BorrowedFd<'_>, Interest)>; 2] {
        [
            self.stdout
                .as_ref()
                .map(|p| (p.as_fd(), Interest::Readable)),
            self.stderr
                .as_ref()
                .map(|p| (p.as_fd(), Interest::Readable)),
        ]
    }

    /// Waits for something to happen (the end of the process; output, unless only the end is
    /// `awaited` and the output may wait; room in stdin when that is awaited) and takes in
    /// whatever output is ready. True when the process has exited; an error when it hit a
    /// limit or the run was cancelled.
    fn wait_once(&mut self, awaited: Awaiting) -> Result<bool, Ending> {
        let now = Instant::now();
        if now >= self.deadline {
            return Err(self.stop(Ending::TimedOut));
        }
        if crate::cancel::is_requested() {
            return Err(self.stop(Ending::Cancelled));
        }
        let batched = awaited == Awaiting::End && self.exit_fd.is_some() && !self.chatty;
        let tick = match (batched, &self.exit_fd) {
            (true, _) => self.batch,
            (false, Some(_)) => TICK,
            (false, None) => TICK_WITHOUT_PIDFD,
        };
        let [out, err] = match batched {
            true => [None, None],
            false => self.output_fds(),
        };
        let stdin = match awaited {
            Awaiting::Stdin => self.stdin.as_ref().map(|p| (p.as_fd(), Interest::Writable)),
            Awaiting::Output | Awaiting::End => None,
        };
        let fds = [
            out,
            err,
            self.exit_fd
                .as_ref()
                .map(|p| (p.as_fd(), Interest::Readable)),
            stdin,
        ];
        let ready = poll(&fds, (self.deadline - now).min(tick));
        let taken = self.take_output_of(Streams {
            stdout: ready[0] || batched,
            stderr: ready[1] || batched,
            whole: false,
        });
        if batched {
            self.chatty = taken >= CHATTY;
            self.batch = match taken {
                0 => (self.batch * 2).min(TICK),
                _ => BATCH,
            };
        }
        if let Some(ending) = &self.ended {
            return Err(ending.clone());
        }
        Ok(ready[2] || (self.exit_fd.is_none() && matches!(self.child.try_wait(), Ok(Some(_)))))
    }

    /// Reads what stdout and stderr hold now, enforcing the output cap.
    fn take_output(&mut self) {
        self.take_output_of(Streams {
            stdout: true,
            stderr: true,
            whole: true,
        });
    }

    /// Reads what the streams `streams` names hold now, enforcing the output cap; how many
    /// bytes it read.
    fn take_output_of(&mut self, streams: Streams) -> usize {
        let before = self.pending.len();
        let cap = self.limits.output_bytes.saturating_sub(self.stdout_bytes) + 1;
        if streams.stdout
            && !drain(
                &mut self.stdout,
                &mut self.pending,
                before + cap,
                streams.whole,
            )
        {
            self.stdout = None;
        }
        let from_stdout = self.pending.len() - before;
        self.stdout_bytes += from_stdout;
        let mut from_stderr = 0;
        if streams.stderr {
            let (open, read) = drain_tail(
                &mut self.stderr,
                &mut self.stderr_tail,
                self.limits.stderr_tail_bytes,
            );
            from_stderr = read;
            if !open {
                self.stderr = None;
            }
        }
        if self.stdout_bytes > self.limits.output_bytes {
            self.stop(Ending::OutputLimit);
        }
        from_stdout + from_stderr
    }

    /// The program stopped answering (it closed a pipe or exited): give it a moment to exit
    /// by itself, so its own exit status is what gets reported, then end it.
    fn wind_up(&mut self) -> Ending {
        if let Some(ending) = &self.ended {
            return ending.clone();
        }
        let grace = (Instant::now() + DRAIN_GRACE).min(self.deadline);
        while Instant::now() < grace {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                break;
            }
            let exit = self
                .exit_fd
                .as_ref()
                .map(|p| (p.as_fd(), Interest::Readable));
            poll(&[exit], (grace - Instant::now()).min(TICK_WITHOUT_PIDFD));
        }
        self.take_output();
        if let Some(ending) = &self.ended {
            return ending.clone();
        }
        let exited = matches!(self.child.try_wait(), Ok(Some(_)));
        self.child.kill();
        let status = self.child.wait();
        let ending = if !exited && Instant::now() >= self.deadline {
            Ending::TimedOut
        } else {
            ending_of(status)
        };
        self.ended = Some(ending.clone());
        ending
    }

    /// Ends the program for `ending` (a limit it hit, or a cancelled run).
    fn stop(&mut self, ending: Ending) -> Ending {
        if let Some(previous) = &self.ended {
            return previous.clone();
        }
        self.child.kill();
        let _ = self.child.wait();
        self.ended = Some(ending.clone());
        ending
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // Whatever happened, nothing of the program outlives its driver.
        self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a process that ended by itself ended, from its wait status.
fn ending_of(status: io::Result<std::process::ExitStatus>) -> Ending {
    match status {
        Ok(status) => match (status.code(), status.signal()) {
            (Some(code), _) => Ending::Exited(code),
            (None, Some(signal)) => Ending::Signaled(signal),
            (None, None) => Ending::Exited(-1),
        },
        Err(error) => Ending::NotStarted(format!("wait failed: {error}")),
    }
}

/// Which output streams to read: those a poll found ready, or both; and whether to read
/// each until it is empty, or only what one read takes (the next poll says if there is more).
struct Streams {
    stdout: bool,
    stderr: bool,
    whole: bool,
}

/// Reads what is available into `into` (up to `cap` bytes in all); false at end of stream.
/// With `whole` false it stops after a read that did not fill its buffer, rather than read
/// again to be told the pipe is empty.
fn drain<R: Read>(pipe: &mut Option<R>, into: &mut Vec<u8>, cap: usize, whole: bool) -> bool {
    let Some(reader) = pipe.as_mut() else {
        return false;
    };
    let mut buf = [0u8; CHUNK];
    loop {
        match reader.read(&mut buf) {
            Ok(0) => return false,
            Ok(n) => {
                into.extend_from_slice(&buf[..n]);
                // Less than asked for: the pipe held no more (a read to be told so costs a
                // system call each time output comes, where the next poll will say).
                if into.len() >= cap || (!whole && n < buf.len()) {
                    return true;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return true,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return false,
        }
    }
}

/// Reads what is available into `tail`, keeping only its last `keep` bytes as it goes: a
/// flood never grows it past `keep` and a chunk, and at most a few chunks are read per call,
/// so the driver gets back to its deadline. False at end of stream; the bytes read.
fn drain_tail<R: Read>(pipe: &mut Option<R>, tail: &mut Vec<u8>, keep: usize) -> (bool, usize) {
    let mut read = 0;
    for _ in 0..16 {
        let before = tail.len();
        let open = drain(pipe, tail, keep + CHUNK, true);
        read += tail.len() - before;
        let stopped_at_cap = tail.len() >= keep + CHUNK;
        if tail.len() > keep {
            let cut = tail.len() - keep;
            tail.drain(..cut);
        }
        if !open || !stopped_at_cap {
            return (open, read);
        }
    }
    (true, read)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Launch {
        Launch::shell(script, std::env::temp_dir())
    }

    fn open(script: &str, seconds: u64) -> Running {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        Running::start(&shell(script), &Limits::default(), deadline).expect("sh starts")
    }

    #[test]
    fn answers_line_by_line() {
        let mut p = open(
            "while read line; do echo \"got $line\"; echo note >&2; done",
            10,
        );
        p.send_line("one").unwrap();
        assert_eq!(p.read_line().unwrap(), "got one");
        p.send_line("two").unwrap();
        assert_eq!(p.read_line().unwrap(), "got two");
    }

    #[test]
    fn stderr_is_kept_apart_from_the_answers() {
        let mut p = open("read line; echo oops >&2; echo answer; exit 1", 10);
        p.send_line("x").unwrap();
        assert_eq!(p.read_line().unwrap(), "answer");
        assert_eq!(p.read_line(), Err(Ending::Exited(1)));
        assert!(String::from_utf8_lossy(p.stderr_tail()).contains("oops"));
    }

    #[test]
    fn a_silent_program_times_out() {
        let started = Instant::now();
        let deadline = started + Duration::from_millis(300);
        let mut p = Running::start(&shell("sleep 30"), &Limits::default(), deadline).unwrap();
        p.send_line("hello").unwrap();
        assert_eq!(p.read_line(), Err(Ending::TimedOut));
        assert!(started.elapsed() < Duration::from_secs(5));
        // Later calls report the same ending at once.
        assert_eq!(p.send_line("again"), Err(Ending::TimedOut));
    }

    #[test]
    fn an_exit_is_reported_with_its_status() {
        let mut p = open("read line; echo partial; exit 3", 10);
        p.send_line("x").unwrap();
        assert_eq!(p.read_line().unwrap(), "partial");
        assert_eq!(p.read_line(), Err(Ending::Exited(3)));
    }

    #[test]
    fn a_flood_hits_the_output_cap() {
        let limits = Limits {
            output_bytes: 10_000,
            ..Limits::default()
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut p = Running::start(&shell("yes"), &limits, deadline).unwrap();
        let mut lines = 0;
        let ending = loop {
            match p.read_line() {
                Ok(_) => lines += 1,
                Err(ending) => break ending,
            }
        };
        assert_eq!(ending, Ending::OutputLimit);
        assert!(lines <= 5_001);
    }

    #[test]
    fn a_missing_program_does_not_start() {
        let launch = Launch::new(
            "/nonexistent/boardgrade-test",
            Vec::new(),
            std::env::temp_dir(),
        );
        let deadline = Instant::now() + Duration::from_secs(1);
        assert!(matches!(
            Running::start(&launch, &Limits::default(), deadline),
            Err(Ending::NotStarted(_))
        ));
    }

    #[test]
    fn a_batch_run_reads_everything_to_the_end() {
        let run = run(
            &shell("cat; echo done; echo bad >&2; exit 2"),
            b"one\ntwo\n",
            &Limits::default(),
        );
        assert_eq!(run.stdout, b"one\ntwo\ndone\n");
        assert_eq!(run.stderr_tail, b"bad\n");
        assert_eq!(run.ending, Ending::Exited(2));
    }

    #[test]
    fn a_batch_run_takes_more_input_than_a_pipe_holds_while_it_answers() {
        // 1 MiB in, echoed back as it comes: neither side may wait for the other.
        let input = vec![b'x'; 1 << 20];
        let limits = Limits {
            output_bytes: 2 << 20,
            ..Limits::default()
        };
        let run = run(&shell("cat"), &input, &limits);
        assert_eq!(run.ending, Ending::Exited(0));
        assert_eq!(run.stdout.len(), input.len());
    }

    #[test]
    fn a_batch_run_that_ignores_its_input_still_ends() {
        let input = vec![b'x'; 1 << 20];
        let run = run(&shell("echo hi"), &input, &Limits::default());
        assert_eq!(run.ending, Ending::Exited(0));
        assert_eq!(run.stdout, b"hi\n");
    }

    #[test]
    fn a_background_child_holding_the_pipes_does_not_stall_a_batch_run() {
        let started = Instant::now();
        let run = run(&shell("sleep 30 & echo out"), b"", &Limits::default());
        assert_eq!(run.ending, Ending::Exited(0));
        assert_eq!(run.stdout, b"out\n");
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn a_process_killed_at_its_cpu_limit_tells_the_time_it_used() {
        let limits = Limits {
            cpu_seconds: Some(1),
            ..Limits::default()
        };
        let killed = run(&shell("while :; do :; done"), b"", &limits);
        assert!(
            matches!(killed.ending, Ending::Signaled(9 | 24)),
            "{:?}",
            killed.ending
        );
        let cpu = killed.cpu.expect("the ended process's own CPU time");
        // The kernel enforces the limit on tick-sampled time, which charges a loop sharing a
        // busy CPU for more than its precise run time: under load the kill comes up to a
        // fifth early by this count. Half the limit still proves the time was read.
        assert!(cpu >= Duration::from_millis(500), "{cpu:?}");
        // A process that ends by itself tells its time too.
        assert!(run(&shell("exit 0"), b"", &Limits::default()).cpu.is_some());
    }

    #[test]
    fn a_batch_run_times_out() {
        let limits = Limits {
            wall: Duration::from_millis(300),
            ..Limits::default()
        };
        let run = run(&shell("echo start; sleep 30"), b"", &limits);
        assert_eq!(run.ending, Ending::TimedOut);
        assert_eq!(run.stdout, b"start\n");
    }

    #[test]
    fn a_program_that_writes_much_while_its_end_is_awaited_is_read_as_it_writes() {
        // 32 MiB at 64 KiB a wake every 20 ms would take 10 s: read as it comes, it ends
        // well within its 5 s.
        let limits = Limits {
            output_bytes: 64 << 20,
            wall: Duration::from_secs(5),
            ..Limits::default()
        };
        let flood = run(&shell("head -c 33554432 /dev/zero"), b"", &limits);
        assert_eq!(flood.ending, Ending::Exited(0));
        assert_eq!(flood.stdout.len(), 32 << 20);
        // The same on stderr, whose tail alone is kept.
        let flood = run(&shell("head -c 33554432 /dev/zero >&2"), b"", &limits);
        assert_eq!(flood.ending, Ending::Exited(0));
    }

    #[test]
    fn output_waits_in_the_pipes_until_a_program_writes_much() {
        let awaited = |script: &str| {
            let mut running = open(script, 5);
            running.feed(b"");
            while running.wait_once(Awaiting::End) == Ok(false) {}
            running
        };
        let quiet = awaited("echo one; sleep 0.1; echo two");
        assert!(!quiet.chatty);
        assert_eq!(quiet.finish().stdout, b"one\ntwo\n");
        let chatty = awaited("head -c 200000 /dev/zero; sleep 0.1");
        assert!(chatty.chatty);
        assert_eq!(chatty.finish().stdout.len(), 200_000);
    }

    #[test]
    fn a_batch_flood_is_cut_at_the_cap() {
        let limits = Limits {
            output_bytes: 10_000,
            ..Limits::default()
        };
        let run = run(&shell("yes"), b"", &limits);
        assert_eq!(run.ending, Ending::OutputLimit);
        assert_eq!(run.stdout.len(), 10_000);
    }
}
