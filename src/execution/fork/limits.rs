//! A forked process's resource limits: the grader cannot set another user's limits without
//! CAP_SYS_RESOURCE, so the process sets its own (`run` names them, in the order of
//! [`resource_limits`]) before it says `ready`, and the grader reads them back from
//! `/proc/PID/limits` before it says `go`.

use rustix::process::{Pid, Resource};

use crate::execution::spawn::{resource_limits, Bounds, Limits};

/// The `run` request naming the limits to set (`soft:hard` each, `-`: none).
pub(crate) fn request(limits: &Limits) -> Vec<u8> {
    let mut text = String::from("run");
    for (_, bounds) in resource_limits(limits) {
        match bounds {
            Some(Bounds { soft, hard }) => text.push_str(&format!(" {soft}:{hard}")),
            None => text.push_str(" -"),
        }
    }
    text.into_bytes()
}

/// The row of `/proc/PID/limits` for `resource`.
fn row(resource: Resource) -> &'static str {
    match resource {
        Resource::Core => "Max core file size",
        Resource::As => "Max address space",
        Resource::Cpu => "Max cpu time",
        Resource::Fsize => "Max file size",
        Resource::Nproc => "Max processes",
        _ => "",
    }
}

/// Checks that process `pid` has hard limits no looser than `limits`.
pub(crate) fn verify(pid: Pid, limits: &Limits) -> Result<(), String> {
    let text = std::fs::read_to_string(format!("/proc/{}/limits", pid.as_raw_nonzero()))
        .map_err(|e| format!("cannot read the scenario's process's limits: {e}"))?;
    for (resource, wanted) in resource_limits(limits) {
        let Some(Bounds { hard: wanted, .. }) = wanted else {
            continue;
        };
        let name = row(resource);
        let hard = text
            .lines()
            .find_map(|line| line.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().nth(1))
            .and_then(|hard| hard.parse::<u64>().ok());
        if hard.is_none_or(|hard| hard > wanted) {
            return Err(format!(
                "the scenario's process did not take its limit ({name})"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_names_every_limit_in_order() {
        let limits = Limits {
            memory_bytes: Some(100),
            cpu_seconds: Some(2),
            file_bytes: None,
            processes: Some(7),
            ..Limits::default()
        };
        assert_eq!(request(&limits), b"run 0:0 100:100 2:3 - 7:7");
    }

    #[test]
    fn this_process_is_not_under_tight_limits() {
        let me = rustix::process::getpid();
        let tight = Limits {
            memory_bytes: Some(1 << 20),
            ..Limits::default()
        };
        assert!(verify(me, &tight).is_err());
        let none = Limits {
            memory_bytes: None,
            cpu_seconds: None,
            file_bytes: None,
            processes: None,
            ..Limits::default()
        };
        // Only the core file size (always 0) is asked for.
        let core_zero = rustix::process::getrlimit(Resource::Core).maximum == Some(0);
        assert_eq!(verify(me, &none).is_ok(), core_zero);
    }
}
