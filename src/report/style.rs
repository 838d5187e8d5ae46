//! Terminal colours, on or off (the command line decides, once, from `--color`, NO_COLOR,
//! CLICOLOR_FORCE and the terminal).

use anstyle::{AnsiColor, Effects};

/// Paints text with ANSI colours when enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    fn paint(&self, style: anstyle::Style, text: &str) -> String {
        if self.color {
            format!("{style}{text}{style:#}")
        } else {
            text.to_string()
        }
    }

    pub fn red(&self, text: &str) -> String {
        self.paint(AnsiColor::Red.on_default(), text)
    }

    pub fn green(&self, text: &str) -> String {
        self.paint(AnsiColor::Green.on_default(), text)
    }

    pub fn yellow(&self, text: &str) -> String {
        self.paint(AnsiColor::Yellow.on_default(), text)
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint(anstyle::Style::new().effects(Effects::BOLD), text)
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint(anstyle::Style::new().effects(Effects::DIMMED), text)
    }
}
