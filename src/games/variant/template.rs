//! The file `boardgrade variant new` writes: every key a variant of a dialect may change,
//! with the dialect's current value, commented.

use crate::error::{Error, LookupError};
use crate::games::{Dialect, Game};

/// A variant file deriving `name` from `base`, every changeable key at its current value.
/// The file loads as it is (a variant identical to its base, under its own name).
/// `from` is where the base's scenarios are, relative to the file written, or
/// [`super::FROM_BUNDLED`].
pub fn template(game: &dyn Game, base: &Dialect, name: &str, from: &str) -> Result<String, Error> {
    let keys = game.variants().and_then(|v| v.keys(base));
    let keys = keys.ok_or(LookupError::NothingToVary {
        game: game.name(),
        dialect: base.name,
    })?;
    let text = format!(
        "# A variant of {game}/{base}: a course's own version of its handout, as data.\n\
         # Every key below holds {base}'s value; change what your handout changes and delete\n\
         # the rest if you like (a key left out keeps {base}'s value). Scenarios name the\n\
         # variant as `dialect = \"{name}\"`; `boardgrade test` on this folder checks them\n\
         # against the reference, which answers the variant without new code. A change that\n\
         # would need new rules is refused, naming its key.\n\
         game = \"{game}\"\n\
         base = \"{base}\"\n\
         name = \"{name}\"\n\
         # The seed file its scenarios cite, when not {base}'s ({handout}).\n\
         # handout = \"{handout}\"\n\
         # {base}'s own scenarios run under the variant too: the folder they are in (relative\n\
         # to this file; \"bundled\": those built into boardgrade), and the files or scenario\n\
         # names to leave out.\n\
         scenarios = {{ from = \"{from}\", skip = [] }}\n\
         \n\
         {keys}",
        game = game.name(),
        base = base.name,
        handout = base.handout,
    );
    Ok(text)
}
