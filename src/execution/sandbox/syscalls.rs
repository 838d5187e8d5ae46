//! The system calls no student process may make, refused by a seccomp filter it gets between
//! fork and exec (after `no_new_privs`, which the filter needs). Bubblewrap and every
//! process below it inherit the filter, a loaded runner's scenarios included.
//!
//! Each refused call would let one run leave a mark that outlives it, for a later scenario
//! (or a later submission given the same user) to read:
//! - the kernel's key store (`add_key`, `request_key`, `keyctl`): a key a process adds to
//!   its user's keyring stays there after the user's last process has ended;
//! - changing another process of the same user (a loaded runner, whose scenarios are its
//!   copies): its nice value, scheduling policy, CPU affinity, I/O priority or resource
//!   limits (`setpriority`, `sched_set*`, `ioprio_set`, `prlimit64`), which every later
//!   copy would inherit. A program may still change its own (`os.nice`, `setrlimit`);
//! - asynchronous I/O rings (`io_uring_setup`, `io_uring_enter`, `io_uring_register`): a
//!   ring the import sets up and registers in itself, its descriptor closed, lives on
//!   unseen in a loaded runner that runs nothing, and goes on renaming, linking and writing
//!   in the job folder, or into the runner's memory, while the grader puts the folder back
//!   for the next scenario (as root, maybe) and copies the runner for it.
//!
//! No program a handout asks for needs any of them; Docker refuses the key store and
//! `io_uring` by default.
//! A call through another architecture's table (the 32-bit `int 0x80`, or x32 on x86-64)
//! is refused whole, so that the numbers checked are the only way in. Refused calls fail
//! with `EPERM`.

use std::io;
use std::sync::OnceLock;

use libc::{sock_filter, sock_fprog};
use libc::{BPF_ABS, BPF_JEQ, BPF_JMP, BPF_JSET, BPF_K, BPF_LD, BPF_RET, BPF_W};

/// The architecture a system call of this program's own table reports (`AUDIT_ARCH_*`).
#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const ARCH: u32 = 0xC000_00B7;

/// On x86-64, the bit that marks an x32 system call, whose numbers are another table.
#[cfg(target_arch = "x86_64")]
const X32_BIT: u32 = 0x4000_0000;
#[cfg(not(target_arch = "x86_64"))]
const X32_BIT: u32 = 0;

/// `setpriority`'s and `ioprio_set`'s "one process" (with 0: the caller).
const PRIO_PROCESS: u32 = 0;
const IOPRIO_WHO_PROCESS: u32 = 1;

/// What a call may do, by its arguments.
#[derive(Clone, Copy)]
enum Rule {
    /// Refused whatever its arguments.
    Never,
    /// Allowed when its first argument (a process id) is 0: the caller itself.
    OnSelf,
    /// Allowed when its first argument is `which` and its second 0: the caller itself.
    OnSelfAs(u32),
    /// `prlimit64`: allowed on the caller itself, or to read another's limits (no new ones).
    ReadOrSelf,
}

/// The calls that are not simply allowed.
const RULES: &[(libc::c_long, Rule)] = &[
    (libc::SYS_add_key, Rule::Never),
    (libc::SYS_request_key, Rule::Never),
    (libc::SYS_keyctl, Rule::Never),
    (libc::SYS_setpriority, Rule::OnSelfAs(PRIO_PROCESS)),
    (libc::SYS_ioprio_set, Rule::OnSelfAs(IOPRIO_WHO_PROCESS)),
    (libc::SYS_sched_setaffinity, Rule::OnSelf),
    (libc::SYS_sched_setscheduler, Rule::OnSelf),
    (libc::SYS_sched_setparam, Rule::OnSelf),
    (libc::SYS_sched_setattr, Rule::OnSelf),
    (libc::SYS_prlimit64, Rule::ReadOrSelf),
    (libc::SYS_io_uring_setup, Rule::Never),
    (libc::SYS_io_uring_enter, Rule::Never),
    (libc::SYS_io_uring_register, Rule::Never),
];

/// Offsets in `struct seccomp_data`: the call's number, its architecture, and the low and
/// high halves of argument `n` (a little-endian machine's).
const NUMBER: u32 = 0;
const ARCHITECTURE: u32 = 4;
const fn low(n: u32) -> u32 {
    16 + 8 * n
}
const fn high(n: u32) -> u32 {
    16 + 8 * n + 4
}

