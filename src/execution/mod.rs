//! Running student code: what a run targets ([`target`]), how a student process is started
//! ([`spawn`]) and driven ([`child`], the one driver, a line at a time or in a batch), the
//! sandbox around it ([`sandbox`]), the bounds of its limits ([`bounds`]), and Python
//! submissions ([`python`]).

pub mod bounds;
pub mod child;
pub mod command_paths;
pub mod fork;
mod forked;
pub mod import_check;
pub mod layout;
mod pyenv;
pub mod python;
pub mod sandbox;
pub mod spawn;
pub mod start_check;
mod sys;
pub mod target;

pub use child::{run, Ending, Execution, Running};
pub use fork::PythonRunner;
pub use import_check::ImportStall;
pub use layout::{Layout, PythonLaunch, Secrecy, Stubs};
pub use sandbox::{Confinement, Sandbox};
pub use spawn::{Launch, Limits};
pub use start_check::StartCheck;
pub use sys::own_peak_rss_kib;
pub use target::{Company, Program, Target, TargetSpec};
