//! `boardgrade variant`: start a course variant of a dialect.

use boardgrade::author::variants::create;
use boardgrade::report::author::session::variant_written;
use boardgrade::Error;

use super::args::{VariantArgs, VariantCommand};
use super::exit::Status;

pub fn run(args: &VariantArgs) -> Result<Status, Error> {
    match &args.command {
        VariantCommand::New { base, name, out } => {
            let created = create(base, name, out.as_deref())?;
            eprint!(
                "{}",
                variant_written(&created.path, created.game, created.base, &created.name)
            );
            Ok(Status::Passed)
        }
    }
}
