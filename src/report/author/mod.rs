//! What the authoring commands show: each renders the typed results and events of its
//! library function (`author::*`), so the commands hold no text of their own.

pub mod bless;
pub mod coverage;
pub mod fuzz;
pub mod listing;
pub mod session;
