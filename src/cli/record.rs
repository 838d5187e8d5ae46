//! `boardgrade record`: lines from a transcript, stdin or a prompt go to the reference; the
//! scenario file gets each line it accepted with its answer.

use std::io::{BufRead, IsTerminal};
use std::path::Path;

use boardgrade::author::record::{Fed, Recorder};
use boardgrade::author::write::file_text;
use boardgrade::report::author::session::{
    describe, not_recorded, numbered, opening, prompt, recorded, taken_back, RECORD_HELP,
};
use boardgrade::Error;

use super::args::RecordArgs;
use super::console::write_out;
use super::exit::Status;
use super::resolve;

/// The lines of a transcript: blank lines and `#` comments skipped.
fn transcript_lines(reader: impl BufRead, name: &str) -> Result<Vec<String>, Error> {
    let mut lines = Vec::new();
    for line in reader.lines() {
        let line = line.map_err(|e| Error::io(format!("cannot read {name}"), e))?;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        lines.push(line.to_string());
    }
    Ok(lines)
}

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
                transcript_lines(std::io::BufReader::new(file), &path.display().to_string())?
            }
            _ => transcript_lines(std::io::stdin().lock(), "stdin")?,
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
            eprintln!("the game is over");
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
        match line.trim() {
            ":done" => return Ok(()),
            "?" => {
                eprintln!("{}", numbered(&recorder.session().legal_inputs()));
                continue;
            }
            ":undo" => {
                if recorder.undo()? {
                    eprint!("{}", taken_back(recorder.session(), protocol));
                } else {
                    eprintln!("nothing to take back");
                }
                continue;
            }
            _ => {}
        }
        let line = recorder.expand(line);
        let fed = recorder.feed(&line)?;
        eprint!("{}", describe(&line, &fed, recorder.session(), protocol));
    }
}
