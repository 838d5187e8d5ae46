//! The variants one run knows: the bundled ones, then a course's own, read from its files.
//!
//! A catalogue is built once per run and passed to whatever resolves a dialect's name (the
//! scenario loader, the course file, routing), so nothing about variants lives in a global:
//! two runs in one process (tests, a library user) never see each other's variants. The
//! bundled variants are part of the binary like the games, read once for the process.

use std::sync::LazyLock;

use super::{bundled, leaked, parse, read, Variant};
use crate::error::{LookupError, ScenarioFileError};
use crate::games::{Dialect, Game};

/// The variants a run can name.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    entries: Vec<Entry>,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    variant: &'static Variant,
    /// Bundled with the binary: a course's own file of the same name takes its place.
    bundled: bool,
}

impl Catalogue {
    /// The bundled variants, read once for the process.
    pub fn bundled() -> &'static Catalogue {
        static BUNDLED: LazyLock<Catalogue> = LazyLock::new(|| Catalogue {
            entries: bundled()
                .iter()
                .filter_map(|(file, text)| read(file, text).ok())
                .map(|variant| Entry {
                    variant,
                    bundled: true,
                })
                .collect(),
        });
        &BUNDLED
    }

    /// The bundled variants, for a run to add its course's own to.
    pub fn with_bundled() -> Catalogue {
        Catalogue::bundled().clone()
    }

    /// Reads the variant file `file` (its text `source`) into the catalogue. The same file
    /// read again gives the variant already read; a course's file takes the place of a
    /// bundled variant of the same name; two files of a course that define one name
    /// differently are an error.
    pub fn read(
        &mut self,
        file: &str,
        source: &str,
    ) -> Result<&'static Variant, ScenarioFileError> {
        // The same text is the same variant (a disk copy of a bundled file too): not read again.
        if let Some(same) = self.variants().find(|v| v.source == source) {
            return Ok(same);
        }
        let parsed = parse(file, source)?;
        let same_name = self.entries.iter().position(|e| {
            e.variant.game.name() == parsed.game.name() && e.variant.name == parsed.name
        });
        if let Some(at) = same_name {
            let same = self.entries[at];
            if !same.bundled {
                return Err(ScenarioFileError::at(
                    file,
                    source,
                    parsed.name_offset,
                    Some("name"),
                    format!(
                        "variant {:?} of {} is also defined, differently, in {}",
                        parsed.name,
                        parsed.game.name(),
                        same.variant.file
                    ),
                ));
            }
            self.entries.remove(at);
        }
        let variant = leaked(parsed, file, source);
        self.entries.push(Entry {
            variant,
            bundled: false,
        });
        Ok(variant)
    }

    /// Every variant, the course's own after the bundled ones, in the order read.
    pub fn variants(&self) -> impl Iterator<Item = &'static Variant> + '_ {
        self.entries.iter().map(|e| e.variant)
    }

    /// The variant of `game` of that name.
    pub fn find(&self, game: &dyn Game, name: &str) -> Option<&'static Variant> {
        self.variants()
            .find(|v| v.game.name() == game.name() && v.name == name)
    }

    /// The built-in dialect of `game` of that name, else its variant of that name.
    pub fn dialect(&self, game: &dyn Game, name: &str) -> Option<&'static Dialect> {
        game.dialect(name)
            .or_else(|| self.find(game, name).map(|v| v.dialect))
    }

    /// The dialect of `game` of that name (built in or a variant), or an error listing them.
    pub fn lookup_dialect(
        &self,
        game: &dyn Game,
        name: &str,
    ) -> Result<&'static Dialect, LookupError> {
        self.dialect(game, name)
            .ok_or_else(|| LookupError::Dialect {
                name: name.to_string(),
                game: game.name(),
                known: game
                    .dialects()
                    .iter()
                    .map(|d| d.name)
                    .chain(
                        self.variants()
                            .filter(|v| v.game.name() == game.name())
                            .map(|v| v.name),
                    )
                    .collect::<Vec<_>>()
                    .join(", "),
            })
    }

    /// The dialects of `dialect`'s family: its base and every variant of that base.
    pub fn family(&self, dialect: &'static Dialect) -> Vec<&'static Dialect> {
        let base = dialect.base();
        let variants = self.variants().filter(|v| std::ptr::eq(v.base(), base));
        std::iter::once(base)
            .chain(variants.map(|v| v.dialect))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::one_d_chess::OneDChess;

    /// A variant of project5 that renames one function.
    fn renamed(name: &str, function: &str) -> String {
        format!(
            "game = \"one-d-chess\"\nbase = \"project5\"\nname = \"{name}\"\n\n\
             [functions]\nmove_king = {{ name = \"{function}\", args = [\"board\", \"position\", \"direction\"] }}\n"
        )
    }

    #[test]
    fn two_runs_never_see_each_others_variants() {
        let mut first = Catalogue::with_bundled();
        let read = first
            .read("a/variant.toml", &renamed("spring", "king_move"))
            .unwrap();
        assert!(read.dialect.is_variant());
        let second = Catalogue::with_bundled();
        assert!(first.dialect(&OneDChess, "spring").is_some());
        assert!(second.dialect(&OneDChess, "spring").is_none());
        let error = second.lookup_dialect(&OneDChess, "spring").unwrap_err();
        // The message lists what the second run knows: built-ins and bundled variants.
        let message = error.to_string();
        assert!(message.contains("project5-fall2023"), "{message}");
        assert!(!message.contains("spring,"), "{message}");
    }

    #[test]
    fn a_course_file_replaces_a_bundled_name_and_its_own_files_must_agree() {
        let mut course = Catalogue::with_bundled();
        let bundled = course.find(&OneDChess, "project5-fall2023").unwrap();
        let own = course
            .read("mine/variant.toml", &renamed("project5-fall2023", "king"))
            .unwrap();
        assert!(!std::ptr::eq(own, bundled));
        assert!(std::ptr::eq(
            course.find(&OneDChess, "project5-fall2023").unwrap(),
            own
        ));
        // The same file again is the same variant; another text of the name is an error.
        let again = course
            .read("mine/variant.toml", &renamed("project5-fall2023", "king"))
            .unwrap();
        assert!(std::ptr::eq(again, own));
        let clash = course
            .read("other/variant.toml", &renamed("project5-fall2023", "k"))
            .unwrap_err();
        assert!(
            clash
                .message
                .contains("also defined, differently, in mine/variant.toml"),
            "{clash}"
        );
        // The family of project5 holds the course's variant, not the bundled one it replaced.
        let family = course.family(&OneDChess.dialects()[0]);
        assert!(family.iter().any(|d| std::ptr::eq(*d, own.dialect)));
        assert!(!family.iter().any(|d| std::ptr::eq(*d, bundled.dialect)));
    }
}