/// A place in the program that jumps name.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Label {
    Allow,
    Refuse,
    /// The test of rule `n`'s arguments.
    Test(usize),
    /// The second half of rule `n`'s test.
    Second(usize),
}

/// One instruction of the program as written: jumps name their targets.
enum Step {
    Load(u32),
    Return(u32),
    /// If the accumulator equals (`set`: has any bit of) `k`, go to `yes`, else to `no`.
    Jump {
        k: u32,
        set: bool,
        yes: Option<Label>,
        no: Option<Label>,
    },
    Here(Label),
}

fn jump(k: u32, yes: Option<Label>, no: Option<Label>) -> Step {
    Step::Jump {
        k,
        set: false,
        yes,
        no,
    }
}

/// The program: the architecture, then each ruled call's number, then each rule's test of
/// the arguments.
fn steps() -> Vec<Step> {
    use Label::*;
    let mut steps = vec![
        Step::Load(ARCHITECTURE),
        jump(ARCH, None, Some(Refuse)),
        Step::Load(NUMBER),
        Step::Jump {
            k: X32_BIT,
            set: true,
            yes: Some(Refuse),
            no: None,
        },
    ];
    for (index, (number, _)) in RULES.iter().enumerate() {
        steps.push(jump(*number as u32, Some(Test(index)), None));
    }
    steps.push(Step::Return(libc::SECCOMP_RET_ALLOW));
    for (index, (_, rule)) in RULES.iter().enumerate() {
        steps.push(Step::Here(Test(index)));
        match *rule {
            Rule::Never => steps.push(Step::Return(refused())),
            Rule::OnSelf => {
                steps.push(Step::Load(low(0)));
                steps.push(jump(0, Some(Allow), Some(Refuse)));
            }
            Rule::OnSelfAs(which) => {
                steps.push(Step::Load(low(0)));
                steps.push(jump(which, None, Some(Refuse)));
                steps.push(Step::Load(low(1)));
                steps.push(jump(0, Some(Allow), Some(Refuse)));
            }
            Rule::ReadOrSelf => {
                steps.push(Step::Load(low(0)));
                steps.push(jump(0, Some(Allow), None));
                steps.push(Step::Load(low(2)));
                steps.push(jump(0, Some(Second(index)), Some(Refuse)));
                steps.push(Step::Here(Second(index)));
                steps.push(Step::Load(high(2)));
                steps.push(jump(0, Some(Allow), Some(Refuse)));
            }
        }
    }
    steps.push(Step::Here(Allow));
    steps.push(Step::Return(libc::SECCOMP_RET_ALLOW));
    steps.push(Step::Here(Refuse));
    steps.push(Step::Return(refused()));
    steps
}

fn refused() -> u32 {
    libc::SECCOMP_RET_ERRNO | libc::EPERM as u32
}

/// The program as the kernel reads it: each jump an offset forward (`None`: the next
/// instruction).
fn assemble(steps: &[Step]) -> Vec<sock_filter> {
    let mut at = Vec::new();
    let mut count = 0usize;
    for step in steps {
        match step {
            Step::Here(label) => at.push((*label, count)),
            _ => count += 1,
        }
    }
    let place = |label: &Label| at.iter().find(|(l, _)| l == label).map(|(_, i)| *i);
    let mut program = Vec::with_capacity(count);
    for step in steps {
        let here = program.len();
        let offset = |target: &Option<Label>| -> u8 {
            target
                .as_ref()
                .and_then(place)
                .map_or(0, |to| (to - here - 1) as u8)
        };
        let instruction = |code: u32, k: u32, jt: u8, jf: u8| sock_filter {
            code: code as u16,
            jt,
            jf,
            k,
        };
        match step {
            Step::Load(offset) => {
                program.push(instruction(BPF_LD | BPF_W | BPF_ABS, *offset, 0, 0))
            }
            Step::Return(value) => program.push(instruction(BPF_RET | BPF_K, *value, 0, 0)),
            Step::Jump { k, set, yes, no } => {
                let test = if *set { BPF_JSET } else { BPF_JEQ };
                program.push(instruction(
                    BPF_JMP | test | BPF_K,
                    *k,
                    offset(yes),
                    offset(no),
                ));
            }
            Step::Here(_) => {}
        }
    }
    program
}

static FILTER: OnceLock<Vec<sock_filter>> = OnceLock::new();

/// The filter, assembled once. Call it before forking a child that installs it.
pub(crate) fn prepare() -> &'static [sock_filter] {
    FILTER.get_or_init(|| assemble(&steps()))
}

