//! A student process driven one exchange at a time: a line written, a line read. Batch runs
//! ([`super::process::run`]) write all input up front, which cannot work when the next input
//! depends on the last answer (a game played against the program). The discipline is the
//! same: resource limits, its own process group killed at the end whatever happened, an
//! output cap, and a wall-clock deadline that every wait respects.

use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout};
use std::time::{Duration, Instant};

use super::process::{
    drain, ending_of, kill_group, pidfd, start, take_pipes, Ending, Launch, Limits, DRAIN_GRACE,
};

/// How often to ask whether the process ended when there is no pidfd to poll.
const TICK: Duration = Duration::from_millis(10);

/// A running program that answers one line at a time. Dropping it kills its process group.
pub struct Interactive {
    child: Child,
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
    deadline: Instant,
    /// Set once the program has stopped; every later call reports it again.
    ended: Option<Ending>,
}

impl Interactive {
    /// Starts the program under `limits`; it must be done by `deadline`.
    pub fn start(launch: &Launch, limits: &Limits, deadline: Instant) -> Result<Self, Ending> {
        if Instant::now() >= deadline {
            return Err(Ending::TimedOut);
        }
        let mut child = start(launch, limits)
            .map_err(|e| Ending::NotStarted(format!("{}: {e}", launch.program.display())))?;
        let (stdin, stdout, stderr) = take_pipes(&mut child);
        let exit_fd = pidfd(child.id());
        Ok(Interactive {
            child,
            stdin,
            stdout,
            stderr,
            exit_fd,
            pending: Vec::new(),
            stdout_bytes: 0,
            stderr_tail: Vec::new(),
            limits: limits.clone(),
            deadline,
            ended: None,
        })
    }

    /// Moves the deadline (a driver that pauses the clock while it thinks itself).
    pub fn set_deadline(&mut self, deadline: Instant) {
        self.deadline = deadline;
    }

    /// The last bytes the program wrote to stderr.
    pub fn stderr_tail(&self) -> &[u8] {
        &self.stderr_tail
    }

    /// Writes `line` and a newline to the program's stdin.
    pub fn send_line(&mut self, line: &str) -> Result<(), Ending> {
        if let Some(ending) = &self.ended {
            return Err(ending.clone());
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let mut written = 0;
        while written < bytes.len() {
            let Some(pipe) = self.stdin.as_mut() else {
                return Err(self.wind_up());
            };
            match pipe.write(&bytes[written..]) {
                Ok(n) => written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    // The pipe is full: keep draining the program's output while it reads.
                    let fd = pipe.as_raw_fd();
                    self.wait_once(Some(fd))?;
                }
                Err(_) => {
                    // The program closed its stdin: it reads no more.
                    self.stdin = None;
                    return Err(self.wind_up());
                }
            }
        }
        Ok(())
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
            self.wait_once(None)?;
        }
    }

    /// Waits for something to happen (output, the end of the process, room in the pipe
    /// `writable`) and takes in whatever output is ready. Errors when the program is over.
    fn wait_once(&mut self, writable: Option<RawFd>) -> Result<(), Ending> {
        let now = Instant::now();
        if now >= self.deadline {
            return Err(self.stop(Ending::TimedOut));
        }
        let mut wait = self.deadline - now;
        if self.exit_fd.is_none() {
            wait = wait.min(TICK);
        }
        let fds = [
            self.stdout.as_ref().map(|p| (p.as_raw_fd(), libc::POLLIN)),
            self.stderr.as_ref().map(|p| (p.as_raw_fd(), libc::POLLIN)),
            self.exit_fd.as_ref().map(|p| (p.as_raw_fd(), libc::POLLIN)),
            writable.map(|fd| (fd, libc::POLLOUT)),
        ];
        let ready = poll(&fds, wait);
        self.take_output();
        if let Some(ending) = &self.ended {
            return Err(ending.clone());
        }
        let exited =
            ready[2] || (self.exit_fd.is_none() && matches!(self.child.try_wait(), Ok(Some(_))));
        if exited && !self.pending.contains(&b'\n') {
            return Err(self.wind_up());
        }
        Ok(())
    }

    /// Reads what stdout and stderr hold now, enforcing the output cap.
    fn take_output(&mut self) {
        let before = self.pending.len();
        let cap = self.limits.output_bytes.saturating_sub(self.stdout_bytes) + 1;
        if !drain(&mut self.stdout, &mut self.pending, before + cap) {
            self.stdout = None;
        }
        self.stdout_bytes += self.pending.len() - before;
        if !drain(&mut self.stderr, &mut self.stderr_tail, usize::MAX) {
            self.stderr = None;
        }
        if self.stderr_tail.len() > self.limits.stderr_tail_bytes {
            let cut = self.stderr_tail.len() - self.limits.stderr_tail_bytes;
            self.stderr_tail.drain(..cut);
        }
        if self.stdout_bytes > self.limits.output_bytes {
            self.stop(Ending::OutputLimit);
        }
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
            let exit = self.exit_fd.as_ref().map(|p| (p.as_raw_fd(), libc::POLLIN));
            poll(&[exit], (grace - Instant::now()).min(TICK));
        }
        self.take_output();
        if let Some(ending) = &self.ended {
            return ending.clone();
        }
        let exited = matches!(self.child.try_wait(), Ok(Some(_)));
        kill_group(self.child.id());
        let status = self.child.wait();
        let ending = if exited {
            ending_of(status)
        } else if Instant::now() >= self.deadline {
            Ending::TimedOut
        } else {
            ending_of(status)
        };
        self.ended = Some(ending.clone());
        ending
    }

    /// Ends the program for `ending` (a limit it hit).
    fn stop(&mut self, ending: Ending) -> Ending {
        if let Some(previous) = &self.ended {
            return previous.clone();
        }
        kill_group(self.child.id());
        let _ = self.child.wait();
        self.ended = Some(ending.clone());
        ending
    }
}

