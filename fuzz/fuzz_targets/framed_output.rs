//! The framed-output parser (a call protocol's responses) on any bytes a program may print:
//! it never panics, and a response it read from output without carriage returns, written
//! back on the wire, reads the same.
#![no_main]

use boardgrade::compare::framed::decode;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let decoded = decode(data);
    // A carriage return before a line end is dropped on reading (Windows line ends), so such
    // output does not read back as itself.
    if data.contains(&b'\r') {
        return;
    }
    for response in decoded.responses.iter().filter(|r| r.complete) {
        let again = decode(response.encode().as_bytes());
        assert_eq!(again.responses.len(), 1, "{response:?}");
        assert_eq!(again.responses[0].text(), response.text(), "{response:?}");
    }
});
