//! Reference engine and dialects for this game.