/// Installs the filter on the calling thread: in a child between fork and exec, one system
/// call on the program [`prepare`] made before the fork, nothing allocated (an error if it
/// was not). `no_new_privs` must be set.
pub(crate) fn refuse_in_child() -> io::Result<()> {
    let filter = FILTER
        .get()
        .ok_or_else(|| io::Error::other("the system call filter was not prepared"))?;
    let program = sock_fprog {
        len: filter.len() as u16,
        // The kernel only reads the program.
        filter: filter.as_ptr().cast_mut(),
    };
    // SAFETY: seccomp reads `program` and the filter it points to, nothing else.
    let installed = unsafe {
        libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &program as *const sock_fprog,
        )
    };
    if installed == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// What `python3 -c script` prints under the filter.
    fn under_the_filter(script: &str) -> String {
        prepare();
        let mut command = Command::new("python3");
        command.args(["-c", script]);
        // SAFETY: only system calls run between fork and exec.
        unsafe {
            command.pre_exec(|| {
                rustix::thread::set_no_new_privs(true)?;
                refuse_in_child()
            });
        }
        let output = command.output().unwrap();
        assert!(output.status.success(), "{output:?}");
        String::from_utf8(output.stdout).unwrap().trim().to_string()
    }

    #[test]
    #[cfg(target_arch = "x86_64")]
    fn the_key_store_is_refused() {
        // add_key to the process's own keyring: refused with EPERM, while getpid and
        // everything Python needs to start and print run.
        let script = "import ctypes\n\
            libc = ctypes.CDLL(None, use_errno=True)\n\
            added = libc.syscall(248, b'user', b'boardgrade-test', b'1', 1, -2)\n\
            print(added, ctypes.get_errno(), libc.syscall(39) > 0)";
        assert_eq!(under_the_filter(script), format!("-1 {} True", libc::EPERM));
    }

    #[test]
    fn no_io_uring_ring_can_be_made() {
        // io_uring_setup(8 entries, a zeroed io_uring_params of 120 bytes).
        let script = format!(
            "import ctypes\n\
             libc = ctypes.CDLL(None, use_errno=True)\n\
             params = ctypes.create_string_buffer(120)\n\
             made = libc.syscall({}, 8, params)\n\
             print(made, ctypes.get_errno())",
            libc::SYS_io_uring_setup
        );
        assert_eq!(under_the_filter(&script), format!("-1 {}", libc::EPERM));
    }

    #[test]
    fn a_program_changes_its_own_scheduling_and_limits_but_no_other_process() {
        // The parent is another process of the same user, as a loaded runner is for its
        // scenarios.
        let script = "import os, resource\n\
            def tried(call):\n\
            \x20   try:\n\
            \x20       call()\n\
            \x20       return 'ok'\n\
            \x20   except PermissionError:\n\
            \x20       return 'refused'\n\
            other = os.getppid()\n\
            soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)\n\
            print(\n\
            \x20   tried(lambda: os.nice(1)),\n\
            \x20   tried(lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (soft - 1, hard))),\n\
            \x20   tried(lambda: os.sched_setaffinity(0, os.sched_getaffinity(0))),\n\
            \x20   tried(lambda: resource.prlimit(other, resource.RLIMIT_NOFILE)),\n\
            \x20   tried(lambda: os.setpriority(os.PRIO_PROCESS, other, 1)),\n\
            \x20   tried(lambda: os.setpriority(os.PRIO_USER, 0, 1)),\n\
            \x20   tried(lambda: os.sched_setaffinity(other, os.sched_getaffinity(0))),\n\
            \x20   tried(lambda: os.sched_setscheduler(other, os.SCHED_BATCH, os.sched_param(0))),\n\
            \x20   tried(lambda: resource.prlimit(other, resource.RLIMIT_NOFILE, (soft, hard))),\n\
            )";
        assert_eq!(
            under_the_filter(script),
            "ok ok ok ok refused refused refused refused refused"
        );
    }

    #[test]
    fn every_jump_lands_inside_the_program() {
        let program = prepare();
        for (at, instruction) in program.iter().enumerate() {
            if instruction.code as u32 & 0x07 == BPF_JMP {
                let furthest = at + 1 + instruction.jt.max(instruction.jf) as usize;
                assert!(furthest < program.len(), "instruction {at} jumps out");
            }
        }
        let last = program.last().unwrap();
        assert_eq!((last.code as u32, last.k), (BPF_RET | BPF_K, refused()));
    }
}
