//! `boardgrade play`: a game in the terminal, alone or against the reference. Works with
//! stdin from a pipe too (each line a move).

use std::io::IsTerminal;

use boardgrade::author::play::{Play, PlayCommand};
use boardgrade::report::author::session::{
    describe, echoed, game_over, legal_inputs, opening, prompt, reference_played, PLAY_HELP,
};
use boardgrade::Error;

use super::args::PlayArgs;
use super::console::{read_line, say};
use super::exit::Status;
use super::resolve;

pub fn run(args: &PlayArgs) -> Result<Status, Error> {
    let setup = resolve::setup(&args.game)?;
    let protocol = setup.dialect.protocol;
    let mut play = Play::new(setup, args.against, args.seed)?;
    let interactive = std::io::stdin().is_terminal();
    if interactive {
        say(PLAY_HELP)?;
    }
    let recorder = play.recorder();
    say(&opening(
        &recorder.opening().text,
        recorder.session(),
        protocol,
    ))?;
    let mut input = String::new();
    while !play.is_over() {
        if interactive {
            say(prompt(protocol))?;
        }
        let Some(line) = read_line(&mut input)? else {
            break;
        };
        match PlayCommand::of(line) {
            PlayCommand::Quit => break,
            PlayCommand::ListInputs => {
                say(&legal_inputs(&play.recorder().session().legal_inputs()))?;
                continue;
            }
            PlayCommand::Move => {}
        }
        if !interactive {
            say(&echoed(line))?;
        }
        let (sent, fed) = play.feed(line)?;
        say(&describe(&sent, &fed, play.recorder().session(), protocol))?;
        for (line, fed) in play.reference_move()? {
            say(&reference_played(&line))?;
            say(&describe(&line, &fed, play.recorder().session(), protocol))?;
        }
    }
    if play.is_over() {
        say(game_over(true))?;
    }
    Ok(Status::Passed)
}
