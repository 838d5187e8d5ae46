//! `boardgrade record`: lines from a transcript, stdin or a prompt go to the reference; the
//! scenario file gets each line it accepted with its answer.

use std::io::{BufRead, IsTerminal};
use std::path::Path;

use boardgrade::author::record::{transcript, Fed, RecordCommand, Recorder};
use boardgrade::author::write::file_text;
use boardgrade::report::author::session::{
    describe, game_over, legal_inputs, not_recorded, opening, prompt, recorded, taken_back,
    NOTHING_TO_TAKE_BACK, RECORD_HELP,
};
use boardgrade::Error;

use super::args::RecordArgs;
use super::console::write_out;
use super::exit::Status;
use super::resolve;

pub fn run(args: &RecordArgs) -> Result<Status, Error> {
    let setup = resolve::setup(&args.game)?;
    let protocol = setup.dialect.protocol;
    let mut recorder = Recorder::new(setup.clone(), args.keep_refused)?;
    let interactive = args.input.is_none() && std::io::stdin().is_terminal();
    let mut skipped = 0;
    if interactive {
        prompt_loop(&mut recorder)?;
    } else {
        let lines = match args.input.as_deref() {
            Some(path) if path != Path::new("-") => {
                let file = std::fs::File::open(path)
                    .map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
                transcript(std::io::BufReader::new(file), &path.display().to_string())?
            }
            _ => transcript(std::io::stdin().lock(), "stdin")?,
        };
        for (number, line) in lines.iter().enumerate() {
            let fed = recorder.feed(line)?;
            if !matches!(fed, Fed::Recorded { .. }) {
                skipped += 1;
                let text = describe(line, &fed, recorder.session(), protocol);
                eprint!("{}", not_recorded(number + 1, &text));
            }
        }
    }
    let scenario = recorder.scenario(&args.name)?;
    let head = resolve::head(recorder.head(), &args.head)?;
    write_out(
        args.head.out.as_deref(),
        &file_text(&setup, &head, &[scenario]),
    )?;
    if let Some(out) = &args.head.out {
        eprint!("{}", recorded(recorder.lines().len(), out, skipped));
    }
    Ok(Status::Passed)
}

/// Reads lines typed at a prompt (on stderr, so the scenario may go to stdout).
fn prompt_loop(recorder: &mut Recorder) -> Result<(), Error> {
    let protocol = recorder.setup().dialect.protocol;
    eprint!(
        "{RECORD_HELP}{}",
        opening(&recorder.opening().text, recorder.session(), protocol)
    );
    let stdin = std::io::stdin();
    let mut input = String::new();
    loop {
        if recorder.is_over() {
            eprint!("{}", game_over(false));
            return Ok(());
        }
        eprint!("{}", prompt(protocol));
        input.clear();
        if stdin
            .lock()
            .read_line(&mut input)
            .map_err(|e| Error::io("cannot read stdin", e))?
            == 0
        {
            return Ok(());
        }
        let line = input.trim_end_matches(['\n', '\r']);
        match RecordCommand::of(line) {
            RecordCommand::Done => return Ok(()),
            RecordCommand::ListInputs => {
                eprint!("{}", legal_inputs(&recorder.session().legal_inputs()));
                continue;
            }
            RecordCommand::Undo => {
                if recorder.undo()? {
                    eprint!("{}", taken_back(recorder.session(), protocol));
                } else {
                    eprint!("{NOTHING_TO_TAKE_BACK}");
                }
                continue;
            }
            RecordCommand::Send => {}
        }
        let line = recorder.expand(line);
        let fed = recorder.feed(&line)?;
        eprint!("{}", describe(&line, &fed, recorder.session(), protocol));
    }
}
