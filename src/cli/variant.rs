//! `boardgrade variant`: start a course variant of a dialect.

use std::path::PathBuf;

use clap::{Args, Subcommand};

use boardgrade::error::{AuthorError, LookupError};
use boardgrade::games::variant;
use boardgrade::games::{self, Dialect, Game};
use boardgrade::report::author::session::variant_written;
use boardgrade::Error;

use super::exit::Status;

#[derive(Debug, Args)]
pub struct VariantArgs {
    #[command(subcommand)]
    pub command: VariantCommand,
}

#[derive(Debug, Subcommand)]
pub enum VariantCommand {
    /// Write a variant file of BASE (GAME/DIALECT, or a dialect name only one game has)
    /// named NAME: every key a variant may change, with BASE's value, commented.
    New {
        base: String,
        name: String,
        /// The file to write (default: specs/GAME/NAME/variant.toml); never overwritten.
        #[arg(long, short = 'o', value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

pub fn run(args: &VariantArgs) -> Result<Status, Error> {
    match &args.command {
        VariantCommand::New { base, name, out } => new(base, name, out.as_deref()),
    }
}

/// The built-in dialect `GAME/DIALECT`, or `DIALECT` when one game alone has it.
fn base_dialect(base: &str) -> Result<(&'static dyn Game, &'static Dialect), Error> {
    if let Some((game, dialect)) = base.split_once('/') {
        let game = games::lookup(game)?;
        let found = game.dialects().iter().find(|d| d.name == dialect);
        return match found {
            Some(dialect) => Ok((game, dialect)),
            None => Err(LookupError::NotInGame {
                game: game.name(),
                dialect: dialect.to_string(),
            }
            .into()),
        };
    }
    let found: Vec<(&'static dyn Game, &'static Dialect)> = games::REGISTRY
        .iter()
        .flat_map(|g| g.dialects().iter().map(move |d| (*g, d)))
        .filter(|(_, d)| d.name == base)
        .collect();
    match found.as_slice() {
        [one] => Ok(*one),
        [] => Err(LookupError::NoBuiltIn {
            name: base.to_string(),
        }
        .into()),
        _ => Err(LookupError::Ambiguous {
            name: base.to_string(),
        }
        .into()),
    }
}

fn new(base: &str, name: &str, out: Option<&std::path::Path>) -> Result<Status, Error> {
    let (game, dialect) = base_dialect(base)?;
    let path = out.map_or_else(
        || {
            PathBuf::from("specs")
                .join(game.name())
                .join(name)
                .join(variant::FILE_NAME)
        },
        PathBuf::from,
    );
    // The base's scenarios beside the new file's folder, else those built in.
    let beside = path
        .parent()
        .and_then(|p| p.parent())
        .map(|p| p.join(dialect.name));
    let from = match beside {
        Some(folder) if folder.is_dir() => format!("../{}", dialect.name),
        _ => variant::FROM_BUNDLED.to_string(),
    };
    let text = variant::template(game, dialect, name, &from)?;
    // The file must load as written: a name taken or ill-formed is refused here.
    variant::parse("(new variant)", &text).map_err(AuthorError::NewVariant)?;
    if path.exists() {
        return Err(Error::path(&path, "already exists; not overwritten"));
    }
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder)
            .map_err(|e| Error::io(format!("cannot create {}", folder.display()), e))?;
    }
    boardgrade::atomic::write(&path, text.as_bytes())?;
    eprint!(
        "{}",
        variant_written(&path, game.name(), dialect.name, name)
    );
    Ok(Status::Passed)
}