impl Drop for Interactive {
    fn drop(&mut self) {
        // Whatever happened, nothing of the program outlives its driver.
        kill_group(self.child.id());
        let _ = self.child.wait();
    }
}

/// Polls the given descriptors (any may be absent) for up to `wait`; which ones fired.
fn poll(fds: &[Option<(RawFd, libc::c_short)>], wait: Duration) -> Vec<bool> {
    let mut polled: Vec<libc::pollfd> = Vec::with_capacity(fds.len());
    let mut slots = Vec::with_capacity(fds.len());
    for entry in fds {
        slots.push(entry.map(|(fd, events)| {
            polled.push(libc::pollfd {
                fd,
                events,
                revents: 0,
            });
            polled.len() - 1
        }));
    }
    if polled.is_empty() {
        std::thread::sleep(wait.min(TICK));
        return vec![false; fds.len()];
    }
    let millis = wait.as_millis().clamp(1, i32::MAX as u128) as libc::c_int;
    // SAFETY: `polled` is a valid array of pollfd of the given length.
    let n = unsafe { libc::poll(polled.as_mut_ptr(), polled.len() as libc::nfds_t, millis) };
    slots
        .iter()
        .map(|slot| n > 0 && slot.is_some_and(|i| polled[i].revents != 0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shell(script: &str) -> Launch {
        Launch::shell(script, std::env::temp_dir())
    }

    fn open(script: &str, seconds: u64) -> Interactive {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        Interactive::start(&shell(script), &Limits::default(), deadline).expect("sh starts")
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
        let mut p = Interactive::start(&shell("sleep 30"), &Limits::default(), deadline).unwrap();
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
        let mut p = Interactive::start(&shell("yes"), &limits, deadline).unwrap();
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
        let launch = Launch {
            program: "/nonexistent/boardgrade-test".into(),
            args: Vec::new(),
            cwd: std::env::temp_dir(),
            env: Vec::new(),
            confinement: None,
        };
        let deadline = Instant::now() + Duration::from_secs(1);
        assert!(matches!(
            Interactive::start(&launch, &Limits::default(), deadline),
            Err(Ending::NotStarted(_))
        ));
    }
}
